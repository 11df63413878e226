/** The bodies of `/flows/*` answers (api/routes/flows.ts): a flow, a run's summary, a run with its nodes. */
import { flowRunCreditsByNode } from '../accounts/credit';
import type { Database } from '../platform/db';
import type { FlowRow, FlowRunRow, FlowStore } from '../flows/store';
import { maskFlowNodes } from '../flows/definition-secrets';
import type { FlowNodeDefinition } from '../workflows/definitions';

/** Items of a foreach node listed in a run's body; past this, `items_truncated` says so. */
const MAX_LISTED_ITEMS = 1000;

export function flowBody(flow: FlowRow) {
  return {
    id: flow.id,
    name: flow.name,
    description: flow.description,
    version: flow.version,
    // Secrets masked, never the ciphertext nor the clear value (flows/definition-secrets.ts).
    nodes: maskFlowNodes(flow.definition as unknown as FlowNodeDefinition[]),
    createdAt: flow.createdAt,
    updatedAt: flow.updatedAt,
  };
}

export function runLinks(flowId: string, runId: string) {
  return { self: `/flows/${flowId}/runs/${runId}`, cancel: `/flows/${flowId}/runs/${runId}/cancel` };
}

export function runSummary(run: FlowRunRow) {
  return {
    id: run.id,
    flowId: run.flowId,
    flowVersion: run.flowVersion,
    status: run.status,
    error: run.error,
    workflowId: run.workflowId,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    links: runLinks(run.flowId, run.id),
  };
}

type RunScrape = Awaited<ReturnType<typeof runScrapes>>[number];

/** The scrapes of a run (scrape nodes and foreach items), in item order. */
function runScrapes(db: Database, runId: string) {
  return db.scrapeRun.findMany({
    where: { flowRunId: runId },
    orderBy: [{ flowItemIndex: 'asc' }],
    select: { id: true, flowNodeId: true, flowItemIndex: true, url: true, status: true, httpStatus: true, attempts: true, result: true, error: true },
  });
}

/** A foreach node's items: counts by status, and the first MAX_LISTED_ITEMS of them. */
function foreachItems(items: RunScrape[], summary: { total?: number } | null) {
  const count = (status: string) => items.filter((i) => i.status === status).length;
  return {
    total: summary?.total ?? null,
    started: items.length,
    succeeded: count('succeeded'),
    failed: count('failed'),
    running: count('running') + count('queued'),
    list: items.slice(0, MAX_LISTED_ITEMS).map((i) => ({
      index: i.flowItemIndex,
      run_id: i.id,
      url: i.url,
      status: i.status,
      http_status: i.httpStatus,
      attempts: i.attempts,
      data: (i.result as { data?: unknown } | null)?.data ?? null,
      error: i.error ?? null,
    })),
    ...(items.length > MAX_LISTED_ITEMS ? { list_truncated: true } : {}),
  };
}

/** A run with each node's state, credits from the ledger, and each foreach item. */
export async function runBody(db: Database, flows: FlowStore, run: FlowRunRow) {
  const [nodes, scrapes, spentByNode] = await Promise.all([flows.runNodes(run.id), runScrapes(db, run.id), flowRunCreditsByNode(db, run.id)]);
  const stateById = new Map(nodes.map((n) => [n.nodeId, n]));
  const definition = run.definition as unknown as FlowNodeDefinition[];
  return {
    ...runSummary(run),
    credits: { spent: [...spentByNode.values()].reduce((a, b) => a + b, 0) },
    nodes: definition.map((def) => {
      const state = stateById.get(def.id);
      const node: Record<string, unknown> = {
        id: def.id,
        type: def.type,
        needs: def.needs,
        status: state?.status ?? 'pending',
        attempts: state?.attempts ?? 0,
        credits: spentByNode.get(def.id) ?? 0,
        output: state?.output ?? null,
        error: state?.error ?? null,
        startedAt: state?.startedAt ?? null,
        finishedAt: state?.finishedAt ?? null,
      };
      if (def.type === 'scrape') {
        const scrape = scrapes.find((s) => s.flowNodeId === def.id && s.flowItemIndex === null);
        if (scrape) {
          node.attempts = scrape.attempts;
          node.run_id = scrape.id;
        }
      }
      if (def.type === 'foreach') {
        const items = scrapes.filter((s) => s.flowNodeId === def.id && s.flowItemIndex !== null);
        node.items = foreachItems(items, (state?.items ?? null) as { total?: number } | null);
      }
      return node;
    }),
  };
}
