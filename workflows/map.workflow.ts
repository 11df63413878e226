import { CancellationScope, isCancellation, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from './activities';
import { NON_RETRYABLE_CODES } from '../platform/errors';
import { type MapWorkflowInput, type MapWorkflowOutput, SCRAPE_SCHEDULE_TO_CLOSE_MS } from './definitions';
import { describeFailure, scrapeRetryPolicy } from './scrape-steps';

/** Bookkeeping (refund and record a failed map, or a cancelled one): retried until the database answers. */
const bookkeeping = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '5 seconds', nonRetryableErrorTypes: [...NON_RETRYABLE_CODES] },
});

/**
 * A map (POST /map, docs/crawl.md "Map"), workflow `map-<runId>` on the sync queue (eagerly
 * started by the API process, which runs it): one scrape run whose attempts are the map activity
 * (a local activity: the start page and the sitemaps within the scrape's 50 s, retried per the
 * request's retry_count). Debited once by the run (the activity's first attempt), refunded and
 * recorded failed when every attempt failed; cancelled (Temporal UI/CLI): recorded cancelled and refunded.
 */
export async function mapWorkflow(input: MapWorkflowInput): Promise<MapWorkflowOutput> {
  const { job } = input;
  const map = proxyLocalActivities<Activities>({ scheduleToCloseTimeout: SCRAPE_SCHEDULE_TO_CLOSE_MS, retry: scrapeRetryPolicy(job.request.options.retry_count) });
  try {
    const result = await map.mapSite(input);
    return { status: 'succeeded', httpStatus: result.httpStatus };
  } catch (error) {
    if (isCancellation(error)) {
      await CancellationScope.nonCancellable(() => bookkeeping.cancelScrapes({ runIds: [job.runId] }));
      throw error;
    }
    const failure = describeFailure(error);
    // Every attempt failed: the credit goes back (once, by the debit's key) and the run is recorded failed.
    await bookkeeping.settleFailedScrapes({ failures: [{ runId: job.runId, ...failure }] });
    return { status: 'failed', ...failure };
  }
}
