import type { Database } from '../platform/db';
import type { Logger } from '../platform/logger';
import type { WorkerMetrics } from '../platform/metrics';
import type { RunningAttempts } from '../scrape/running-attempts';
import type { ScrapeRunStore } from '../scrape/runs';
import type { SqlClient } from '../platform/sql';
import { createCreditActivities } from './credit';
import { echo } from './echo';
import { createCrawlActivities } from './crawl';
import { createFlowActivities } from './flow';
import type { Plan } from '../platform/config';
import type { PeriodCharger } from '../billing/payments/provider';
import { createSubscriptionActivities } from './subscriptions';
import { SCRAPE_ENGINES, type ScrapeMode } from '../scrape/engines';
import type { Blacklist } from '../scrape/blacklist';
import type { Engines } from '../scrape/engine-implementations';
import type { HttpEngine } from '../scrape/http/engine';
import { createScrapeBatchActivities } from './scrape/batch';
import { createMapActivities } from './map';
import type { SessionStore } from '../sessions/store';
import { createMonitorActivities } from './monitors';
import type { SessionKeyring } from '../sessions/keys';
import { createExtractActivities } from './extract';
import type { LlmSettings } from '../scrape/llm/model-formats';
import type { MonitorSettings } from '../monitors/store';
import type { WebhookSender } from '../webhooks/deliver';
import type { WebhookSettings } from '../webhooks/settings';
import { createWebhookDeliveryActivities, createWebhookEmitActivities } from './webhooks';
import { type RunEvents, finishScrapeRun, runScrapeAttempt } from './scrape/run-scrape';
import type { Activities, EngineQueueActivities, FinishScrapeRunInput, PageActivities } from '../workflows/activities';

export interface ActivityDeps {
  db: Database;
  /** Plain SQL for the hot path of a scrape (platform/sql.ts). */
  sql: SqlClient;
  /** The scrape_run row's owner (scrape/runs.ts). */
  runs: ScrapeRunStore;
  /** Told when a run finishes in this process (the API process answers from it). */
  runEvents?: RunEvents;
  /** The scrape attempts running in this process, by run (scrape/running-attempts.ts). */
  attempts?: RunningAttempts;
  /** Stored sessions, read and saved by scrapes that name one (sessions/store.ts). */
  sessions?: SessionStore;
  /** What saved definitions' request secrets are sealed under (sessions/request-secrets.ts): opened by the activities that start their scrapes. */
  secretKeyring: SessionKeyring;
  logger: Logger;
  metrics: WorkerMetrics;
  blacklist: Blacklist;
  /** The scrape engines this process holds (scrape/engine-implementations.ts). */
  engines: Engines;
  /** Flow webhooks are posted through it (not a scrape). */
  httpEngine: HttpEngine;
  /** LOW_CREDIT_THRESHOLD: a debit crossing it notifies `credit.low` (0 = off). */
  lowCreditThreshold?: number;
  /** CRAWL_ROBOTS_RETRY_MS / CRAWL_ROBOTS_GIVE_UP_MS: a crawl's unreadable robots.txt (activities/crawl.ts). */
  crawlRobots?: { retryMs: number; giveUpMs: number };
  /** SUBSCRIPTION_PLANS, for the refill activity. */
  plans?: Plan[];
  /** PAYMENT_PROVIDER, for the charge of each period of a paid plan (unset: none). */
  paymentProvider?: PeriodCharger;
  /** Event webhooks (docs/webhooks.md): their settings, and the sender of deliveries. */
  webhooks: WebhookSettings;
  webhookSender: WebhookSender;
  /** Task queue of webhook delivery workflows (the main queue). */
  webhookDeliveryQueue: string;
  /** MONITOR_* settings of the check activities (docs/monitors.md); defaults when absent. */
  monitors?: MonitorSettings;
  /** The operator's model (LLM_*): the model formats and Firecrawl's extract jobs; absent without one. */
  llm?: LlmSettings;
}

/**
 * Activities of the main task queue (orchestration, http scraping, credit, bookkeeping): the
 * contract the workflows declare (workflows/activities.ts), implemented over their dependencies.
 */
export function createActivities(deps: ActivityDeps): Activities {
  const credit = createCreditActivities({ db: deps.db, lowCreditThreshold: deps.lowCreditThreshold });
  const named = {
    echo,
    ...credit,
    ...createSubscriptionActivities({ db: deps.db, plans: deps.plans ?? [], provider: deps.paymentProvider }),
    async debitCredit(input: Parameters<typeof credit.debitCredit>[0]) {
      const change = await credit.debitCredit(input);
      if (change.applied) deps.metrics.creditsDebited.inc({ mode: input.mode ?? 'other' }, input.amount);
      return change;
    },
    async refundCredit(input: Parameters<typeof credit.refundCredit>[0]) {
      const change = await credit.refundCredit(input);
      if (change.applied) deps.metrics.creditsRefunded.inc();
      return change;
    },
    finishScrapeRun: (input: FinishScrapeRunInput) => finishScrapeRun(deps.runs, input),
    ...createScrapeBatchActivities(deps),
    ...createMapActivities(deps),
    ...createFlowActivities(deps),
    // Crawls and batch scrapes (docs/crawl.md); `proxies`/`proxySticky` are read when the process has them (workers/deps.ts).
    ...createCrawlActivities(deps),
    ...createMonitorActivities({ db: deps.db, runs: deps.runs, secretKeyring: deps.secretKeyring, monitors: deps.monitors ?? { failuresBeforeEvent: 3, retentionMs: 30 * 86_400_000, webhookDiffMaxBytes: 65_536 } }),
    // Firecrawl extract jobs (docs/firecrawl.md "Extract").
    ...createExtractActivities({ db: deps.db, logger: deps.logger, ...(deps.llm ? { llm: deps.llm } : {}) }),
    ...createWebhookEmitActivities(deps),
    ...createWebhookDeliveryActivities({ sender: deps.webhookSender, logger: deps.logger }),
  } satisfies Activities;
  // Beside them, the page activities of the engines that run with the workflows, under the table's names.
  return { ...named, ...pageActivities(deps, 'with-workflow') };
}

/** The page activities of the engines this process holds with that placement, by their table names. */
function pageActivities(deps: Pick<ActivityDeps, 'engines'> & Parameters<typeof runScrapeAttempt>[0], placement: 'with-workflow' | 'own-queue', only?: ScrapeMode): PageActivities {
  const activities: PageActivities = {};
  for (const [mode, engine] of Object.entries(deps.engines) as Array<[ScrapeMode, NonNullable<Engines[ScrapeMode]>]>) {
    const spec = SCRAPE_ENGINES[mode];
    if (spec.placement !== placement || (only !== undefined && mode !== only)) continue;
    activities[spec.activity] = (input) => runScrapeAttempt(deps, (req, opts) => engine.scrape(req, opts), input);
  }
  return activities;
}

/**
 * Activities of an `own-queue` engine's task queue (the browser's): its page activity, and the
 * bookkeeping of the standalone batches that run there (settling failed pages, a cancel).
 */
export function createEngineQueueActivities(deps: Omit<ActivityDeps, 'httpEngine' | 'webhookSender'>, mode: ScrapeMode): EngineQueueActivities {
  const batch = createScrapeBatchActivities(deps);
  return {
    // The batches that run here emit their runs' webhook events (workflows/webhook.workflow.ts).
    ...createWebhookEmitActivities(deps),
    ...pageActivities(deps, 'own-queue', mode),
    settleFailedScrapes: (input: Parameters<typeof batch.settleFailedScrapes>[0]) => batch.settleFailedScrapes(input),
    cancelScrapes: (input: Parameters<typeof batch.cancelScrapes>[0]) => batch.cancelScrapes(input),
  };
}
