/** What `npm start` prints: its `[start]` lines, the supervisor's events, and the banner once the service is ready. */
import type { Config } from '../../platform/config';
import { DEFAULT_RESTART_POLICY, type SupervisorEvent, formatDuration } from '../runtime/supervisor';
import type { ApiProcess, Topology, WorkerProcess } from './plan';

export const say = (line: string) => console.log(`[start] ${line}`);

/** The line a supervisor event prints, if any. */
export function eventLine(event: SupervisorEvent): string | undefined {
  switch (event.type) {
    case 'exited':
      return `${event.name} exited (code ${event.exit.code ?? '-'}, signal ${event.exit.signal ?? '-'})`;
    case 'start-failed':
      return `${event.name} failed to start (${event.failuresInWindow} of ${DEFAULT_RESTART_POLICY.maxStartFailures} allowed within ${formatDuration(DEFAULT_RESTART_POLICY.startFailureWindowMs)}): ${event.error.message.split('\n')[0]}`;
    case 'restart-scheduled':
      // After a failed start-up the cause was just printed (start-failed): say only what comes next.
      if (event.cause.startsWith('failed to start')) return `retrying ${event.name} in ${formatDuration(event.delayMs)} (restart ${event.restart})`;
      return `degraded: ${event.name} ${event.cause}; restarting it in ${formatDuration(event.delayMs)} (restart ${event.restart})`;
    case 'ending':
      return `${event.name} ${event.cause}: stopping it (pid ${event.pid ?? '?'}; SIGKILL if it is still there in ${formatDuration(event.killGraceMs)})`;
    case 'waiting':
      return `${event.name} waits for ${event.on.join(' and ')} to run`;
    case 'running':
      if (event.restarted) return `${event.name} is back (pid ${event.pid ?? '?'})${event.downMs !== undefined ? `, ${formatDuration(event.downMs)} after it went down` : ''}`;
      return undefined;
    case 'gave-up':
      return undefined;
  }
}

/** The banner's line on payments: which provider takes them (platform/config.ts picks it; docs/billing.md). */
function paymentsBanner(config: Config): string {
  switch (config.PAYMENT_PROVIDER) {
    case 'stripe':
      return 'Stripe (PAYMENT_PROVIDER=stripe; its webhook: /api/payments/webhook/stripe)';
    case 'local':
      return 'local (PAYMENT_PROVIDER=local), a development aid: every signed-in user can confirm their own payments, so credit is free. Never on a server others can reach';
    case 'none':
      return 'off (PAYMENT_PROVIDER=none): nothing is sold; set PAYMENT_PROVIDER=stripe with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to sell credit';
  }
}

export interface ReadyBanner {
  config: Config;
  topology: Topology;
  apiUrl: string;
  apis: ApiProcess[];
  workers: WorkerProcess[];
  temporalAddress: string;
  temporalUiUrl: string | undefined;
  /** The official Temporal server on PostgreSQL runs (cluster topology, no TEMPORAL_ADDRESS). */
  temporalServerOnPostgres: boolean;
  supervisorUrl: string | undefined;
}

/** Where each part listens, printed once the API answers /readyz. */
export function sayReady(banner: ReadyBanner): void {
  const { config, apiUrl, supervisorUrl } = banner;
  const cluster = banner.topology === 'cluster';
  say(`ready (topology ${banner.topology})`);
  say(`  API          ${apiUrl}   (health ${apiUrl}/healthz, readiness ${apiUrl}/readyz, metrics ${apiUrl}/metrics)`);
  if (cluster) for (const api of banner.apis) say(`    ${api.name}        http://127.0.0.1:${api.port} (a replica behind ${apiUrl})`);
  if (banner.temporalUiUrl) say(`  Temporal UI  ${banner.temporalUiUrl}`);
  say(`  Temporal     ${banner.temporalAddress} (namespace ${config.TEMPORAL_NAMESPACE})${banner.temporalServerOnPostgres ? ', the Temporal server on PostgreSQL' : ''}`);
  say(`  Payments     ${paymentsBanner(config)}`);
  for (const worker of banner.workers) if (worker.metricsPort) say(`  ${worker.name === 'worker' ? 'Worker      ' : worker.name} metrics on http://127.0.0.1:${worker.metricsPort}/metrics`);
  if (supervisorUrl) say(`  Supervisor   ${supervisorUrl}/readyz (processes, restarts) and ${supervisorUrl}/metrics`);
  say('Ctrl-C stops everything; a process that dies is restarted.');
}
