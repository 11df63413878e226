/**
 * Client-safe definitions shared by the API, workers and workflows: task-queue names,
 * workflow ids, input/output types. No Node built-ins and no activity code here.
 */
import { engineQueue } from '../scrape/engines';
import type { ScrapeRequestPayload } from '../scrape/request';
import type { EscalationStep } from '../scrape/proxy-tiers';
import type { ErrorCode } from '../platform/errors';
import type { WebhookRetry } from '../webhooks/types';
import type { MapOptions } from '../crawl/map-request';

/** Task queues, optionally prefixed (TASK_QUEUE_PREFIX) so deployments or tests can share a server. */
export function taskQueues(prefix = '') {
  return {
    /** Orchestration (all workflows) and http-mode scraping, credit and bookkeeping activities. */
    main: `${prefix}scrape-main`,
    /** Browser-mode scraping: served by workers that own a Chromium pool (the browser engine's own queue). */
    browser: engineQueue(prefix, 'browser'),
    /**
     * Standalone scrapes (POST /webhook/unblocker, template runs): served by a worker inside each
     * API process, which starts these workflows eagerly and runs their http work in-process, and
     * by the worker processes, which take over what an API process could not (docs/scraping.md).
     */
    sync: `${prefix}scrape-sync`,
  } as const;
}

export type TaskQueues = ReturnType<typeof taskQueues>;

export interface EchoInput {
  message: string;
  /** How long the activity waits before answering (to exercise the sync limit). */
  delayMs: number;
}

export interface EchoOutput {
  message: string;
  /** Which worker process ran the activity. */
  workerPid: number;
  attempt: number;
}

export const workflowIds = {
  echo: (requestId: string) => `diagnostics-echo-${requestId}`,
  /** Before lanes: a standalone batch's own execution, named after its first run (no longer started; old executions keep it). */
  scrape: (runId: string) => `scrape-${runId}`,
  /** A lane of standalone scrapes (scrapeLaneWorkflow): an API process's instance id and its count. */
  scrapeLane: (instance: string, n: number) => `scrape-lane-${instance}-${n}`,
  /** A user template's run: the scrape workflow started under the template's business key. */
  templateRun: (templateId: string, runId: string) => `template-${templateId}-${runId}`,
  /** A flow run: `flow-<flowId>-<runId>`. Its foreach nodes are child workflows under it. */
  flowRun: (flowId: string, runId: string) => `flow-${flowId}-${runId}`,
  flowForeach: (flowRunWorkflowId: string, nodeId: string) => `${flowRunWorkflowId}-foreach-${nodeId}`,
  /** A map (POST /map, docs/crawl.md "Map"): an ordinary scrape run under its own workflow. */
  map: (runId: string) => `map-${runId}`,
  /** Settles a monitor check whose own workflow closed before it did (api/closed-workflow-runs.ts): once per check. */
  monitorCheckSettle: (checkId: string) => `monitor-check-settle-${checkId}`,
  /** One delivery of a webhook event (docs/webhooks.md); a redelivery is a delivery of its own. */
  webhookDelivery: (deliveryId: string) => `webhook-delivery-${deliveryId}`,
  /** A Firecrawl extract job (docs/firecrawl.md "Extract"): waits for its crawl and batch jobs, then asks the model. */
  extract: (extractId: string) => `extract-${extractId}`,
} as const;

/** An extract job's workflow (workflows/extract.workflow.ts): everything else is in its extract_job row. */
export interface ExtractWorkflowInput {
  extractId: string;
}

export type ExtractEndStatus = 'completed' | 'failed' | 'cancelled';


export interface ScrapeWorkflowInput {
  runId: string;
  userId: string;
  apiKeyId: string | null;
  cost: number;
  request: ScrapeRequestPayload;
  /** Task queue of browser-mode activities (the workflow runs on the main queue). */
  browserQueue: string;
}

/** Small on purpose: the scraped content is stored in PostgreSQL (scrape_run.result), not in history. */
export type ScrapeWorkflowOutput =
  | { status: 'succeeded'; httpStatus: number }
  | { status: 'failed'; code: ErrorCode; message: string };

/** What the scrape activity returns through Temporal (the content itself went to PostgreSQL). */
export interface ScrapeActivityOutput {
  httpStatus: number;
  finalUrl: string;
  elapsedMs: number;
}

// The scrape's time budget lives with the scrape domain (the request schema reads it too).
export { SCRAPE_RETRY, SCRAPE_SCHEDULE_TO_CLOSE_MS, defaultAttemptTimeoutMs } from '../scrape/attempt-budget';

/** One scrape of a batch: its run (recorded by the API before the start), price and request. */
export interface ScrapeJob {
  runId: string;
  userId: string;
  apiKeyId: string | null;
  cost: number;
  request: ScrapeRequestPayload;
  /**
   * When the API accepted the request (epoch ms): its 50 s budget runs from here, time spent
   * waiting for a worker included. Absent on jobs recorded before; the batch's start stands in.
   */
  acceptedAt?: number;
  /**
   * Emit the run's webhook event when it finishes (docs/webhooks.md): set by the API for an async
   * request with a `webhook`, or from an account with endpoints. Absent: no webhook step at all.
   */
  events?: true;
  /**
   * `auto` mode (docs/scraping.md "Escalation"): the steps (engine, proxy tier, price) the run may
   * climb, the first being its `request.mode`; built by the API from the tiers it has configured.
   * The run pays once, when it succeeds, the served step's price. Absent on every other run.
   */
  escalation?: EscalationStep[];
}

/**
 * Standalone scrapes of one account, one mode and one target host that arrived together: a batch
 * handed to a lane (scrapeLaneWorkflow, `scrape-lane-<instance>-<n>`), or a template run's own
 * scrapeBatchWorkflow. A template run's execution lists its runs in the search attribute
 * ScrapeRunIds (as did lanes started before LANE_UNLISTED_RUNS_PATCH); a lane's are in its history.
 * Each keeps its own run row, debit, retries, refund and outcome.
 */
export interface ScrapeBatchWorkflowInput {
  scrapes: ScrapeJob[];
  /** Task queue of browser-mode activities (an http batch runs on the sync queue). */
  browserQueue: string;
  /**
   * true: the batch runs on the browser queue itself and renders its pages as local activities
   * of the browser worker (no activity task round trip). Absent on batches started before, which
   * schedule the render on `browserQueue` as a regular activity (and replay that way).
   */
  renderLocally?: boolean;
}

/** A map (POST /map): its run (recorded by the API before the start) and what to list. */
export interface MapWorkflowInput {
  job: ScrapeJob;
  map: MapOptions;
}

/** Small: the links are stored with the run (scrape_run.result.links), not in history. */
export type MapWorkflowOutput = ScrapeWorkflowOutput;

/**
 * Most runs one lane (scrapeLaneWorkflow) takes: lanes started before LANE_UNLISTED_RUNS_PATCH
 * list them in ScrapeRunIds, which must stay under the server's 2,048 bytes per search-attribute
 * value (a run id takes ~39 bytes of it: about 52 fit); kept for every lane (one rule). A lane's
 * first batch may bring up to SCRAPE_BATCH_MAX (at most 50) on its own.
 */
export const LANE_MAX_RUNS = 45;

/** The Signal that hands a running lane a batch (workflows/scrape.workflow.ts scrapeLaneSignal). */
export const scrapeLaneSignalName = 'scrapes';

/** The Signal that cancels one run of a lane (POST /webhook/runs/:id/cancel; workflows/scrape.workflow.ts). */
export const cancelScrapeRunSignalName = 'cancelRun';

export interface CancelScrapeRunSignal {
  runId: string;
}

export interface ScrapeBatchWorkflowOutput {
  succeeded: number;
  failed: number;
}

/** The first attempt of each http scrape of a batch, done by one local activity. */
export type FirstAttemptOutcome =
  | { runId: string; status: 'succeeded' }
  | { runId: string; status: 'failed'; code: ErrorCode; message: string; retryable: boolean };

// ---------------------------------------------------------------- flows (flow-definitions.ts)

export * from './flow-definitions';


export interface SubscriptionRefillInput {
  subscriptionId: string;
}

export interface RefillActivityInput {
  subscriptionId: string;
  /** The schedule's scheduled time for this action (ISO), never the activity's wall clock. */
  scheduledAt: string;
}

/**
 * What a period's refill did. A paid period is granted only once its payment has succeeded:
 * `charge-due` (the workflow then asks the provider to charge it), `awaiting-payment` (its
 * webhook will grant it), `past-due` (its charge failed; a later successful attempt grants it).
 */
export type RefillOutcome =
  | { status: 'granted' | 'already-granted'; period: number; credits: number }
  | { status: 'no-allowance'; period: number }
  | { status: 'charge-due' | 'awaiting-payment' | 'past-due' | 'refunded'; period: number; paymentId: string }
  | { status: 'ended' | 'inactive' | 'before-start' };

export interface ChargePeriodInput {
  paymentId: string;
}

export interface SubscriptionEndInput {
  subscriptionId: string;
  /** cancelAt (ISO): the workflow sleeps until then. */
  endsAt: string;
}


export interface WebhookDeliveryWorkflowInput {
  deliveryId: string;
  retry: WebhookRetry;
}


/** Deliveries to start, each as a `webhookDeliveryWorkflow` on `taskQueue`. */
export interface EmittedWebhookEvents {
  deliveryIds: string[];
  taskQueue: string;
  retry: WebhookRetry;
}

// ---------------------------------------------------------------- crawls and batch scrapes (docs/crawl.md)

/** A crawl's or batch's workflow id: every execution (continue-as-new, resume) runs under it. */
export const crawlWorkflowId = (crawlId: string) => `crawl-${crawlId}`;

/** Ledger/event subjects of a crawl: one end event per execution that ends it (a resumed crawl ends again). */
export const crawlEventSubjects = {
  end: (crawlId: string, resumes: number) => `crawl:${crawlId}:end:${resumes}`,
  page: (crawlId: string, runId: string) => `crawl_page:${crawlId}:${runId}`,
} as const;

/** Pages one execution starts before it continues as new (after its pages in flight finish). */
export const CRAWL_PAGES_PER_EXECUTION = 200;

export interface CrawlWorkflowInput {
  crawlId: string;
  /** Task queue of browser-mode page activities. */
  browserQueue: string;
  /** false on a job's first execution: robots.txt, sitemaps and the seeds come first. */
  seeded: boolean;
  /** Epoch ms before which each origin takes no request (politeness carried over continue-as-new). */
  readyAt?: Record<string, number>;
}

export type CrawlEndStatus = 'completed' | 'failed' | 'cancelled' | 'credit_exhausted';

export interface CrawlWorkflowOutput {
  status: CrawlEndStatus;
}

/** What an execution needs to know of its job (read once per execution). */
export interface CrawlPlan {
  /** false: the job had already ended (cancelled before this execution began). */
  proceed: boolean;
  kind: 'crawl' | 'batch';
  userId: string;
  apiKeyId: string | null;
  concurrency: number;
  /** Credits one page costs. */
  pageCost: number;
  /** The scrape request of every page, without `url`. */
  scrape: Omit<ScrapeRequestPayload, 'url'>;
  /** Emit `crawl.*` events (a request webhook, or the account has endpoints). */
  events: boolean;
  resumes: number;
  /** `auto` pages (docs/scraping.md "Escalation"): every page climbs these steps (workflows/crawl-escalation.ts). Absent on every other job. */
  escalation?: EscalationStep[];
}

/** A claimed page: its run, and the wait its host asks between requests. */
export interface CrawlPageClaim {
  runId: string;
  url: string;
  depth: number;
  /** scheme://host:port: politeness is per origin. */
  origin: string;
  delayMs: number;
}

/** A claim that keeps back what must wait (activities/crawl.ts claimCrawlFrontier). */
export interface CrawlFrontierClaim {
  pages: CrawlPageClaim[];
  /** Queued pages were kept back (only reported when the claim took fewer pages than asked). */
  held: boolean;
  /** Origins whose unreadable robots.txt is due to be fetched again, with pages waiting for it. */
  robotsDue: string[];
  /** In how many ms the next such origin is due (null: none waiting). */
  robotsDueInMs: number | null;
}

export type CrawlPageOutcome =
  | { status: 'succeeded'; httpStatus: number }
  | { status: 'failed'; code: ErrorCode; message: string };

// ---------------------------------------------------------------- monitors (docs/monitors.md)

/** The action of a monitor's Schedule: the monitor to check (its request is read at each check). */
export interface MonitorCheckWorkflowInput {
  monitorId: string;
  /** Task queue of browser-mode page activities. */
  browserQueue: string;
}

export interface StartMonitorCheckInput {
  monitorId: string;
  checkId: string;
  runId: string;
  workflowId: string;
  /** The schedule's time for this tick (ISO); a manual trigger's is when it was asked. */
  scheduledAt: string;
}

export type StartedMonitorCheck =
  | { proceed: false }
  | { proceed: true; userId: string; apiKeyId: string | null; cost: number; request: ScrapeRequestPayload };

export interface MonitorCheckOutcome {
  checkId: string;
  status: 'new' | 'same' | 'changed' | 'removed' | 'failed' | 'gone';
}
