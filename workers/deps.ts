import { createBlacklist } from '../activities/scrape/blacklist';
import { type BrowserPool, createBrowserPool } from '../activities/scrape/browser';
import { createHttpEngine } from '../activities/scrape/http';
import type { ActivityDeps } from '../activities';
import type { Config } from '../lib/config';
import { createDatabase } from '../lib/db';
import { createLogger } from '../lib/logger';
import { createWorkerMetrics } from '../lib/metrics';
import { deliveryFromConfig } from '../lib/notification-delivery';
import { setNotificationDelivery } from '../lib/notifications';
import { createScrapeRunStore } from '../lib/scrape-runs';
import { createSqlPool } from '../lib/sql';
import { periodChargerFor } from '../lib/payments/provider';

export type WorkerDeps = ActivityDeps & { browserPool?: BrowserPool; close(): Promise<void> };

/** Builds what activities need from configuration. The caller owns and closes the result. */
export function createWorkerDeps(config: Config, databaseUrl: string): WorkerDeps {
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'worker' });
  const db = createDatabase(databaseUrl);
  const sql = createSqlPool(databaseUrl);
  const metrics = createWorkerMetrics();
  setNotificationDelivery(deliveryFromConfig(config), logger);
  const httpEngine = createHttpEngine({ allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS });
  // One Chromium per browser worker, launched on first use.
  const browserPool =
    config.WORKER_QUEUES === 'http'
      ? undefined
      : createBrowserPool({
          executablePath: config.CHROMIUM_PATH,
          maxConcurrency: config.BROWSER_CONCURRENCY,
          spareContexts: config.BROWSER_SPARE_CONTEXTS,
          recyclePages: config.BROWSER_RECYCLE_PAGES,
          allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS,
          onEvent: (event) => logger.info({ event }, 'browser pool'),
        });
  if (browserPool) metrics.observeBrowserPool(() => browserPool.stats());
  return {
    db,
    sql,
    runs: createScrapeRunStore(sql),
    logger,
    metrics,
    blacklist: createBlacklist(db),
    httpEngine,
    lowCreditThreshold: config.LOW_CREDIT_THRESHOLD,
    plans: config.SUBSCRIPTION_PLANS,
    paymentProvider: periodChargerFor(config.PAYMENT_PROVIDER),
    browserPool,
    close: async () => {
      await browserPool?.close();
      await httpEngine.close();
      await sql.close();
      await db.$disconnect();
    },
  };
}
