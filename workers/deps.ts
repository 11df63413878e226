import { taskQueues } from '../workflows/definitions';
import { createBlacklist } from '../scrape/blacklist';
import type { BrowserPool } from '../scrape/browser';
import { type Engines, closeEngines, createEngines, servedModes } from '../scrape/engine-implementations';
import { createHttpEngine } from '../scrape/http/engine';
import { type ScrapeActivityDeps, proxySettings } from '../activities/scrape/run-scrape';
import { createScrapeBatchActivities } from '../activities/scrape/batch';
import { createMapActivities } from '../activities/map';
import { createWebhookEmitActivities } from '../activities/webhooks';
import type { ActivityDeps } from '../activities';
import type { Config } from '../platform/config';
import { llmSettingsOf } from '../scrape/llm/model-formats';
import { createDatabase } from '../platform/db';
import { createLogger } from '../platform/logger';
import { createWorkerMetrics } from '../platform/metrics';
import { deliveryFromConfig } from '../notifications/delivery';
import { setNotificationDelivery } from '../notifications/notifications';
import { createRunningAttempts } from '../scrape/running-attempts';
import { createScrapeRunStore } from '../scrape/runs';
import { createSqlPool } from '../platform/sql';
import { sessionStoreFromConfig } from '../sessions/store';
import { configuredKeyring } from '../sessions/keys';
import { unsealHeaderValues } from '../sessions/request-secrets';
import { periodChargerFor } from '../billing/payments/provider';
import { createWebhookSender } from '../webhooks/deliver';
import { createWebhookGuard, webhookSettings } from '../webhooks/settings';
import { chromiumIsolation } from '../scrape/browser/launch-environment';

export type WorkerDeps = ActivityDeps & { browserPool?: BrowserPool; close(): Promise<void> };

/** What a scrape's activities read from configuration: the same in a worker process and in the API's own worker. */
export function scrapeActivitySettings(config: Config): Pick<ScrapeActivityDeps, 'lowCreditThreshold' | 'proxies' | 'proxySticky' | 'llm'> {
  const llm = llmSettingsOf(config);
  return { lowCreditThreshold: config.LOW_CREDIT_THRESHOLD, ...proxySettings(config), ...(llm ? { llm } : {}) };
}

/**
 * The activities of the API process's own worker of the sync queue (api/server.ts): the
 * standalone scrapes and maps started eagerly there, and the webhook events of the batches that
 * run there. A worker process serves the same queue with every activity (activities/index.ts).
 */
export function createHostedSyncActivities(config: Config, deps: ScrapeActivityDeps & { engines: Engines }) {
  return {
    ...createScrapeBatchActivities(deps),
    // Maps (POST /map) run here too, eagerly started like the scrapes (docs/crawl.md "Map").
    ...createMapActivities({ ...deps, httpEngine: deps.engines.http! }),
    // Batches that run here emit their runs' webhook events (workflows/webhook.workflow.ts).
    ...createWebhookEmitActivities({ db: deps.db, logger: deps.logger, webhooks: webhookSettings(config), webhookDeliveryQueue: taskQueues(config.TASK_QUEUE_PREFIX).main }),
  };
}

/** Builds what activities need from configuration. The caller owns and closes the result. */
export function createWorkerDeps(config: Config, databaseUrl: string): WorkerDeps {
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'worker' });
  const db = createDatabase(databaseUrl);
  const sql = createSqlPool(databaseUrl);
  const metrics = createWorkerMetrics();
  setNotificationDelivery(deliveryFromConfig(config), logger);
  // The engines of the queues this worker serves (a Chromium only where browser pages are done).
  const engines = createEngines(servedModes(config.WORKER_QUEUES), config, logger);
  // Flow webhooks go through an http engine too, also on a worker that holds none for scraping.
  const httpEngine = engines.http ?? createHttpEngine({ allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS });
  const browserPool = engines.browser;
  const blacklist = createBlacklist(db);
  const webhooks = webhookSettings(config);
  const secretKeyring = configuredKeyring(config);
  // A Firecrawl job webhook's own headers are sealed as the job's secrets (kind `crawl`).
  const openHeaders = (userId: string, headers: Record<string, unknown>) => unsealHeaderValues(secretKeyring, { userId, kind: 'crawl' }, headers);
  const webhookSender = createWebhookSender({ db, settings: webhooks, guard: createWebhookGuard(webhooks, blacklist.isBlacklisted), openHeaders });
  if (browserPool) metrics.observeBrowserPool(() => browserPool.stats());
  // One line at start when Chromium cannot have its sandbox here (docs/operations.md, "Chromium's isolation").
  const isolationNotice = browserPool ? chromiumIsolation(config.CHROMIUM_PATH).notice : undefined;
  if (isolationNotice) logger.warn(isolationNotice);
  return {
    db,
    sql,
    runs: createScrapeRunStore(sql),
    sessions: sessionStoreFromConfig(sql, config),
    secretKeyring,
    // The attempts this worker runs, so a lane's cancel Signal stops one run's fetch (scrape/running-attempts.ts).
    attempts: createRunningAttempts(),
    logger,
    metrics,
    blacklist,
    webhooks,
    webhookSender,
    webhookDeliveryQueue: taskQueues(config.TASK_QUEUE_PREFIX).main,
    engines,
    httpEngine,
    ...scrapeActivitySettings(config),
    crawlRobots: { retryMs: config.CRAWL_ROBOTS_RETRY_MS, giveUpMs: config.CRAWL_ROBOTS_GIVE_UP_MS },
    plans: config.SUBSCRIPTION_PLANS,
    monitors: monitorSettings(config),
    paymentProvider: periodChargerFor(config.PAYMENT_PROVIDER),
    browserPool,
    close: async () => {
      await closeEngines(engines);
      await webhookSender.close();
      if (!engines.http) await httpEngine.close();
      await sql.close();
      await db.$disconnect();
    },
  };
}

/** The monitors' settings for their check activities (monitors/store.ts MonitorSettings). */
function monitorSettings(config: Pick<Config, 'MONITOR_FAILURES_BEFORE_EVENT' | 'MONITOR_CHECK_RETENTION_DAYS' | 'MONITOR_WEBHOOK_DIFF_MAX_BYTES'>) {
  return { failuresBeforeEvent: config.MONITOR_FAILURES_BEFORE_EVENT, retentionMs: config.MONITOR_CHECK_RETENTION_DAYS * 86_400_000, webhookDiffMaxBytes: config.MONITOR_WEBHOOK_DIFF_MAX_BYTES };
}
