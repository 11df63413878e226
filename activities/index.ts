import type { Database } from '../lib/db';
import type { Logger } from '../lib/logger';
import type { WorkerMetrics } from '../lib/metrics';
import type { ScrapeRunStore } from '../lib/scrape-runs';
import type { SqlClient } from '../lib/sql';
import { createCreditActivities } from './credit';
import { echo } from './echo';
import { createFlowActivities } from './flow';
import type { Plan } from '../lib/config';
import type { PeriodCharger } from '../lib/payments/provider';
import { createSubscriptionActivities } from './subscriptions';
import type { Blacklist } from './scrape/blacklist';
import type { BrowserPool } from './scrape/browser';
import type { HttpEngine } from './scrape/http';
import { createScrapeBatchActivities } from './scrape/batch';
import { type FinishScrapeRunInput, type RunEvents, type ScrapeActivityInput, finishScrapeRun, runScrapeAttempt } from './scrape/run-scrape';

export interface ActivityDeps {
  db: Database;
  /** Plain SQL for the hot path of a scrape (lib/sql.ts). */
  sql: SqlClient;
  /** The scrape_run row's owner (lib/scrape-runs.ts). */
  runs: ScrapeRunStore;
  /** Told when a run finishes in this process (the API process answers from it). */
  runEvents?: RunEvents;
  logger: Logger;
  metrics: WorkerMetrics;
  blacklist: Blacklist;
  httpEngine: HttpEngine;
  /** LOW_CREDIT_THRESHOLD: a debit crossing it notifies `credit.low` (0 = off). */
  lowCreditThreshold?: number;
  /** SUBSCRIPTION_PLANS, for the refill activity. */
  plans?: Plan[];
  /** PAYMENT_PROVIDER, for the charge of each period of a paid plan (unset: none). */
  paymentProvider?: PeriodCharger;
}

/**
 * Activities of the main task queue (orchestration, http scraping, credit, bookkeeping).
 * They close over their dependencies; workflows type their proxies from this factory.
 */
export function createActivities(deps: ActivityDeps) {
  const credit = createCreditActivities({ db: deps.db, lowCreditThreshold: deps.lowCreditThreshold });
  return {
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
    fetchPage: (input: ScrapeActivityInput) => runScrapeAttempt(deps, (req, opts) => deps.httpEngine.scrape(req, opts), input),
    finishScrapeRun: (input: FinishScrapeRunInput) => finishScrapeRun(deps.runs, input),
    ...createScrapeBatchActivities(deps),
    ...createFlowActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;

/** Activities of the browser task queue, served by workers that own a Chromium pool. */
export function createBrowserActivities(deps: Omit<ActivityDeps, 'httpEngine'> & { browserPool: BrowserPool }) {
  return {
    renderPage: (input: ScrapeActivityInput) => runScrapeAttempt(deps, (req, opts) => deps.browserPool.scrape(req, opts), input),
  };
}

export type BrowserActivities = ReturnType<typeof createBrowserActivities>;
