import type { Config } from '../lib/config';
import { createDatabase } from '../lib/db';
import { createLogger } from '../lib/logger';
import type { ActivityDeps } from '../activities';

/** Builds what activities need from configuration. The caller owns and closes the result. */
export function createWorkerDeps(config: Config, databaseUrl: string): ActivityDeps & { close(): Promise<void> } {
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'worker' });
  const db = createDatabase(databaseUrl);
  return { db, logger, close: () => db.$disconnect() };
}
