/**
 * `npm start -- --topology=cluster` (scripts/start.ts) for a test or a bench, for real: a DATA_DIR
 * of its own, free ports, the Go binaries built once into the clone's <DATA_DIR>/bin and linked
 * from the scratch data folder (as `npm start` would build them). Answers the addresses (entry
 * point, each replica, the supervisor's endpoint, the service database) and a view of the
 * supervisor's processes, and stops everything with SIGTERM as Ctrl-C would.
 * Used by scripts/start.cluster.test.ts, scripts/start.chaos.test.ts and bench/soak.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, createWriteStream, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../../platform/config';
import { freePort } from '../../platform/free-port';
import { embeddedDatabaseUrl } from '../../scripts/runtime/postgres';
import { ensureClusterBinaries } from '../../scripts/runtime/temporal-cluster';
import { npmStartEnv, processesMentioning, watchOutput } from './processes';

export interface ClusterProcess {
  name: string;
  state: string;
  pid?: number;
  restarts: number;
}

export interface SupervisorView {
  status: string;
  processes: ClusterProcess[];
}

export interface RunningCluster {
  supervisor: ChildProcess;
  dataDir: string;
  /** The balancer (entry point). */
  baseUrl: string;
  /** Each API replica directly, api-1 first. */
  replicaUrls: string[];
  supervisorUrl: string;
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl: string;
  /** The supervisor's /readyz, or undefined when it does not answer. */
  view(): Promise<SupervisorView | undefined>;
  processOf(name: string): Promise<ClusterProcess | undefined>;
  /** The last lines the supervisor and its children printed. */
  tail(chars?: number): string;
  /** Polls `check` every 200 ms; fails (with the output's tail) when the supervisor exits or after `timeoutMs`. */
  waitFor<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs?: number): Promise<T>;
  /**
   * SIGTERM; answers the supervisor's exit code and the pids of what it started still running
   * 20 s later at the most (none expected: the servers are detached, each is stopped, not
   * orphaned), and removes the data folder. Once only: later calls answer the first one's.
   */
  stop(): Promise<{ code: number | null; leftover: number[] }>;
}

/** How long the cluster may take to be ready on a loaded 2-core machine. */
const READY_PATIENCE_MS = 300_000;

export async function startCluster(
  options: {
    name?: string;
    env?: NodeJS.ProcessEnv;
    log?: (line: string) => void;
    /** Every line the supervisor and its children print, appended to this file (kept after stop). */
    logFile?: string;
  } = {},
): Promise<RunningCluster> {
  const log = options.log ?? (() => undefined);
  const built = ensureClusterBinaries(parseConfig(process.env).dataDir, log);
  if (!built) throw new Error('No Go: the Temporal server cannot be built from deploy/temporal-server');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `scrape-${options.name ?? 'cluster'}-`));
  chmodSync(dataDir, 0o755); // PostgreSQL runs as the `postgres` user when we are root
  symlinkSync(path.dirname(built.server), path.join(dataDir, 'bin'));
  const [apiPort, temporalPort, uiPort, pgPort, supervisorPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const baseUrl = `http://127.0.0.1:${apiPort}`;
  const supervisorUrl = `http://127.0.0.1:${supervisorPort}`;
  const supervisor = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '..', '..', 'scripts', 'start.ts'), '--topology=cluster'], {
    env: {
      ...npmStartEnv({ dataDir, apiPort, temporalPort, uiPort, pgPort, supervisorPort }, ''),
      HOST: '127.0.0.1',
      TASK_QUEUE_PREFIX: '',
      ALLOW_PRIVATE_TARGETS: 'true',
      BETTER_AUTH_SECRET: randomBytes(32).toString('hex'),
      BETTER_AUTH_URL: baseUrl,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = watchOutput(supervisor, output);
  if (options.logFile) {
    const file = createWriteStream(options.logFile, { flags: 'a' });
    supervisor.stdout?.pipe(file, { end: false });
    supervisor.stderr?.pipe(file, { end: false });
    void exited.then(() => file.end());
  }
  const tail = (chars = 6000) => output.join('').slice(-chars);
  const gone = () => supervisor.exitCode !== null || supervisor.signalCode !== null;

  const waitFor = async <T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 240_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (gone()) throw new Error(`${what}: the supervisor exited:\n${tail()}`);
      const value = await check();
      if (value) return value;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`${what}: not within ${timeoutMs} ms:\n${tail()}`);
  };
  const view = async (): Promise<SupervisorView | undefined> => {
    try {
      return (await (await fetch(`${supervisorUrl}/readyz`, { signal: AbortSignal.timeout(5000) })).json()) as SupervisorView;
    } catch {
      return undefined;
    }
  };
  let stopped: Promise<{ code: number | null; leftover: number[] }> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (!gone()) supervisor.kill('SIGTERM');
      const code = await exited;
      const deadline = Date.now() + 20_000;
      while (processesMentioning(dataDir).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      const leftover = processesMentioning(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
      return { code, leftover };
    })());

  try {
    const replicaPorts = await waitFor(
      'the cluster was not ready',
      () => {
        const printed = output.join('');
        const ports = [...printed.matchAll(/ {4}api-(\d) {8}http:\/\/127\.0\.0\.1:(\d+) /g)].map((m) => Number(m[2]));
        return printed.includes('[start] ready (topology cluster)') && ports.length === 2 ? ports : undefined;
      },
      READY_PATIENCE_MS,
    );
    return {
      supervisor,
      dataDir,
      baseUrl,
      replicaUrls: replicaPorts.map((port) => `http://127.0.0.1:${port}`),
      supervisorUrl,
      databaseUrl: embeddedDatabaseUrl(dataDir, pgPort)!,
      temporalAddress: `127.0.0.1:${temporalPort}`,
      temporalUiUrl: `http://127.0.0.1:${uiPort}`,
      view,
      processOf: async (name) => (await view())?.processes.find((p) => p.name === name),
      tail,
      waitFor,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
