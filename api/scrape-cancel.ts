/**
 * `POST /webhook/runs/:id/cancel` (docs/scraping.md "Cancelling a run"): one scrape run cancelled
 * by its owner, without touching the runs beside it.
 *
 * The run is recorded cancelled and refunded here, before any workflow hears of it: the guarded
 * transition (scrape/runs.ts `cancelAndRefund`) makes every later write of the run a no-op (a
 * late success is not stored, an attempt not yet started never starts, so never debits), and the
 * refund is keyed by the run's debit, so it happens once whoever else cancels it. Then its fetch
 * is stopped: at once when it runs in this process (scrape/running-attempts.ts), and by its
 * execution otherwise: a lane gets a Signal naming the run (workflows/scrape.workflow.ts
 * `cancelScrapeRunSignal`), an execution of its own (a template run, a map) is cancelled. If
 * Temporal cannot be reached, the cancel still stands; the attempt finds the run cancelled when
 * it ends.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { AppError } from '../platform/errors';
import { createScrapeRunStore } from '../scrape/runs';
import { cancelScrapeRunSignal } from '../workflows/scrape.workflow';
import type { AppDeps } from './deps';

/** What the cancel reads of a run row. */
export interface CancellableRun {
  id: string;
  status: string;
  workflowId: string;
  flowRunId: string | null;
}

/**
 * How a run is executed, from its workflow id (workflows/definitions.ts `workflowIds`):
 * - `lane`: a standalone scrape in a lane shared with other runs of its key: a Signal;
 * - `own`: a template run (`template-…`) or a map (`map-…`), one run per execution: cancelled;
 * - `crawl`: a page of a crawl or batch job (`crawl-<id>`): the job is cancelled, not the page;
 * - `shared`: an execution of before lanes (`scrape-<id>`), which may hold other runs: only the
 *   record and this process's attempt.
 */
export function executionOf(workflowId: string): 'lane' | 'own' | 'crawl' | 'shared' {
  if (workflowId.startsWith('scrape-lane-')) return 'lane';
  if (workflowId.startsWith('template-') || workflowId.startsWith('map-')) return 'own';
  if (workflowId.startsWith('crawl-')) return 'crawl';
  return 'shared';
}

const CANCELLED_BY_OWNER = { code: 'CANCELLED', message: 'the run was cancelled by its owner' } as const;

/**
 * Cancels the run (its owner checked by the caller) and answers nothing: the caller shows the run
 * as it is now. A run already cancelled is left as it is (a repeated cancel answers the same).
 * 409 CONFLICT for a run that finished, and for a scrape of a flow run or a page of a crawl,
 * which are cancelled with their job (the message names its cancel route).
 */
export async function cancelScrapeRun(deps: AppDeps, run: CancellableRun): Promise<void> {
  if (run.flowRunId) {
    const flowRun = await deps.db.flowRun.findUnique({ where: { id: run.flowRunId }, select: { flowId: true } });
    const cancel = flowRun ? `/flows/${flowRun.flowId}/runs/${run.flowRunId}/cancel` : undefined;
    throw new AppError('CONFLICT', `This run is a scrape of flow run ${run.flowRunId}: cancel the flow run${cancel ? ` (POST ${cancel})` : ''}`, {
      id: run.id,
      flow_run_id: run.flowRunId,
      ...(cancel ? { links: { cancel } } : {}),
    });
  }
  const execution = executionOf(run.workflowId);
  if (execution === 'crawl') {
    const crawlId = run.workflowId.slice('crawl-'.length);
    throw new AppError('CONFLICT', `This run is a page of crawl ${crawlId}: cancel the crawl (POST /crawl/${crawlId}/cancel)`, {
      id: run.id,
      crawl_id: crawlId,
      links: { cancel: `/crawl/${crawlId}/cancel` },
    });
  }
  if (run.status === 'cancelled') return;
  if (run.status === 'succeeded' || run.status === 'cached' || run.status === 'failed') throw finished(run.id, run.status);

  const { run: now } = await createScrapeRunStore(deps.sql).cancelAndRefund(run.id, CANCELLED_BY_OWNER);
  // It finished between the read and the cancel: its outcome stands.
  if (now && now.status !== 'cancelled') throw finished(run.id, now.status);
  deps.attempts?.abort(run.id);
  await tellExecution(deps, run, execution);
}

function finished(id: string, status: string): AppError {
  return new AppError('CONFLICT', `The run already finished (${status}); only a queued or running run can be cancelled`, { id, status });
}

/** Stops the run's fetch where its execution runs (best effort: the cancel is recorded already). */
async function tellExecution(deps: AppDeps, run: CancellableRun, execution: 'lane' | 'own' | 'shared'): Promise<void> {
  if (execution === 'shared') return;
  try {
    const handle = (await deps.temporal.get()).workflow.getHandle(run.workflowId);
    if (execution === 'lane') await handle.signal(cancelScrapeRunSignal, { runId: run.id });
    else await handle.cancel();
  } catch (error) {
    // An execution that has ended runs nothing of the run any more.
    if (error instanceof WorkflowNotFoundError) return;
    deps.logger.warn(
      { runId: run.id, workflowId: run.workflowId, err: error instanceof Error ? error.message : String(error) },
      'a cancelled run could not be stopped through its workflow; it stays cancelled and refunded, and its attempt finds it so when it ends',
    );
  }
}
