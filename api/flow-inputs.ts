/**
 * The input nodes' side of `/flows/*` (docs/flows.md, "The input node"): answering a waiting node
 * (the run's `flowInput` Update) and listing the account's runs waiting for an answer.
 */
import { WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { AppError } from '../platform/errors';
import type { FlowInputAnswer, FlowInputWaiting, FlowNodeDefinition } from '../workflows/definitions';
import { flowInputUpdate } from '../workflows/flow.workflow';
import type { AppDeps } from './deps';
import { runLinks, runSummary } from './flow-bodies';
import { FINISHED_RUN, type FlowRuns } from './flow-runs';
import { reply } from './route-table';

/** Runs GET /flows/runs/waiting lists at most (the oldest first: they expire first). */
const MAX_WAITING_LISTED = 100;

export function createFlowInputs(deps: AppDeps, flowRuns: FlowRuns) {
  const { flows, ownRun } = flowRuns;
  return {
    /**
     * Answers an input node of the caller's run: the run's `flowInput` Update, whose validator
     * refuses a node that is not waiting (409). 200 once the run took the answer (it goes on from
     * there: follow the run).
     */
    async answerInput(userId: string, params: { id: string; runId: string }, answer: FlowInputAnswer) {
      const { run } = await ownRun(params, userId);
      const node = (run.definition as unknown as FlowNodeDefinition[]).find((n) => n.id === answer.node);
      if (!node) throw new AppError('NOT_FOUND', `The run has no node "${answer.node}"`);
      if (node.type !== 'input') throw new AppError('CONFLICT', `Node "${answer.node}" is a ${node.type} node; only an input node takes an answer`, { node: answer.node });
      const notWaiting = (status: string) => new AppError('CONFLICT', `Node "${answer.node}" is not waiting for input`, { node: answer.node, status });
      if (FINISHED_RUN.has(run.status)) throw notWaiting(run.status);
      const client = await deps.temporal.get();
      try {
        await client.workflow.getHandle(run.workflowId).executeUpdate(flowInputUpdate, { args: [answer] });
      } catch (error) {
        // Refused by the validator (not waiting: answered, timed out, not reached yet), or the run's workflow already closed.
        if (error instanceof WorkflowUpdateFailedError || error instanceof WorkflowNotFoundError) throw notWaiting((await flows.runOrThrow(run.id)).status);
        // No worker took it in time: whether it was taken is unknown; a retry answers 409 if it was.
        if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) throw new AppError('DEPENDENCY_UNAVAILABLE', 'The run did not take the answer in time; retry (a 409 then means it was taken)');
        throw error;
      }
      return reply(200, { id: run.id, node: answer.node, accepted: true as const, links: runLinks(run.flowId, run.id) });
    },

    /** The caller's runs waiting at an input node, with what each waiting node asks. */
    async waitingRuns(userId: string) {
      const rows = await flows.waitingRuns(userId, MAX_WAITING_LISTED);
      return reply(200, {
        runs: rows.map((run) => ({
          ...runSummary(run),
          flowName: run.flow.name,
          waiting: run.nodes.map((n) => ({ node: n.nodeId, ...(n.output as unknown as FlowInputWaiting), answer: `/flows/${run.flowId}/runs/${run.id}/input` })),
        })),
      });
    },
  };
}
