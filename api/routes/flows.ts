/**
 * `/flows/*` (API key or session; docs/flows.md): CRUD of flows (named DAGs of nodes, validated
 * on save, versioned on edit), and their runs: start (202, or `?wait=true` up to SYNC_TIMEOUT_MS
 * then 504 with the run id), list, get (per-node status, attempts, outputs, credits, errors,
 * foreach items), cancel. A run executes the definition it started with (flow_run.definition),
 * so editing a flow never changes a run in flight. Another account's flow or run → 403; unknown → 404.
 */
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { type Request, type Response, Router } from 'express';
import { flowRunCreditsByNode, getBalance } from '../../lib/credit';
import { toJsonColumn } from '../../lib/db';
import { AppError } from '../../lib/errors';
import { type FlowNodeDefinition, type FlowWorkflowInput, type FlowWorkflowOutput, workflowIds } from '../../workflows/definitions';
import type { AppDeps } from '../app';
import { awaitWorkflow } from '../await-workflow';
import { authenticate } from '../middleware/auth';
import { ownedBy } from '../ownership';
import { NEWEST_FIRST, afterCursor, decodeCursor, page } from './pagination';
import { type FlowBody, minimumRunCost, parseFlow } from '../schemas/flows';
import { rejectMalformedIds } from '../params';

type FlowRow = NonNullable<Awaited<ReturnType<AppDeps['db']['flow']['findUnique']>>>;
type FlowRunRow = NonNullable<Awaited<ReturnType<AppDeps['db']['flowRun']['findUnique']>>>;

/** Items of a foreach node listed in a run's body; past this, `items_truncated` says so. */
const MAX_LISTED_ITEMS = 1000;
/** How long a cancel waits for the run to record its cancellation before answering. */
const CANCEL_WAIT_MS = 10_000;

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

function flowBody(flow: FlowRow) {
  return {
    id: flow.id,
    name: flow.name,
    description: flow.description,
    version: flow.version,
    nodes: flow.definition,
    createdAt: flow.createdAt,
    updatedAt: flow.updatedAt,
  };
}

function runLinks(flowId: string, runId: string) {
  return { self: `/flows/${flowId}/runs/${runId}`, cancel: `/flows/${flowId}/runs/${runId}/cancel` };
}

function runSummary(run: FlowRunRow) {
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

export function flowRoutes(deps: AppDeps): Router {
  const router = Router();
  rejectMalformedIds(router, 'id', 'runId');
  const requireCaller = authenticate(deps, { apiKey: true, session: true });
  const { db } = deps;

  /** The caller's flow, or 404 (unknown or deleted) / 403 (another account's). */
  async function ownFlow(req: Request): Promise<FlowRow> {
    const flow = await db.flow.findUnique({ where: { id: String(req.params.id) } });
    return ownedBy(flow?.deletedAt ? null : flow, req.auth!.userId, 'flow');
  }

  async function ownRun(req: Request): Promise<{ flow: FlowRow; run: FlowRunRow }> {
    const flow = await ownFlow(req);
    const run = await db.flowRun.findUnique({ where: { id: String(req.params.runId) } });
    if (!run || run.flowId !== flow.id) throw new AppError('NOT_FOUND', 'No run of this flow with that id');
    return { flow, run };
  }

  /** A run with each node's state, credits from the ledger, and each foreach item. */
  async function runBody(run: FlowRunRow) {
    const [nodes, scrapes, spentByNode] = await Promise.all([
      db.flowRunNode.findMany({ where: { runId: run.id } }),
      db.scrapeRun.findMany({
        where: { flowRunId: run.id },
        orderBy: [{ flowItemIndex: 'asc' }],
        select: { id: true, flowNodeId: true, flowItemIndex: true, url: true, status: true, httpStatus: true, attempts: true, result: true, error: true },
      }),
      flowRunCreditsByNode(db, run.id),
    ]);
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
          const count = (status: string) => items.filter((i) => i.status === status).length;
          const summary = (state?.items ?? null) as { total?: number } | null;
          node.items = {
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
        return node;
      }),
    };
  }

  router.post('/flows', requireCaller, async (req: Request, res: Response) => {
    const flow = parseFlow(req.body);
    const created = await db.flow.create({ data: { userId: req.auth!.userId, name: flow.name, description: flow.description, definition: toJsonColumn(flow.nodes) } });
    res.status(201).json(flowBody(created));
  });

  router.get('/flows', requireCaller, async (req: Request, res: Response) => {
    const flows = await db.flow.findMany({ where: { userId: req.auth!.userId, deletedAt: null }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });
    res.json({ flows: flows.map(flowBody) });
  });

  router.get('/flows/:id', requireCaller, async (req: Request, res: Response) => {
    res.json(flowBody(await ownFlow(req)));
  });

  /** PATCH merges (any of name, description, nodes); PUT replaces (name and nodes required). Both bump the version. */
  const update = (partial: boolean) => async (req: Request, res: Response) => {
    const flow = await ownFlow(req);
    const current: FlowBody = { name: flow.name, description: flow.description, nodes: flow.definition as unknown as FlowNodeDefinition[] };
    const next = parseFlow(req.body, { partial, current: partial ? current : { ...current, description: null } });
    const updated = await db.flow.update({
      where: { id: flow.id },
      data: { name: next.name, description: next.description, definition: toJsonColumn(next.nodes), version: { increment: 1 } },
    });
    res.json(flowBody(updated));
  };
  router.patch('/flows/:id', requireCaller, update(true));
  router.put('/flows/:id', requireCaller, update(false));

  router.delete('/flows/:id', requireCaller, async (req: Request, res: Response) => {
    const flow = await ownFlow(req);
    // Runs in flight stop with their flow (recorded as cancelled); finished runs stay for the record.
    const live = await db.flowRun.findMany({ where: { flowId: flow.id, status: { in: ['queued', 'running'] } } });
    if (live.length) {
      const client = await deps.temporal.get();
      await Promise.all(live.map((run) => client.workflow.getHandle(run.workflowId).cancel().catch(() => undefined)));
    }
    await db.flow.update({ where: { id: flow.id }, data: { deletedAt: new Date() } });
    res.status(204).end();
  });

  router.post('/flows/:id/runs', requireCaller, async (req: Request, res: Response) => {
    const flow = await ownFlow(req);
    const wait = req.query.wait === 'true' || req.query.wait === '1';
    const nodes = flow.definition as unknown as FlowNodeDefinition[];
    const auth = req.auth!;
    const minimum = minimumRunCost(nodes);
    const balance = await getBalance(db, auth.userId);
    if (balance < minimum) {
      throw new AppError('INSUFFICIENT_CREDIT', `This flow's scrape nodes cost at least ${minimum} credits; ${balance} remaining`, { remaining: balance, cost: minimum });
    }

    const runId = randomUUID();
    const workflowId = workflowIds.flowRun(flow.id, runId);
    // The run and one row per node, together: a run is never half-recorded.
    const run = await db.$transaction(async (tx) => {
      const created = await tx.flowRun.create({
        data: { id: runId, flowId: flow.id, flowVersion: flow.version, definition: toJsonColumn(nodes), userId: auth.userId, apiKeyId: auth.apiKeyId, workflowId },
      });
      await tx.flowRunNode.createMany({ data: nodes.map((n) => ({ runId, nodeId: n.id, type: n.type, status: 'pending' })) });
      return created;
    });
    const input: FlowWorkflowInput = {
      flowRunId: runId,
      flowId: flow.id,
      flowVersion: flow.version,
      userId: auth.userId,
      apiKeyId: auth.apiKeyId,
      nodes,
      browserQueue: deps.queues.browser,
    };
    const client = await deps.temporal.get();
    let handle: WorkflowHandle;
    try {
      handle = await client.workflow.start('flowWorkflow', {
        taskQueue: deps.queues.main,
        workflowId,
        args: [input],
        memo: { accountId: auth.userId, flowId: flow.id, flowName: flow.name, flowVersion: flow.version },
        searchAttributes: { FlowId: [flow.id], AccountId: [auth.userId] },
      });
    } catch (error) {
      await db.flowRun.update({ where: { id: runId }, data: { status: 'failed', error: { code: 'INTERNAL', message: 'the run could not be started' }, finishedAt: new Date() } });
      throw error;
    }

    if (!wait) {
      res.status(202).json(runSummary(run));
      return;
    }
    const outcome = await awaitWorkflow<FlowWorkflowOutput>(client, handle, deps.config.SYNC_TIMEOUT_MS).catch((error: unknown) => {
      // Cancelled or terminated while we waited: the run's record says what happened.
      deps.logger.info({ runId, err: error }, 'flow run ended without a result');
      return { timedOut: false as const, result: undefined };
    });
    if (outcome.timedOut) {
      throw new AppError('TIMEOUT', `The flow run did not finish within ${deps.config.SYNC_TIMEOUT_MS} ms; fetch it later from /flows/${flow.id}/runs/${runId}`, {
        id: runId,
        links: runLinks(flow.id, runId),
      });
    }
    res.json(await runBody(await db.flowRun.findUniqueOrThrow({ where: { id: runId } })));
  });

  router.get('/flows/:id/runs', requireCaller, async (req: Request, res: Response) => {
    const flow = await ownFlow(req);
    const limit = Math.min(Math.max(Number.parseInt(typeof req.query.limit === 'string' ? req.query.limit : '50', 10) || 50, 1), 200);
    const cursor = decodeCursor(typeof req.query.cursor === 'string' ? req.query.cursor : undefined);
    const rows = await db.flowRun.findMany({ where: { flowId: flow.id, ...afterCursor(cursor) }, orderBy: NEWEST_FIRST, take: limit + 1 });
    const { items, nextCursor } = page(rows, limit);
    res.json({ runs: items.map(runSummary), nextCursor });
  });

  router.get('/flows/:id/runs/:runId', requireCaller, async (req: Request, res: Response) => {
    const { run } = await ownRun(req);
    res.json(await runBody(run));
  });

  router.post('/flows/:id/runs/:runId/cancel', requireCaller, async (req: Request, res: Response) => {
    const { run } = await ownRun(req);
    if (FINISHED.has(run.status)) throw new AppError('CONFLICT', `The run already finished (${run.status})`, { id: run.id, status: run.status });
    const client = await deps.temporal.get();
    const handle = client.workflow.getHandle(run.workflowId);
    // A run whose workflow already closed cannot be cancelled again; its record tells the rest.
    await handle.cancel().catch((error: unknown) => deps.logger.info({ runId: run.id, err: error }, 'cancel of a closed flow run'));
    // Give the run a moment to stop its nodes and record the cancellation, then show it.
    await awaitWorkflow(client, handle, CANCEL_WAIT_MS).catch(() => undefined);
    const after = await db.flowRun.findUniqueOrThrow({ where: { id: run.id } });
    res.status(FINISHED.has(after.status) ? 200 : 202).json(await runBody(after));
  });

  return router;
}
