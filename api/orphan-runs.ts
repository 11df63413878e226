/**
 * Runs whose workflow never started. The API records a standalone run, then starts its workflow
 * (api/scrape-dispatch.ts): an API process killed between the two leaves the run queued with no
 * workflow to finish it. Every `intervalMs`, this looks at runs queued for longer than `graceMs`
 * and asks Temporal for their workflow; when it does not exist, the runs are failed as never
 * started (nothing was debited: only the workflow's activities debit).
 *
 * A run sent to a lane (a long-lived execution taking batches by Signal) has a workflow that
 * exists whether or not the run reached it: such a run is an orphan when, past `graceMs`, the
 * execution's history holds no input that names it: neither its start's input (the first batch)
 * nor a batch Signal (`scrapeLaneSignalName`). The API writes the run rows, then starts or
 * Signals; a start or Signal the server accepted is in the history before the API's call returns
 * (durable before any of its scrapes starts), whether or not the lane's task has run it yet, so
 * a lane held up on a loaded machine does not turn good runs into failures. A Signal that is not
 * in the history was lost with the API process that sent it. Runs of a batch that is not in the
 * history are failed (a start or Signal slower than that still finds them finished: harmless).
 * The history is read only for an execution with runs queued past `graceMs` (rare: a lost Signal,
 * or a browser batch behind a busy pool), through the client's payload codec (the inputs are
 * encrypted); the lanes no longer list their runs in a search attribute (issue 39: that write per
 * batch was a quarter of the Temporal server's CPU per lone scrape).
 *
 * A crawl's page runs are not looked at (scrape/runs.ts `queuedSince`): the crawl workflow
 * records them itself, and one may wait queued for its host's politeness delay, up to 60 s.
 *
 * A start slower than `graceMs` that succeeds after all is harmless: its activities find the run
 * finished and neither debit nor scrape (scrape/runs.ts, startAttempt). Every API replica
 * runs this; the transitions are guarded, so two replicas failing the same run write it once.
 */
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import type { Logger } from '../platform/logger';
import { periodicSweep } from '../platform/periodic-sweep';
import type { ScrapeRunStore } from '../scrape/runs';
import { type ScrapeBatchWorkflowInput, scrapeLaneSignalName } from '../workflows/definitions';
import type { TemporalStarter } from './scrape-dispatch';

/** The first argument of a start or Signal, decoded through the client's codecs and converter. */
async function firstArgument(client: Client, payloads: temporal.api.common.v1.IPayload[] | null | undefined): Promise<unknown> {
  if (!payloads?.length) return undefined;
  const { payloadCodecs, payloadConverter } = client.options.loadedDataConverter;
  let decoded: Payload[] = payloads;
  for (const codec of [...payloadCodecs].reverse()) decoded = await codec.decode(decoded);
  return payloadConverter.fromPayload(decoded[0]!);
}

/**
 * Every run id an execution of scrapeLaneWorkflow or scrapeBatchWorkflow was given: its input's
 * and each batch Signal's, read from its history (whether its workflow task has run them or not).
 */
export async function runIdsHandedTo(client: Client, workflowId: string): Promise<Set<string>> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const ids = new Set<string>();
  for (const event of history.events ?? []) {
    const started = event.workflowExecutionStartedEventAttributes;
    const signalled = event.workflowExecutionSignaledEventAttributes;
    const payloads = started ? started.input?.payloads : signalled?.signalName === scrapeLaneSignalName ? signalled.input?.payloads : undefined;
    if (!payloads) continue;
    const batch = (await firstArgument(client, payloads)) as Partial<ScrapeBatchWorkflowInput> | undefined;
    for (const job of batch?.scrapes ?? []) ids.add(job.runId);
  }
  return ids;
}

export interface OrphanRunReaper {
  /** One pass; returns how many runs it failed. */
  sweep(): Promise<number>;
  close(): void;
}

const BATCH = 500;

export function createOrphanRunReaper(deps: { runs: ScrapeRunStore; temporal: Pick<TemporalStarter, 'get'>; logger: Logger; graceMs?: number; intervalMs?: number }): OrphanRunReaper {
  const graceMs = deps.graceMs ?? 30_000;
  const intervalMs = deps.intervalMs ?? 15_000;

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
      let handed: Set<string>;
      try {
        await client.workflow.getHandle(workflowId).describe();
        handed = await runIdsHandedTo(client, workflowId);
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
        await fail(workflowId, runIds);
        continue;
      }
      await fail(workflowId, runIds.filter((id) => !handed.has(id)));
    }
    return failed;
  }

  return periodicSweep(sweepOnce, { intervalMs, logger: deps.logger, failure: 'looking for runs that never started failed' });
}
