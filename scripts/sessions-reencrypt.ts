/**
 * Operator tool: re-encrypts every stored session under the current key after a rotation
 * (sessions/reencrypt.ts; docs/operations.md "Session encryption key"), then re-seals the secrets
 * of saved definitions under it (sessions/reseal-definitions.ts), those stored in clear before
 * sealing existed included.
 *   npm run sessions:reencrypt
 * Uses DATABASE_URL (or the embedded database of `npm start`) and the session keys of the
 * configuration: SESSION_ENCRYPTION_KEY and SESSION_ENCRYPTION_KEYS_OLD. Exits 1 when a row no
 * configured key reads remains (its names are printed; never a key or a cookie).
 */
import { loadConfig } from '../platform/config';
import { createSqlPool } from '../platform/sql';
import { sessionKeyringFromConfig } from '../sessions/keys';
import { reencryptSessions } from '../sessions/reencrypt';
import { resealDefinitions } from '../sessions/reseal-definitions';
import { DEFINITION_COLUMNS } from './definition-columns';
import { embeddedDatabaseUrl } from './runtime/postgres';

async function main(): Promise<number> {
  const config = loadConfig();
  const url = config.DATABASE_URL ?? embeddedDatabaseUrl(config.dataDir, config.EMBEDDED_PG_PORT);
  if (!url) {
    console.error('No database: set DATABASE_URL, or run `npm start` once so the embedded one exists.');
    return 2;
  }
  const sql = createSqlPool(url, { max: 1 });
  try {
    const keyring = sessionKeyringFromConfig(config);
    const outcome = await reencryptSessions(sql, keyring);
    console.log(`re-encrypted ${outcome.reencrypted} session(s); ${outcome.current} already under the current key`);
    for (const name of outcome.unreadable) console.error(`unreadable under every configured key: ${name}`);
    // The secrets of saved definitions are sealed under the same keys (sessions/request-secrets.ts).
    const definitions = await resealDefinitions(sql, keyring, DEFINITION_COLUMNS);
    console.log(`re-sealed the secrets of ${definitions.resealed} saved definition(s) (flows, flow runs, monitors, templates, crawls)`);
    for (const name of definitions.unreadable) console.error(`a secret unreadable under every configured key: ${name}`);
    return outcome.unreadable.length || definitions.unreadable.length ? 1 : 0;
  } finally {
    await sql.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
