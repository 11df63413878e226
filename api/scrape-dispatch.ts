/**
 * Standalone scrapes from this API process (POST /webhook/unblocker, template runs): records each
 * run, hands it to a workflow execution, and waits for its outcome.
 *
 * Group commit. Requests of one account, mode and target host are gathered into one batch: while
 * that key's previous batch is still being handed over, and while other requests of the key are in
 * flight here and could join, for at most `lingerMs`. A lone request goes at once; under load, a
 * batch gathers what arrives meanwhile. Each scrape keeps its own run row, debit, retries, refund
 * and outcome; its row holds the id of its execution (GET /webhook/runs/:id: `workflowId` and a
 * link to the Temporal UI), whose search attribute AccountId names its account. A template run's
 * execution also lists its runs in ScrapeRunIds; a lane's runs are in its history (its input and
 * its Signals), no longer in a search attribute (workflows/scrape.workflow.ts LANE_UNLISTED_RUNS_PATCH).
 *
 * Lanes. What a scrape costs Temporal is mostly per workflow execution (docs/benchmarks.md), so a
 * batch does not get one of its own: it goes to a lane, a long-lived `scrapeLaneWorkflow` of its
 * key started by this process. The lane's first batch starts it; later batches are Signals to it.
 * A lane takes a batch only when nothing of it is in flight (see Lane), at most LANE_MAX_RUNS runs,
 * and is left after LANE_REUSE_MS unused. Template runs keep an execution of their own
 * (`scrapeBatchWorkflow` under their business id).
 *
 * An http lane is started eagerly when this process's worker runs: the server hands the first
 * workflow task straight back, so the lane runs here (its later tasks come to this worker's sticky
 * queue), and its activities tell the waiting requests in-process (api/run-waiters.ts). A browser
 * lane starts on the browser queue: the browser worker runs it and renders its pages as local
 * activities.
 *
 * Its parts (api/scrape-dispatch/): batching.ts (group commit), lanes.ts (the lane pool),
 * hand-over.ts (start or Signal), run-rows.ts (the batch's scrape_run writes); this file waits
 * for each request's answer.
 */
import type { FinishedRun, ScrapeRunStore } from '../scrape/runs';
import type { Logger } from '../platform/logger';
import type { ScrapeJob, TaskQueues } from '../workflows/definitions';
import type { FinishedAnswer, RunWaiters } from './run-waiters';
import { createBatcher } from './scrape-dispatch/batching';
import { createHandOver } from './scrape-dispatch/hand-over';
import { createLanePool } from './scrape-dispatch/lanes';
import { batchRunRows } from './scrape-dispatch/run-rows';
import type { DispatchOptions, DispatcherSettings, TemporalStarter } from './scrape-dispatch/types';

export { SEARCH_ATTRIBUTE_KEYS } from './scrape-dispatch/search-attributes';
export type { DispatchOptions, DispatcherSettings, TemporalStarter } from './scrape-dispatch/types';

export type DispatchOutcome = { status: 'queued'; workflowId: string } | { status: 'finished'; workflowId: string; answer: FinishedAnswer } | { status: 'timeout'; workflowId: string };

export interface ScrapeDispatcher {
  run(job: ScrapeJob, options: DispatchOptions): Promise<DispatchOutcome>;
  /** A recorded run (any status), or null (an Idempotency-Key repeat looks for its first request's run). */
  find(runId: string): Promise<FinishedRun | null>;
  /** Waits for a run started by another request (here or on another replica) to finish; null when `deadline` passes first. */
  awaitRun(runId: string, deadline: number): Promise<FinishedAnswer | null>;
}

export function createScrapeDispatcher(deps: {
  temporal: TemporalStarter;
  runs: ScrapeRunStore;
  waiters: RunWaiters;
  queues: TaskQueues;
  logger: Logger;
  settings: DispatcherSettings;
}): ScrapeDispatcher {
  const lanes = createLanePool();
  const handOver = createHandOver({ temporal: deps.temporal, queues: deps.queues, rows: batchRunRows(deps.runs), lanes });
  const batcher = createBatcher({ settings: deps.settings, lanes, handOver, logger: deps.logger });

  return {
    find: (runId) => deps.runs.byId(runId),
    async awaitRun(runId, deadline) {
      // Registered before the read: a run finishing in between is not missed. When the read finds
      // it finished, the waiter is left to the sweep (api/run-waiters.ts), which delivers it within sweepMs.
      const answer = deps.waiters.wait(runId, deadline);
      const [done] = await deps.runs.finished([runId]);
      return done ? { run: done } : answer;
    },
    async run(job, options) {
      // Registered before the start: an in-process run may finish before we look again.
      const answer = options.async ? undefined : deps.waiters.wait(job.runId, options.deadline);
      const batch = batcher.submit(job, options);
      if (answer) batch.waiting++;
      let ended = false;
      try {
        try {
          // An answer can come before the start's or Signal's reply does (the lane ran it meanwhile).
          await (answer ? Promise.race([batch.started, answer]) : batch.started);
        } catch (error) {
          deps.waiters.forget(job.runId);
          throw error;
        }
        if (!answer) return { status: 'queued', workflowId: batch.workflowId };
        const finished = await answer;
        // A run cancelled by its owner is answered before its attempt has stopped (that waits for
        // its lane to hear the cancel), so the lane is treated as one whose request gave up.
        ended = finished !== null && finished.run.status !== 'cancelled';
        return finished ? { status: 'finished', workflowId: batch.workflowId, answer: finished } : { status: 'timeout', workflowId: batch.workflowId };
      } finally {
        if (batch.lane && !options.async) {
          batch.lane.busy--;
          // Not seen to end (a 504, a failed start): its scrape may still hold the lane's workflow
          // task (a database outage retrying its activity), so the lane takes no further batch.
          if (!ended) batch.lane.retired = true;
        }
        if (answer && --batch.waiting === 0) batch.resolveAnswered();
        batcher.release(job, options);
      }
    },
  };
}
