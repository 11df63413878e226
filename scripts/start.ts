/**
 * `npm start`: the whole service on the embedded default, in one command, kept running.
 *   PostgreSQL  DATABASE_URL, or an embedded server (data in <DATA_DIR>/postgres)
 *   Temporal    TEMPORAL_ADDRESS, or the dev server (file-backed, <DATA_DIR>/temporal) with its UI
 *   then migrations, a worker process and the API process; prints where each listens.
 *
 * Every process it starts is supervised (scripts/runtime/supervisor.ts, docs/operations.md): one that
 * exits without being asked to is restarted on its own data after 1 s, doubling to 30 s; one that
 * keeps failing at start-up (5 times in 2 minutes) stops the service with its last lines.
 * Restarts are counted on the supervisor's own endpoint (SUPERVISOR_PORT: /readyz, /metrics).
 * Ctrl-C / SIGTERM stops the API, then the worker (it drains), then Temporal, then PostgreSQL.
 *
 * `npm start -- --topology=cluster` runs the production shape on one machine instead
 * (docs/operations.md, "The cluster topology"): the official Temporal server on PostgreSQL (built
 * from deploy/temporal-server, schemas set up by its schema tool) with its UI server, 2 API
 * replicas behind a balancer on PORT, 2 http workers and 1 browser worker; all supervised alike.
 *
 * The steps are in scripts/start/: the plan (topology, processes), the infrastructure (PostgreSQL,
 * Temporal), the services (workers, APIs), what it prints; the launchers in scripts/runtime/.
 */
import type { Server } from 'node:http';
import { ConfigError, loadConfig } from '../platform/config';
import { redactUrl } from '../platform/logger';
import { runMigrations } from '../platform/migrate';
import { type Balancer, startBalancer } from './runtime/balancer';
import { CrashLoopError, Supervisor, watchdogPolicy } from './runtime/supervisor';
import { createSupervisorMetrics, serveSupervisor } from './runtime/supervisor-endpoint';
import { addInfrastructure, startInfrastructure } from './start/infrastructure';
import { eventLine, say, sayReady } from './start/messages';
import { planApis, planWorkers, topologyOf } from './start/plan';
import { WorkerPolling, addServices } from './start/services';

async function waitForReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const topology = topologyOf(process.argv.slice(2));
  const cluster = topology === 'cluster';
  const workers = planWorkers(config, topology);
  const apis = await planApis(config, topology);
  let balancer: Balancer | undefined;
  let announcedReady = false;
  let stopping = false;
  let endpoint: Server | undefined;

  const supervisor = new Supervisor({
    onEvent: (event) => {
      metrics?.record(event);
      const line = eventLine(event);
      if (line) say(line);
      if (event.type === 'running' && announcedReady && supervisor.status().status === 'ready') say('ready again: every process runs');
    },
    watchdog: watchdogPolicy({ hangMs: config.SUPERVISOR_HANG_MS, memoryLimitMb: config.SUPERVISOR_MEMORY_LIMIT_MB }),
  });

  const shutdown = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping...');
    // The API first (no new work), the workers (they drain), then what they depend on.
    const stopOrder = [...apis.map((a) => a.name), ...workers.map((w) => w.name), 'temporal-ui', 'temporal', 'postgres'];
    await balancer?.close();
    await supervisor.stop(stopOrder.filter((name) => supervisor.status().processes.some((p) => p.name === name)));
    await new Promise<void>((resolve) => (endpoint ? endpoint.close(() => resolve()) : resolve()));
    await polling.close();
    say('stopped');
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  supervisor.onGiveUp((error) => {
    console.error(`[start] ${error.message.replace(/\n/g, '\n[start] ')}`);
    console.error('[start] stopping the service: fix the cause above, then run npm start again.');
    void shutdown(1);
  });

  const infrastructure = addInfrastructure(supervisor, config, cluster);
  const supervisorUrl = config.SUPERVISOR_PORT ? `http://127.0.0.1:${config.SUPERVISOR_PORT}` : undefined;
  const polling = new WorkerPolling(config, infrastructure);
  addServices(supervisor, { config, cluster, infrastructure, workers, apis, supervisorUrl, polling });
  const temporalServerOnPostgres = infrastructure.clusterBinaries !== undefined;
  const metrics = supervisorUrl ? createSupervisorMetrics(supervisor, [...infrastructure.names, ...(temporalServerOnPostgres ? ['temporal-ui'] : []), ...workers.map((w) => w.name), ...apis.map((a) => a.name)]) : undefined;
  const apiUrl = `http://127.0.0.1:${config.PORT}`;

  try {
    if (metrics) endpoint = await serveSupervisor({ host: '127.0.0.1', port: config.SUPERVISOR_PORT, supervisor, metrics });
    const { databaseUrl, temporalAddress } = await startInfrastructure(supervisor, config, infrastructure);

    const migrations = await runMigrations(databaseUrl);
    say(`database ${redactUrl(databaseUrl)}: ${migrations.applied.length} migration(s) applied, ${migrations.alreadyApplied} already there`);

    await Promise.all([...workers, ...apis].map((p) => supervisor.start(p.name)));
    if (cluster) {
      const replicas = apis;
      balancer = await startBalancer({
        host: config.HOST,
        port: config.PORT,
        backends: () => replicas.filter((api) => supervisor.status().processes.some((p) => p.name === api.name && p.state === 'running')),
      });
    }
    await waitForReady(`${apiUrl}/readyz`, 120_000);
    sayReady({ config, topology, apiUrl, apis, workers, temporalAddress, temporalUiUrl: infrastructure.temporalUiUrl, temporalServerOnPostgres, supervisorUrl });
    announcedReady = true;
  } catch (error) {
    // A crash loop was reported by onGiveUp; a start abandoned by Ctrl-C needs no message.
    if (!(error instanceof CrashLoopError) && !stopping) console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
    await shutdown(1);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
