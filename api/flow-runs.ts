/**
 * What `/flows/*` (api/routes/flows.ts) does beyond its route table: the caller's flows and runs
 * (ownership), saving a new version, starting a run's workflow and waiting for it, cancelling and
 * deleting. Rows are written through the flows' store (flows/store.ts).
 */
import { getBalance } from '../accounts/credit';
import { AppError } from '../platform/errors';
import { type FlowRow, type FlowRunRow, createFlowStore } from '../flows/store';
import { maskFlowNodes, sealFlowNodes, unsealFlowNodes } from '../flows/definition-secrets';
import { configuredKeyring } from '../sessions/keys';
import type { WebhookSpec } from '../webhooks/spec';
import { type FlowNodeDefinition, type FlowWorkflowInput, type FlowWorkflowOutput, workflowIds } from '../workflows/definitions';
import { flowWorkflow } from '../workflows/flow.workflow';
import { awaitWorkflow } from './await-workflow';
import type { AppDeps } from './deps';
import { flowBody, runBody, runLinks, runSummary } from './flow-bodies';
import type { AuthContext } from './middleware/auth';
import { ownedBy } from './ownership';
import { reply } from './route-table';
import { type FlowBody, minimumRunCost, parseFlow } from './schemas/flows';

/** How long a cancel waits for the run to record its cancellation before answering. */
const CANCEL_WAIT_MS = 10_000;

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

export const FINISHED_RUN = FINISHED;

export function createFlowRuns(deps: AppDeps) {
  const { db } = deps;
  const flows = createFlowStore(db);
  const keyring = configuredKeyring(deps.config);

  /** The caller's flow, or 404 (unknown or deleted) / 403 (another account's). */
  async function ownFlow(id: string, userId: string): Promise<FlowRow> {
    const flow = await flows.findFlow(id);
    return ownedBy(flow?.deletedAt ? null : flow, userId, 'flow');
  }

  async function ownRun(params: { id: string; runId: string }, userId: string): Promise<{ flow: FlowRow; run: FlowRunRow }> {
    const flow = await ownFlow(params.id, userId);
    const run = await flows.findRun(params.runId);
    if (!run || run.flowId !== flow.id) throw new AppError('NOT_FOUND', 'No run of this flow with that id');
    return { flow, run };
  }

  function flowRunTimeout(flowId: string, runId: string): AppError {
    return new AppError('TIMEOUT', `The flow run did not finish within ${deps.config.SYNC_TIMEOUT_MS} ms; fetch it later from /flows/${flowId}/runs/${runId}`, {
      id: runId,
      links: runLinks(flowId, runId),
    });
  }

  /** Starts the recorded run's workflow; when that fails, the run is recorded as failed. */
  async function startWorkflow(flow: FlowRow, input: FlowWorkflowInput, workflowId: string): Promise<void> {
    const client = await deps.temporal.get();
    try {
      await client.workflow.start(flowWorkflow, {
        taskQueue: deps.queues.main,
        workflowId,
        args: [input],
        memo: { accountId: input.userId, flowId: flow.id, flowName: flow.name, flowVersion: flow.version },
        searchAttributes: { FlowId: [flow.id], AccountId: [input.userId] },
      });
    } catch (error) {
      await flows.failUnstarted(input.flowRunId);
      throw error;
    }
  }

  /**
   * 202 with the run's summary; with `wait`, its body once finished (200), waiting for its
   * workflow until `deadline` (else 504 with the run id). Also the answer to an Idempotency-Key
   * repeat, from the run its first request started.
   */
  async function answerRun(run: FlowRunRow, wait: boolean, deadline: number) {
    if (!wait) return reply(202, runSummary(run));
    if (!FINISHED.has(run.status)) {
      const client = await deps.temporal.get();
      const outcome = await awaitWorkflow<FlowWorkflowOutput>(client, client.workflow.getHandle(run.workflowId), Math.max(0, deadline - Date.now())).catch((error: unknown) => {
        // Cancelled or terminated while we waited: the run's record says what happened.
        deps.logger.info({ runId: run.id, err: error }, 'flow run ended without a result');
        return { timedOut: false as const, result: undefined };
      });
      if (outcome.timedOut) throw flowRunTimeout(run.flowId, run.id);
    }
    return reply(200, await runBody(db, flows, await flows.runOrThrow(run.id)));
  }

  return {
    flows,
    ownFlow,
    ownRun,
    answerRun,
    runBody: (run: FlowRunRow) => runBody(db, flows, run),

    /** Its secrets are sealed before the row is written (docs/flows.md "Secrets in a flow"). */
    createFlow: async (userId: string, flow: FlowBody) => reply(201, flowBody(await flows.createFlow(userId, { ...flow, nodes: sealFlowNodes(keyring, userId, flow.nodes) }))),

    /** PATCH (`partial`) merges with the stored flow; PUT replaces it. Either saves a new version. */
    async saveFlow(userId: string, id: string, body: unknown, partial: boolean) {
      const flow = await ownFlow(id, userId);
      const stored = flow.definition as unknown as FlowNodeDefinition[];
      // Validated as the caller sees it (secrets masked); a secret sent back masked keeps the stored one.
      const current: FlowBody = { name: flow.name, description: flow.description, nodes: maskFlowNodes(stored) };
      const next = parseFlow(body, { partial, current: partial ? current : { ...current, description: null } });
      return reply(200, flowBody(await flows.updateFlow(flow.id, { ...next, nodes: sealFlowNodes(keyring, userId, next.nodes, stored) })));
    },

    /** Runs in flight stop with their flow (recorded as cancelled); finished runs stay for the record. */
    async deleteFlow(userId: string, id: string) {
      const flow = await ownFlow(id, userId);
      const live = await flows.liveRuns(flow.id);
      if (live.length) {
        const client = await deps.temporal.get();
        await Promise.all(live.map((run) => client.workflow.getHandle(run.workflowId).cancel().catch(() => undefined)));
      }
      await flows.deleteFlow(flow.id);
      return reply(204);
    },

    /** Records and starts a run of the caller's flow under `runId`, then answers as `answerRun`. */
    async startFlowRun(auth: AuthContext, flowId: string, wait: boolean, runId: string, deadline: number, webhook?: WebhookSpec) {
      const flow = await ownFlow(flowId, auth.userId);
      // The run's snapshot keeps the secrets sealed; only the workflow input (encrypted by the payload codec) has them.
      const nodes = flow.definition as unknown as FlowNodeDefinition[];
      const runnable = unsealFlowNodes(keyring, auth.userId, nodes);
      const minimum = minimumRunCost(nodes);
      await deps.limits?.checkConcurrency(auth.userId);
      const balance = await getBalance(db, auth.userId);
      if (balance < minimum) {
        throw new AppError('INSUFFICIENT_CREDIT', `This flow's scrape nodes cost at least ${minimum} credits; ${balance} remaining`, { remaining: balance, cost: minimum });
      }

      const workflowId = workflowIds.flowRun(flow.id, runId);
      const run = await flows.createRun({ id: runId, flowId: flow.id, flowVersion: flow.version, nodes, userId: auth.userId, apiKeyId: auth.apiKeyId, workflowId });
      const input: FlowWorkflowInput = {
        flowRunId: runId,
        flowId: flow.id,
        flowVersion: flow.version,
        userId: auth.userId,
        apiKeyId: auth.apiKeyId,
        nodes: runnable,
        browserQueue: deps.queues.browser,
        // Every run may emit (the account's endpoints are read when it ends: a flow is not the hot path).
        events: webhook ? { webhook } : {},
      };
      await startWorkflow(flow, input, workflowId);
      return answerRun(run, wait, deadline);
    },

    /** Cancels the caller's run: 200 once it recorded its cancellation, 202 while it is still stopping. */
    async cancelRun(userId: string, params: { id: string; runId: string }) {
      const { run } = await ownRun(params, userId);
      if (FINISHED.has(run.status)) throw new AppError('CONFLICT', `The run already finished (${run.status})`, { id: run.id, status: run.status });
      const client = await deps.temporal.get();
      const handle = client.workflow.getHandle(run.workflowId);
      // A run whose workflow already closed cannot be cancelled again; its record tells the rest.
      await handle.cancel().catch((error: unknown) => deps.logger.info({ runId: run.id, err: error }, 'cancel of a closed flow run'));
      // Give the run a moment to stop its nodes and record the cancellation, then show it.
      await awaitWorkflow(client, handle, CANCEL_WAIT_MS).catch(() => undefined);
      const after = await flows.runOrThrow(run.id);
      return reply(FINISHED.has(after.status) ? 200 : 202, await runBody(db, flows, after));
    },
  };
}

export type FlowRuns = ReturnType<typeof createFlowRuns>;
