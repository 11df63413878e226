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
import { createIdempotencyStore, idempotentRequest, runIdempotent } from '../idempotency';
import { type Route, badRequest, mountRoutes, parsedBy, reply, route } from '../route-table';
import { parseOrUnprocessable } from '../../platform/validate';
import { webhookSpecSchema } from '../../webhooks/spec';
import { apiWebhooks } from '../webhooks';
import { NEWEST_FIRST, afterCursor, decodeCursor, page } from './pagination';
import { flowBodySchema, flowPatchSchema, listRunsQuery, parseFlow, startRunQuery } from '../schemas/flows';
import { flowInputAcceptedSchema, flowRunSchema, flowRunSummarySchema, flowSchema, pageOf, waitingFlowRunSchema } from '../schemas/responses';
import { INPUT_VALUE_MAX_CHARS } from '../../workflows/definitions';
import { type FlowRuns, createFlowRuns } from '../flow-runs';
import { createFlowInputs } from '../flow-inputs';
import { flowBody, runSummary } from '../flow-bodies';
import type { AppDeps } from '../deps';

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

/** POST /flows/:id/runs/:runId/input: the answer to an input node (docs/flows.md, "The input node"). */
const inputAnswerBody = z.strictObject({
  node: z.string().min(1).max(64),
  value: z.string().max(INPUT_VALUE_MAX_CHARS),
});

/** POST /flows/:id/runs: an optional body with the run's own webhook. */
const startRunBody = z.strictObject({ webhook: webhookSpecSchema.optional() });

export function flowRouteTable(deps: AppDeps): Route[] {
  const flowRuns = createFlowRuns(deps);
  return [...flowDefinitionRoutes(flowRuns), ...flowRunRoutes(deps, flowRuns)];
}

/** The flows themselves: create, list, get, change, delete. */
function flowDefinitionRoutes(flowRuns: FlowRuns): Route[] {
  const { flows } = flowRuns;
  return [
    route({
      method: 'post',
      path: '/flows',
      credential: 'either',
      tag: 'flows',
      summary: 'Create a flow (a DAG of scrape, foreach, delay, webhook and input nodes), validated as a whole',
      body: parsedBy(flowBodySchema, (body) => parseFlow(body), FLOW_EXAMPLE),
      responses: { 201: flowSchema },
      errors: ['VALIDATION_FAILED'],
      handler: ({ auth, body: flow }) => flowRuns.createFlow(auth.userId, flow),
    }),
    route({
      method: 'get',
      path: '/flows',
      credential: 'either',
      tag: 'flows',
      summary: "The account's flows",
      responses: { 200: z.object({ flows: z.array(flowSchema) }) },
      errors: [],
      handler: async ({ auth }) => reply(200, { flows: (await flows.listFlows(auth.userId)).map(flowBody) }),
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
      handler: async ({ auth, params }) => reply(200, flowBody(await flowRuns.ownFlow(params.id, auth.userId))),
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
      handler: ({ auth, params, body }) => flowRuns.saveFlow(auth.userId, params.id, body, true),
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
      handler: ({ auth, params, body }) => flowRuns.saveFlow(auth.userId, params.id, body, false),
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
      handler: ({ auth, params }) => flowRuns.deleteFlow(auth.userId, params.id),
    }),
  ];
}

/** A flow's runs: start (or wait for), list, get, cancel. */
function flowRunRoutes(deps: AppDeps, flowRuns: FlowRuns): Route[] {
  const { flows, answerRun } = flowRuns;
  const idempotency = createIdempotencyStore(deps.sql);
  const inputs = createFlowInputs(deps, flowRuns);
  return [
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
        if (!keyed) return flowRuns.startFlowRun(auth, params.id, wait, randomUUID(), deadline, body.webhook);
        return runIdempotent({ store: idempotency, logger: deps.logger }, keyed, {
          start: (runId) => flowRuns.startFlowRun(auth, params.id, wait, runId, deadline, body.webhook),
          find: (runId) => flows.findRun(runId),
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
        const flow = await flowRuns.ownFlow(params.id, auth.userId);
        const rows = await flows.listRuns(flow.id, { after: afterCursor(decodeCursor(cursor)), orderBy: NEWEST_FIRST, take: limit + 1 });
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
      handler: async ({ auth, params }) => reply(200, await flowRuns.runBody((await flowRuns.ownRun(params, auth.userId)).run)),
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
      handler: ({ auth, params }) => flowRuns.cancelRun(auth.userId, params),
    }),
    route({
      method: 'post',
      path: '/flows/:id/runs/:runId/input',
      params: ['id', 'runId'],
      credential: 'either',
      tag: 'flows',
      summary: 'Answer an input node that is waiting: its value becomes {{ nodes.<node>.value }} and the run goes on (409 when the node is not waiting)',
      body: badRequest(inputAnswerBody, { node: 'code', value: '123456' }),
      responses: { 200: flowInputAcceptedSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'CONFLICT', 'BAD_REQUEST', 'DEPENDENCY_UNAVAILABLE'],
      handler: ({ auth, params, body }) => inputs.answerInput(auth.userId, params, body),
    }),
    route({
      method: 'get',
      path: '/flows/runs/waiting',
      credential: 'either',
      tag: 'flows',
      summary: "The account's runs waiting at an input node (oldest first, at most 100), with each waiting node's prompt",
      responses: { 200: z.object({ runs: z.array(waitingFlowRunSchema) }) },
      errors: [],
      handler: ({ auth }) => inputs.waitingRuns(auth.userId),
    }),
  ];
}
