/**
 * Standalone scrapes (POST /webhook/unblocker, template runs): one request as a workflow, batches
 * of requests that arrived together, and the lanes that take batches by Signal. The steps of one
 * scrape are in scrape-steps.ts.
 */
import {
  CancellationScope,
  allHandlersFinished,
  condition,
  defineSignal,
  setHandler,
  upsertSearchAttributes,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities, PageActivities } from './activities';
import { SCRAPE_ENGINES, engineQueueBeside } from '../scrape/engines';
import { NON_RETRYABLE_CODES } from '../platform/errors';
import { type FirstAttemptOutcome, SCRAPE_RETRY, SCRAPE_SCHEDULE_TO_CLOSE_MS, type ScrapeBatchWorkflowInput, type ScrapeBatchWorkflowOutput, type ScrapeJob, type ScrapeWorkflowInput, type ScrapeWorkflowOutput, type CancelScrapeRunSignal, LANE_MAX_RUNS, cancelScrapeRunSignalName, scrapeLaneSignalName } from './definitions';
import { emitWebhookEvents } from './webhook.workflow';
import type { FailedScrape } from './activities';
import { BOOKKEEPING_OPTIONS, describeFailure, runScrapeStepsWith, scrapeRetryPolicy } from './scrape-steps';
import { climbEscalation, movesOn } from './scrape-escalation';

/** One scrape request (POST /webhook/unblocker, a template run): the scrape steps as a workflow. */
export async function scrapeWorkflow(input: ScrapeWorkflowInput): Promise<ScrapeWorkflowOutput> {
  const outcome = await runScrapeStepsWith(input, { localFetch: true });
  return outcome.status === 'succeeded' ? outcome : { status: 'failed', code: outcome.code, message: outcome.message };
}

// ------------------------------------------------------------------ standalone scrapes, batched

/** Bookkeeping of a batch (refunds, records): retried until the database answers. */
const batchBookkeeping = proxyLocalActivities<Activities>(BOOKKEEPING_OPTIONS);

/** The first attempts of a batch's http scrapes: the activity itself is retried only when it throws (the database is down). */
const firstAttempts = proxyLocalActivities<Activities>({
  scheduleToCloseTimeout: SCRAPE_SCHEDULE_TO_CLOSE_MS,
  retry: { initialInterval: '200 milliseconds', maximumInterval: '5 seconds' },
});

/** Less time than this left of a browser scrape's budget when a worker takes it: not started. */
const MIN_RENDER_BUDGET_MS = 1000;

/** The retry policy of one scrape's attempts after the first (the first is a batch's, see above). */
function laterAttemptsRetry(job: ScrapeJob) {
  return {
    maximumAttempts: job.request.options.retry_count,
    // The wait before attempt 2 is slept by the workflow; between later attempts the policy waits.
    initialInterval: Math.min(SCRAPE_RETRY.initialIntervalMs * SCRAPE_RETRY.backoffCoefficient, SCRAPE_RETRY.maximumIntervalMs),
    backoffCoefficient: SCRAPE_RETRY.backoffCoefficient,
    maximumInterval: SCRAPE_RETRY.maximumIntervalMs,
    nonRetryableErrorTypes: [...NON_RETRYABLE_CODES],
  };
}

/**
 * Standalone scrapes (POST /webhook/unblocker, template runs) that arrived together for one
 * account, mode and host: each keeps its own run, debit (once, by its run), attempts (retry_count
 * + 1 within 50 s), refund when every attempt failed, and outcome, recorded in PostgreSQL by the
 * activities (the API answers from there, or is told in-process). http: attempt 1 of every scrape
 * is one local activity; attempts 2… are a local activity per scrape with its retry policy.
 * browser: the batch runs on the browser queue, one local activity per scrape (retried per
 * retry_count) that debits and records itself.
 */
export async function scrapeBatchWorkflow(input: ScrapeBatchWorkflowInput): Promise<ScrapeBatchWorkflowOutput> {
  return runScrapeBatch(input);
}

/**
 * A batch of standalone scrapes handed to a running lane (scrapeLaneWorkflow). A Signal, not an
 * Update: the server writes a Signal to the lane's history before it answers the API, so a batch
 * handed over is durable before any of its scrapes starts. An Update is durable only once the
 * lane's workflow task accepts it, and that task runs the batch's first attempts (debits
 * included) before it completes: an Update admitted but not yet accepted was lost with the API
 * process that sent it, or with a Temporal server restart, leaving debited runs that no
 * execution would finish (docs/scraping.md "Execution").
 */
export const scrapeLaneSignal = defineSignal<[ScrapeBatchWorkflowInput]>(scrapeLaneSignalName);

/**
 * One run of a lane cancelled (POST /webhook/runs/:id/cancel, docs/scraping.md "Cancelling a
 * run"), without touching the runs beside it: the API has already recorded it cancelled and
 * refunded it; the lane records the same (a no-op then, the whole of it when an operator sends
 * the Signal), aborts its attempt where it runs (`cancelScrapes`, a local activity of the lane's
 * process), starts no further attempt of it, and never starts it when its batch comes later.
 */
export const cancelScrapeRunSignal = defineSignal<[CancelScrapeRunSignal]>(cancelScrapeRunSignalName);

/**
 * Lanes started under this patch no longer upsert `ScrapeRunIds` per batch (issue 39: that
 * visibility write was a quarter of the Temporal server's CPU per lone scrape). The orphan sweep
 * finds a run in the lane's history instead (api/orphan-runs.ts), and a run's workflow is found by
 * its `workflowId` (GET /webhook/runs/:id). Lanes started before keep upserting (they replay that way).
 */
export const LANE_UNLISTED_RUNS_PATCH = 'scrape-lane-unlisted-runs-v1';

/** A lane with nothing new for this long ends (the dispatcher stops using one well before: LANE_REUSE_MS). */
const LANE_IDLE_END = '60 seconds';

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/**
 * A lane: one long-lived execution taking batches of standalone scrapes of one key (account,
 * mode, host) from one API process, each batch by a Signal after the first, which is its input
 * (docs/scraping.md "Execution"). Each batch runs exactly as a `scrapeBatchWorkflow` does (same
 * activities, debit keys, retries, refunds, events); the lane only saves the new execution per
 * batch, which is most of what Temporal costs a scrape. Its runs are in its history (its input
 * and each batch's Signal); lanes started before LANE_UNLISTED_RUNS_PATCH also list them in
 * their `ScrapeRunIds` as each batch arrives. At most LANE_MAX_RUNS runs (what one such list
 * holds); it ends when full or idle, once every batch in it has finished.
 */
export async function scrapeLaneWorkflow(first: ScrapeBatchWorkflowInput): Promise<void> {
  // Decided once, in the lane's first task: a lane keeps the shape it started with.
  const listsRunIds = !patched(LANE_UNLISTED_RUNS_PATCH);
  // The runs it took, and every run it has seen (taken or refused).
  const runIds = first.scrapes.map((job) => job.runId);
  const known = new Set(runIds);
  // Runs whose cancel Signal came (before or after their batch).
  const cancelledRuns = new Set<string>();
  let batchFailure: Error | undefined;
  setHandler(cancelScrapeRunSignal, async ({ runId }) => {
    if (cancelledRuns.has(runId)) return;
    cancelledRuns.add(runId);
    // A run not here yet is recorded when its batch comes (below).
    if (known.has(runId)) await batchBookkeeping.cancelScrapes({ runIds: [runId] });
  });
  setHandler(scrapeLaneSignal, async (input) => {
    // A run already here is not run twice (a repeated Signal); runs past the limit (the
    // dispatcher never sends them) are failed before any attempt, uncharged, so the list stays
    // under the server's limit.
    const fresh = input.scrapes.filter((job) => !known.has(job.runId));
    for (const job of fresh) known.add(job.runId);
    const room = Math.max(0, LANE_MAX_RUNS - runIds.length);
    const taking = fresh.slice(0, room);
    const refused = fresh.slice(room);
    if (taking.length) {
      runIds.push(...taking.map((job) => job.runId));
      if (listsRunIds) upsertSearchAttributes({ ScrapeRunIds: [...runIds] });
    }
    try {
      if (refused.length) {
        const message = `the lane was full (at most ${LANE_MAX_RUNS} runs); nothing was charged`;
        await batchBookkeeping.settleFailedScrapes({ failures: refused.map((job) => ({ runId: job.runId, code: 'INTERNAL', message })) });
      }
      // Runs cancelled before their batch came are recorded, never started.
      const early = taking.filter((job) => cancelledRuns.has(job.runId));
      if (early.length) await batchBookkeeping.cancelScrapes({ runIds: early.map((job) => job.runId) });
      const runnable = taking.filter((job) => !cancelledRuns.has(job.runId));
      if (runnable.length) await runScrapeBatch({ ...input, scrapes: runnable }, cancelledRuns);
    } catch (error) {
      batchFailure ??= asError(error);
    }
  });
  let firstFailure: Error | undefined;
  const firstBatch = runScrapeBatch(first, cancelledRuns).then(
    () => undefined,
    (error: unknown) => void (firstFailure = asError(error)),
  );
  let cancelled: Error | undefined;
  try {
    let seen = -1;
    // Full, or nothing new for LANE_IDLE_END.
    while (runIds.length < LANE_MAX_RUNS && runIds.length !== seen) {
      seen = runIds.length;
      await condition(() => runIds.length >= LANE_MAX_RUNS, LANE_IDLE_END);
    }
  } catch (error) {
    if (!isCancellation(error)) throw error;
    cancelled = error as Error;
  }
  // Cancelled (an operator, in the Temporal UI): every batch hears it and records its runs
  // cancelled (refunded when debited); the lane ends after them, as a cancelled batch does.
  await CancellationScope.nonCancellable(async () => {
    await firstBatch;
    await condition(allHandlersFinished);
  });
  if (cancelled) throw cancelled;
  const failure = firstFailure ?? batchFailure;
  if (failure) throw failure;
}

/**
 * `cancelled` (a lane's): runs cancelled one by one while the batch runs. Such a run gets no
 * further attempt and is not settled as failed (it is recorded cancelled, and refunded, by its
 * cancel). Empty in every execution that received no cancel Signal, so those replay unchanged.
 */
async function runScrapeBatch(input: ScrapeBatchWorkflowInput, cancelled: ReadonlySet<string> = new Set()): Promise<ScrapeBatchWorkflowOutput> {
  const startedAt = Date.now();
  const budgetMs = () => Math.max(1000, SCRAPE_SCHEDULE_TO_CLOSE_MS - (Date.now() - startedAt));
  let succeeded = 0;
  let failed = 0;
  const settle = async (failures: FailedScrape[]) => {
    if (failures.length === 0) return;
    failed += failures.length;
    await batchBookkeeping.settleFailedScrapes({ failures });
  };
  const failureOf = (job: ScrapeJob, error: unknown): FailedScrape => ({ runId: job.runId, ...describeFailure(error) });

  // An `auto` job whose step was blocked climbs on (workflows/scrape-escalation.ts); other jobs never get here.
  const escalate = async (job: ScrapeJob, from: number, budget: () => number = budgetMs) => {
    const outcome = await climbEscalation(job, from, input, budget, cancelled);
    if (outcome.status === 'succeeded') succeeded++;
    else if (outcome.status === 'failed') await settle([outcome.failure]);
  };

  const laterAttempts = async (job: ScrapeJob) => {
    await sleep(SCRAPE_RETRY.initialIntervalMs);
    if (cancelled.has(job.runId)) return;
    try {
      await proxyLocalActivities<Activities>({ scheduleToCloseTimeout: budgetMs(), retry: laterAttemptsRetry(job) }).retryScrape({ scrape: job });
      succeeded++;
    } catch (error) {
      if (isCancellation(error)) throw error;
      if (cancelled.has(job.runId)) return;
      const failure = failureOf(job, error);
      if (movesOn(job, 0, failure.code, failure.message)) return escalate(job, 1);
      await settle([failure]);
    }
  };

  const runHttp = async (jobs: ScrapeJob[]) => {
    if (jobs.length === 0) return;
    let outcomes: FirstAttemptOutcome[];
    try {
      outcomes = await firstAttempts.scrapeFirstAttempts({ scrapes: jobs });
    } catch (error) {
      if (isCancellation(error)) throw error;
      await settle(jobs.map((job) => failureOf(job, error)));
      return;
    }
    const jobOf = new Map(jobs.map((job) => [job.runId, job]));
    const finalFailures: FailedScrape[] = [];
    const retries: Array<Promise<void>> = [];
    for (const outcome of outcomes) {
      if (outcome.status === 'succeeded') {
        succeeded++;
        continue;
      }
      const job = jobOf.get(outcome.runId)!;
      if (cancelled.has(job.runId)) continue;
      if (movesOn(job, 0, outcome.code, outcome.message)) retries.push(escalate(job, 1));
      else if (outcome.retryable && job.request.options.retry_count > 0) retries.push(laterAttempts(job));
      else finalFailures.push({ runId: outcome.runId, code: outcome.code, message: outcome.message });
    }
    await Promise.all([settle(finalFailures), ...retries]);
  };

  const renderPage = (job: ScrapeJob, budget: number) => {
    const options = { scheduleToCloseTimeout: budget, retry: scrapeRetryPolicy(job.request.options.retry_count) };
    const { mode } = job.request;
    const activity = SCRAPE_ENGINES[mode].activity;
    // On the engine's queue, the page is rendered by this worker's engine inside the workflow task
    // (a worker crash shows as the task timing out; a cancel arrives with the next task heartbeat).
    if (input.renderLocally) return proxyLocalActivities<PageActivities>(options)[activity]!;
    // Heartbeats carry cancellation to the engine and notice a crashed worker quickly.
    return proxyActivities<PageActivities>({ ...options, taskQueue: engineQueueBeside(input.browserQueue, mode), heartbeatTimeout: '10 seconds' })[activity]!;
  };

  const runBrowser = async (job: ScrapeJob) => {
    // On the browser queue, the wait for a browser worker counts against the scrape's 50 s (as the
    // wait of a scheduled activity did before): a page nobody could start in time is not rendered.
    const budget = input.renderLocally ? SCRAPE_SCHEDULE_TO_CLOSE_MS - (Date.now() - (job.acceptedAt ?? workflowInfo().startTime.getTime())) : SCRAPE_SCHEDULE_TO_CLOSE_MS;
    if (budget < MIN_RENDER_BUDGET_MS) {
      await settle([{ runId: job.runId, code: 'TIMEOUT', message: `no browser worker took the scrape within ${SCRAPE_SCHEDULE_TO_CLOSE_MS} ms` }]);
      return;
    }
    // An `auto` job starting on the browser (it asked for a browser-only field) climbs its tiers from here.
    if (job.escalation) return escalate(job, 0, () => Math.max(1000, budget - (Date.now() - startedAt)));
    try {
      await renderPage(job, budget)({ runId: job.runId, request: job.request, finishOnSuccess: true, debit: { userId: job.userId, apiKeyId: job.apiKeyId, amount: job.cost } });
      succeeded++;
    } catch (error) {
      if (isCancellation(error)) throw error;
      if (cancelled.has(job.runId)) return;
      await settle([failureOf(job, error)]);
    }
  };

  try {
    const withWorkflow = (job: ScrapeJob) => SCRAPE_ENGINES[job.request.mode].placement === 'with-workflow';
    await Promise.all([runHttp(input.scrapes.filter(withWorkflow)), ...input.scrapes.filter((job) => !withWorkflow(job)).map(runBrowser)]);
  } catch (error) {
    if (isCancellation(error)) {
      // An operator cancelled the batch: its unfinished runs are recorded cancelled and refunded.
      await CancellationScope.nonCancellable(() => batchBookkeeping.cancelScrapes({ runIds: input.scrapes.map((job) => job.runId) }));
    }
    throw error;
  }
  // Webhook events of the runs that asked for them (docs/webhooks.md): nothing at all otherwise.
  const emitting = input.scrapes.filter((job) => job.events);
  if (emitting.length) await emitWebhookEvents(emitting.map((job) => ({ kind: 'scrape_run', id: job.runId })));
  return { succeeded, failed };
}
