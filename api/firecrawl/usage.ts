/**
 * Firecrawl's account routes (docs/firecrawl.md "Usage, queue and active crawls"), read from our
 * own rows: nothing of their own is stored.
 *
 * - `GET /v2/team/credit-usage` (and `/v1`): `remainingCredits` is the account's balance (the
 *   ledger's); there is no plan allowance or billing period here (null).
 * - `GET /v2/team/token-usage` (and `/v1`): the model's tokens the account used, from the
 *   `llm_usage` recorded with each run of a model format and each extract job. There is no token
 *   budget (model work is priced in credits), so `remainingTokens` is 0 and the used tokens are
 *   in `tokensUsed`, `promptTokens`, `completionTokens`.
 * - `GET /v2/concurrency-check`: the runs in flight as CONCURRENCY_LIMIT counts them, and the limit.
 * - `GET /v2/team/queue-status` (and `/v1`): the account's scrape runs queued and running (a
 *   crawl's pages included), and when its latest scrape succeeded.
 * - `GET /v2/crawl/active`: the account's crawls queued or running (batches are not crawls).
 */
import { z } from 'zod';
import { getBalance } from '../../accounts/credit';
import { liveRunsOf } from '../limits';
import { type Route, reply, route } from '../route-table';
import type { AppDeps } from '../deps';
import { FIRECRAWL_CREDENTIALS, FIRECRAWL_ERROR_RESPONSES } from './schemas';

const creditUsageSchema = z.object({
  success: z.literal(true),
  data: z.object({ remainingCredits: z.int(), planCredits: z.null(), billingPeriodStart: z.null(), billingPeriodEnd: z.null() }),
});
const tokenUsageSchema = z.object({
  success: z.literal(true),
  data: z.object({
    remainingTokens: z.int().meta({ description: 'Always 0: there is no token budget, model work is priced in credits' }),
    planTokens: z.null(),
    billingPeriodStart: z.null(),
    billingPeriodEnd: z.null(),
    tokensUsed: z.int(),
    promptTokens: z.int(),
    completionTokens: z.int(),
  }),
});
const concurrencySchema = z.object({ success: z.literal(true), concurrency: z.int(), maxConcurrency: z.int() });
const queueStatusSchema = z.object({
  success: z.literal(true),
  jobsInQueue: z.int(),
  activeJobsInQueue: z.int(),
  waitingJobsInQueue: z.int(),
  maxConcurrency: z.int(),
  mostRecentSuccess: z.string().nullable(),
});
const activeCrawlsSchema = z.object({
  success: z.literal(true),
  crawls: z.array(z.object({ id: z.string(), teamId: z.string(), url: z.string(), options: z.record(z.string(), z.unknown()).nullable() })),
});

/** Tokens of every model call of the account: its runs' `llm_usage` and its extract jobs'. */
export async function tokensOf(deps: AppDeps, userId: string): Promise<{ prompt: number; completion: number }> {
  const [row] = await deps.sql.query<{ prompt: string | null; completion: string | null }>(
    `SELECT sum(prompt) AS prompt, sum(completion) AS completion FROM (
       SELECT (result->'llm_usage'->>'prompt_tokens')::bigint AS prompt, (result->'llm_usage'->>'completion_tokens')::bigint AS completion
         FROM scrape_run WHERE "userId" = $1 AND result ? 'llm_usage'
       UNION ALL
       SELECT (usage->>'prompt_tokens')::bigint, (usage->>'completion_tokens')::bigint FROM extract_job WHERE "userId" = $1 AND usage IS NOT NULL
     ) AS calls`,
    [userId],
  );
  return { prompt: Number(row?.prompt ?? 0), completion: Number(row?.completion ?? 0) };
}

export function firecrawlUsageRouteTable(deps: AppDeps): Route[] {
  const common = { credential: 'apiKey' as const, tag: 'firecrawl', description: FIRECRAWL_CREDENTIALS, errors: [] };
  const routes: Route[] = [];
  for (const version of ['v2', 'v1'] as const) {
    routes.push(
      route({
        ...common,
        method: 'get',
        path: `/${version}/team/credit-usage`,
        summary: `Firecrawl ${version}: the credits left (the account's balance)`,
        responses: { 200: creditUsageSchema, ...FIRECRAWL_ERROR_RESPONSES },
        handler: async ({ auth }) =>
          reply(200, { success: true, data: { remainingCredits: await getBalance(deps.sql, auth.userId), planCredits: null, billingPeriodStart: null, billingPeriodEnd: null } }),
      }),
      route({
        ...common,
        method: 'get',
        path: `/${version}/team/token-usage`,
        summary: `Firecrawl ${version}: the model tokens the account used (no token budget: remainingTokens is 0)`,
        responses: { 200: tokenUsageSchema, ...FIRECRAWL_ERROR_RESPONSES },
        handler: async ({ auth }) => {
          const tokens = await tokensOf(deps, auth.userId);
          return reply(200, {
            success: true,
            data: {
              remainingTokens: 0,
              planTokens: null,
              billingPeriodStart: null,
              billingPeriodEnd: null,
              tokensUsed: tokens.prompt + tokens.completion,
              promptTokens: tokens.prompt,
              completionTokens: tokens.completion,
            },
          });
        },
      }),
      route({
        ...common,
        method: 'get',
        path: `/${version}/team/queue-status`,
        summary: `Firecrawl ${version}: the account's scrape runs queued and running`,
        responses: { 200: queueStatusSchema, ...FIRECRAWL_ERROR_RESPONSES },
        handler: async ({ auth }) => {
          const [row] = await deps.sql.query<{ queued: number; running: number; latest: Date | null }>(
            `SELECT count(*) FILTER (WHERE status = 'queued')::int AS queued, count(*) FILTER (WHERE status = 'running')::int AS running,
                    (SELECT max("finishedAt") FROM scrape_run WHERE "userId" = $1 AND status = 'succeeded') AS latest
               FROM scrape_run WHERE "userId" = $1 AND status IN ('queued', 'running')`,
            [auth.userId],
          );
          const queued = row?.queued ?? 0;
          const running = row?.running ?? 0;
          return reply(200, {
            success: true,
            jobsInQueue: queued + running,
            activeJobsInQueue: running,
            waitingJobsInQueue: queued,
            maxConcurrency: deps.config.CONCURRENCY_LIMIT,
            mostRecentSuccess: row?.latest ? new Date(row.latest).toISOString() : null,
          });
        },
      }),
    );
  }
  routes.push(
    route({
      ...common,
      method: 'get',
      path: '/v2/concurrency-check',
      summary: 'Firecrawl v2: the runs in flight and the limit (CONCURRENCY_LIMIT)',
      responses: { 200: concurrencySchema, ...FIRECRAWL_ERROR_RESPONSES },
      handler: async ({ auth }) => reply(200, { success: true, concurrency: await liveRunsOf(deps.sql, auth.userId), maxConcurrency: deps.config.CONCURRENCY_LIMIT }),
    }),
    route({
      ...common,
      method: 'get',
      path: '/v2/crawl/active',
      summary: "Firecrawl v2: the account's crawls queued or running",
      responses: { 200: activeCrawlsSchema, ...FIRECRAWL_ERROR_RESPONSES },
      handler: async ({ auth }) => {
        const rows = await deps.sql.query<{ id: string; url: string | null; firecrawl: Record<string, unknown> | null }>(
          `SELECT id, request->>'url' AS url, request->'firecrawl' AS firecrawl FROM crawl
            WHERE "userId" = $1 AND kind = 'crawl' AND status IN ('queued', 'running') ORDER BY "createdAt" LIMIT 1000`,
          [auth.userId],
        );
        return reply(200, { success: true, crawls: rows.map((r) => ({ id: r.id, teamId: auth.userId, url: r.url ?? '', options: r.firecrawl })) });
      },
    }),
  );
  return routes;
}
