/**
 * Operator tool for the blacklist (hosts and `*.domain` patterns that must never be scraped).
 *   npm run blacklist -- list
 *   npm run blacklist -- add '*.example.com' [reason]
 *   npm run blacklist -- remove '*.example.com'
 * Uses DATABASE_URL, or the embedded database of `npm start` (DATA_DIR). Every API and worker
 * process picks a change up within a few seconds.
 */
import { createBlacklist } from '../scrape/blacklist';
import { loadConfig } from '../platform/config';
import { createDatabase } from '../platform/db';
import { embeddedDatabaseUrl } from './runtime/postgres';

async function main(): Promise<number> {
  const [command, pattern, ...reason] = process.argv.slice(2);
  const config = loadConfig();
  const url = config.DATABASE_URL ?? embeddedDatabaseUrl(config.dataDir, config.EMBEDDED_PG_PORT);
  if (!url) {
    console.error('No database: set DATABASE_URL, or run `npm start` once so the embedded one exists.');
    return 2;
  }
  const db = createDatabase(url, { poolSize: 1 });
  const blacklist = createBlacklist(db);
  try {
    if (command === 'list') {
      for (const entry of await blacklist.list()) console.log(`${entry.pattern}\t${entry.reason ?? ''}`);
      return 0;
    }
    if (command === 'add' && pattern) {
      const added = await blacklist.add([pattern], reason.join(' ') || undefined);
      console.log(added ? `added ${pattern}` : `${pattern} was already there`);
      return 0;
    }
    if (command === 'remove' && pattern) {
      console.log((await blacklist.remove(pattern)) ? `removed ${pattern}` : `${pattern} was not there`);
      return 0;
    }
    console.error('usage: npm run blacklist -- list | add <host-or-*.domain> [reason] | remove <pattern>');
    return 2;
  } finally {
    await db.$disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
