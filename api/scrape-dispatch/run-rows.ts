/** The dispatcher's writes of a batch's scrape_run rows, through their store (scrape/runs.ts). */
import type { ScrapeRunStore } from '../../scrape/runs';
import type { Batch } from './types';

export interface BatchRunRows {
  /** Records the batch's runs under its workflow id, before it is handed over. */
  record(batch: Batch): Promise<void>;
  /** The batch went to another lane: its runs follow it. */
  moved(batch: Batch): Promise<void>;
  /** Never leave a run half-recorded: it did not start, nothing was debited. */
  notStarted(batch: Batch): Promise<void>;
}

const runIds = (batch: Batch) => batch.jobs.map((job) => job.runId);

export function batchRunRows(runs: ScrapeRunStore): BatchRunRows {
  return {
    async record(batch) {
      await runs.insert(
        batch.jobs.map((job) => ({ id: job.runId, userId: job.userId, apiKeyId: job.apiKeyId, workflowId: batch.workflowId, mode: job.request.mode, url: job.request.url, request: job.request, cost: job.cost })),
      );
    },
    async moved(batch) {
      await runs.reassign(runIds(batch), batch.workflowId);
    },
    async notStarted(batch) {
      await runs.failUnstarted(runIds(batch), { code: 'INTERNAL', message: 'the run could not be started' });
    },
  };
}
