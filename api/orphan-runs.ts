/**
 * Runs whose workflow never started. The API records a standalone run, then starts its workflow
 * (api/scrape-dispatch.ts): an API process killed between the two leaves the run queued with no
 * workflow to finish it. Every `intervalMs`, this looks at runs queued for longer than `graceMs`
 * and asks Temporal for their workflow; when it does not exist, the runs are failed as never
 * started (nothing was debited: only the workflow's activities debit).
 *
 * A run sent to a lane (a long-lived execution taking batches by Signal) has a workflow that
 * exists whether or not the run reached it: such a run is an orphan when, past `graceMs`, the
 * lane does not list it in its ScrapeRunIds (read from the execution itself by describe, not
 * from visibility). A lane lists a batch's runs in the workflow task that first sees its Signal,
 * before any of them starts; a Signal that was never written was lost with the API process that
 * sent it. One that was written but is still unseen after `graceMs` (the lane's task held up
 * that long on a loaded machine) shows as a workflow task pending on the lane (a Signal written
 * to history always schedules one): its runs are left for a later sweep, not failed, so a slow
 * lane does not turn good runs into failures. Unlisted runs of a lane with no task pending are
 * failed (a start or Signal slower than that still finds them finished: harmless).
 *
 * A crawl's page runs are not looked at (scrape/runs.ts `queuedSince`): the crawl workflow
 * records them itself, and one may wait queued for its host's politeness delay, up to 60 s.
 *
 * A start slower than `graceMs` that succeeds after all is harmless: its activities find the run
 * finished and neither debit nor scrape (scrape/runs.ts, startAttempt). Every API replica
 * runs this; the transitions are guarded, so two replicas failing the same run write it once.
 */
import { type WorkflowExecutionDescription, WorkflowNotFoundError } from '@temporalio/client';
import type { Logger } from '../platform/logger';
import type { ScrapeRunStore } from '../scrape/runs';
import { SEARCH_ATTRIBUTE_KEYS, type TemporalStarter } from './scrape-dispatch';

export interface OrphanRunReaper {
  /** One pass; returns how many runs it failed. */
  sweep(): Promise<number>;
  close(): void;
}

const BATCH = 500;

export function createOrphanRunReaper(deps: { runs: ScrapeRunStore; temporal: Pick<TemporalStarter, 'get'>; logger: Logger; graceMs?: number; intervalMs?: number }): OrphanRunReaper {
  const graceMs = deps.graceMs ?? 30_000;
  const intervalMs = deps.intervalMs ?? 15_000;
  let running: Promise<number> | undefined;

  async function sweepOnce(): Promise<number> {
    const queued = await deps.runs.queuedSince(graceMs, BATCH);
    if (queued.length === 0) return 0;
    const byWorkflow = new Map<string, string[]>();
    for (const run of queued) byWorkflow.set(run.workflowId, [...(byWorkflow.get(run.workflowId) ?? []), run.id]);
    const client = await deps.temporal.get();
    let failed = 0;
    const fail = async (workflowId: string, runIds: string[]) => {
      if (runIds.length === 0) return;
      await deps.runs.failUnstarted(runIds, { code: 'INTERNAL', message: 'the run was never started: the API process stopped before starting it; nothing was charged' });
      deps.logger.warn({ workflowId, runs: runIds.length }, 'queued runs that never reached a workflow failed as never started');
      failed += runIds.length;
    };
    for (const [workflowId, runIds] of byWorkflow) {
      let description: WorkflowExecutionDescription;
      try {
        description = await client.workflow.getHandle(workflowId).describe();
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
        await fail(workflowId, runIds);
        continue;
      }
      const listed = new Set(description.typedSearchAttributes.get(SEARCH_ATTRIBUTE_KEYS.scrapeRunIds) ?? []);
      const unlisted = runIds.filter((id) => !listed.has(id));
      // A pending task may carry the Signal that lists them: look again next sweep.
      if (unlisted.length > 0 && description.raw.pendingWorkflowTask) continue;
      await fail(workflowId, unlisted);
    }
    return failed;
  }

  const sweep = () => (running ??= sweepOnce().finally(() => (running = undefined)));
  const timer = setInterval(() => {
    sweep().catch((error: unknown) => deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'looking for runs that never started failed'));
  }, intervalMs);
  timer.unref();
  return { sweep, close: () => clearInterval(timer) };
}
