import {
  ActivityFailure,
  type ActivityOptions,
  ApplicationFailure,
  CancellationScope,
  TimeoutFailure,
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
import type { Activities, PageActivities, PageActivity } from './activities';
import { SCRAPE_ENGINES, engineQueueBeside } from '../scrape/engines';
import { NON_RETRYABLE_CODES } from '../platform/errors';
import { type FirstAttemptOutcome, SCRAPE_RETRY, SCRAPE_SCHEDULE_TO_CLOSE_MS, type ScrapeBatchWorkflowInput, type ScrapeBatchWorkflowOutput, type ScrapeJob, type ScrapeWorkflowInput, type ScrapeWorkflowOutput, type CancelScrapeRunSignal, LANE_MAX_RUNS, cancelScrapeRunSignalName, scrapeLaneSignalName } from './definitions';
import { emitWebhookEvents } from './webhook.workflow';
import { scrapeCreditKeys } from '../scrape/credit-keys';
import type { FailedScrape } from './activities';

/**
 * Histories written before the bookkeeping (and the standalone http fetch) became local
 * activities replay on the old path; every new execution takes the local one. Remove once no
 * execution started before this change can still be open or replayed.
 */
export const LOCAL_ACTIVITIES_PATCH = 'scrape-local-activities-v1';

const BOOKKEEPING_OPTIONS: ActivityOptions = {
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
async function runScrapeStepsWith(input: ScrapeWorkflowInput, options: { localFetch: boolean; remoteBookkeeping?: boolean }): Promise<ScrapeStepsOutcome> {
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

/** A lane with nothing new for this long ends (the dispatcher stops using one well before: LANE_REUSE_MS). */
const LANE_IDLE_END = '60 seconds';

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/**
 * A lane: one long-lived execution taking batches of standalone scrapes of one key (account,
 * mode, host) from one API process, each batch by a Signal after the first, which is its input
 * (docs/scraping.md "Execution"). Each batch runs exactly as a `scrapeBatchWorkflow` does (same
 * activities, debit keys, retries, refunds, events); the lane only saves the new execution per
 * batch, which is most of what Temporal costs a scrape. Every run's id is added to the lane's
 * `ScrapeRunIds` as its batch arrives, so a run is found in the Temporal UI by its id.
 * At most LANE_MAX_RUNS runs (the keyword list's 2 KiB limit); it ends when full or idle, once
 * every batch in it has finished.
 */
export async function scrapeLaneWorkflow(first: ScrapeBatchWorkflowInput): Promise<void> {
  // The runs it took (listed in ScrapeRunIds), and every run it has seen (taken or refused).
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
      upsertSearchAttributes({ ScrapeRunIds: [...runIds] });
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

  const laterAttempts = async (job: ScrapeJob) => {
    await sleep(SCRAPE_RETRY.initialIntervalMs);
    if (cancelled.has(job.runId)) return;
    try {
      await proxyLocalActivities<Activities>({ scheduleToCloseTimeout: budgetMs(), retry: laterAttemptsRetry(job) }).retryScrape({ scrape: job });
      succeeded++;
    } catch (error) {
      if (isCancellation(error)) throw error;
      if (cancelled.has(job.runId)) return;
      await settle([failureOf(job, error)]);
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
      if (outcome.retryable && job.request.options.retry_count > 0) retries.push(laterAttempts(job));
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
