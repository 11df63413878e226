/**
 * A scrape's time budget: the whole scrape and each attempt. Pure data and arithmetic (workflows
 * read it inside Temporal's sandbox, through workflows/definitions.ts); here, below the workflows,
 * so the request schema can hold a request's `actions` waits to the budget of one attempt.
 */

/** The whole scrape, every retry included (docs/scraping.md, "Decisions": schedule-to-close 50 s). */
export const SCRAPE_SCHEDULE_TO_CLOSE_MS = 50_000;

/** Backoff between a scrape's attempts: 250 ms doubling, at most 4 s (the activities' retry policy). */
export const SCRAPE_RETRY = { initialIntervalMs: 250, backoffCoefficient: 2, maximumIntervalMs: 4000 } as const;

/**
 * Per-attempt deadline when the request gives no `options.timeout_ms`: the 50 s budget, less the
 * backoff between attempts, shared by the retry_count + 1 attempts, so a target that never
 * answers uses every attempt it was promised and still fails within the limit (504 with the run id).
 */
export function defaultAttemptTimeoutMs(retryCount: number): number {
  let backoff = 0;
  for (let i = 0; i < retryCount; i++) backoff += Math.min(SCRAPE_RETRY.initialIntervalMs * SCRAPE_RETRY.backoffCoefficient ** i, SCRAPE_RETRY.maximumIntervalMs);
  // A margin for the bookkeeping around the attempts (debit, record, refund).
  return Math.floor((SCRAPE_SCHEDULE_TO_CLOSE_MS - 1000 - backoff) / (retryCount + 1));
}

/** One attempt's deadline: `options.timeout_ms`, else the default share of the whole budget. */
export function attemptTimeoutMs(options: { retry_count: number; timeout_ms?: number | undefined }): number {
  return options.timeout_ms ?? defaultAttemptTimeoutMs(options.retry_count);
}
