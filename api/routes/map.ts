/**
 * `POST /map` (docs/crawl.md "Map"): a site's URLs, quickly, without their content — the start
 * page's links and the sitemaps' URLs, normalised, deduplicated, in scope. One credit, debited
 * once by the run and refunded when it fails: a map is an ordinary scrape run (scrape_run row,
 * GET /webhook/runs/:id shows it) run by `mapWorkflow` (`map-<runId>`, search attributes AccountId
 * and ScrapeRunIds) on the sync queue, eagerly started so this process runs it.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { getBalance } from '../../accounts/credit';
import { AppError } from '../../platform/errors';
import { createScrapeRunStore } from '../../scrape/runs';
import { MAP_PRICE, MAP_RETRY_COUNT, type MapRequest, mapOptionsOf, mapRequestSchema } from '../../crawl/map-request';
import { scrapeRequestSchema } from '../../scrape/request';
import type { StoredResult } from '../../scrape/types';
import { type MapWorkflowInput, workflowIds } from '../../workflows/definitions';
import { mapWorkflow } from '../../workflows/map.workflow';
import type { AuthContext } from '../middleware/auth';
import { type Reply, type Route, reply, route, unprocessable } from '../route-table';
import { SEARCH_ATTRIBUTE_KEYS } from '../scrape-dispatch';
import { failedRunBody, precheck, syncTimeout } from '../scrape-run';
import { errorBodySchema } from '../schemas/responses';
import type { ScrapeRequestPayload } from '../../scrape/request';
import type { AppDeps } from '../deps';

export const MAP_EXAMPLE = { url: 'https://example.com/', limit: 1000, sitemap: 'include', include_subdomains: false };

const mapResultSchema = z
  .object({
    id: z.string().meta({ description: 'The run: GET /webhook/runs/{id} shows it' }),
    url: z.string(),
    links: z.array(z.string()).meta({ description: 'Normalised, deduplicated, in scope; the start page first, then its links, then sitemap URLs' }),
    credits: z.object({ cost: z.number(), remaining: z.number() }),
  })
  .meta({ id: 'MapResult' });

const mapResponses = { 200: mapResultSchema, 403: errorBodySchema, 502: errorBodySchema, 503: errorBodySchema };

/** The scrape request a map's run records: the start page with format `links`, and the map's options beside it. */
function runRequest(request: MapRequest): ScrapeRequestPayload & { map: ReturnType<typeof mapOptionsOf> } {
  const { async: _async, ...page } = scrapeRequestSchema.parse({ url: request.url, mode: 'http', formats: ['links'], options: { retry_count: MAP_RETRY_COUNT } });
  return { ...page, mode: 'http', map: mapOptionsOf(request) };
}

/** A map, started and waited for: also the Firecrawl-compatible map's (api/firecrawl/), with its own `deadline` when given. */
export async function startMap(deps: AppDeps, runs: ReturnType<typeof createScrapeRunStore>, auth: AuthContext, request: MapRequest, options: { deadline?: number } = {}): Promise<Reply<typeof mapResponses>> {
  const acceptedAt = Date.now();
  const deadline = options.deadline ?? acceptedAt + deps.config.SYNC_TIMEOUT_MS;
  const [checked, balanceRead] = await Promise.allSettled([
    precheck(deps, request),
    deps.limits ? deps.limits.balanceForNewRun(auth.userId) : getBalance(deps.sql, auth.userId),
  ]);
  if (checked.status === 'rejected') throw checked.reason;
  if (balanceRead.status === 'rejected') throw balanceRead.reason;
  if (balanceRead.value < MAP_PRICE) {
    throw new AppError('INSUFFICIENT_CREDIT', `A map costs ${MAP_PRICE} credit; ${balanceRead.value} remaining`, { remaining: balanceRead.value, cost: MAP_PRICE });
  }

  const runId = randomUUID();
  const workflowId = workflowIds.map(runId);
  const payload = runRequest(request);
  const host = new URL(request.url).hostname;
  await runs.insert([{ id: runId, userId: auth.userId, apiKeyId: auth.apiKeyId, workflowId, mode: 'http', url: request.url, request: payload, cost: MAP_PRICE }]);
  // Registered before the start: the run may finish in this process before we look.
  const answer = deps.scrapes.awaitRun(runId, deadline);
  try {
    const input: MapWorkflowInput = { job: { runId, userId: auth.userId, apiKeyId: auth.apiKeyId, cost: MAP_PRICE, request: payload, acceptedAt }, map: mapOptionsOf(request) };
    const client = await deps.temporal.get();
    await client.workflow.start(mapWorkflow, {
      taskQueue: deps.queues.sync,
      workflowId,
      args: [input],
      memo: { accountId: auth.userId, kind: 'map', url: request.url },
      typedSearchAttributes: [
        { key: SEARCH_ATTRIBUTE_KEYS.accountId, value: auth.userId },
        { key: SEARCH_ATTRIBUTE_KEYS.scrapeMode, value: 'http' },
        { key: SEARCH_ATTRIBUTE_KEYS.targetHost, value: host },
        { key: SEARCH_ATTRIBUTE_KEYS.scrapeRunIds, value: [runId] },
      ],
      requestEagerStart: deps.temporal.eagerStartAvailable(),
    });
  } catch (error) {
    // Never leave a run half-recorded: it did not start, nothing was debited.
    await runs.failUnstarted([runId], { code: 'INTERNAL', message: 'the map could not be started' });
    throw error;
  }
  const finished = await answer;
  if (!finished) throw syncTimeout(deps, runId);
  const { run } = finished;
  if (run.status !== 'succeeded') return failedRunBody(run) as Reply<typeof mapResponses>;
  const stored = (run.result ?? {}) as Partial<StoredResult>;
  const remaining = finished.remaining ?? (await getBalance(deps.sql, auth.userId));
  return reply(200, { id: runId, url: request.url, links: (stored.links ?? []).map((link) => link.url), credits: { cost: run.cost, remaining } });
}

export function mapRouteTable(deps: AppDeps): Route[] {
  const runs = createScrapeRunStore(deps.sql);
  return [
    route({
      method: 'post',
      path: '/map',
      credential: 'either',
      tag: 'crawl',
      summary: "A site's URLs without their content: the start page's links and its sitemaps' URLs (1 credit)",
      description: 'Normalised, deduplicated, on the start URL\'s origin (or its subdomains with `include_subdomains`), at most `limit` (default 1000, at most 10,000). `sitemap`: `include` (default), `skip` (the start page\'s links only) or `only` (the sitemaps only). robots.txt is honoured (nothing it disallows is fetched or listed; a robots.txt that answers 5xx/429 or nothing fails the map, refunded) unless `ignore_robots: true`. docs/crawl.md "Map".',
      body: unprocessable(mapRequestSchema, MAP_EXAMPLE),
      responses: mapResponses,
      errors: ['VALIDATION_FAILED', 'INVALID_URL', 'INSUFFICIENT_CREDIT', 'BLACKLISTED', 'PRIVATE_TARGET', 'SCRAPE_FAILED', 'PROXY_FAILED', 'TARGET_ERROR', 'TARGET_BLOCKED', 'RESPONSE_TOO_LARGE', 'RATE_LIMITED', 'TIMEOUT', 'NOT_FOUND'],
      handler: ({ auth, body }) => startMap(deps, runs, auth, body),
    }),
  ];
}
