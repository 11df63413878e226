/**
 * What the service runs on, under `npm start`'s supervisor: PostgreSQL (DATABASE_URL, or an
 * embedded server) and Temporal (TEMPORAL_ADDRESS, or the dev server, or — cluster topology — the
 * official Temporal server on PostgreSQL with its UI server). Added to the supervisor first, then
 * started in order: PostgreSQL, Temporal's schemas and config (cluster), Temporal.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import type { Config } from '../../platform/config';
import { httpHealth, postgresHealth, temporalHealth } from '../runtime/health-checks';
import { embeddedDatabaseUrl, startEmbeddedPostgres } from '../runtime/postgres';
import type { Supervisor } from '../runtime/supervisor';
import { type ClusterBinaries, chooseInternalPorts, ensureClusterBinaries, setupTemporalSchemas, sqlServerOf, startTemporalServer, startTemporalUi, writeClusterConfig } from '../runtime/temporal-cluster';
import { prepareNamespace } from '../runtime/temporal-namespace';
import { resolveTemporalCli, startTemporalDevServer } from '../runtime/temporal-server';
import { say } from './messages';
import { operatorToken } from '../../workers/payload-codec';
import { CODEC_PATH } from '../../api/routes/temporal-codec';

/** What the start learns as it goes: read by later steps and by the processes' start functions. */
export interface Infrastructure {
  /** The supervised processes among postgres and temporal (temporal-ui aside). */
  names: string[];
  databaseUrl: string | undefined;
  temporalAddress: string | undefined;
  temporalUiUrl?: string;
  /** The dev server's CLI, when `npm start` runs it. */
  temporalCli?: string;
  /** The official server's binaries, when `npm start` runs it (cluster topology). */
  clusterBinaries?: ClusterBinaries;
  /** Its config, written once PostgreSQL runs. */
  clusterRoot?: { root: string; uiRoot: string };
}

/** Adds to the supervisor what DATABASE_URL and TEMPORAL_ADDRESS do not provide. Exits when no Temporal can be had. */
export function addInfrastructure(supervisor: Supervisor, config: Config, cluster: boolean): Infrastructure {
  const infrastructure: Infrastructure = { names: [], databaseUrl: config.DATABASE_URL, temporalAddress: config.TEMPORAL_ADDRESS };
  if (!infrastructure.databaseUrl) addEmbeddedPostgres(supervisor, config, infrastructure);
  if (!infrastructure.temporalAddress && cluster) addTemporalCluster(supervisor, config, infrastructure);
  if (!infrastructure.temporalAddress) addTemporalDevServer(supervisor, config, infrastructure);
  return infrastructure;
}

function addEmbeddedPostgres(supervisor: Supervisor, config: Config, infrastructure: Infrastructure): void {
  infrastructure.names.push('postgres');
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

function addTemporalCluster(supervisor: Supervisor, config: Config, infrastructure: Infrastructure): void {
  const binaries = ensureClusterBinaries(config.dataDir, say);
  if (!binaries) {
    console.error('[start] No Temporal server for --topology=cluster: set TEMPORAL_ADDRESS, or install Go so the pinned server can be built (deploy/temporal-server).');
    process.exit(1);
  }
  infrastructure.clusterBinaries = binaries;
  infrastructure.names.push('temporal');
  const address = `127.0.0.1:${config.TEMPORAL_DEV_PORT}`;
  infrastructure.temporalAddress = address;
  supervisor.add({
    name: 'temporal',
    dependsOn: infrastructure.names.includes('postgres') ? ['postgres'] : [],
    start: async ({ output, signal }) => {
      const clusterRoot = infrastructure.clusterRoot;
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
      const clusterRoot = infrastructure.clusterRoot;
      if (!clusterRoot) throw new Error('the Temporal UI config was not written');
      const ui = await startTemporalUi({ uiPath: binaries.ui, uiRoot: clusterRoot.uiRoot, port: config.TEMPORAL_UI_PORT, signal, onLog: (line) => output.push(line) });
      infrastructure.temporalUiUrl = ui.uiUrl;
      return { pid: ui.pid, exited: ui.exited, stop: () => ui.stop() };
    },
    health: httpHealth(`http://127.0.0.1:${config.TEMPORAL_UI_PORT}/`, { anyStatus: true }),
  });
}

function addTemporalDevServer(supervisor: Supervisor, config: Config, infrastructure: Infrastructure): void {
  const cliPath = resolveTemporalCli(config.dataDir, say, config.TEMPORAL_CLI_PATH);
  if (!cliPath) {
    console.error('[start] No Temporal server: set TEMPORAL_ADDRESS, put the `temporal` CLI on PATH, or install Go so the pinned CLI can be built.');
    process.exit(1);
  }
  infrastructure.names.push('temporal');
  infrastructure.temporalCli = cliPath;
  const address = `127.0.0.1:${config.TEMPORAL_DEV_PORT}`;
  infrastructure.temporalAddress = address;
  supervisor.add({
    name: 'temporal',
    start: async ({ output, signal }) => {
      const temporal = await startTemporalDevServer({
        cliPath,
        port: config.TEMPORAL_DEV_PORT,
        uiPort: config.TEMPORAL_UI_PORT,
        uiCodecEndpoint: uiCodecEndpoint(config),
        dbFile: path.join(config.dataDir, 'temporal', 'temporal.db'),
        namespace: config.TEMPORAL_NAMESPACE,
        signal,
        onLog: (line) => output.push(line),
      });
      infrastructure.temporalUiUrl = temporal.uiUrl;
      return { pid: temporal.pid, exited: temporal.exited, stop: () => temporal.stop() };
    },
    health: temporalHealth(address),
  });
}

/**
 * Starts what addInfrastructure added, in order, and resolves with the addresses the service's
 * processes are given once PostgreSQL and Temporal answer.
 */
export async function startInfrastructure(supervisor: Supervisor, config: Config, infrastructure: Infrastructure): Promise<{ databaseUrl: string; temporalAddress: string }> {
  if (infrastructure.names.includes('postgres')) {
    say(`starting embedded PostgreSQL on 127.0.0.1:${config.EMBEDDED_PG_PORT} (data in ${path.join(config.dataDir, 'postgres')})`);
    await supervisor.start('postgres');
    infrastructure.databaseUrl = embeddedDatabaseUrl(config.dataDir, config.EMBEDDED_PG_PORT);
  }
  const { databaseUrl, temporalAddress, clusterBinaries } = infrastructure;
  if (!databaseUrl || !temporalAddress) throw new Error('no database or Temporal address');
  if (infrastructure.names.includes('temporal') && clusterBinaries) {
    const sql = sqlServerOf(databaseUrl);
    say(`setting up Temporal's schemas in PostgreSQL ${sql.host}:${sql.port} (${clusterBinaries.sqlTool})`);
    for (const line of await setupTemporalSchemas(clusterBinaries.sqlTool, sql)) say(`  ${line}`);
    const dir = path.join(config.dataDir, 'temporal-cluster');
    mkdirSync(dir, { recursive: true });
    const ports = await chooseInternalPorts(path.join(dir, 'ports.json'));
    infrastructure.clusterRoot = writeClusterConfig({ dir, frontendPort: config.TEMPORAL_DEV_PORT, ports, sql, uiPort: config.TEMPORAL_UI_PORT, namespace: config.TEMPORAL_NAMESPACE, uiCodecEndpoint: uiCodecEndpoint(config) });
    say(`starting the Temporal server ${clusterBinaries.server} on ${temporalAddress} (config ${path.join(dir, 'config')})`);
    await supervisor.start('temporal');
    void supervisor.start('temporal-ui').catch(() => undefined);
  } else {
    if (infrastructure.names.includes('temporal')) {
      say(`starting the Temporal dev server (${infrastructure.temporalCli}) on ${temporalAddress}`);
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
  return { databaseUrl, temporalAddress };
}

/**
 * The bundled UI's codec server: the API's, with the operator credential in the path (the UI's
 * codec setting is a URL and nothing else: api/routes/temporal-codec.ts). The UI calls it from the
 * operator's browser on this machine, so the loopback address of the API's port.
 */
export function uiCodecEndpoint(config: Config): string | undefined {
  const token = operatorToken(config);
  return token ? `http://127.0.0.1:${config.PORT}${CODEC_PATH}/${token}` : undefined;
}
