import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { runMigrations } from '../../platform/migrate';
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
