/**
 * An `auto` scrape climbing its ladder (docs/scraping.md "Escalation"): after a step's attempt
 * was blocked (or, on http, the page needed JavaScript), the same run tries the next step (the
 * browser, then the next proxy tier) until one serves the page or the last one fails. Each step
 * is one activity with the scrape's retry policy; the activity charges the run once, with its
 * success, at that step's price, so the failed steps cost nothing.
 *
 * Only jobs carrying `escalation` get here, which no execution started before this change has:
 * their histories replay unchanged. The ESCALATION_PATCH marker still records, in a new
 * execution's history, that it climbed (docs/workflows-versioning.md).
 */
import { isCancellation, patched, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities, FailedScrape, PageActivities } from './activities';
import { SCRAPE_ENGINES, engineQueueBeside } from '../scrape/engines';
import { escalationReasonOf } from '../scrape/proxy-tiers';
import type { ScrapeBatchWorkflowInput, ScrapeJob } from './definitions';
import { jobStepInput } from './scrape-job-step';
import { describeFailure, scrapeRetryPolicy } from './scrape-steps';

export const ESCALATION_PATCH = 'scrape-escalation-v1';

export type ClimbOutcome = { status: 'succeeded' } | { status: 'failed'; failure: FailedScrape } | { status: 'cancelled' };

/** Whether step `index`'s failure (its code and message) moves an `auto` job on to the next step. */
export function movesOn(job: ScrapeJob, index: number, code: string, message?: string): boolean {
  return job.escalation !== undefined && index + 1 < job.escalation.length && escalationReasonOf(code, message) !== undefined;
}

/**
 * Runs steps `from`… of an `auto` job until one succeeds. `budgetMs`: what is left of the run's
 * time (every step shares the scrape's 50 s). `cancelled`: a lane's runs cancelled one by one.
 */
export async function climbEscalation(job: ScrapeJob, from: number, input: ScrapeBatchWorkflowInput, budgetMs: () => number, cancelled: ReadonlySet<string>): Promise<ClimbOutcome> {
  const ladder = job.escalation!;
  if (!patched(ESCALATION_PATCH)) throw new Error('unreachable: only new executions carry escalation');
  for (let index = from; index < ladder.length; index++) {
    if (cancelled.has(job.runId)) return { status: 'cancelled' };
    const step = ladder[index]!;
    const options = { scheduleToCloseTimeout: budgetMs(), retry: scrapeRetryPolicy(job.request.options.retry_count) };
    try {
      const engine = SCRAPE_ENGINES[step.engine];
      if (engine.placement === 'with-workflow') {
        // An engine of the lane's own process (http on another tier): a local activity, as the job's retries are.
        await proxyLocalActivities<Activities>(options).scrapeStep({ scrape: job, step: index });
      } else if (input.renderLocally) {
        // The lane runs on the engine's queue (a browser lane): rendered here, as its first pages are.
        await proxyLocalActivities<PageActivities>(options)[engine.activity]!(jobStepInput(job, index));
      } else {
        // From an http lane: the page goes to the engine's queue, to a worker holding it (a Chromium).
        await proxyActivities<PageActivities>({ ...options, taskQueue: engineQueueBeside(input.browserQueue, step.engine), heartbeatTimeout: '10 seconds' })[engine.activity]!(jobStepInput(job, index));
      }
      return { status: 'succeeded' };
    } catch (error) {
      if (isCancellation(error)) throw error;
      if (cancelled.has(job.runId)) return { status: 'cancelled' };
      const failure = describeFailure(error);
      if (movesOn(job, index, failure.code, failure.message)) continue;
      return { status: 'failed', failure: { runId: job.runId, ...failure } };
    }
  }
  return { status: 'failed', failure: { runId: job.runId, code: 'SCRAPE_FAILED', message: 'no step of the escalation served the page' } };
}
