import { ActivityFailure, ApplicationFailure, CancellationScope, TimeoutFailure, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { Activities, BrowserActivities } from '../activities';
import {
  NON_RETRYABLE_SCRAPE_ERRORS,
  SCRAPE_SCHEDULE_TO_CLOSE_MS,
  type ScrapeWorkflowInput,
  type ScrapeWorkflowOutput,
  scrapeCreditKeys,
} from './definitions';

/** Bookkeeping against PostgreSQL: short, retried until the database answers. */
const bookkeeping = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '5 seconds', nonRetryableErrorTypes: ['INSUFFICIENT_CREDIT'] },
});

function scrapeActivities(input: ScrapeWorkflowInput) {
  const { retry_count } = input.request.options;
  const options = {
    scheduleToCloseTimeout: SCRAPE_SCHEDULE_TO_CLOSE_MS,
    // Heartbeats carry cancellation to the engine (and notice a crashed worker quickly).
    heartbeatTimeout: '10 seconds',
    retry: {
      maximumAttempts: retry_count + 1,
      initialInterval: '250 milliseconds',
      backoffCoefficient: 2,
      maximumInterval: '4 seconds',
      nonRetryableErrorTypes: [...NON_RETRYABLE_SCRAPE_ERRORS],
    },
  };
  return input.request.mode === 'browser'
    ? proxyActivities<BrowserActivities>({ ...options, taskQueue: input.browserQueue }).renderPage
    : proxyActivities<Activities>(options).fetchPage;
}

/** The failure's stable code and message, through ActivityFailure → ApplicationFailure. */
export function describeFailure(error: unknown): { code: string; message: string } {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure) return { code: cause.type ?? 'SCRAPE_FAILED', message: cause.message };
  if (cause instanceof TimeoutFailure) return { code: 'TIMEOUT', message: `no result within ${SCRAPE_SCHEDULE_TO_CLOSE_MS} ms` };
  return { code: 'SCRAPE_FAILED', message: cause instanceof Error ? cause.message : String(cause) };
}

export type ScrapeStepsOutcome =
  | { status: 'succeeded'; httpStatus: number }
  | { status: 'failed'; code: string; message: string; refunded: boolean };

/**
 * The steps of one scrape whose scrape_run row exists: debit (once, idempotent) → scrape activity
 * (retried per options.retry_count) → record the outcome; refund when every attempt failed.
 * Cancelled (a flow run cancelled): the run is recorded as cancelled, nothing is refunded (the
 * work was under way), and the cancellation goes on up.
 */
export async function runScrapeSteps(input: ScrapeWorkflowInput): Promise<ScrapeStepsOutcome> {
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
      const result = await scrapeActivities(input)({ runId: input.runId, request: input.request });
      await bookkeeping.finishScrapeRun({ runId: input.runId, status: 'succeeded' });
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

/** One scrape request (POST /webhook/unblocker, a template run): the scrape steps as a workflow. */
export async function scrapeWorkflow(input: ScrapeWorkflowInput): Promise<ScrapeWorkflowOutput> {
  const outcome = await runScrapeSteps(input);
  return outcome.status === 'succeeded' ? outcome : { status: 'failed', code: outcome.code, message: outcome.message };
}
