import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { runMigrations } from '../../lib/migrate';
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
