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
 */
import type { Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { type Config, ConfigError, loadConfig, processEnvironment } from '../platform/config';
import { redactUrl } from '../platform/logger';
import { runMigrations } from '../platform/migrate';
import { startNodeProcess } from './runtime/node-process';
import { embeddedDatabaseUrl, startEmbeddedPostgres } from './runtime/postgres';
import { CrashLoopError, DEFAULT_RESTART_POLICY, Supervisor, type SupervisorEvent, formatDuration, watchdogPolicy } from './runtime/supervisor';
import { httpHealth, postgresHealth, temporalHealth } from './runtime/health-checks';
import { type Balancer, startBalancer } from './runtime/balancer';
import { freePort } from '../platform/free-port';
import { createSupervisorMetrics, serveSupervisor } from './runtime/supervisor-endpoint';
import {
  type ClusterBinaries,
  chooseInternalPorts,
  ensureClusterBinaries,
  setupTemporalSchemas,
  sqlServerOf,
  startTemporalServer,
  startTemporalUi,
  writeClusterConfig,
} from './runtime/temporal-cluster';
import { prepareNamespace } from './runtime/temporal-namespace';
import { resolveTemporalCli, startTemporalDevServer } from './runtime/temporal-server';
import { taskQueues } from '../workflows/definitions';

const root = path.resolve(__dirname, '..');
const say = (line: string) => console.log(`[start] ${line}`);

type Topology = 'single' | 'cluster';

/** `--topology=single` (the default: dev server, one worker, one API) or `--topology=cluster`. */
function topologyOf(argv: string[]): Topology {
  let value: string | undefined;
  argv.forEach((arg, i) => {
    if (arg.startsWith('--topology=')) value = arg.slice('--topology='.length);
    else if (arg === '--topology') value = argv[i + 1] ?? '';
  });
  if (value === undefined || value === 'single') return 'single';
  if (value === 'cluster') return 'cluster';
  throw new ConfigError([`--topology must be single or cluster, not ${value || '(nothing)'}`]);
}

interface WorkerProcess {
  name: string;
  queues: Config['WORKER_QUEUES'];
  metricsPort: number;
}
interface ApiProcess {
  name: string;
  host: string;
  port: number;
}

/**
 * Each worker's own metrics port in the cluster topology: WORKER_METRICS_PORT, then the next
 * numbers up, skipping the supervisor's and the API's ports (defaults: 9464, 9466, 9467).
 */
function workerMetricsPorts(base: number, count: number, avoid: number[]): number[] {
  if (base === 0) return Array.from({ length: count }, () => 0);
  const ports: number[] = [];
  for (let port = base; ports.length < count; port++) if (!avoid.includes(port)) ports.push(port);
  return ports;
}

/** The banner's line on payments: which provider takes them (platform/config.ts picks it; docs/account.md). */
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
  const workers: WorkerProcess[] = cluster
    ? (() => {
        const ports = workerMetricsPorts(config.WORKER_METRICS_PORT, 3, [config.SUPERVISOR_PORT, config.PORT]);
        return [
          { name: 'worker-http-1', queues: 'http', metricsPort: ports[0]! },
          { name: 'worker-http-2', queues: 'http', metricsPort: ports[1]! },
          { name: 'worker-browser', queues: 'browser', metricsPort: ports[2]! },
        ];
      })()
    : [{ name: 'worker', queues: config.WORKER_QUEUES, metricsPort: config.WORKER_METRICS_PORT }];
  // The replicas listen on loopback ports of their own, chosen free at each start; the balancer
  // in this process is the entry point on HOST:PORT.
  const apis: ApiProcess[] = cluster
    ? [
        { name: 'api-1', host: '127.0.0.1', port: await freePort() },
        { name: 'api-2', host: '127.0.0.1', port: await freePort() },
      ]
    : [{ name: 'api', host: config.HOST, port: config.PORT }];
  let balancer: Balancer | undefined;
  let announcedReady = false;
  let stopping = false;
  let endpoint: Server | undefined;

  const report = (event: SupervisorEvent) => {
    metrics?.record(event);
    switch (event.type) {
      case 'exited':
        say(`${event.name} exited (code ${event.exit.code ?? '-'}, signal ${event.exit.signal ?? '-'})`);
        break;
      case 'start-failed':
        say(`${event.name} failed to start (${event.failuresInWindow} of ${DEFAULT_RESTART_POLICY.maxStartFailures} allowed within ${formatDuration(DEFAULT_RESTART_POLICY.startFailureWindowMs)}): ${event.error.message.split('\n')[0]}`);
        break;
      case 'restart-scheduled':
        // After a failed start-up the cause was just printed (start-failed): say only what comes next.
        if (event.cause.startsWith('failed to start')) say(`retrying ${event.name} in ${formatDuration(event.delayMs)} (restart ${event.restart})`);
        else say(`degraded: ${event.name} ${event.cause}; restarting it in ${formatDuration(event.delayMs)} (restart ${event.restart})`);
        break;
      case 'ending':
        say(`${event.name} ${event.cause}: stopping it (pid ${event.pid ?? '?'}; SIGKILL if it is still there in ${formatDuration(event.killGraceMs)})`);
        break;
      case 'waiting':
        say(`${event.name} waits for ${event.on.join(' and ')} to run`);
        break;
      case 'running':
        if (event.restarted) say(`${event.name} is back (pid ${event.pid ?? '?'})${event.downMs !== undefined ? `, ${formatDuration(event.downMs)} after it went down` : ''}`);
        if (announcedReady && supervisor.status().status === 'ready') say('ready again: every process runs');
        break;
      case 'gave-up':
        break;
    }
  };
  const supervisor = new Supervisor({ onEvent: report, watchdog: watchdogPolicy({ hangMs: config.SUPERVISOR_HANG_MS, memoryLimitMb: config.SUPERVISOR_MEMORY_LIMIT_MB }) });

  const shutdown = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping...');
    // The API first (no new work), the workers (they drain), then what they depend on.
    const stopOrder = [...apis.map((a) => a.name), ...workers.map((w) => w.name), 'temporal-ui', 'temporal', 'postgres'];
    await balancer?.close();
    await supervisor.stop(stopOrder.filter((name) => supervisor.status().processes.some((p) => p.name === name)));
    await new Promise<void>((resolve) => (endpoint ? endpoint.close(() => resolve()) : resolve()));
    await (await temporalConnection?.catch(() => undefined))?.close();
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

  let databaseUrl = config.DATABASE_URL;
  let temporalAddress = config.TEMPORAL_ADDRESS;
  let temporalUiUrl: string | undefined;
  let temporalCli: string | undefined;
  const infrastructure: string[] = [];

  if (!databaseUrl) {
    infrastructure.push('postgres');
    supervisor.add({
      name: 'postgres',
      start: async ({ output, signal }) => {
        const postgres = await startEmbeddedPostgres({
          dataDir: config.dataDir,
          port: config.EMBEDDED_PG_PORT,
          runtimeDir: config.EMBEDDED_PG_RUNTIME_DIR,
          signal,
          onLog: (line) => output.push(line),
          onNotice: (line) => {
            output.push(line);
            say(`postgres: ${line}`);
          },
        });
        return { pid: postgres.pid, exited: postgres.exited, stop: () => postgres.stop() };
      },
      health: postgresHealth(() => embeddedDatabaseUrl(config.dataDir, config.EMBEDDED_PG_PORT)),
    });
  }
  let clusterBinaries: ClusterBinaries | undefined;
  let clusterRoot: { root: string; uiRoot: string } | undefined;
  if (!temporalAddress && cluster) {
    clusterBinaries = ensureClusterBinaries(config.dataDir, say);
    if (!clusterBinaries) {
      console.error('[start] No Temporal server for --topology=cluster: set TEMPORAL_ADDRESS, or install Go so the pinned server can be built (deploy/temporal-server).');
      process.exit(1);
    }
    const binaries = clusterBinaries;
    infrastructure.push('temporal');
    temporalAddress = `127.0.0.1:${config.TEMPORAL_DEV_PORT}`;
    const address = temporalAddress;
    supervisor.add({
      name: 'temporal',
      dependsOn: infrastructure.includes('postgres') ? ['postgres'] : [],
      start: async ({ output, signal }) => {
        if (!clusterRoot) throw new Error('the Temporal server config was not written');
        const server = await startTemporalServer({ serverPath: binaries.server, root: clusterRoot.root, frontendPort: config.TEMPORAL_DEV_PORT, signal, onLog: (line) => output.push(line) });
        // Its port opens before its membership ring forms: ready once the namespace answers.
        const connection = await Connection.connect({ address, connectTimeout: '10s' }).catch(async (error: unknown) => {
          await server.stop();
          throw error;
        });
        try {
          for (const line of await prepareNamespace(connection, config.TEMPORAL_NAMESPACE, Date.now() + 90_000, signal)) say(`temporal: ${line}`);
        } catch (error) {
          await server.stop();
          throw error;
        } finally {
          await connection.close();
        }
        return { pid: server.pid, exited: server.exited, stop: () => server.stop() };
      },
      health: temporalHealth(address),
    });
    supervisor.add({
      name: 'temporal-ui',
      dependsOn: ['temporal'],
      start: async ({ output, signal }) => {
        if (!clusterRoot) throw new Error('the Temporal UI config was not written');
        const ui = await startTemporalUi({ uiPath: binaries.ui, uiRoot: clusterRoot.uiRoot, port: config.TEMPORAL_UI_PORT, signal, onLog: (line) => output.push(line) });
        temporalUiUrl = ui.uiUrl;
        return { pid: ui.pid, exited: ui.exited, stop: () => ui.stop() };
      },
      health: httpHealth(`http://127.0.0.1:${config.TEMPORAL_UI_PORT}/`, { anyStatus: true }),
    });
  }
  if (!temporalAddress) {
    const cliPath = resolveTemporalCli(config.dataDir, say, config.TEMPORAL_CLI_PATH);
    if (!cliPath) {
      console.error('[start] No Temporal server: set TEMPORAL_ADDRESS, put the `temporal` CLI on PATH, or install Go so the pinned CLI can be built.');
      process.exit(1);
    }
    infrastructure.push('temporal');
    temporalCli = cliPath;
    temporalAddress = `127.0.0.1:${config.TEMPORAL_DEV_PORT}`;
    supervisor.add({
      name: 'temporal',
      start: async ({ output, signal }) => {
        const temporal = await startTemporalDevServer({
          cliPath,
          port: config.TEMPORAL_DEV_PORT,
          uiPort: config.TEMPORAL_UI_PORT,
          dbFile: path.join(config.dataDir, 'temporal', 'temporal.db'),
          namespace: config.TEMPORAL_NAMESPACE,
          signal,
          onLog: (line) => output.push(line),
        });
        temporalUiUrl = temporal.uiUrl;
        return { pid: temporal.pid, exited: temporal.exited, stop: () => temporal.stop() };
      },
      health: temporalHealth(temporalAddress),
    });
  }

  const supervisorUrl = config.SUPERVISOR_PORT ? `http://127.0.0.1:${config.SUPERVISOR_PORT}` : undefined;
  const childEnv = (own: Record<string, string> = {}) => ({
    ...processEnvironment(),
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    MIGRATE_ON_START: 'false',
    SUPERVISOR_URL: supervisorUrl,
    ...own,
  });
  const apiUrl = `http://127.0.0.1:${config.PORT}`;

  // A worker is ready once Temporal lists it among the pollers of its task queue (SDK identity
  // `<pid>@<host>`): true whatever LOG_LEVEL hides. One connection, opened on first use.
  let temporalConnection: Promise<Connection> | undefined;
  const workerPolling = async (pid: number, queuesServed: WorkerProcess['queues']) => {
    temporalConnection ??= Connection.connect({ address: temporalAddress, connectTimeout: '5s' }).catch((error: unknown) => {
      temporalConnection = undefined;
      throw error;
    });
    const connection = await temporalConnection;
    const queues = taskQueues(config.TASK_QUEUE_PREFIX);
    const browserOnly = queuesServed === 'browser';
    const answer = await connection.withDeadline(Date.now() + 2000, () =>
      connection.workflowService.describeTaskQueue({
        namespace: config.TEMPORAL_NAMESPACE,
        taskQueue: { name: browserOnly ? queues.browser : queues.main },
        taskQueueType: browserOnly ? proto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY : proto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
      }),
    );
    return (answer.pollers ?? []).some((poller) => poller.identity?.startsWith(`${pid}@`));
  };
  const forward = (line: string, stream: 'stdout' | 'stderr') => (stream === 'stdout' ? process.stdout : process.stderr).write(`${line}\n`);
  for (const worker of workers) {
    supervisor.add({
      name: worker.name,
      dependsOn: infrastructure,
      start: ({ output, signal }) =>
        startNodeProcess({
          entry: path.join(root, 'workers', 'main.ts'),
          cwd: root,
          env: childEnv({ WORKER_QUEUES: worker.queues, WORKER_METRICS_PORT: String(worker.metricsPort) }),
          output,
          forward,
          // The log line is the quick way (LOG_LEVEL info and below); polling is the sure one.
          ready: { line: /"msg":"worker started"/, check: (pid) => workerPolling(pid, worker.queues) },
          signal,
          startTimeoutMs: 180_000,
        }),
      // Its metrics server answers while its event loop turns: any answer (its /healthz is a 404;
      // /metrics would also wait up to 2 s for the Temporal SDK's). None when WORKER_METRICS_PORT is 0.
      ...(worker.metricsPort ? { health: httpHealth(`http://127.0.0.1:${worker.metricsPort}/healthz`, { anyStatus: true }) } : {}),
    });
  }
  // A replica's auth base URL and trusted origins are the entry point's, as with one API
  // (accounts/auth-config.ts: without BETTER_AUTH_URL, both loopback names on PORT).
  const entryOrigins: Record<string, string> = config.BETTER_AUTH_URL ? {} : { TRUSTED_ORIGINS: [`http://127.0.0.1:${config.PORT}`, ...config.TRUSTED_ORIGINS].join(',') };
  const replicaEnv = (api: ApiProcess): Record<string, string> =>
    cluster ? { PORT: String(api.port), HOST: api.host, BETTER_AUTH_URL: config.BETTER_AUTH_URL ?? `http://localhost:${config.PORT}`, ...entryOrigins } : {};
  for (const api of apis) {
    supervisor.add({
      name: api.name,
      dependsOn: infrastructure,
      start: ({ output, signal }) =>
        startNodeProcess({
          entry: path.join(root, 'api', 'server.ts'),
          cwd: root,
          env: childEnv(replicaEnv(api)),
          output,
          forward,
          ready: { url: `http://127.0.0.1:${api.port}/healthz` },
          signal,
          startTimeoutMs: 120_000,
        }),
      health: httpHealth(`http://127.0.0.1:${api.port}/healthz`),
    });
  }
  const metrics = supervisorUrl ? createSupervisorMetrics(supervisor, [...infrastructure, ...(cluster && clusterBinaries ? ['temporal-ui'] : []), ...workers.map((w) => w.name), ...apis.map((a) => a.name)]) : undefined;

  try {
    if (metrics) endpoint = await serveSupervisor({ host: '127.0.0.1', port: config.SUPERVISOR_PORT, supervisor, metrics });
    if (infrastructure.includes('postgres')) {
      say(`starting embedded PostgreSQL on 127.0.0.1:${config.EMBEDDED_PG_PORT} (data in ${path.join(config.dataDir, 'postgres')})`);
      await supervisor.start('postgres');
      databaseUrl = embeddedDatabaseUrl(config.dataDir, config.EMBEDDED_PG_PORT);
    }
    if (!databaseUrl || !temporalAddress) throw new Error('no database or Temporal address');
    if (infrastructure.includes('temporal') && clusterBinaries) {
      const sql = sqlServerOf(databaseUrl);
      say(`setting up Temporal's schemas in PostgreSQL ${sql.host}:${sql.port} (${clusterBinaries.sqlTool})`);
      for (const line of await setupTemporalSchemas(clusterBinaries.sqlTool, sql)) say(`  ${line}`);
      const dir = path.join(config.dataDir, 'temporal-cluster');
      mkdirSync(dir, { recursive: true });
      const ports = await chooseInternalPorts(path.join(dir, 'ports.json'));
      clusterRoot = writeClusterConfig({ dir, frontendPort: config.TEMPORAL_DEV_PORT, ports, sql, uiPort: config.TEMPORAL_UI_PORT, namespace: config.TEMPORAL_NAMESPACE });
      say(`starting the Temporal server ${clusterBinaries.server} on ${temporalAddress} (config ${path.join(dir, 'config')})`);
      await supervisor.start('temporal');
      void supervisor.start('temporal-ui').catch(() => undefined);
    } else {
      if (infrastructure.includes('temporal')) {
        say(`starting the Temporal dev server (${temporalCli}) on ${temporalAddress}`);
        await supervisor.start('temporal');
      }
      // The dev server was given the search attributes on its command line; a file-backed one made
      // by an older release, or TEMPORAL_ADDRESS's cluster, may lack some or have one of another
      // type: the same registration as the cluster topology's and `npm run temporal:setup`'s.
      // Lazy: a cluster still starting is waited for (prepareNamespace retries until its deadline).
      const connection = Connection.lazy({ address: temporalAddress, connectTimeout: '10s' });
      try {
        for (const line of await prepareNamespace(connection, config.TEMPORAL_NAMESPACE, Date.now() + 60_000)) say(`temporal: ${line}`);
      } finally {
        await connection.close();
      }
    }

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
    say(`ready (topology ${topology})`);
    say(`  API          ${apiUrl}   (health ${apiUrl}/healthz, readiness ${apiUrl}/readyz, metrics ${apiUrl}/metrics)`);
    if (cluster) for (const api of apis) say(`    ${api.name}        http://127.0.0.1:${api.port} (a replica behind ${apiUrl})`);
    if (temporalUiUrl) say(`  Temporal UI  ${temporalUiUrl}`);
    say(`  Temporal     ${temporalAddress} (namespace ${config.TEMPORAL_NAMESPACE})${cluster && clusterBinaries ? ', the Temporal server on PostgreSQL' : ''}`);
    say(`  Payments     ${paymentsBanner(config)}`);
    for (const worker of workers) if (worker.metricsPort) say(`  ${worker.name === 'worker' ? 'Worker      ' : worker.name} metrics on http://127.0.0.1:${worker.metricsPort}/metrics`);
    if (supervisorUrl) say(`  Supervisor   ${supervisorUrl}/readyz (processes, restarts) and ${supervisorUrl}/metrics`);
    say('Ctrl-C stops everything; a process that dies is restarted.');
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
