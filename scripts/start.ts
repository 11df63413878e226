/**
 * `npm start`: the whole service on the embedded default, in one command.
 *   PostgreSQL  DATABASE_URL, or an embedded server (data in <DATA_DIR>/postgres)
 *   Temporal    TEMPORAL_ADDRESS, or the dev server (file-backed, <DATA_DIR>/temporal) with its UI
 *   then migrations, a worker process and the API process; prints where each listens.
 * Ctrl-C / SIGTERM stops the API, then the worker (it drains), then Temporal, then PostgreSQL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { ConfigError, loadConfig, processEnvironment } from '../lib/config';
import { redactUrl } from '../lib/logger';
import { runMigrations } from '../lib/migrate';
import { type RunningPostgres, startEmbeddedPostgres } from '../lib/runtime/postgres';
import { type RunningTemporal, resolveTemporalCli, startTemporalDevServer } from '../lib/runtime/temporal-server';

const root = path.resolve(__dirname, '..');
const say = (line: string) => console.log(`[start] ${line}`);

function startChild(name: string, entry: string, env: Record<string, string | undefined>): ChildProcess {
  // stdin is a pipe: if this supervisor dies, the child sees it close and exits (EXIT_WITH_PARENT).
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, entry)], {
    cwd: root,
    env: { ...env, EXIT_WITH_PARENT: 'true' },
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  child.once('exit', (code, signal) => say(`${name} exited (code ${code ?? '-'}, signal ${signal ?? '-'})`));
  return child;
}

async function stopChild(child: ChildProcess | undefined, timeoutMs = 30_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
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
  let postgres: RunningPostgres | undefined;
  let temporal: RunningTemporal | undefined;
  let api: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  let stopping = false;

  const shutdown = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping...');
    await stopChild(api);
    await stopChild(worker);
    await temporal?.stop();
    await postgres?.stop();
    say('stopped');
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    let databaseUrl = config.DATABASE_URL;
    if (!databaseUrl) {
      say(`starting embedded PostgreSQL on 127.0.0.1:${config.EMBEDDED_PG_PORT} (data in ${path.join(config.dataDir, 'postgres')})`);
      postgres = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.EMBEDDED_PG_PORT });
      databaseUrl = postgres.url();
    }
    let temporalAddress = config.TEMPORAL_ADDRESS;
    if (!temporalAddress) {
      const cliPath = resolveTemporalCli(config.dataDir, say, config.TEMPORAL_CLI_PATH);
      if (!cliPath) {
        throw new Error('No Temporal server: set TEMPORAL_ADDRESS, put the `temporal` CLI on PATH, or install Go so the pinned CLI can be built.');
      }
      say(`starting the Temporal dev server (${cliPath}) on 127.0.0.1:${config.TEMPORAL_DEV_PORT}`);
      temporal = await startTemporalDevServer({
        cliPath,
        port: config.TEMPORAL_DEV_PORT,
        uiPort: config.TEMPORAL_UI_PORT,
        dbFile: path.join(config.dataDir, 'temporal', 'temporal.db'),
        namespace: config.TEMPORAL_NAMESPACE,
      });
      temporalAddress = temporal.address;
      temporal.process.once('exit', () => void shutdown(stopping ? 0 : 1));
    }

    const migrations = await runMigrations(databaseUrl);
    say(`database ${redactUrl(databaseUrl)}: ${migrations.applied.length} migration(s) applied, ${migrations.alreadyApplied} already there`);

    const childEnv = { ...processEnvironment(), DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporalAddress, MIGRATE_ON_START: 'false' };
    worker = startChild('worker', 'workers/main.ts', childEnv);
    api = startChild('api', 'api/server.ts', childEnv);
    for (const child of [worker, api]) child.once('exit', () => void shutdown(stopping ? 0 : 1));

    const apiUrl = `http://127.0.0.1:${config.PORT}`;
    await waitForReady(`${apiUrl}/readyz`, 120_000);
    say('ready');
    say(`  API          ${apiUrl}   (health ${apiUrl}/healthz, readiness ${apiUrl}/readyz, metrics ${apiUrl}/metrics)`);
    if (temporal?.uiUrl) say(`  Temporal UI  ${temporal.uiUrl}`);
    say(`  Temporal     ${temporalAddress} (namespace ${config.TEMPORAL_NAMESPACE})`);
    if (config.WORKER_METRICS_PORT) say(`  Worker       metrics on http://127.0.0.1:${config.WORKER_METRICS_PORT}/metrics`);
    say('Ctrl-C stops everything.');
  } catch (error) {
    console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
    await shutdown(1);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
