import { CancellationScope, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { Activities } from './activities';
import { NON_RETRYABLE_CODES } from '../platform/errors';
import type { ExtractEndStatus, ExtractWorkflowInput } from './definitions';
import { describeFailure } from './scrape-steps';

/** Waiting for the jobs: a long activity that heartbeats while it polls their rows (a dead worker is noticed within the heartbeat timeout). */
const waiting = proxyActivities<Activities>({
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: [...NON_RETRYABLE_CODES] },
});

/** The model's step: its chunks' calls (each bounded by LLM_TIMEOUT_MS, tried twice) within the timeout; retried on a crash, never charged twice (the debit's key is the job's). */
const model = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 3, nonRetryableErrorTypes: [...NON_RETRYABLE_CODES] },
});

const bookkeeping = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds', nonRetryableErrorTypes: [...NON_RETRYABLE_CODES] },
});

/**
 * A Firecrawl extract job (docs/firecrawl.md "Extract"), workflow `extract-<id>` on the main
 * queue. Its pages are scraped by the crawl and batch jobs the API started for it (their own
 * workflows, ledger and refunds); this waits for them to end, then gives every scraped page's
 * main content to the operator's model (chunked, answers merged, validated against the schema:
 * scrape/llm/extract-merge.ts), debited once as a model format and refunded when the model
 * fails. The outcome is written to the job's row by the activities; the workflow returns its status.
 */
export async function extractWorkflow(input: ExtractWorkflowInput): Promise<{ status: ExtractEndStatus }> {
  try {
    const jobs = await waiting.awaitExtractJobs({ extractId: input.extractId });
    if (jobs.cancelled) return { status: 'cancelled' };
    return await model.runExtraction({ extractId: input.extractId });
  } catch (error) {
    if (isCancellation(error)) throw error;
    const failure = describeFailure(error);
    await CancellationScope.nonCancellable(() => bookkeeping.failExtraction({ extractId: input.extractId, ...failure }));
    return { status: 'failed' };
  }
}
