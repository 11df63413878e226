/**
 * The Temporal of `npm start -- --topology=cluster` (docs/operations.md, "The cluster topology"):
 *   - the official server, its SQL schema tool and its UI server, built from the Go module pinned
 *     in deploy/temporal-server (server v1.29.1 and UI 2.42.1: the releases the pinned CLI embeds)
 *     into <DATA_DIR>/bin, once, the way the CLI is (temporal-server.ts);
 *   - its persistence and visibility schemas set up in PostgreSQL by the schema tool (databases
 *     `temporal` and `temporal_visibility` beside the service's own), upgraded at every start;
 *   - a config file generated under <DATA_DIR>/temporal-cluster (the dynamic config is the
 *     committed deploy/temporal-server/dynamicconfig.yaml);
 *   - the namespace and the search attributes the service needs, registered once it answers
 *     (temporal-namespace.ts prepareNamespace, called by scripts/start.ts).
 */
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client as PgClient } from 'pg';
import { processEnvironment } from '../../platform/config';
import { acceptsConnections, freePort } from '../../platform/free-port';
import { type RunningTemporal, goBuild, onPath, startDetachedServer } from './temporal-server';

export const PINNED_SERVER_VERSION = 'v1.29.1';
export const PINNED_UI_VERSION = 'v2.42.1';
const SERVER_MODULE_DIR = path.resolve(__dirname, '..', '..', 'deploy', 'temporal-server');
export const DYNAMIC_CONFIG_FILE = path.join(SERVER_MODULE_DIR, 'dynamicconfig.yaml');

/** The two databases the server keeps, on the service's PostgreSQL server. */
export const TEMPORAL_DATABASES = { persistence: 'temporal', visibility: 'temporal_visibility' } as const;
/** Fixed when the persistence schema is first used: the server refuses another count later. */
export const HISTORY_SHARDS = 4;
/** The environment name of the generated config files (`<dir>/config/<env>.yaml`). */
const CONFIG_ENV = 'scrape';

const BINARIES = {
  server: { file: `temporal-server-${PINNED_SERVER_VERSION}`, pkg: 'go.temporal.io/server/cmd/server' },
  sqlTool: { file: `temporal-sql-tool-${PINNED_SERVER_VERSION}`, pkg: 'go.temporal.io/server/cmd/tools/sql' },
  ui: { file: `temporal-ui-server-${PINNED_UI_VERSION}`, pkg: 'github.com/temporalio/ui-server/v2/cmd/server' },
} as const;
export type ClusterBinaries = Record<keyof typeof BINARIES, string>;

export function pinnedClusterBinaries(dataDir: string): ClusterBinaries {
  const paths = {} as ClusterBinaries;
  for (const [name, binary] of Object.entries(BINARIES) as Array<[keyof ClusterBinaries, (typeof BINARIES)[keyof ClusterBinaries]]>) {
    paths[name] = path.join(dataDir, 'bin', binary.file);
  }
  return paths;
}

/**
 * Builds whichever of the three binaries is missing (Go's caches make this quick when the CLI
 * was built: the server's dependencies are the CLI's). Undefined when one is missing and Go is not.
 */
export function ensureClusterBinaries(dataDir: string, log: (line: string) => void = () => undefined): ClusterBinaries | undefined {
  const paths = pinnedClusterBinaries(dataDir);
  const missing = (Object.keys(BINARIES) as Array<keyof ClusterBinaries>).filter((name) => !existsSync(paths[name]));
  if (missing.length === 0) return paths;
  if (!onPath('go')) return undefined;
  mkdirSync(path.join(dataDir, 'bin'), { recursive: true });
  for (const name of missing) {
    log(`Building ${BINARIES[name].pkg} from Go modules (deploy/temporal-server) into ${paths[name]} (first time only)...`);
    goBuild(SERVER_MODULE_DIR, BINARIES[name].pkg, paths[name]);
  }
  return paths;
}

/** A PostgreSQL server and the credentials Temporal uses on it (those of the service's DATABASE_URL). */
export interface SqlServer {
  host: string;
  port: number;
  user: string;
  password: string;
  /** The database to connect to when creating the others (DATABASE_URL's own). */
  adminDatabase: string;
}

export function sqlServerOf(databaseUrl: string): SqlServer {
  const url = new URL(databaseUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    adminDatabase: decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres',
  };
}

async function query<T>(server: SqlServer, database: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new PgClient({ host: server.host, port: server.port, user: server.user, password: server.password, database });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

const run = promisify(execFile);

/**
 * Creates (when missing) and upgrades (always; the tool applies only the newer versions) the
 * persistence and visibility schemas with the pinned schema tool and the schemas it embeds
 * (`schema/postgresql/v12/...` of the server module). Answers one line per step taken.
 */
export async function setupTemporalSchemas(sqlTool: string, server: SqlServer): Promise<string[]> {
  const done: string[] = [];
  const tool = async (database: string, ...command: string[]) => {
    const args = ['--plugin', 'postgres12', '--endpoint', server.host, '--port', String(server.port), '--user', server.user, '--database', database, ...command];
    try {
      // The password goes through the environment, never the command line (ps shows that).
      await run(sqlTool, args, { env: { ...processEnvironment(), SQL_PASSWORD: server.password }, maxBuffer: 16 * 1024 * 1024 });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`temporal-sql-tool ${command[0]} on ${database} failed:\n${`${stdout ?? ''}${stderr ?? ''}`.trim().split('\n').slice(-15).join('\n')}`);
    }
  };
  for (const [kind, database] of Object.entries(TEMPORAL_DATABASES) as Array<[keyof typeof TEMPORAL_DATABASES, string]>) {
    const exists = await query(server, server.adminDatabase, 'SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.length === 0) {
      await tool(database, 'create-database', '--defaultdb', server.adminDatabase);
      done.push(`created database ${database}`);
    }
    const [versioned] = await query<{ table: string | null }>(server, database, "SELECT to_regclass('schema_version')::text AS table");
    if (!versioned?.table) {
      await tool(database, 'setup-schema', '--version', '0.0');
      done.push(`set up schema versioning in ${database}`);
    }
    await tool(database, 'update-schema', '--schema-name', `postgresql/v12/${kind === 'persistence' ? 'temporal' : 'visibility'}`);
    const [version] = await query<{ curr_version: string }>(server, database, 'SELECT curr_version FROM schema_version');
    done.push(`${database} schema at version ${version?.curr_version ?? '?'}`);
  }
  return done;
}

/**
 * The server's own ports besides the frontend's, chosen at each `npm start` (kept from the last
 * one when still free). Membership ports go in a `smallint` column of the persistence schema
 * (cluster_membership.rpc_port), so they must stay below 32768: they are taken upwards from a
 * random point between Temporal's usual 6933 and 22932 (two clusters starting at once on one
 * machine, as the test suite's cluster tests do, would otherwise both see 6933 free and both
 * bind it); the others are any free port.
 */
export interface InternalPorts {
  frontendMembership: number;
  frontendHttp: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
}

async function isFree(port: number): Promise<boolean> {
  return !(await acceptsConnections('127.0.0.1', port));
}

const MEMBERSHIP_FIRST_PORT = 6933;
/**
 * How far above MEMBERSHIP_FIRST_PORT the search may start: the four stay below 20000, where
 * freePort's range begins (platform/free-port.ts), so neither hands out the other's ports.
 */
const MEMBERSHIP_SPREAD = 13_000;
const SMALLINT_MAX = 32767;

export async function chooseInternalPorts(file: string): Promise<InternalPorts> {
  let previous: Partial<InternalPorts> = {};
  try {
    previous = JSON.parse(readFileSync(file, 'utf8')) as Partial<InternalPorts>;
  } catch {
    // first start
  }
  const names: Array<keyof InternalPorts> = ['frontendMembership', 'frontendHttp', 'history', 'historyMembership', 'matching', 'matchingMembership', 'worker', 'workerMembership'];
  const ports = {} as InternalPorts;
  const taken = new Set<number>();
  let nextMembership = MEMBERSHIP_FIRST_PORT + randomInt(MEMBERSHIP_SPREAD);
  for (const name of names) {
    const membership = name.endsWith('Membership');
    const kept = previous[name];
    let port: number | undefined = kept && !taken.has(kept) && (!membership || kept <= SMALLINT_MAX) && (await isFree(kept)) ? kept : undefined;
    while (port === undefined) {
      const candidate = membership ? nextMembership++ : await freePort();
      if (membership && candidate > SMALLINT_MAX) throw new Error(`no free port below ${SMALLINT_MAX + 1} for Temporal's membership`);
      if (!taken.has(candidate) && (await isFree(candidate))) port = candidate;
    }
    taken.add(port);
    ports[name] = port;
  }
  writeFileSync(file, `${JSON.stringify(ports, null, 2)}\n`);
  return ports;
}

export interface ClusterConfigOptions {
  /** <DATA_DIR>/temporal-cluster */
  dir: string;
  frontendPort: number;
  ports: InternalPorts;
  sql: SqlServer;
  uiPort?: number;
  namespace: string;
  /** The UI's codec server (api/routes/temporal-codec.ts); in the UI config file (mode 0600), not on a command line. */
  uiCodecEndpoint?: string;
}

/**
 * Writes the server's config (`<dir>/config/scrape.yaml`, mode 0600: it holds the database
 * password) and the UI server's. JSON is YAML: no quoting to get wrong. The dynamic config is
 * deploy/temporal-server/dynamicconfig.yaml, as in docker-compose.yml.
 */
export function writeClusterConfig(options: ClusterConfigOptions): { root: string; uiRoot: string } {
  const { dir, ports, sql } = options;
  mkdirSync(path.join(dir, 'config'), { recursive: true });
  mkdirSync(path.join(dir, 'ui', 'config'), { recursive: true });
  const frontend = `127.0.0.1:${options.frontendPort}`;
  const store = (databaseName: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `${sql.host}:${sql.port}`,
      connectProtocol: 'tcp',
      user: sql.user,
      password: sql.password,
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const service = (grpcPort: number, membershipPort: number, httpPort?: number) => ({
    rpc: { grpcPort, membershipPort, bindOnIP: '127.0.0.1', ...(httpPort ? { httpPort } : {}) },
  });
  const config = {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: HISTORY_SHARDS,
      datastores: { 'postgres-default': store(TEMPORAL_DATABASES.persistence, 10), 'postgres-visibility': store(TEMPORAL_DATABASES.visibility, 4) },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' } },
    services: {
      frontend: service(options.frontendPort, ports.frontendMembership, ports.frontendHttp),
      history: service(ports.history, ports.historyMembership),
      matching: service(ports.matching, ports.matchingMembership),
      worker: service(ports.worker, ports.workerMembership),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: { active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: frontend, httpAddress: `127.0.0.1:${ports.frontendHttp}` } },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } },
    namespaceDefaults: { archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } } },
    publicClient: { hostPort: frontend },
    // One file for this mode and docker-compose.yml, read again every 10 s.
    dynamicConfigClient: { filepath: DYNAMIC_CONFIG_FILE, pollInterval: '10s' },
  };
  writeFileSync(path.join(dir, 'config', `${CONFIG_ENV}.yaml`), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });

  if (options.uiPort !== undefined) {
    const ui = {
      temporalGrpcAddress: frontend,
      host: '127.0.0.1',
      port: options.uiPort,
      enableUi: true,
      defaultNamespace: options.namespace,
      notifyOnNewVersion: false,
      hideLogs: true,
      cors: { cookieInsecure: true, allowOrigins: [] },
      auth: { enabled: false },
      ...(options.uiCodecEndpoint ? { codec: { endpoint: options.uiCodecEndpoint } } : {}),
    };
    writeFileSync(path.join(dir, 'ui', 'config', `${CONFIG_ENV}.yaml`), `${JSON.stringify(ui, null, 2)}\n`, { mode: 0o600 });
  }
  return { root: dir, uiRoot: path.join(dir, 'ui') };
}

export function serverArgs(root: string): string[] {
  return ['--root', root, '--config', 'config', '--env', CONFIG_ENV, '--allow-no-auth', 'start'];
}

export async function startTemporalServer(options: {
  serverPath: string;
  root: string;
  frontendPort: number;
  onLog?: (line: string) => void;
  signal?: AbortSignal;
}): Promise<RunningTemporal> {
  return startDetachedServer({
    label: 'The Temporal server',
    command: options.serverPath,
    args: serverArgs(options.root),
    pidFile: path.join(options.root, 'server.supervisor.pid'),
    expected: BINARIES.server.file,
    port: options.frontendPort,
    busyHint: 'another Temporal server? Stop it, or set TEMPORAL_ADDRESS to use it.',
    onLog: options.onLog,
    signal: options.signal,
  });
}

export async function startTemporalUi(options: { uiPath: string; uiRoot: string; port: number; onLog?: (line: string) => void; signal?: AbortSignal }): Promise<RunningTemporal> {
  const ui = await startDetachedServer({
    label: 'The Temporal UI server',
    command: options.uiPath,
    args: ['--root', options.uiRoot, '--config', 'config', '--env', CONFIG_ENV, 'start'],
    pidFile: path.join(options.uiRoot, 'ui.supervisor.pid'),
    expected: BINARIES.ui.file,
    port: options.port,
    busyHint: 'another Temporal UI? Set TEMPORAL_UI_PORT to another port.',
    onLog: options.onLog,
    signal: options.signal,
  });
  return { ...ui, uiUrl: `http://127.0.0.1:${options.port}` };
}
