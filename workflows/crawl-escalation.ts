/**
 * A crawl or batch page in `auto` mode climbs its ladder as a standalone `auto` scrape does
 * (docs/scraping.md "Escalation", docs/crawl.md): the page's run tries each step (engine, proxy
 * tier) until one serves it; the step's activity charges the run once, with its success, at that
 * step's price, so blocked steps cost nothing and no refund is ever needed.
 *
 * Every step is a regular activity (never a local one), as the crawl's other steps are: the crawl
 * loop decides on when pages end, and regular completions replay exactly as they happened
 * (workflows/crawl.workflow.ts, "bookkeeping"). Only jobs whose plan carries `escalation` get
 * here, which no crawl started before this change has: their histories replay unchanged, and
 * CRAWL_ESCALATION_PATCH marks a new execution that climbs (docs/workflows-versioning.md).
 */
import { CancellationScope, isCancellation, patched, proxyActivities } from '@temporalio/workflow';
import type { Activities, PageActivities } from './activities';
import type { ErrorCode } from '../platform/errors';
import { SCRAPE_ENGINES, engineQueueBeside } from '../scrape/engines';
import { SCRAPE_SCHEDULE_TO_CLOSE_MS, type ScrapeActivityOutput, type ScrapeJob } from './definitions';
import { jobStepInput } from './scrape-job-step';
import { movesOn } from './scrape-escalation';
import { BOOKKEEPING_OPTIONS, type ScrapeStepsOutcome, describeFailure, scrapeRetryPolicy } from './scrape-steps';

export const CRAWL_ESCALATION_PATCH = 'crawl-escalation-v1';

const bookkeeping = proxyActivities<Activities>(BOOKKEEPING_OPTIONS);

/** One step's activity: on the crawl's own queue (http, another tier), or on the engine's queue (a Chromium's worker). */
function runStep(job: ScrapeJob, index: number, browserQueue: string): Promise<ScrapeActivityOutput> {
  const step = job.escalation![index]!;
  const options = { scheduleToCloseTimeout: SCRAPE_SCHEDULE_TO_CLOSE_MS, retry: scrapeRetryPolicy(job.request.options.retry_count) };
  const engine = SCRAPE_ENGINES[step.engine];
  // Both heartbeat: a crawl's cancel reaches the step's fetch within one (not at its end), and a
  // worker that died is noticed in 10 s. (Activity options are not part of replay's command check.)
  if (engine.placement === 'with-workflow') return proxyActivities<Activities>({ ...options, heartbeatTimeout: '10 seconds' }).scrapeStep({ scrape: job, step: index });
  return proxyActivities<PageActivities>({ ...options, taskQueue: engineQueueBeside(browserQueue, step.engine), heartbeatTimeout: '10 seconds' })[engine.activity]!(jobStepInput(job, index));
}

/**
 * The page's steps until one serves it: succeeded with its status, or failed (recorded, nothing
 * charged: `refunded: false`). INSUFFICIENT_CREDIT (a step the balance cannot pay) is failed
 * unrefunded too, which the crawl takes as "requeue the page, stop claiming". A cancel records
 * the run cancelled and goes on up.
 */
export async function climbCrawlPage(job: ScrapeJob, browserQueue: string): Promise<ScrapeStepsOutcome> {
  if (!patched(CRAWL_ESCALATION_PATCH)) throw new Error('unreachable: only new crawls carry escalation');
  const ladder = job.escalation!;
  try {
    let failure: { code: ErrorCode; message: string } = { code: 'SCRAPE_FAILED', message: 'no step of the escalation served the page' };
    for (let index = 0; index < ladder.length; index++) {
      try {
        const result = await runStep(job, index, browserQueue);
        return { status: 'succeeded', httpStatus: result.httpStatus };
      } catch (error) {
        if (isCancellation(error)) throw error;
        failure = describeFailure(error);
        if (!movesOn(job, index, failure.code, failure.message)) break;
      }
    }
    await bookkeeping.finishScrapeRun({ runId: job.runId, status: 'failed', error: failure, refunded: false });
    return { status: 'failed', ...failure, refunded: false };
  } catch (error) {
    if (isCancellation(error)) {
      await CancellationScope.nonCancellable(() => bookkeeping.finishScrapeRun({ runId: job.runId, status: 'cancelled', error: { code: 'CANCELLED', message: 'the run was cancelled' } }));
    }
    throw error;
  }
}
