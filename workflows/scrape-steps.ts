/**
 * The steps of one scrape whose scrape_run row exists (debit, the page activity with its retries,
 * the record, the refund), shared by every workflow that scrapes a page: a standalone scrape
 * (scrape.workflow.ts), a flow's scrape node and foreach items, a crawl's pages, a map.
 */
import {
  ActivityFailure,
  type ActivityOptions,
  ApplicationFailure,
  CancellationScope,
  TimeoutFailure,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
} from '@temporalio/workflow';
import type { Activities, PageActivities, PageActivity } from './activities';
import { SCRAPE_ENGINES, engineQueueBeside } from '../scrape/engines';
import { type ErrorCode, NON_RETRYABLE_CODES, errorCodeOr } from '../platform/errors';
import { SCRAPE_RETRY, SCRAPE_SCHEDULE_TO_CLOSE_MS, type ScrapeWorkflowInput } from './definitions';
import { scrapeCreditKeys } from '../scrape/credit-keys';

/**
 * Histories written before the bookkeeping (and the standalone http fetch) became local
 * activities replay on the old path; every new execution takes the local one. Remove once no
 * execution started before this change can still be open or replayed.
 */
export const LOCAL_ACTIVITIES_PATCH = 'scrape-local-activities-v1';

export const BOOKKEEPING_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '5 seconds', nonRetryableErrorTypes: [...NON_RETRYABLE_CODES] },
};

/** Bookkeeping against PostgreSQL: short, retried until the database answers. (Pre-patch histories.) */
const bookkeepingRemote = proxyActivities<Activities>(BOOKKEEPING_OPTIONS);

/**
 * The same bookkeeping as local activities: run by the worker inside the workflow task (no task
 * round trip through the server), retried with the same policy, recorded as markers when the
 * task completes. Each is idempotent (the debit and refund by their ledger keys, the run record
 * writes the same thing), so running one again after a crash or replay changes nothing.
 */
const bookkeepingLocal = proxyLocalActivities<Activities>(BOOKKEEPING_OPTIONS);

/** A scrape's attempts: `retry_count` + 1, backing off per SCRAPE_RETRY, never retrying a final code. */
export function scrapeRetryPolicy(retryCount: number) {
  return {
    maximumAttempts: retryCount + 1,
    initialInterval: SCRAPE_RETRY.initialIntervalMs,
    backoffCoefficient: SCRAPE_RETRY.backoffCoefficient,
    maximumInterval: SCRAPE_RETRY.maximumIntervalMs,
    nonRetryableErrorTypes: [...NON_RETRYABLE_CODES],
  };
}

function scrapeActivityOptions(input: ScrapeWorkflowInput) {
  return { scheduleToCloseTimeout: SCRAPE_SCHEDULE_TO_CLOSE_MS, retry: scrapeRetryPolicy(input.request.options.retry_count) };
}

/** The page activities, each under the name its engine's line gives (scrape/engines.ts). */

function scrapeActivities(input: ScrapeWorkflowInput, localFetch: boolean): PageActivity {
  const options = {
    ...scrapeActivityOptions(input),
    // Heartbeats carry cancellation to the engine (and notice a crashed worker quickly).
    heartbeatTimeout: '10 seconds',
  };
  const engine = SCRAPE_ENGINES[input.request.mode];
  if (engine.placement === 'own-queue') {
    return proxyActivities<PageActivities>({ ...options, taskQueue: engineQueueBeside(input.browserQueue, input.request.mode) })[engine.activity]!;
  }
  // A local activity has no heartbeat: a worker crash shows as the workflow task timing out,
  // and a cancellation reaches it when the workflow task is next heartbeated (see runScrapeStepsWith).
  return (localFetch ? proxyLocalActivities<PageActivities>(scrapeActivityOptions(input)) : proxyActivities<PageActivities>(options))[engine.activity]!;
}

/** The failure's stable code and message, through ActivityFailure → ApplicationFailure. */
export function describeFailure(error: unknown): { code: ErrorCode; message: string } {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure) return { code: errorCodeOr(cause.type, 'SCRAPE_FAILED'), message: cause.message };
  if (cause instanceof TimeoutFailure) return { code: 'TIMEOUT', message: `no result within ${SCRAPE_SCHEDULE_TO_CLOSE_MS} ms` };
  return { code: 'SCRAPE_FAILED', message: cause instanceof Error ? cause.message : String(cause) };
}

export type ScrapeStepsOutcome =
  | { status: 'succeeded'; httpStatus: number }
  | { status: 'failed'; code: ErrorCode; message: string; refunded: boolean };

/**
 * The steps of one scrape whose scrape_run row exists: debit (once, idempotent) → scrape activity
 * (retried per options.retry_count) → record the outcome; refund when every attempt failed.
 * Bookkeeping runs as local activities; a success is recorded by the scrape activity's own write.
 * Cancelled (a flow run cancelled): the run is recorded as cancelled, nothing is refunded (the
 * work was under way), and the cancellation goes on up.
 */
export async function runScrapeSteps(input: ScrapeWorkflowInput, options: { remoteBookkeeping?: boolean } = {}): Promise<ScrapeStepsOutcome> {
  return runScrapeStepsWith(input, { localFetch: false, ...options });
}

/**
 * runScrapeSteps, choosing where the http fetch runs. `localFetch` makes an http-mode fetch a
 * local activity too, so a whole scrape is one workflow task: for standalone scrapes, which
 * nothing cancels mid-fetch. Flow nodes keep the fetch a regular, heartbeating activity so a
 * flow cancel stops it within a heartbeat (a local activity would only hear of it at the next
 * workflow-task heartbeat, up to ~8 s later).
 */
export async function runScrapeStepsWith(input: ScrapeWorkflowInput, options: { localFetch: boolean; remoteBookkeeping?: boolean }): Promise<ScrapeStepsOutcome> {
  const local = patched(LOCAL_ACTIVITIES_PATCH);
  // `remoteBookkeeping` (crawls): a workflow whose decisions depend on when each page ends keeps
  // every step a regular activity, so a replay sees its completions exactly as the first run did
  // (local activity results can reach a replay grouped differently: docs/crawl.md "How a crawl runs").
  const bookkeeping = local && !options.remoteBookkeeping ? bookkeepingLocal : bookkeepingRemote;
  const debitKey = scrapeCreditKeys.debit(input.runId);
  try {
    try {
      await bookkeeping.debitCredit({
        userId: input.userId,
        apiKeyId: input.apiKeyId,
        amount: input.cost,
        idempotencyKey: debitKey,
        runId: input.runId,
        mode: input.request.mode,
      });
    } catch (error) {
      if (isCancellation(error)) throw error;
      // Credit ran out between the API's check and the debit (concurrent requests): nothing spent.
      const failure = describeFailure(error);
      await bookkeeping.finishScrapeRun({ runId: input.runId, status: 'failed', error: failure });
      return { status: 'failed', ...failure, refunded: false };
    }

    try {
      // Patched path: the scrape activity records the success itself (one step fewer).
      const result = await scrapeActivities(input, local && options.localFetch)({ runId: input.runId, request: input.request, finishOnSuccess: local });
      if (!local) await bookkeeping.finishScrapeRun({ runId: input.runId, status: 'succeeded' });
      return { status: 'succeeded', httpStatus: result.httpStatus };
    } catch (error) {
      if (isCancellation(error)) throw error;
      const failure = describeFailure(error);
      // Every attempt failed: the work was not done, so the credit goes back.
      await bookkeeping.refundCredit({ debitKey });
      await bookkeeping.finishScrapeRun({ runId: input.runId, status: 'failed', error: failure, refunded: true });
      return { status: 'failed', ...failure, refunded: true };
    }
  } catch (error) {
    if (isCancellation(error)) {
      await CancellationScope.nonCancellable(() =>
        bookkeeping.finishScrapeRun({ runId: input.runId, status: 'cancelled', error: { code: 'CANCELLED', message: 'the run was cancelled' } }),
      );
    }
    throw error;
  }
}
