/**
 * The activities of a scrape batch (workflows/scrape.workflow.ts `scrapeBatchWorkflow`), run as
 * local activities by whichever worker runs the batch: normally the API process that started it
 * (eager start), so a scrape's work and its answer stay in one process.
 *
 * The first attempt of every http scrape of a batch is ONE local activity: the SDK's cost is per
 * activation, not per scrape, so a batch of N costs about what one scrape did. Attempts 2… go
 * through a local activity per scrape with the scrape's own Temporal retry policy.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { errorCodeOr } from '../../platform/errors';
import type { FirstAttemptOutcome, ScrapeActivityOutput, ScrapeJob } from '../../workflows/definitions';
import { jobStepInput } from '../../workflows/scrape-job-step';
import type { Engines } from '../../scrape/engine-implementations';
import { type ScrapeActivityDeps, heartbeating, scrapeOnce, settleFailedScrape, toFailure } from './run-scrape';
import type { FailedScrape, ScrapeActivityInput } from '../../workflows/activities';
import type { Engine } from '../../scrape/request';

function activityInput(job: ScrapeJob): ScrapeActivityInput {
  // An `auto` run starts on its first step and pays when it succeeds (docs/scraping.md "Escalation").
  if (job.escalation) return jobStepInput(job, 0);
  return { runId: job.runId, request: job.request, finishOnSuccess: true, debit: { userId: job.userId, apiKeyId: job.apiKeyId, amount: job.cost } };
}

export function createScrapeBatchActivities(deps: ScrapeActivityDeps & { engines: Engines }) {
  /** The job's engine; a mode this process does not hold fails the scrape (it never happens: the API sends each mode where its engine is). */
  const engineFor = (job: ScrapeJob): Engine => {
    const engine = deps.engines[job.request.mode];
    if (!engine) throw ApplicationFailure.create({ type: 'BROWSER_UNAVAILABLE', message: `no ${job.request.mode} engine in this worker`, nonRetryable: true });
    return (req, opts) => engine.scrape(req, opts);
  };
  return {
    /** Attempt 1 of each scrape of a `with-workflow` engine (http), all at once; an outcome per scrape (this activity does not throw for one scrape's failure). */
    async scrapeFirstAttempts(input: { scrapes: ScrapeJob[] }): Promise<FirstAttemptOutcome[]> {
      const signal = Context.current().cancellationSignal;
      return Promise.all(
        input.scrapes.map(async (job): Promise<FirstAttemptOutcome> => {
          try {
            await scrapeOnce(deps, engineFor(job), activityInput(job), 1, signal);
            return { runId: job.runId, status: 'succeeded' };
          } catch (error) {
            const failure = toFailure(error);
            return { runId: job.runId, status: 'failed', code: errorCodeOr(failure.type, 'SCRAPE_FAILED'), message: failure.message, retryable: !failure.nonRetryable };
          }
        }),
      );
    },

    /** Attempts 2… of one http scrape (the workflow gives this activity the scrape's retry policy). */
    async retryScrape(input: { scrape: ScrapeJob }): Promise<ScrapeActivityOutput> {
      const ctx = Context.current();
      return scrapeOnce(deps, engineFor(input.scrape), activityInput(input.scrape), 1 + ctx.info.attempt, ctx.cancellationSignal);
    },

    /**
     * A later step of an `auto` scrape on an engine of this process (http, another tier), with the
     * step's retry policy. A lane runs it as a local activity; a crawl page's climb as a regular one
     * (workflows/crawl-escalation.ts), which heartbeats so a crawl's cancel reaches the fetch
     * within a heartbeat rather than at the fetch's end.
     */
    async scrapeStep(input: { scrape: ScrapeJob; step: number }): Promise<ScrapeActivityOutput> {
      const ctx = Context.current();
      const stepInput = jobStepInput(input.scrape, input.step);
      return heartbeating(ctx, () => scrapeOnce(deps, engineFor({ ...input.scrape, request: stepInput.request }), stepInput, ctx.info.attempt, ctx.cancellationSignal));
    },

    /** Refunds and records the scrapes of a batch whose every attempt failed. */
    async settleFailedScrapes(input: { failures: FailedScrape[] }): Promise<void> {
      await Promise.all(input.failures.map((failed) => settleFailedScrape(deps, failed)));
    },

    /**
     * Runs cancelled: a batch cancelled from Temporal (every run of it), or one run of a lane
     * (its cancel Signal: POST /webhook/runs/:id/cancel). Every run still live is recorded
     * cancelled and, when it had been debited, refunded (no credit for work not done; once, by the
     * refund's key, whoever cancelled first); its attempt running in this process is aborted
     * (a lane's attempts run where its workflow task runs, so where this local activity runs).
     * A run that finished first keeps its outcome and its debit.
     */
    async cancelScrapes(input: { runIds: string[] }): Promise<void> {
      await Promise.all(
        input.runIds.map(async (runId) => {
          const { cancelled, refundApplied, run } = await deps.runs.cancelAndRefund(runId, { code: 'CANCELLED', message: 'the run was cancelled' });
          if (refundApplied) deps.metrics.creditsRefunded.inc();
          if (run?.status === 'cancelled') deps.attempts?.abort(runId);
          if (cancelled && run) deps.runEvents?.finished(run);
        }),
      );
    },
  };
}

export type ScrapeBatchActivities = ReturnType<typeof createScrapeBatchActivities>;
