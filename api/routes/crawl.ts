/**
 * Crawls and batch scrapes (API key or session; docs/crawl.md): `POST /crawl` and
 * `POST /batch/scrape` record a job and start its workflow (`crawl-<id>`), 202 at once; one
 * resource serves both kinds: `GET /crawl`, `GET /crawl/:id` (counts, credits, first pages),
 * `GET /crawl/:id/pages` (cursor over the frontier), `POST /crawl/:id/cancel`,
 * `POST /crawl/:id/resume` (after `credit_exhausted`, on the same frontier). Another account's
 * job → 403, unknown → 404 (api/ownership.ts).
 */
import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import type { CrawlPageRow } from '../../crawl/store';
import { assertModelFormatsConfigured } from '../../scrape/llm/model-formats';
import { type ParsedJob, batchRequestSchema, crawlRequestSchema, parseBatchRequest, parseCrawlRequest } from '../../crawl/job-request';
import { createIdempotencyStore, idempotentRequest, runIdempotent } from '../idempotency';
import { type Route, badRequest, mountRoutes, parsedBy, reply, route } from '../route-table';
import { type CrawlJobs, createCrawlJobs, decodePageCursor, links, pageBody, pageCursor } from '../crawl-jobs';
import { decodeCursor, encodeCursor } from './pagination';
import { crawlListQuery, crawlListSchema, crawlPagesQuery, crawlPagesSchema, crawlQueuedSchema, crawlSchema } from '../schemas/crawl';
import type { AppDeps } from '../deps';

export { CRAWL_ID_ATTRIBUTE } from '../crawl-jobs';

const CRAWL_EXAMPLE = {
  url: 'https://example.com/',
  limit: 100,
  max_depth: 3,
  include_paths: ['^/blog/'],
  sitemap: 'include',
  concurrency: 4,
  scrape: { formats: ['markdown', 'links'] },
};
const BATCH_EXAMPLE = { urls: ['https://example.com/a', 'https://example.com/b'], scrape: { formats: ['markdown'] }, concurrency: 4 };

/** The crawl jobs and the Idempotency-Key store the routes share. */
type Jobs = CrawlJobs & { idempotency: ReturnType<typeof createIdempotencyStore> };

/** POST /crawl and POST /batch/scrape: record a job and start its workflow (202). */
function createRoute(deps: AppDeps, jobs: Jobs, path: '/crawl' | '/batch/scrape', summaryText: string, parse: (body: unknown) => ParsedJob, schema: typeof crawlRequestSchema | typeof batchRequestSchema, example: unknown): Route {
  return route({
    method: 'post',
    path,
    credential: 'either',
    tag: 'crawl',
    summary: summaryText,
    body: parsedBy(schema, parse, example),
    responses: { 202: crawlQueuedSchema },
    errors: ['VALIDATION_FAILED', 'LLM_NOT_CONFIGURED', 'INSUFFICIENT_CREDIT', 'BLACKLISTED', 'PRIVATE_TARGET', 'INVALID_URL'],
    idempotent: true,
    handler: async ({ auth, body: parsed, req }) => {
      assertModelFormatsConfigured(deps.config, parsed.request.scrape.formats);
      const keyed = idempotentRequest(req, auth.userId, Date.now() + deps.config.SYNC_TIMEOUT_MS);
      if (!keyed) return jobs.startJob(auth, parsed, randomUUID());
      return runIdempotent({ store: jobs.idempotency, logger: deps.logger }, keyed, {
        start: (id) => jobs.startJob(auth, parsed, id),
        find: (id) => jobs.store.byId(id),
        // Its workflow could not be started: nothing ran, nothing was charged.
        neverStarted: (crawl) => crawl.status === 'failed' && crawl.startedAt === null,
        replay: (crawl) => Promise.resolve(reply(202, { id: crawl.id, kind: crawl.kind, status: crawl.status, links: links(crawl.id) })),
      });
    },
  });
}

export function crawlRouteTable(deps: AppDeps): Route[] {
  const jobs: Jobs = { ...createCrawlJobs(deps), idempotency: createIdempotencyStore(deps.sql) };

  return [
    createRoute(
      deps,
      jobs,
      '/crawl',
      'Start a crawl (202): pages found from the start URL by links and sitemaps, each an ordinary scrape run',
      parseCrawlRequest,
      crawlRequestSchema,
      CRAWL_EXAMPLE,
    ),
    createRoute(deps, jobs, '/batch/scrape', 'Scrape a list of URLs as one job (202); served by the /crawl/{id} routes', parseBatchRequest, batchRequestSchema, BATCH_EXAMPLE),
    route({
      method: 'get',
      path: '/crawl',
      credential: 'either',
      tag: 'crawl',
      summary: "The account's crawls and batch scrapes, newest first",
      query: badRequest(crawlListQuery),
      responses: { 200: crawlListSchema },
      errors: ['BAD_REQUEST'],
      handler: async ({ auth, query }) => {
        const rows = await jobs.store.list(auth.userId, query.limit + 1, decodeCursor(query.cursor));
        const items = rows.slice(0, query.limit);
        const nextCursor = rows.length > query.limit ? encodeCursor(items[items.length - 1]!) : null;
        return reply(200, { crawls: await Promise.all(items.map(jobs.summary)), nextCursor });
      },
    }),
    route({
      method: 'get',
      path: '/crawl/:id',
      params: ['id'],
      credential: 'either',
      tag: 'crawl',
      summary: 'A crawl or batch scrape: status, counts, credits and its first 100 pages',
      responses: { 200: crawlSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => reply(200, await jobs.body(await jobs.own(params.id, auth.userId))),
    }),
    route({
      method: 'get',
      path: '/crawl/:id/pages',
      params: ['id'],
      credential: 'either',
      tag: 'crawl',
      summary: "A job's pages in frontier order (each page's scrape run is at /webhook/runs/{run_id})",
      query: badRequest(crawlPagesQuery),
      responses: { 200: crawlPagesSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'BAD_REQUEST'],
      handler: async ({ auth, params, query }) => {
        const crawl = await jobs.own(params.id, auth.userId);
        const rows = await jobs.store.pages(crawl.id, { afterSeq: decodePageCursor(query.cursor), limit: query.limit + 1, ...(query.status ? { status: query.status as CrawlPageRow['status'] } : {}) });
        const shown = rows.slice(0, query.limit);
        return reply(200, { pages: shown.map(pageBody), next: rows.length > query.limit ? pageCursor(shown[shown.length - 1]!.seq) : null });
      },
    }),
    route({
      method: 'post',
      path: '/crawl/:id/cancel',
      params: ['id'],
      credential: 'either',
      tag: 'crawl',
      summary: 'Cancel a job: pages in flight are cancelled; 200 once it recorded its cancellation, 202 while it is still stopping',
      responses: { 200: crawlSchema, 202: crawlSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'CONFLICT'],
      handler: ({ auth, params }) => jobs.cancelJob(params.id, auth.userId),
    }),
    route({
      method: 'post',
      path: '/crawl/:id/resume',
      params: ['id'],
      credential: 'either',
      tag: 'crawl',
      summary: 'Resume a job that stopped at credit_exhausted (202): the same frontier; nothing done is fetched or billed again',
      responses: { 202: crawlQueuedSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'CONFLICT', 'INSUFFICIENT_CREDIT'],
      handler: ({ auth, params }) => jobs.resumeJob(params.id, auth.userId),
    }),
  ];
}

export function crawlRoutes(deps: AppDeps): Router {
  return mountRoutes(Router(), deps, crawlRouteTable(deps));
}
