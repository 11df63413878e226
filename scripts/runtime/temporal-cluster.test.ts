import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../../platform/config';
import { listenOnLoopback } from '../../platform/free-port';
import { DYNAMIC_CONFIG_FILE, HISTORY_SHARDS, chooseInternalPorts, ensureClusterBinaries, serverArgs, sqlServerOf, writeClusterConfig } from './temporal-cluster';

describe('the cluster topology’s Temporal configuration', () => {
  // The real binary judges the files we write (built once per clone; seconds with Go's caches warm).
  let serverPath = '';
  beforeAll(() => {
    const built = ensureClusterBinaries(parseConfig(process.env).dataDir, (line) => console.log(line));
    if (!built) throw new Error('No Go: the Temporal server cannot be built from deploy/temporal-server');
    serverPath = built.server;
  }, 900_000);

  it('reads the server, schema-tool credentials from DATABASE_URL (escaped characters included)', () => {
    expect(sqlServerOf('postgresql://us%40er:p%2Fss%3Aw@db.example:6543/scrape?sslmode=disable')).toEqual({ host: 'db.example', port: 6543, user: 'us@er', password: 'p/ss:w', adminDatabase: 'scrape' });
    expect(sqlServerOf('postgresql://u:p@127.0.0.1/x').port).toBe(5432);
  });

  it('keeps membership ports below 32768 (a smallint column of the schema) and reuses free ones at the next start', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'temporal-ports-')), 'ports.json');
    const first = await chooseInternalPorts(file);
    const all = Object.values(first);
    expect(new Set(all).size).toBe(all.length);
    for (const [name, port] of Object.entries(first)) if (name.endsWith('Membership')) expect(port).toBeLessThanOrEqual(32767);
    expect(await chooseInternalPorts(file)).toEqual(first);

    // A port taken meanwhile is replaced; the others are kept.
    const squatter = net.createServer();
    writeFileSync(file, JSON.stringify({ ...first, history: await listenOnLoopback(squatter) }));
    try {
      const taken = JSON.parse(readFileSync(file, 'utf8')) as { history: number };
      const next = await chooseInternalPorts(file);
      expect(next.history).not.toBe(taken.history);
      expect({ ...next, history: 0 }).toEqual({ ...first, history: 0 });
    } finally {
      squatter.close();
    }
  });

  it('writes a config the server loads as written (private: it holds the password) and a dynamic config it accepts', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-config-'));
    const ports = await chooseInternalPorts(path.join(dir, 'ports.json'));
    const sql = { host: '127.0.0.1', port: 5999, user: 'postgres', password: 'pa"ss: {word}', adminDatabase: 'scrape' };
    const { root, uiRoot } = writeClusterConfig({ dir, frontendPort: 7999, ports, sql, uiPort: 8999, namespace: 'default' });
    const file = path.join(root, 'config', 'scrape.yaml');
    expect(statSync(file).mode & 0o077).toBe(0);

    // `render-config` loads it exactly as `start` does and prints what the server understood.
    // (`render-config` reads --config alone, where `start` joins it to --root.)
    expect(serverArgs(root)).toEqual(['--root', root, '--config', 'config', '--env', 'scrape', '--allow-no-auth', 'start']);
    const rendered = execFileSync(serverPath, ['--config', path.join(root, 'config'), '--env', 'scrape', 'render-config'], { encoding: 'utf8' });
    expect(rendered).toContain(`numHistoryShards: ${HISTORY_SHARDS}`);
    expect(rendered).toContain('databaseName: temporal_visibility');
    expect(rendered).toContain('grpcPort: 7999');
    expect(rendered).toContain(`membershipPort: ${ports.historyMembership}`);
    expect(rendered).toContain(`filepath: ${DYNAMIC_CONFIG_FILE}`);
    // It masks passwords: the file itself carries this one intact through YAML's quoting.
    const written = JSON.parse(readFileSync(file, 'utf8')) as { persistence: { datastores: Record<string, { sql: { password: string } }> } };
    expect(Object.values(written.persistence.datastores).map((store) => store.sql.password)).toEqual([sql.password, sql.password]);
    expect(readFileSync(path.join(uiRoot, 'config', 'scrape.yaml'), 'utf8')).toContain('"temporalGrpcAddress": "127.0.0.1:7999"');

    // The server's own validator: no unknown key, no value of the wrong type.
    const validated = execFileSync(serverPath, ['validate-dynamic-config', DYNAMIC_CONFIG_FILE], { encoding: 'utf8' });
    expect(validated).not.toMatch(/warning|error/i);
    expect(readFileSync(DYNAMIC_CONFIG_FILE, 'utf8')).toContain('system.enableEagerWorkflowStart');
  });
});
