/**
 * Client-safe definitions shared by the API, workers and workflows: task-queue names,
 * workflow ids, input/output types. No Node built-ins and no activity code here.
 */

/** Task queues, optionally prefixed (TASK_QUEUE_PREFIX) so deployments or tests can share a server. */
export function taskQueues(prefix = '') {
  return {
    /** Orchestration (all workflows) and http-mode scraping, credit and bookkeeping activities. */
    main: `${prefix}scrape-main`,
    /** Browser-mode scraping: served by workers that own a Chromium pool. */
    browser: `${prefix}scrape-browser`,
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
  scrape: (runId: string) => `scrape-${runId}`,
  /** A user template's run: the scrape workflow started under the template's business key. */
  templateRun: (templateId: string, runId: string) => `template-${templateId}-${runId}`,
} as const;

/** Idempotency keys of a scrape's ledger rows: one debit and at most one refund per run. */
export const scrapeCreditKeys = {
  debit: (runId: string) => `debit:scrape:${runId}`,
} as const;

/**
 * A validated scrape request as the workflow carries it (api/schemas/scrape.ts `ScrapeRequest`,
 * repeated structurally here so workflow code imports no zod).
 */
export interface ScrapeRequestPayload {
  url: string;
  mode: 'http' | 'browser';
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Record<string, unknown>;
  selectors?: Array<{ selector: string; name?: string; attribute?: string; all?: boolean }>;
  capture_network: boolean;
  fill_form?: { selector?: string; fields: Record<string, string | number | boolean>; submit?: string };
  wait_for?: string;
  options: { retry_count: number; timeout_ms?: number };
}

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
  | { status: 'failed'; code: string; message: string };

/** What the scrape activity returns through Temporal (the content itself went to PostgreSQL). */
export interface ScrapeActivityOutput {
  httpStatus: number;
  finalUrl: string;
  elapsedMs: number;
}

/** Failure types a retry cannot fix: raised as non-retryable ApplicationFailures. */
export const NON_RETRYABLE_SCRAPE_ERRORS = [
  'BAD_REQUEST',
  'INVALID_URL',
  'INVALID_SELECTOR',
  'BLACKLISTED',
  'PRIVATE_TARGET',
  'RESPONSE_TOO_LARGE',
  'INSUFFICIENT_CREDIT',
] as const;

/** Per-attempt deadline when the request gives no `options.timeout_ms`. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 30_000;
/** The whole scrape, every retry included (DESIGN.md: schedule-to-close 50 s). */
export const SCRAPE_SCHEDULE_TO_CLOSE_MS = 50_000;

/** Subscriptions: one Temporal Schedule per subscription, whose action runs the refill workflow. */
export const subscriptionIds = {
  schedule: (subscriptionId: string) => `subscription-${subscriptionId}`,
  /** Workflow id of the schedule's action (Temporal appends the scheduled time). */
  refillWorkflow: (subscriptionId: string) => `subscription-${subscriptionId}-refill`,
} as const;

/** Ledger idempotency key of a subscription's refill for period n (n = 0 at activation). */
export const subscriptionPeriodKey = (subscriptionId: string, period: number) => `subscription:${subscriptionId}:period:${period}`;

export interface SubscriptionRefillInput {
  subscriptionId: string;
}

export interface RefillActivityInput {
  subscriptionId: string;
  /** The schedule's scheduled time for this action (ISO), never the activity's wall clock. */
  scheduledAt: string;
}

export type RefillOutcome =
  | { status: 'granted' | 'already-granted'; period: number; credits: number }
  | { status: 'no-allowance'; period: number }
  | { status: 'ended' | 'inactive' | 'before-start' };
