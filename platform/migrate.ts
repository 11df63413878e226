/**
 * Applies the SQL migrations under prisma/migrations/ at start-up, keeping Prisma's own
 * `_prisma_migrations` bookkeeping so `prisma migrate deploy` agrees where its engine exists.
 *
 * - Each migration runs in one transaction with its bookkeeping row: a failure leaves the
 *   database as it was and stops start-up with a message naming the migration.
 * - A session-level advisory lock serialises concurrent starters (API and workers at once).
 * - Re-running is a no-op; a recorded migration whose file changed is refused (checksum).
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';

export const MIGRATIONS_DIR = path.resolve(__dirname, '..', 'prisma', 'migrations');
/** Arbitrary constant identifying our migration lock among advisory locks. */
const MIGRATION_LOCK_ID = 72_707_301;

const BOOKKEEPING_DDL = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  constructor(message: string, readonly migration?: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      // Prisma's checksum is the SHA-256 of the file's bytes, hex-encoded.
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export interface MigrationReport {
  applied: string[];
  alreadyApplied: number;
}

export async function runMigrations(databaseUrl: string, options: { dir?: string } = {}): Promise<MigrationReport> {
  const migrations = readMigrations(options.dir);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await client.query(BOOKKEEPING_DDL);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"',
    );
    const recorded = new Map(rows.filter((r) => r.rolled_back_at === null).map((r) => [r.migration_name, r]));
    const known = new Set(migrations.map((m) => m.name));
    for (const row of recorded.values()) {
      if (row.finished_at === null) {
        throw new MigrationError(
          `Migration ${row.migration_name} is recorded as started but not finished; resolve it by hand before starting.`,
          row.migration_name,
        );
      }
      if (!known.has(row.migration_name)) {
        throw new MigrationError(`The database has migration ${row.migration_name}, which this build does not know: is the code older than the database?`, row.migration_name);
      }
    }
    const applied: string[] = [];
    for (const migration of migrations) {
      const row = recorded.get(migration.name);
      if (row) {
        if (row.checksum !== migration.checksum) {
          throw new MigrationError(`Migration ${migration.name} was changed after it was applied (checksum differs). Add a new migration instead.`, migration.name);
        }
        continue;
      }
      try {
        await client.query('BEGIN');
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, now(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await client.query('COMMIT');
        applied.push(migration.name);
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        const reason = error instanceof Error ? error.message : String(error);
        throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${reason}`, migration.name);
      }
    }
    return { applied, alreadyApplied: migrations.length - applied.length };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await client.end();
  }
}
