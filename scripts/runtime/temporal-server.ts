/**
 * Finds or starts a Temporal server, in the order of docs/operations.md ("Processes and order"):
 *   1. TEMPORAL_ADDRESS (an existing cluster: nothing is started)
 *   2. TEMPORAL_CLI_PATH, else a `temporal` CLI on PATH
 *   3. the CLI built from the Go module pinned in deploy/temporal-cli (built once into <DATA_DIR>/bin)
 *   4. the SDK's own download (machines with internet; needs @temporalio/testing)
 * The dev server is file-backed (<DATA_DIR>/temporal/temporal.db), so histories survive restarts.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { acceptsConnections, waitForPort } from '../../platform/free-port';
import { reapStaleProcess, writePidFile } from './stale-process';
import { SEARCH_ATTRIBUTES } from './temporal-namespace';

export const PINNED_CLI_VERSION = 'v1.5.1';
const CLI_MODULE_DIR = path.resolve(__dirname, '..', '..', 'deploy', 'temporal-cli');

/** SQLite settings of the file-backed dev server (see devServerArgs). */
export const SQLITE_PRAGMAS = ['journal_mode=wal', 'synchronous=normal'] as const;

export function pinnedCliPath(dataDir: string): string {
  return path.join(dataDir, 'bin', `temporal-${PINNED_CLI_VERSION}`);
}

export function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, command);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * `go build` of `pkg` in the Go module at `moduleDir` into `target`, through a partial file of this
 * process's own (two builds at once must not write the same file), moved into place when complete.
 */
export function goBuild(moduleDir: string, pkg: string, target: string): void {
  const partial = `${target}.${process.pid}.partial`;
  execFileSync('go', ['build', '-o', partial, pkg], {
    cwd: moduleDir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, GOFLAGS: '-mod=mod' },
  });
  renameSync(partial, target);
}

/**
 * Builds the pinned CLI with Go if it is not there yet. Takes minutes the first time
 * (module download + compile); Go's own caches make later builds fast.
 */
export function ensurePinnedCli(dataDir: string, log: (line: string) => void = () => undefined): string | undefined {
  const target = pinnedCliPath(dataDir);
  if (existsSync(target)) return target;
  if (!onPath('go')) return undefined;
  mkdirSync(path.dirname(target), { recursive: true });
  log(`Building the Temporal CLI ${PINNED_CLI_VERSION} from Go modules into ${target} (first time only, takes a few minutes)...`);
  goBuild(CLI_MODULE_DIR, 'github.com/temporalio/cli/cmd/temporal', target);
  return target;
}

/** Which Temporal CLI binary to run (steps 2 and 3), or undefined when none can be had. */
export function resolveTemporalCli(dataDir: string, log?: (line: string) => void, explicitPath?: string): string | undefined {
  if (explicitPath) {
    if (!existsSync(explicitPath)) throw new Error(`TEMPORAL_CLI_PATH points at ${explicitPath}, which does not exist`);
    return explicitPath;
  }
  const pinned = pinnedCliPath(dataDir);
  if (existsSync(pinned)) return pinned;
  return onPath('temporal') ?? ensurePinnedCli(dataDir, log);
}

export interface DevServerOptions {
  cliPath: string;
  port: number;
  /** Omit for a headless server (tests). */
  uiPort?: number;
  /** SQLite file; omit for an in-memory server (tests that do not need durability). */
  dbFile?: string;
  namespace?: string;
  /** The UI's codec server (`--ui-codec-endpoint`): the UI then shows payloads decoded (api/routes/temporal-codec.ts). */
  uiCodecEndpoint?: string;
  /** Extra `--dynamic-config-value KEY=VALUE` settings. */
  dynamicConfig?: Record<string, string | number | boolean>;
  /** The server's Prometheus endpoint (`--metrics-port`), for benches that count its RPCs. */
  metricsPort?: number;
  onLog?: (line: string) => void;
  /** Aborting stops a server still starting; the start then rejects. */
  signal?: AbortSignal;
}

export interface RunningTemporal {
  address: string;
  uiUrl?: string;
  process: ChildProcess;
  pid: number | undefined;
  /** Resolves once the server has exited (stopped, or died). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

export function devServerArgs(options: DevServerOptions): string[] {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(options.port), '--namespace', options.namespace ?? 'default', '--log-level', 'warn'];
  if (options.uiPort !== undefined) args.push('--ui-port', String(options.uiPort));
  else args.push('--headless');
  if (options.uiPort !== undefined && options.uiCodecEndpoint) args.push('--ui-codec-endpoint', options.uiCodecEndpoint);
  if (options.dbFile) {
    args.push('--db-filename', options.dbFile);
    // WAL with synchronous=normal: a killed server loses nothing committed (the OS holds the
    // writes); only a power loss can drop the last commits. Measured: ~15 % less server CPU per
    // scrape and no fsync on every history write (docs/benchmarks.md).
    for (const pragma of SQLITE_PRAGMAS) args.push('--sqlite-pragma', pragma);
  }
  // The service's one list (temporal-namespace.ts); scripts/start.ts checks their types once it runs.
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTES)) args.push('--search-attribute', `${name}=${type}`);
  for (const [key, value] of Object.entries(options.dynamicConfig ?? {})) args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  if (options.metricsPort !== undefined) args.push('--metrics-port', String(options.metricsPort));
  return args;
}

export async function startTemporalDevServer(options: DevServerOptions): Promise<RunningTemporal> {
  const pidFile = options.dbFile ? `${options.dbFile}.supervisor.pid` : undefined;
  if (options.dbFile) mkdirSync(path.dirname(options.dbFile), { recursive: true });
  const server = await startDetachedServer({
    label: 'The Temporal dev server',
    command: options.cliPath,
    args: devServerArgs(options),
    pidFile,
    expected: 'start-dev',
    port: options.port,
    busyHint: 'another Temporal server? Stop it, or set TEMPORAL_ADDRESS to use it.',
    onLog: options.onLog,
    signal: options.signal,
  });
  if (options.uiPort !== undefined) await waitForPort('127.0.0.1', options.uiPort, 30_000).catch(() => undefined);
  return { ...server, uiUrl: options.uiPort !== undefined ? `http://127.0.0.1:${options.uiPort}` : undefined };
}

export interface DetachedServerOptions {
  /** Its name in messages ("The Temporal dev server"). */
  label: string;
  command: string;
  args: string[];
  /** Where its pid is kept, so a server left behind by a killed supervisor is stopped at the next start. */
  pidFile?: string;
  /** A word of its command line: only a process carrying it is reaped through the pid file. */
  expected: string;
  /** Ready once this loopback port accepts connections. */
  port: number;
  /** What to say when the port is already taken. */
  busyHint: string;
  onLog?: (line: string) => void;
  /** Aborting stops a server still starting; the start then rejects. */
  signal?: AbortSignal;
  startTimeoutMs?: number;
}

/**
 * Starts a Go server of the Temporal family (the CLI's dev server, the Temporal server, its UI)
 * detached, so Ctrl-C reaches the supervisor only, which stops it after the workers drained.
 * Resolves once its port accepts connections; never leaves a half-started server behind.
 */
export async function startDetachedServer(options: DetachedServerOptions): Promise<RunningTemporal> {
  if (options.pidFile) await reapStaleProcess(options.pidFile, options.expected, options.onLog);
  if (await acceptsConnections('127.0.0.1', options.port)) {
    throw new Error(`Port ${options.port} is already in use: ${options.busyHint}`);
  }
  const child = spawn(options.command, options.args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (options.pidFile) writePidFile(options.pidFile, child.pid);
  const forward = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) options.onLog?.(line);
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  let early: Error | undefined;
  child.once('exit', (code, signal) => {
    early = new Error(`${options.label} exited during start-up (code ${code}, signal ${signal}); is port ${options.port} taken?`);
  });
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([
      waitForPort('127.0.0.1', options.port, options.startTimeoutMs ?? 60_000),
      exited.then(() => {
        throw early ?? new Error(`${options.label} exited`);
      }),
      new Promise<never>((_, reject) => {
        onAbort = () => reject(new Error(`${options.label} start-up aborted`));
        if (options.signal?.aborted) onAbort();
        else options.signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } catch (error) {
    // Never leave a half-started server behind: it would hold the port and its data.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    if (options.pidFile) rmSync(options.pidFile, { force: true });
    throw error;
  } finally {
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
  }

  return {
    address: `127.0.0.1:${options.port}`,
    process: child,
    pid: child.pid,
    exited,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
      if (options.pidFile) rmSync(options.pidFile, { force: true });
    },
  };
}
