/**
 * What the HTTP application is built from (`createApp(deps)`): every collaborator passed in, none
 * read from globals. Declared apart from app.ts so routes and middleware can name it without
 * importing the application that mounts them.
 */
import type { Blacklist } from '../scrape/blacklist';
import type { Auth } from '../accounts/auth';
import type { SessionStore } from '../sessions/store';
import type { Config } from '../platform/config';
import type { Database } from '../platform/db';
import type { Logger } from '../platform/logger';
import type { Metrics } from '../platform/metrics';
import type { SqlPool } from '../platform/sql';
import type { LazyTemporalClient } from '../platform/temporal-client';
import type { TaskQueues } from '../workflows/definitions';
import type { ApiKeyVerifier } from './api-key-cache';
import type { ScrapeDispatcher } from './scrape-dispatch';
import type { RunningAttempts } from '../scrape/running-attempts';
import type { Limits } from './limits';

export interface AppDeps {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  db: Database;
  /** Plain SQL for the hot path of a scrape (balance reads). */
  sql: SqlPool;
  temporal: LazyTemporalClient;
  queues: TaskQueues;
  /** The auth library (accounts/auth.ts): sessions and API keys. */
  auth: Auth;
  /** API keys, verified through the auth plugin and cached until revoked (api/api-key-cache.ts). */
  apiKeys: ApiKeyVerifier;
  blacklist: Blacklist;
  /** Records and starts standalone scrapes and waits for them (api/scrape-dispatch.ts). */
  scrapes: ScrapeDispatcher;
  /** Requests per API key and runs in flight per account (api/limits.ts); createApp sets it from the config. */
  limits?: Limits;
  /** The scrape attempts this process runs (its worker's), so a cancel stops one at once (scrape/running-attempts.ts). */
  attempts?: RunningAttempts;
  /** Stored sessions (sessions/store.ts); createApp builds one from the config when absent. */
  sessions?: SessionStore;
}
