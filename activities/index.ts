import type { Logger } from '../lib/logger';
import type { Database } from '../lib/db';
import { echo } from './echo';

export interface ActivityDeps {
  db: Database;
  logger: Logger;
}

/** Activities close over their dependencies; workflows type their proxies from this factory. */
export function createActivities(_deps: ActivityDeps) {
  return { echo };
}

export type Activities = ReturnType<typeof createActivities>;
