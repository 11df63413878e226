/**
 * `npm start`: the whole service on the embedded default, in one command, kept running.
 *   PostgreSQL  DATABASE_URL, or an embedded server (data in <DATA_DIR>/postgres)
 *   Temporal    TEMPORAL_ADDRESS, or the dev server (file-backed, <DATA_DIR>/temporal) with its UI
 *   then migrations, a worker process and the API process; prints where each listens.
 *
 * Every process it starts is supervised (lib/runtime/supervisor.ts, docs/operations.md): one that
 * exits without being asked to is restarted on its own data after 1 s, doubling to 30 s; one that
 * keeps failing at start-up (5 times in 2 minutes) stops the service with its last lines.
 * Restarts are counted on the supervisor's own endpoint (SUPERVISOR_PORT: /readyz, /metrics).
 * Ctrl-C / SIGTERM stops the API, then the worker (it drains), then Temporal, then PostgreSQL.
 */
import type { Server } from 'node:http';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { ConfigError, loadConfig, processEnvironment } from '../lib/config';
import { redactUrl } from '../lib/logger';
import { runMigrations } from '../lib/migrate';
import { startNodeProcess } from '../lib/runtime/node-process';
import { embeddedDatabaseUrl, startEmbeddedPostgres } from '../lib/runtime/postgres';
import { CrashLoopError, DEFAULT_RESTART_POLICY, Supervisor, type SupervisorEvent, formatDuration } from '../lib/runtime/supervisor';
import { createSupervisorMetrics, serveSupervisor } from '../lib/runtime/supervisor-endpoint';
import { resolveTemporalCli, startTemporalDevServer } from '../lib/runtime/temporal-server';
import { taskQueues } from '../workflows/definitions';

const root = path.resolve(__dirname, '..');
const say = (line: string) => console.log(`[start] ${line}`);

/** Stop order: the API first (no new work), the worker (it drains), then what they depend on. */
const STOP_ORDER = ['api', 'worker', 'temporal', 'postgres'];

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
  const supervisor = new Supervisor({ onEvent: report });

  const shutdown = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping...');
    await supervisor.stop(STOP_ORDER.filter((name) => supervisor.status().processes.some((p) => p.name === name)));
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
        });
        return { pid: postgres.pid, exited: postgres.exited, stop: () => postgres.stop() };
      },
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
    });
  }

  const supervisorUrl = config.SUPERVISOR_PORT ? `http://127.0.0.1:${config.SUPERVISOR_PORT}` : undefined;
  const childEnv = () => ({
    ...processEnvironment(),
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    MIGRATE_ON_START: 'false',
    SUPERVISOR_URL: supervisorUrl,
  });
  const apiUrl = `http://127.0.0.1:${config.PORT}`;

  // A worker is ready once Temporal lists it among the pollers of its task queue (SDK identity
  // `<pid>@<host>`): true whatever LOG_LEVEL hides. One connection, opened on first use.
  let temporalConnection: Promise<Connection> | undefined;
  const workerPolling = async (pid: number) => {
    temporalConnection ??= Connection.connect({ address: temporalAddress, connectTimeout: '5s' }).catch((error: unknown) => {
      temporalConnection = undefined;
      throw error;
    });
    const connection = await temporalConnection;
    const queues = taskQueues(config.TASK_QUEUE_PREFIX);
    const browserOnly = config.WORKER_QUEUES === 'browser';
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
  supervisor.add({
    name: 'worker',
    dependsOn: infrastructure,
    start: ({ output, signal }) =>
      startNodeProcess({
        entry: path.join(root, 'workers', 'main.ts'),
        cwd: root,
        env: childEnv(),
        output,
        forward,
        // The log line is the quick way (LOG_LEVEL info and below); polling is the sure one.
        ready: { line: /"msg":"worker started"/, check: workerPolling },
        signal,
        startTimeoutMs: 180_000,
      }),
  });
  supervisor.add({
    name: 'api',
    dependsOn: infrastructure,
    start: ({ output, signal }) =>
      startNodeProcess({ entry: path.join(root, 'api', 'server.ts'), cwd: root, env: childEnv(), output, forward, ready: { url: `${apiUrl}/healthz` }, signal, startTimeoutMs: 120_000 }),
  });
  const metrics = supervisorUrl ? createSupervisorMetrics(supervisor, [...infrastructure, 'worker', 'api']) : undefined;

  try {
    if (metrics) endpoint = await serveSupervisor({ host: '127.0.0.1', port: config.SUPERVISOR_PORT, supervisor, metrics });
    if (infrastructure.includes('postgres')) {
      say(`starting embedded PostgreSQL on 127.0.0.1:${config.EMBEDDED_PG_PORT} (data in ${path.join(config.dataDir, 'postgres')})`);
      await supervisor.start('postgres');
      databaseUrl = embeddedDatabaseUrl(config.dataDir, config.EMBEDDED_PG_PORT);
    }
    if (infrastructure.includes('temporal')) {
      say(`starting the Temporal dev server (${temporalCli}) on ${temporalAddress}`);
      await supervisor.start('temporal');
    }
    if (!databaseUrl || !temporalAddress) throw new Error('no database or Temporal address');

    const migrations = await runMigrations(databaseUrl);
    say(`database ${redactUrl(databaseUrl)}: ${migrations.applied.length} migration(s) applied, ${migrations.alreadyApplied} already there`);

    await Promise.all([supervisor.start('worker'), supervisor.start('api')]);
    await waitForReady(`${apiUrl}/readyz`, 120_000);
    say('ready');
    say(`  API          ${apiUrl}   (health ${apiUrl}/healthz, readiness ${apiUrl}/readyz, metrics ${apiUrl}/metrics)`);
    if (temporalUiUrl) say(`  Temporal UI  ${temporalUiUrl}`);
    say(`  Temporal     ${temporalAddress} (namespace ${config.TEMPORAL_NAMESPACE})`);
    if (config.WORKER_METRICS_PORT) say(`  Worker       metrics on http://127.0.0.1:${config.WORKER_METRICS_PORT}/metrics`);
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
