/**
 * `/flows/*` (API key or session; docs/flows.md): CRUD of flows (named DAGs of nodes, validated
 * on save, versioned on edit), and their runs: start (202, or `?wait=true` up to SYNC_TIMEOUT_MS
 * then 504 with the run id), list, get (per-node status, attempts, outputs, credits, errors,
 * foreach items), cancel. A run executes the definition it started with (flow_run.definition),
 * so editing a flow never changes a run in flight. Another account's flow or run → 403; unknown → 404.
 */
import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { z } from 'zod';
import { flowRunCreditsByNode, getBalance } from '../../accounts/credit';
import { toJsonColumn } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { type FlowNodeDefinition, type FlowWorkflowInput, type FlowWorkflowOutput, workflowIds } from '../../workflows/definitions';
import { awaitWorkflow } from '../await-workflow';
import { createIdempotencyStore, idempotentRequest, runIdempotent } from '../idempotency';
import type { AuthContext } from '../middleware/auth';
import { ownedBy } from '../ownership';
import { type Route, mountRoutes, parsedBy, reply, route } from '../route-table';
import { parseOrUnprocessable } from '../../platform/validate';
import { type WebhookSpec, webhookSpecSchema } from '../../webhooks/spec';
import { apiWebhooks } from '../webhooks';
import { NEWEST_FIRST, afterCursor, decodeCursor, page } from './pagination';
import { type FlowBody, flowBodySchema, flowPatchSchema, listRunsQuery, minimumRunCost, parseFlow, startRunQuery } from '../schemas/flows';
import { flowRunSchema, flowRunSummarySchema, flowSchema, pageOf } from '../schemas/responses';
import type { AppDeps } from '../deps';

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

const FLOW_EXAMPLE = {
  name: 'titles',
  nodes: [
    { id: 'page', type: 'scrape', config: { url: 'https://example.com/', selectors: [{ name: 'links', selector: 'a', attribute: 'href', all: true }] } },
    { id: 'each', type: 'foreach', needs: ['page'], config: { from: '{{page.data.links}}', request: { url: '{{item}}', selectors: ['h1'] } } },
  ],
};

export function flowRoutes(deps: AppDeps): Router {
  return mountRoutes(Router(), deps, flowRouteTable(deps));
}

/** POST /flows/:id/runs: an optional body with the run's own webhook. */
const startRunBody = z.strictObject({ webhook: webhookSpecSchema.optional() });

export function flowRouteTable(deps: AppDeps): Route[] {
  const { db } = deps;
  const idempotency = createIdempotencyStore(deps.sql);

  /** The caller's flow, or 404 (unknown or deleted) / 403 (another account's). */
  async function ownFlow(id: string, userId: string): Promise<FlowRow> {
    const flow = await db.flow.findUnique({ where: { id } });
    return ownedBy(flow?.deletedAt ? null : flow, userId, 'flow');
  }

  async function ownRun(params: { id: string; runId: string }, userId: string): Promise<{ flow: FlowRow; run: FlowRunRow }> {
    const flow = await ownFlow(params.id, userId);
    const run = await db.flowRun.findUnique({ where: { id: params.runId } });
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

  const update = (partial: boolean) => async ({ auth, params, body }: { auth: { userId: string }; params: { id: string }; body: unknown }) => {
    const flow = await ownFlow(params.id, auth.userId);
    const current: FlowBody = { name: flow.name, description: flow.description, nodes: flow.definition as unknown as FlowNodeDefinition[] };
    const next = parseFlow(body, { partial, current: partial ? current : { ...current, description: null } });
    const updated = await db.flow.update({
      where: { id: flow.id },
      data: { name: next.name, description: next.description, definition: toJsonColumn(next.nodes), version: { increment: 1 } },
    });
    return reply(200, flowBody(updated));
  };

  function flowRunTimeout(flowId: string, runId: string): AppError {
    return new AppError('TIMEOUT', `The flow run did not finish within ${deps.config.SYNC_TIMEOUT_MS} ms; fetch it later from /flows/${flowId}/runs/${runId}`, {
      id: runId,
      links: runLinks(flowId, runId),
    });
  }

  /** Records and starts a run of the caller's flow under `runId`, then answers as `answerRun`. */
  async function startFlowRun(auth: AuthContext, flowId: string, wait: boolean, runId: string, deadline: number, webhook?: WebhookSpec) {
    const flow = await ownFlow(flowId, auth.userId);
    const nodes = flow.definition as unknown as FlowNodeDefinition[];
    const minimum = minimumRunCost(nodes);
    await deps.limits?.checkConcurrency(auth.userId);
    const balance = await getBalance(db, auth.userId);
    if (balance < minimum) {
      throw new AppError('INSUFFICIENT_CREDIT', `This flow's scrape nodes cost at least ${minimum} credits; ${balance} remaining`, { remaining: balance, cost: minimum });
    }

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
      // Every run may emit (the account's endpoints are read when it ends: a flow is not the hot path).
      events: webhook ? { webhook } : {},
    };
    const client = await deps.temporal.get();
    try {
      await client.workflow.start('flowWorkflow', {
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
    return answerRun(run, wait, deadline);
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
    return reply(200, await runBody(await db.flowRun.findUniqueOrThrow({ where: { id: run.id } })));
  }

  return [
    route({
      method: 'post',
      path: '/flows',
      credential: 'either',
      tag: 'flows',
      summary: 'Create a flow (a DAG of scrape, foreach, delay and webhook nodes), validated as a whole',
      body: parsedBy(flowBodySchema, (body) => parseFlow(body), FLOW_EXAMPLE),
      responses: { 201: flowSchema },
      errors: ['VALIDATION_FAILED'],
      handler: async ({ auth, body: flow }) => {
        const created = await db.flow.create({ data: { userId: auth.userId, name: flow.name, description: flow.description, definition: toJsonColumn(flow.nodes) } });
        return reply(201, flowBody(created));
      },
    }),
    route({
      method: 'get',
      path: '/flows',
      credential: 'either',
      tag: 'flows',
      summary: "The account's flows",
      responses: { 200: z.object({ flows: z.array(flowSchema) }) },
      errors: [],
      handler: async ({ auth }) => {
        const flows = await db.flow.findMany({ where: { userId: auth.userId, deletedAt: null }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });
        return reply(200, { flows: flows.map(flowBody) });
      },
    }),
    route({
      method: 'get',
      path: '/flows/:id',
      params: ['id'],
      credential: 'either',
      tag: 'flows',
      summary: 'One flow',
      responses: { 200: flowSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => reply(200, flowBody(await ownFlow(params.id, auth.userId))),
    }),
    /** PATCH merges (any of name, description, nodes); PUT replaces (name and nodes required). Both bump the version. */
    route({
      method: 'patch',
      path: '/flows/:id',
      params: ['id'],
      credential: 'either',
      tag: 'flows',
      summary: 'Change any of name, description, nodes (a new version; runs in flight keep theirs)',
      // Validated in the handler, merged with the stored flow (after the ownership check).
      body: parsedBy(flowPatchSchema, (body) => body),
      responses: { 200: flowSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'VALIDATION_FAILED'],
      handler: update(true),
    }),
    route({
      method: 'put',
      path: '/flows/:id',
      params: ['id'],
      credential: 'either',
      tag: 'flows',
      summary: 'Replace a flow (a new version)',
      body: parsedBy(flowBodySchema, (body) => body, FLOW_EXAMPLE),
      responses: { 200: flowSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'VALIDATION_FAILED'],
      handler: update(false),
    }),
    route({
      method: 'delete',
      path: '/flows/:id',
      params: ['id'],
      credential: 'either',
      tag: 'flows',
      summary: 'Delete a flow; its runs in flight are cancelled',
      responses: { 204: null },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => {
        const flow = await ownFlow(params.id, auth.userId);
        // Runs in flight stop with their flow (recorded as cancelled); finished runs stay for the record.
        const live = await db.flowRun.findMany({ where: { flowId: flow.id, status: { in: ['queued', 'running'] } } });
        if (live.length) {
          const client = await deps.temporal.get();
          await Promise.all(live.map((run) => client.workflow.getHandle(run.workflowId).cancel().catch(() => undefined)));
        }
        await db.flow.update({ where: { id: flow.id }, data: { deletedAt: new Date() } });
        return reply(204);
      },
    }),
    route({
      method: 'post',
      path: '/flows/:id/runs',
      params: ['id'],
      credential: 'either',
      tag: 'flows',
      summary: 'Start a run (202), or with ?wait=true wait for it up to the synchronous limit (200, else 504 with the run id)',
      query: parsedBy(startRunQuery, (query) => startRunQuery.parse(query)),
      // Optional: `{ webhook: {url, events?, metadata?} }` (docs/webhooks.md); no body is `{}`.
      body: { ...parsedBy(startRunBody, (value) => parseOrUnprocessable(startRunBody, value ?? {}), { webhook: { url: 'https://example.com/hooks/flows', events: ['flow.run.failed'] } }), optional: true },
      responses: { 200: flowRunSchema, 202: flowRunSummarySchema },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'INSUFFICIENT_CREDIT', 'RATE_LIMITED', 'TIMEOUT', 'VALIDATION_FAILED', 'BAD_REQUEST', 'INVALID_URL', 'PRIVATE_TARGET', 'BLACKLISTED'],
      idempotent: true,
      handler: async ({ auth, params, query: { wait }, body, req }) => {
        const deadline = Date.now() + deps.config.SYNC_TIMEOUT_MS;
        if (body.webhook) await apiWebhooks(deps).guard.check(body.webhook.url);
        const keyed = idempotentRequest(req, auth.userId, deadline);
        if (!keyed) return startFlowRun(auth, params.id, wait, randomUUID(), deadline, body.webhook);
        return runIdempotent({ store: idempotency, logger: deps.logger }, keyed, {
          start: (runId) => startFlowRun(auth, params.id, wait, runId, deadline, body.webhook),
          find: (runId) => db.flowRun.findUnique({ where: { id: runId } }),
          // Its workflow could not be started: nothing ran, nothing was charged.
          neverStarted: (run) => run.status === 'failed' && run.startedAt === null,
          replay: (run) => answerRun(run, wait, deadline),
        });
      },
    }),
    route({
      method: 'get',
      path: '/flows/:id/runs',
      params: ['id'],
      credential: 'either',
      tag: 'flows',
      summary: "A flow's runs, newest first",
      query: parsedBy(listRunsQuery, (query) => listRunsQuery.parse(query)),
      responses: { 200: pageOf('runs', flowRunSummarySchema) },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'BAD_REQUEST'],
      handler: async ({ auth, params, query: { limit, cursor } }) => {
        const flow = await ownFlow(params.id, auth.userId);
        const rows = await db.flowRun.findMany({ where: { flowId: flow.id, ...afterCursor(decodeCursor(cursor)) }, orderBy: NEWEST_FIRST, take: limit + 1 });
        const { items, nextCursor } = page(rows, limit);
        return reply(200, { runs: items.map(runSummary), nextCursor });
      },
    }),
    route({
      method: 'get',
      path: '/flows/:id/runs/:runId',
      params: ['id', 'runId'],
      credential: 'either',
      tag: 'flows',
      summary: 'A run: each node with its status, attempts, output, credits and error; foreach items',
      responses: { 200: flowRunSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => reply(200, await runBody((await ownRun(params, auth.userId)).run)),
    }),
    route({
      method: 'post',
      path: '/flows/:id/runs/:runId/cancel',
      params: ['id', 'runId'],
      credential: 'either',
      tag: 'flows',
      summary: 'Cancel a run: 200 once it recorded its cancellation, 202 while it is still stopping',
      responses: { 200: flowRunSchema, 202: flowRunSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'CONFLICT'],
      handler: async ({ auth, params }) => {
        const { run } = await ownRun(params, auth.userId);
        if (FINISHED.has(run.status)) throw new AppError('CONFLICT', `The run already finished (${run.status})`, { id: run.id, status: run.status });
        const client = await deps.temporal.get();
        const handle = client.workflow.getHandle(run.workflowId);
        // A run whose workflow already closed cannot be cancelled again; its record tells the rest.
        await handle.cancel().catch((error: unknown) => deps.logger.info({ runId: run.id, err: error }, 'cancel of a closed flow run'));
        // Give the run a moment to stop its nodes and record the cancellation, then show it.
        await awaitWorkflow(client, handle, CANCEL_WAIT_MS).catch(() => undefined);
        const after = await db.flowRun.findUniqueOrThrow({ where: { id: run.id } });
        return reply(FINISHED.has(after.status) ? 200 : 202, await runBody(after));
      },
    }),
  ];
}
