import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { runMigrations } from '../../platform/migrate';
import { type Database, createDatabase } from '../../platform/db';
import { type SqlPool, createSqlPool } from '../../platform/sql';
import { testEnv } from './env';

/** A fresh database of its own for one test file, migrated unless `migrate: false`. */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<string> {
  const admin = testEnv('adminDatabaseUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  if (options.migrate !== false) await runMigrations(url.toString());
  return url.toString();
}

/** Runs SQL against a test database (set-up and assertions: balances, ledger rows, tables). */
export async function sql<T = Record<string, unknown>>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * Every row of every table of the database, each as its JSON, one per line: what an operator or a
 * backup can read. The secrets-at-rest tests look for a secret in it.
 */
export async function everyRowOfEveryTable(databaseUrl: string): Promise<string> {
  const tables = await sql<{ name: string }>(databaseUrl, `SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`);
  const texts: string[] = [];
  for (const { name } of tables) {
    for (const row of await sql<{ row: string }>(databaseUrl, `SELECT row_to_json(t)::text AS row FROM ${name} t`)) texts.push(row.row);
  }
  return texts.join('\n');
}

/** A migrated database of its own with one user (no account, no key), its ORM and pg clients: for store-level tests. */
export interface DatabaseWithUser {
  url: string;
  db: Database;
  sql: SqlPool;
  userId: string;
  close(): Promise<void>;
}

export async function databaseWithOneUser(): Promise<DatabaseWithUser> {
  const url = await createTestDatabase();
  const db = createDatabase(url);
  const sql = createSqlPool(url);
  const userId = randomUUID();
  await db.user.create({ data: { id: userId, name: 'T', email: `${userId}@example.test`, emailVerified: false } });
  const close = async () => {
    await sql.close();
    await db.$disconnect();
  };
  return { url, db, sql, userId, close };
}
