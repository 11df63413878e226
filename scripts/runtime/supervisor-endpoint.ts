/**
 * The supervisor's own small HTTP endpoint (SUPERVISOR_PORT, loopback only):
 *   GET /readyz   the service as the supervisor sees its processes: 200 when every one runs,
 *                 else 503 in the standard error body, with `status` (starting, degraded,
 *                 stopping, failed), `reasons` and each process's state, pid and restarts
 *   GET /metrics  Prometheus text: supervisor_restarts_total{process,cause}, supervisor_process_up{process}
 * It lives in the supervisor, not in the API, because the API is one of the processes it
 * restarts: the counts must outlive any child (docs/operations.md).
 */
import http from 'node:http';
import { Counter, Gauge, Registry } from 'prom-client';
import { errorBody } from '../../platform/errors';
import type { RestartReason, Supervisor, SupervisorEvent } from './supervisor';

/** `cause` of supervisor_restarts_total: exited, start_failed, hung (no health answer), memory (over the ceiling). */
const RESTART_CAUSES: RestartReason[] = ['exited', 'start_failed', 'hung', 'memory'];

export interface SupervisorMetrics {
  registry: Registry;
  /** Feed every supervisor event here. */
  record(event: SupervisorEvent): void;
}

export function createSupervisorMetrics(supervisor: Supervisor, processNames: string[]): SupervisorMetrics {
  const registry = new Registry();
  const restarts = new Counter({
    name: 'supervisor_restarts_total',
    help: 'Restarts of a supervised process since npm start, by cause: exited (unexpectedly), start_failed, hung (no health answer), memory (over the ceiling).',
    labelNames: ['process', 'cause'],
    registers: [registry],
  });
  const startFailures = new Counter({
    name: 'supervisor_start_failures_total',
    help: 'Start-ups of a supervised process that failed (it exited or timed out before it was ready).',
    labelNames: ['process'],
    registers: [registry],
  });
  new Gauge({
    name: 'supervisor_process_up',
    help: '1 while the supervised process runs, else 0.',
    labelNames: ['process'],
    registers: [registry],
    collect() {
      for (const p of supervisor.status().processes) this.set({ process: p.name }, p.state === 'running' ? 1 : 0);
    },
  });
  // Every series exists from the start, so a rate() over it never starts from nothing.
  for (const name of processNames) {
    for (const cause of RESTART_CAUSES) restarts.inc({ process: name, cause }, 0);
    startFailures.inc({ process: name }, 0);
  }
  return {
    registry,
    record(event) {
      if (event.type === 'restart-scheduled') restarts.inc({ process: event.name, cause: event.reason });
      if (event.type === 'start-failed') startFailures.inc({ process: event.name });
    },
  };
}

/** Listens on host:port; resolves once listening, rejects when the port cannot be had. */
export function serveSupervisor(options: { host: string; port: number; supervisor: Supervisor; metrics: SupervisorMetrics }): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    const url = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      json(405, errorBody('METHOD_NOT_ALLOWED', `Cannot ${req.method} ${url}`));
      return;
    }
    if (url === '/readyz') {
      const status = options.supervisor.status();
      if (status.status === 'ready') json(200, status);
      else json(503, { ...errorBody('NOT_READY', status.reasons.length ? `Degraded: ${status.reasons.join('; ')}` : `The service is ${status.status}`), ...status });
      return;
    }
    if (url === '/metrics') {
      options.metrics.registry.metrics().then(
        (body) => res.writeHead(200, { 'content-type': options.metrics.registry.contentType }).end(body),
        () => json(500, errorBody('INTERNAL', 'Internal server error')),
      );
      return;
    }
    json(404, errorBody('NOT_FOUND', `Cannot GET ${url}`));
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`SUPERVISOR_PORT ${options.port} is already in use: set another, or 0 to turn the endpoint off`) : error),
    );
    server.listen(options.port, options.host, () => resolve(server));
  });
}
