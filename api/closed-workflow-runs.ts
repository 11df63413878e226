/**
 * Records whose workflow closed without finishing them. A workflow an operator terminates in the
 * Temporal UI (or one past its execution timeout: a monitor check's hour) runs no further code, so
 * the rows it would have finished stay live for ever: a scrape run `running` with its debit, a
 * monitor check `running` (never pruned), a flow run `running` with its open nodes. (A
 * *cancelled* workflow finishes its own rows: its code hears the cancel.)
 *
 * Every `intervalMs`, this reads the rows live for longer than `graceMs` (partial indexes hold only
 * live rows), asks Temporal for each one's workflow (describe: the execution itself, not
 * visibility), and when that workflow is closed or gone, closes them as its code would have:
 * - a scrape run: cancelled when its workflow was terminated or cancelled, failed otherwise; its
 *   debit refunded, once (scrape/run-cancel.ts, keyed by the run's debit);
 * - a monitor check: its run closed as above, then settled by a `monitorCheckSettleWorkflow` of
 *   its own (one id per check), which records it `failed` and emits its event if it decides one;
 * - a flow run: its nodes' live runs closed as above, its open nodes cancelled, the run recorded
 *   `cancelled` (terminated or cancelled) or `failed`;
 * - a crawl or batch job: its pages' live runs closed as above (they run under the job's workflow
 *   id), the job recorded `cancelled` (terminated or cancelled) or `failed`. A resumed job runs a
 *   new execution under the same id, and the previous one is closed until it starts, so a job
 *   counts only an execution closed for longer than `graceMs`;
 * - an extract job: its model step's debit refunded (none taken: nothing to give back), the job
 *   recorded `cancelled` or `failed`.
 *
 * `graceMs` keeps a row away while its workflow may not exist yet (the API records a run, then
 * starts or Signals its workflow; a batch sent to a lane that had just ended is moved to another
 * lane in the same moment); a running workflow is never touched, however long it runs. Every API
 * replica runs this; every transition is guarded, so two replicas closing one row write it once.
 */
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Database } from '../platform/db';
import type { Logger } from '../platform/logger';
import { periodicSweep } from '../platform/periodic-sweep';
import type { RunFailure, ScrapeRunStore } from '../scrape/runs';
import { createFlowStore } from '../flows/store';
import { createCrawlStore } from '../crawl/store';
import { createExtractStore, extractDebitKey } from '../crawl/extract-store';
import { refundCredit } from '../accounts/credit';
import { createMonitorStore } from '../monitors/store';
import { monitorCheckSettleWorkflow } from '../workflows/monitor.workflow';
import { type taskQueues, workflowIds } from '../workflows/definitions';
import type { TemporalStarter } from './scrape-dispatch';

export interface ClosedWorkflowSweep {
  /** One pass; returns how many rows it closed (runs, checks, flow runs, crawl and extract jobs). */
  sweep(): Promise<number>;
  close(): void;
}

const BATCH = 200;

/**
 * How a workflow ended, as its describe names it; `gone` when Temporal has no such execution
 * (never started, or past retention); `running` for every state that is not closed (paused too).
 */
type Ending = 'running' | 'gone' | ClosedStatus;

const CLOSED_STATUSES = ['COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED', 'TIMED_OUT'] as const;
type ClosedStatus = (typeof CLOSED_STATUSES)[number];
const isClosed = (status: string): status is ClosedStatus => (CLOSED_STATUSES as readonly string[]).includes(status);

export function createClosedWorkflowSweep(deps: {
  db: Database;
  runs: ScrapeRunStore;
  temporal: Pick<TemporalStarter, 'get'>;
  queues: Pick<ReturnType<typeof taskQueues>, 'main'>;
  logger: Logger;
  graceMs?: number;
  intervalMs?: number;
}): ClosedWorkflowSweep {
  const graceMs = deps.graceMs ?? 300_000;
  const intervalMs = deps.intervalMs ?? 60_000;
  const checks = createMonitorStore(deps.db);
  const flows = createFlowStore(deps.db);
  const crawls = createCrawlStore(deps.db);
  const extracts = createExtractStore(deps.db);

  async function sweepOnce(): Promise<number> {
    const client = await deps.temporal.get();
    const endings = new Map<string, Ending>();
    const endingOf = async (workflowId: string): Promise<Ending> => {
      const known = endings.get(workflowId);
      if (known) return known;
      const ending = await describeEnding(client, workflowId);
      endings.set(workflowId, ending);
      return ending;
    };
    let closed = 0;

    for (const run of await deps.runs.liveSince(graceMs, BATCH)) {
      const ending = await endingOf(run.workflowId);
      if (ending !== 'running' && (await closeRun(deps.runs, run.id, ending))) closed++;
    }

    for (const check of await checks.runningChecksSince(graceMs, BATCH)) {
      const ending = await endingOf(check.workflowId);
      if (ending === 'running') continue;
      // Usually closed by the loop above already (a no-op then); not when it fell past that loop's batch, and the settle must see it closed.
      await closeRun(deps.runs, check.scrapeRunId, ending);
      try {
        await client.workflow.start(monitorCheckSettleWorkflow, { args: [{ checkId: check.id }], taskQueue: deps.queues.main, workflowId: workflowIds.monitorCheckSettle(check.id) });
        closed++;
      } catch (error) {
        // Started by an earlier pass or another replica: it settles the check.
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    }

    for (const flowRun of await flows.openRunsSince(graceMs, BATCH)) {
      const ending = await endingOf(flowRun.workflowId);
      if (ending === 'running') continue;
      for (const runId of await deps.runs.liveOfFlowRun(flowRun.id)) await closeRun(deps.runs, runId, ending);
      await flows.cancelOpenNodes(flowRun.id);
      const cancelled = isCancel(ending);
      await flows.recordRun({ flowRunId: flowRun.id, status: cancelled ? 'cancelled' : 'failed', error: failureOf(ending) });
      closed++;
    }

    // Read once per pass: an execution closed before it counts for a crawl job (see above).
    const closedBefore = Date.now() - graceMs;
    for (const job of await crawls.liveSince(graceMs, BATCH)) {
      const ending = await describeEnding(client, job.workflowId, closedBefore);
      if (ending === 'running') continue;
      for (const runId of await deps.runs.liveOfWorkflow(job.workflowId)) await closeRun(deps.runs, runId, ending);
      if (await crawls.finish(job.id, isCancel(ending) ? 'cancelled' : 'failed', failureOf(ending))) closed++;
    }

    for (const job of await extracts.processingSince(graceMs, BATCH)) {
      const ending = await endingOf(job.workflowId);
      if (ending === 'running') continue;
      await refundCredit(deps.db, { debitKey: extractDebitKey(job.id) });
      const ended = isCancel(ending) ? await extracts.cancel(job.id) : await extracts.fail(job.id, { ...failureOf(ending), refunded: true });
      if (ended) closed++;
    }

    if (closed > 0) deps.logger.warn({ closed }, 'rows whose workflow had closed without finishing them were closed');
    return closed;
  }

  return periodicSweep(sweepOnce, { intervalMs, logger: deps.logger, failure: 'closing rows of closed workflows failed' });
}

/** `closedBefore` (epoch ms): an execution closed later than that still counts as running. */
async function describeEnding(client: Client, workflowId: string, closedBefore?: number): Promise<Ending> {
  try {
    const described = await client.workflow.getHandle(workflowId).describe();
    const status = described.status.name;
    if (!isClosed(status)) return 'running';
    return closedBefore !== undefined && (described.closeTime?.getTime() ?? 0) > closedBefore ? 'running' : status;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return 'gone';
    throw error;
  }
}

const isCancel = (ending: Ending) => ending === 'TERMINATED' || ending === 'CANCELLED';

function failureOf(ending: Ending): RunFailure {
  if (isCancel(ending)) return { code: 'CANCELLED', message: `its workflow was ${ending.toLowerCase()} in Temporal before it finished` };
  if (ending === 'gone') return { code: 'INTERNAL', message: 'its workflow no longer exists in Temporal' };
  return { code: 'INTERNAL', message: `its workflow ended (${ending.toLowerCase()}) before it finished` };
}

/** Closes one live scrape run of a closed workflow, with its refund; false when it had already finished. */
async function closeRun(runs: ScrapeRunStore, runId: string, ending: Ending): Promise<boolean> {
  const failure = failureOf(ending);
  if (isCancel(ending)) return (await runs.cancelAndRefund(runId, failure)).cancelled;
  return (await runs.failAndRefund(runId, failure)).run !== null;
}
