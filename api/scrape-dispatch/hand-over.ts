/**
 * The hand-over of a batch to Temporal: a template run's own execution, or a lane (its first batch
 * starts it, later ones are Signals to it). The batch's run rows are written first, and marked
 * failed when the hand-over fails (api/scrape-dispatch.ts describes the whole).
 */
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import { SCRAPE_ENGINES, engineQueueBeside } from '../../scrape/engines';
import type { ScrapeBatchWorkflowInput, TaskQueues } from '../../workflows/definitions';
import { scrapeBatchWorkflow, scrapeLaneSignal, scrapeLaneWorkflow } from '../../workflows/scrape.workflow';
import type { LanePool } from './lanes';
import type { BatchRunRows } from './run-rows';
import { SEARCH_ATTRIBUTE_KEYS } from './search-attributes';
import type { Batch, Lane, TemporalStarter } from './types';

function searchAttributes(batch: Batch): SearchAttributePair[] {
  const { request, userId } = batch.jobs[0]!;
  const attributes: SearchAttributePair[] = [
    { key: SEARCH_ATTRIBUTE_KEYS.accountId, value: userId },
    { key: SEARCH_ATTRIBUTE_KEYS.scrapeMode, value: request.mode },
    { key: SEARCH_ATTRIBUTE_KEYS.targetHost, value: new URL(request.url).hostname },
  ];
  // A template run's own execution lists its runs; a lane lists none (its runs are in its
  // history: workflows/scrape.workflow.ts LANE_UNLISTED_RUNS_PATCH), not even its first batch's.
  if (!batch.lane) attributes.push({ key: SEARCH_ATTRIBUTE_KEYS.scrapeRunIds, value: batch.jobs.map((job) => job.runId) });
  if (batch.options.templateId) attributes.push({ key: SEARCH_ATTRIBUTE_KEYS.templateId, value: batch.options.templateId });
  return attributes;
}

/** Starts the batch's execution or hands it to its lane; rejects (its runs failed) when that fails. */
export type HandOver = (batch: Batch) => Promise<void>;

export function createHandOver(deps: { temporal: TemporalStarter; queues: TaskQueues; rows: BatchRunRows; lanes: LanePool }): HandOver {
  async function handOver(client: Client, batch: Batch): Promise<void> {
    const { request, userId } = batch.jobs[0]!;
    const attributes = searchAttributes(batch);
    // A batch of an `own-queue` engine (browser) runs where its pages are done (each a local
    // activity there); of a `with-workflow` engine (http) on the sync queue, eagerly in this
    // process when its worker runs (scrape/engines.ts).
    const ownQueue = SCRAPE_ENGINES[request.mode].placement === 'own-queue';
    const input: ScrapeBatchWorkflowInput = { scrapes: batch.jobs, browserQueue: deps.queues.browser, ...(ownQueue ? { renderLocally: true } : {}) };
    const taskQueue = ownQueue ? engineQueueBeside(deps.queues.browser, request.mode) : deps.queues.sync;
    const memo = { accountId: userId, ...batch.options.memo };
    const eager = !ownQueue && deps.temporal.eagerStartAvailable();
    const { lane } = batch;
    if (!lane) {
      // A template run: an execution of its own, under its business id.
      await client.workflow.start(scrapeBatchWorkflow, {
        taskQueue,
        workflowId: batch.workflowId,
        args: [input],
        memo: { ...memo, runs: batch.jobs.map((job) => ({ id: job.runId, url: job.request.url })) },
        typedSearchAttributes: attributes,
        requestEagerStart: eager,
      });
      return;
    }
    const toLane = async (target: Lane) => {
      if (!target.started) {
        // A lane's first batch starts it (eagerly: it then runs in this process).
        target.started = true;
        await client.workflow.start(scrapeLaneWorkflow, { taskQueue, workflowId: target.workflowId, args: [input], memo, typedSearchAttributes: attributes, requestEagerStart: eager });
        return;
      }
      // Later batches are Signals to it: written to its history before this returns, so durable
      // before any of their scrapes starts (workflows/scrape.workflow.ts scrapeLaneSignal).
      await client.workflow.getHandle<typeof scrapeLaneWorkflow>(target.workflowId).signal(scrapeLaneSignal, input);
    };
    try {
      await toLane(lane);
    } catch (error) {
      // The lane has ended (an operator cancelled or terminated it, or this process stalled
      // past LANE_REUSE_MS): the Signal was not written, so the batch goes to another lane.
      if (!(error instanceof WorkflowNotFoundError)) throw error;
      lane.retired = true;
      deps.lanes.assign(batch);
      await deps.rows.moved(batch);
      await toLane(batch.lane!);
    }
  }

  return async (batch) => {
    await deps.rows.record(batch);
    try {
      await handOver(await deps.temporal.get(), batch);
    } catch (error) {
      // A lane that failed a start or a Signal is not used again (the next batch starts a new one).
      if (batch.lane) batch.lane.retired = true;
      await deps.rows.notStarted(batch);
      throw error;
    }
  };
}
