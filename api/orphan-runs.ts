/**
 * Runs whose workflow never started. The API records a standalone run, then starts its workflow
 * (api/scrape-dispatch.ts): an API process killed between the two leaves the run queued with no
 * workflow to finish it. Every `intervalMs`, this looks at runs queued for longer than `graceMs`
 * and asks Temporal for their workflow; when it does not exist, the runs are failed as never
 * started (nothing was debited: only the workflow's activities debit).
 *
 * A run sent to a lane (a long-lived execution taking batches by Update) has a workflow that
 * exists whether or not the run reached it: such a run is an orphan when the lane does not list
 * it in its ScrapeRunIds and the lane has ended, or the run is older than `laneGraceMs` (an
 * Update not accepted by then was lost with the API process that sent it).
 *
 * A start slower than `graceMs` that succeeds after all is harmless: its activities find the run
 * finished and neither debit nor scrape (lib/scrape-runs.ts, startAttempt). Every API replica
 * runs this; the transitions are guarded, so two replicas failing the same run write it once.
 */
import { type WorkflowExecutionDescription, WorkflowNotFoundError } from '@temporalio/client';
import type { Logger } from '../lib/logger';
import type { ScrapeRunStore } from '../lib/scrape-runs';
import { SEARCH_ATTRIBUTE_KEYS, type TemporalStarter } from './scrape-dispatch';

export interface OrphanRunReaper {
  /** One pass; returns how many runs it failed. */
  sweep(): Promise<number>;
  close(): void;
}

const BATCH = 500;

export function createOrphanRunReaper(deps: { runs: ScrapeRunStore; temporal: Pick<TemporalStarter, 'get'>; logger: Logger; graceMs?: number; laneGraceMs?: number; intervalMs?: number }): OrphanRunReaper {
  const graceMs = deps.graceMs ?? 30_000;
  const laneGraceMs = deps.laneGraceMs ?? 120_000;
  const intervalMs = deps.intervalMs ?? 15_000;
  let running: Promise<number> | undefined;

  async function sweepOnce(): Promise<number> {
    const queued = await deps.runs.queuedSince(graceMs, BATCH);
    if (queued.length === 0) return 0;
    const byWorkflow = new Map<string, Array<{ id: string; ageMs: number }>>();
    for (const run of queued) byWorkflow.set(run.workflowId, [...(byWorkflow.get(run.workflowId) ?? []), run]);
    const client = await deps.temporal.get();
    let failed = 0;
    const fail = async (workflowId: string, runIds: string[]) => {
      if (runIds.length === 0) return;
      await deps.runs.failUnstarted(runIds, { code: 'INTERNAL', message: 'the run was never started: the API process stopped before starting it; nothing was charged' });
      deps.logger.warn({ workflowId, runs: runIds.length }, 'queued runs without a workflow failed as never started');
      failed += runIds.length;
    };
    for (const [workflowId, runs] of byWorkflow) {
      let description: WorkflowExecutionDescription;
      try {
        description = await client.workflow.getHandle(workflowId).describe();
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
        await fail(workflowId, runs.map((run) => run.id));
        continue;
      }
      const listed = new Set(description.typedSearchAttributes.get(SEARCH_ATTRIBUTE_KEYS.scrapeRunIds) ?? []);
      const ended = description.status.name !== 'RUNNING';
      await fail(workflowId, runs.filter((run) => !listed.has(run.id) && (ended || run.ageMs > laneGraceMs)).map((run) => run.id));
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
