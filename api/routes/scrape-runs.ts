/**
 * `/api/users/scrape-runs` (session cookie): the account's scrape runs, newest first, and one run
 * with its request, result and a link to its workflow in the Temporal UI. The web console
 * (docs/dashboard.md) lists runs with these; `GET /webhook/runs/:id` is the API-key form of one
 * run and answers what a client polls for.
 */
import { Router } from 'express';
import { z } from 'zod';
import { ownedBy } from '../ownership';
import { type Route, badRequest, mountRoutes, reply, route } from '../route-table';
import { listQuery } from '../schemas/account-functions';
import { pageOf } from '../schemas/responses';
import { NEWEST_FIRST, afterCursor, decodeCursor, page } from './pagination';
import type { AppDeps } from '../deps';

const SUMMARY_COLUMNS = {
  id: true,
  apiKeyId: true,
  mode: true,
  url: true,
  status: true,
  attempts: true,
  cost: true,
  error: true,
  httpStatus: true,
  elapsedMs: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  flowRunId: true,
} as const;

interface SummaryRow {
  id: string;
  apiKeyId: string | null;
  mode: string;
  url: string;
  status: string;
  attempts: number;
  cost: number;
  error: unknown;
  httpStatus: number | null;
  elapsedMs: number | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  flowRunId: string | null;
}

/** A run as listed: what it cost (refunded when it failed on our side), how long it took from acceptance to its end. */
function runSummary(run: SummaryRow) {
  const error = run.error as { code?: string; message?: string; refunded?: boolean; blocked_by?: string } | null;
  return {
    id: run.id,
    apiKeyId: run.apiKeyId,
    flowRunId: run.flowRunId,
    mode: run.mode,
    url: run.url,
    status: run.status,
    attempts: run.attempts,
    cost: run.cost,
    refunded: error?.refunded === true,
    httpStatus: run.httpStatus,
    durationMs: run.finishedAt ? run.finishedAt.getTime() - run.createdAt.getTime() : null,
    error: error ? { code: error.code ?? null, message: error.message ?? null, blockedBy: error.blocked_by ?? null } : null,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt ? run.finishedAt.toISOString() : null,
  };
}

const time = z.iso.datetime();
const runSummarySchema = z
  .object({
    id: z.string(),
    apiKeyId: z.string().nullable(),
    flowRunId: z.string().nullable(),
    mode: z.string(),
    url: z.string(),
    status: z.enum(['queued', 'running', 'succeeded', 'cached', 'failed', 'cancelled']).meta({ description: '`cached`: answered from the results cache, cost 0' }),
    attempts: z.int(),
    cost: z.int().meta({ description: 'Credits debited when the run was accepted' }),
    refunded: z.boolean().meta({ description: 'The cost went back to the balance (a failure that was not the target\'s answer)' }),
    httpStatus: z.int().nullable(),
    durationMs: z.int().nullable().meta({ description: 'From acceptance to the end of the run; null while it runs' }),
    error: z
      .object({
        code: z.string().nullable(),
        message: z.string().nullable(),
        blockedBy: z.string().nullable().meta({ description: 'TARGET_BLOCKED: the vendor whose block page every attempt got (docs/scraping.md "Block pages")' }),
      })
      .nullable(),
    createdAt: time,
    finishedAt: time.nullable(),
  })
  .meta({ id: 'ScrapeRunSummary' });

const runDetailSchema = runSummarySchema
  .extend({
    workflowId: z.string(),
    elapsedMs: z.int().nullable().meta({ description: 'Fetch time of the attempt that succeeded' }),
    startedAt: time.nullable(),
    request: z.unknown(),
    result: z.unknown().meta({ description: 'The stored result (final_url, status, headers, html or data) when it succeeded' }),
    links: z.object({ temporalUi: z.string().meta({ description: "The run's workflow in the Temporal UI (TEMPORAL_UI_URL)" }) }),
    escalation: z
      .array(z.object({ attempt: z.int(), engine: z.string(), proxy_tier: z.string(), outcome: z.string(), escalated: z.string().optional(), blocked_by: z.string().optional() }))
      .nullable()
      .meta({ description: 'An `auto` run\'s steps in order (docs/scraping.md "Escalation"): engine, proxy tier, outcome, why it moved on; null for any other run' }),
  })
  .meta({ id: 'ScrapeRunDetail' });

export function scrapeRunRouteTable(deps: AppDeps): Route[] {
  const temporalUi = (workflowId: string) =>
    `${deps.config.TEMPORAL_UI_URL}/namespaces/${encodeURIComponent(deps.config.TEMPORAL_NAMESPACE)}/workflows/${encodeURIComponent(workflowId)}`;
  return [
    route({
      method: 'get',
      path: '/api/users/scrape-runs',
      credential: 'session',
      tag: 'account',
      summary: "The account's scrape runs (standalone and flow scrapes), newest first",
      query: badRequest(listQuery),
      responses: { 200: pageOf('runs', runSummarySchema) },
      errors: ['BAD_REQUEST'],
      handler: async ({ auth, query }) => {
        const rows = await deps.db.scrapeRun.findMany({
          where: { userId: auth.userId, ...afterCursor(decodeCursor(query.cursor)) },
          select: SUMMARY_COLUMNS,
          orderBy: NEWEST_FIRST,
          take: query.limit + 1,
        });
        const { items, nextCursor } = page(rows, query.limit);
        return reply(200, { runs: items.map(runSummary), nextCursor });
      },
    }),
    route({
      method: 'get',
      path: '/api/users/scrape-runs/:id',
      params: ['id'],
      credential: 'session',
      tag: 'account',
      summary: 'One scrape run: its request, result or error, and its workflow in the Temporal UI',
      responses: { 200: runDetailSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => {
        const run = ownedBy(await deps.db.scrapeRun.findUnique({ where: { id: params.id } }), auth.userId, 'run');
        return reply(200, {
          ...runSummary(run),
          workflowId: run.workflowId,
          elapsedMs: run.elapsedMs,
          startedAt: run.startedAt ? run.startedAt.toISOString() : null,
          request: run.request,
          result: run.result ?? null,
          links: { temporalUi: temporalUi(run.workflowId) },
          escalation: Array.isArray(run.escalation) ? run.escalation : null,
        });
      },
    }),
  ];
}

export function scrapeRunRoutes(deps: AppDeps): Router {
  return mountRoutes(Router(), deps, scrapeRunRouteTable(deps));
}
