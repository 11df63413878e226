/**
 * The flows' store: every write of `flow`, `flow_run` and `flow_run_node` goes through here
 * (docs/flows.md). A run's transitions are guarded (`UPDATE … WHERE status IN (…)`): a finished
 * run or node is never reopened, whoever writes it (the API when a start fails, the flow
 * workflow's activities as it runs, retried or replayed).
 */
import { type Database, type Prisma, toJsonColumn } from '../platform/db';

export type FlowRow = NonNullable<Awaited<ReturnType<Database['flow']['findUnique']>>>;
export type FlowRunRow = NonNullable<Awaited<ReturnType<Database['flowRun']['findUnique']>>>;
export type FlowRunNodeRow = NonNullable<Awaited<ReturnType<Database['flowRunNode']['findUnique']>>>;
export type FlowRunStatus = FlowRunRow['status'];

/** A run or node in one of these may still change; any other status is final. */
const OPEN_RUN: FlowRunStatus[] = ['queued', 'running', 'waiting_input'];
const OPEN_NODE = ['pending', 'running', 'waiting_input'];

/** A flow's content as saved (validated by the caller). */
export interface FlowContent {
  name: string;
  description: string | null;
  nodes: readonly { id: string; type: string }[];
}

export interface NewFlowRun {
  id: string;
  flowId: string;
  flowVersion: number;
  /** The definition it runs (a snapshot: editing the flow never changes it). */
  nodes: readonly { id: string; type: string }[];
  userId: string;
  apiKeyId: string | null;
  workflowId: string;
}

/** A node's state when it starts or ends (the fields given are written). */
export interface FlowNodeUpdate {
  flowRunId: string;
  nodeId: string;
  status: string;
  attempts?: number;
  credits?: number;
  output?: unknown;
  error?: unknown;
  items?: unknown;
}

export function createFlowStore(db: Database) {
  return {
    // ------------------------------------------------------------ flows
    findFlow: (id: string) => db.flow.findUnique({ where: { id } }),
    /** The account's flows (not deleted), newest first. */
    listFlows: (userId: string) => db.flow.findMany({ where: { userId, deletedAt: null }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] }),
    createFlow: (userId: string, flow: FlowContent) => db.flow.create({ data: { userId, name: flow.name, description: flow.description, definition: toJsonColumn(flow.nodes) } }),
    /** Saves a new version of the flow (runs keep the definition they started with). */
    updateFlow: (id: string, flow: FlowContent) =>
      db.flow.update({ where: { id }, data: { name: flow.name, description: flow.description, definition: toJsonColumn(flow.nodes), version: { increment: 1 } } }),
    /** Deleted flows keep their runs (ledger rows point at them) but are gone from the API. */
    async deleteFlow(id: string): Promise<void> {
      await db.flow.update({ where: { id }, data: { deletedAt: new Date() } });
    },

    // ------------------------------------------------------------ runs
    findRun: (id: string) => db.flowRun.findUnique({ where: { id } }),
    runOrThrow: (id: string) => db.flowRun.findUniqueOrThrow({ where: { id } }),
    /** The flow's runs that may still change (queued, running or waiting for input). */
    liveRuns: (flowId: string) => db.flowRun.findMany({ where: { flowId, status: { in: OPEN_RUN } } }),
    listRuns: (flowId: string, page: { after: Prisma.FlowRunWhereInput; orderBy: Prisma.FlowRunOrderByWithRelationInput[]; take: number }) =>
      db.flowRun.findMany({ where: { flowId, ...page.after }, orderBy: page.orderBy, take: page.take }),
    runNodes: (runId: string) => db.flowRunNode.findMany({ where: { runId } }),
    /** The account's runs waiting at an input node (flows not deleted), oldest first, with those nodes. */
    waitingRuns: (userId: string, take: number) =>
      db.flowRun.findMany({
        where: { userId, status: 'waiting_input', flow: { deletedAt: null } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take,
        include: { flow: { select: { name: true } }, nodes: { where: { status: 'waiting_input' } } },
      }),

    /** The run and one pending row per node, together: a run is never half-recorded. */
    createRun: (run: NewFlowRun) =>
      db.$transaction(async (tx) => {
        const created = await tx.flowRun.create({
          data: { id: run.id, flowId: run.flowId, flowVersion: run.flowVersion, definition: toJsonColumn(run.nodes), userId: run.userId, apiKeyId: run.apiKeyId, workflowId: run.workflowId },
        });
        await tx.flowRunNode.createMany({ data: run.nodes.map((n) => ({ runId: run.id, nodeId: n.id, type: n.type, status: 'pending' })) });
        return created;
      }),

    /** Its workflow could not be started: the run failed before it began (nothing ran, nothing was charged). */
    async failUnstarted(runId: string): Promise<void> {
      await db.flowRun.updateMany({
        where: { id: runId, status: { in: ['queued'] } },
        data: { status: 'failed', error: { code: 'INTERNAL', message: 'the run could not be started' }, finishedAt: new Date() },
      });
    },

    /** Runs still open (queued, running, waiting for input) created before `olderThanMs` ago, oldest first (index flow_run_live_idx). */
    openRunsSince: (olderThanMs: number, limit: number) =>
      db.flowRun.findMany({
        where: { status: { in: OPEN_RUN }, createdAt: { lt: new Date(Date.now() - olderThanMs) } },
        select: { id: true, workflowId: true },
        orderBy: { createdAt: 'asc' },
        take: limit,
      }),

    /** Writes the run's status; a finished run is never reopened (a replayed "running" is ignored). */
    async recordRun(input: { flowRunId: string; status: FlowRunStatus; error?: unknown }): Promise<void> {
      const finished = !OPEN_RUN.includes(input.status);
      await db.flowRun.updateMany({
        where: { id: input.flowRunId, status: { in: OPEN_RUN } },
        data: {
          status: input.status,
          ...(input.error ? { error: toJsonColumn(input.error) } : {}),
          ...(input.status === 'running' ? { startedAt: new Date() } : {}),
          ...(finished ? { finishedAt: new Date() } : {}),
        },
      });
    },

    /**
     * Between `running` and `waiting_input` while the run is open (an input node started or
     * stopped waiting); `startedAt` stays the run's start. A finished run is never reopened.
     */
    async recordRunWaiting(flowRunId: string, waiting: boolean): Promise<void> {
      await db.flowRun.updateMany({
        where: { id: flowRunId, status: { in: waiting ? ['queued', 'running'] : ['waiting_input'] } },
        data: { status: waiting ? 'waiting_input' : 'running' },
      });
    },

    // ------------------------------------------------------------ nodes
    /** Writes a node's state (when it starts and when it ends). A finished node is never reopened. */
    async recordNode(input: FlowNodeUpdate): Promise<void> {
      const finished = !OPEN_NODE.includes(input.status);
      const data = {
        status: input.status,
        ...(input.attempts !== undefined ? { attempts: input.attempts } : {}),
        ...(input.credits !== undefined ? { credits: input.credits } : {}),
        ...(input.output !== undefined ? { output: toJsonColumn(input.output) } : {}),
        ...(input.error !== undefined ? { error: toJsonColumn(input.error) } : {}),
        ...(input.items !== undefined ? { items: toJsonColumn(input.items) } : {}),
        // `startedAt` is when the node started, not when it began to wait.
        ...(input.status === 'running' ? { startedAt: new Date() } : {}),
        ...(finished ? { finishedAt: new Date() } : {}),
      };
      await db.flowRunNode.updateMany({ where: { runId: input.flowRunId, nodeId: input.nodeId, status: { in: OPEN_NODE } }, data });
    },

    /** The attempt a node is on (a webhook node's POST, retried by Temporal). */
    async recordNodeAttempt(flowRunId: string, nodeId: string, attempt: number): Promise<void> {
      await db.flowRunNode.updateMany({ where: { runId: flowRunId, nodeId }, data: { attempts: attempt } });
    },

    /** Nodes that had not finished are cancelled with their run. */
    async cancelOpenNodes(flowRunId: string): Promise<void> {
      await db.flowRunNode.updateMany({ where: { runId: flowRunId, status: { in: OPEN_NODE } }, data: { status: 'cancelled', finishedAt: new Date() } });
    },
  };
}

export type FlowStore = ReturnType<typeof createFlowStore>;
