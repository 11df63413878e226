import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, sql } from '../test/helpers/database';
import { MigrationError, readMigrations, runMigrations } from './migrate';

function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  for (const [name, sql] of Object.entries(files)) {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

describe('runMigrations (real PostgreSQL)', () => {
  it('applies the project migrations once, with Prisma bookkeeping, and re-running is a no-op', async () => {
    const url = await createTestDatabase({ migrate: false });
    const first = await runMigrations(url);
    expect(first.applied).toEqual(readMigrations().map((m) => m.name));
    const second = await runMigrations(url);
    expect(second).toEqual({ applied: [], alreadyApplied: first.applied.length });

    const rows = await sql<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      url,
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(first.applied);
    for (const row of rows) {
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).not.toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
    const tables = await sql<{ tablename: string }>(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
    expect(tables.map((t) => t.tablename)).toEqual(expect.arrayContaining(['user', 'apikey', 'credit_ledger', 'scrape_run']));
  });

  it('rolls a failing migration back whole and names it; earlier ones stay applied', async () => {
    const url = await createTestDatabase({ migrate: false });
    const dir = migrationsDir({
      '001_good': 'CREATE TABLE good (id int);',
      '002_bad': 'CREATE TABLE half_done (id int);\nSELECT * FROM no_such_table;',
    });
    await expect(runMigrations(url, { dir })).rejects.toThrow(/Migration 002_bad failed and was rolled back: .*no_such_table/);
    const tables = await sql<{ tablename: string }>(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
    const names = tables.map((t) => t.tablename);
    expect(names).toContain('good');
    expect(names).not.toContain('half_done');
    const recorded = await sql<{ migration_name: string }>(url, 'SELECT migration_name FROM "_prisma_migrations"');
    expect(recorded.map((r) => r.migration_name)).toEqual(['001_good']);
  });

  it('refuses a migration edited after it was applied', async () => {
    const url = await createTestDatabase({ migrate: false });
    const dir = migrationsDir({ '001_a': 'CREATE TABLE a (id int);' });
    await runMigrations(url, { dir });
    writeFileSync(path.join(dir, '001_a', 'migration.sql'), 'CREATE TABLE a (id bigint);');
    const error = await runMigrations(url, { dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).message).toMatch(/001_a was changed after it was applied/);
  });

  it('serialises concurrent runners (API and worker starting together)', async () => {
    const url = await createTestDatabase({ migrate: false });
    const results = await Promise.all([runMigrations(url), runMigrations(url), runMigrations(url)]);
    const appliedTotal = results.reduce((sum, r) => sum + r.applied.length, 0);
    expect(appliedTotal).toBe(readMigrations().length);
  });
});
