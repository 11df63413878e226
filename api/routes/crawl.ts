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
import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import { getBalance } from '../../accounts/credit';
import { AppError } from '../../platform/errors';
import { type CrawlRow, CRAWL_FINISHED, type CrawlPageRow, type CrawlStore, createCrawlStore } from '../../crawl/store';
import { type CrawlJobRequest, type ParsedJob, batchRequestSchema, crawlRequestSchema, parseBatchRequest, parseCrawlRequest } from '../../crawl/job-request';
import { type CrawlWorkflowInput, crawlWorkflowId } from '../../workflows/definitions';
import { awaitWorkflow } from '../await-workflow';
import { createIdempotencyStore, idempotentRequest, runIdempotent } from '../idempotency';
import type { AuthContext } from '../middleware/auth';
import { ownedBy } from '../ownership';
import { type Route, badRequest, mountRoutes, parsedBy, reply, route } from '../route-table';
import { SEARCH_ATTRIBUTE_KEYS } from '../scrape-dispatch';
import { precheck } from '../scrape-run';
import { apiWebhooks } from '../webhooks';
import { decodeCursor, encodeCursor } from './pagination';
import { crawlListQuery, crawlListSchema, crawlPagesQuery, crawlPagesSchema, crawlQueuedSchema, crawlSchema } from '../schemas/crawl';
import type { AppDeps } from '../deps';

/** Search attribute of a crawl's executions (registered with the others: scripts/runtime/temporal-server.ts). */
export const CRAWL_ID_ATTRIBUTE = defineSearchAttributeKey('CrawlId', SearchAttributeType.KEYWORD);

/** Pages listed in GET /crawl/:id (the rest through GET /crawl/:id/pages). */
const FIRST_PAGES = 100;
/** How long a cancel waits for the crawl to record its cancellation before answering. */
const CANCEL_WAIT_MS = 10_000;

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

function links(id: string) {
  return { self: `/crawl/${id}`, pages: `/crawl/${id}/pages`, cancel: `/crawl/${id}/cancel`, resume: `/crawl/${id}/resume` };
}

/** Cursor of GET /crawl/:id/pages: the last page's frontier position, opaque to clients. */
const pageCursor = (seq: number) => Buffer.from(`p${seq}`).toString('base64url');
function decodePageCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^p\d{1,15}$/.test(text)) throw new AppError('BAD_REQUEST', 'cursor is not valid');
  return Number(text.slice(1));
}

function pageBody(page: CrawlPageRow) {
  return {
    url: page.url,
    depth: page.depth,
    status: page.status,
    run_id: page.runId,
    http_status: page.httpStatus,
    ...(page.error ? { error: page.error as { code: string; message: string } } : {}),
  };
}

export function crawlRouteTable(deps: AppDeps): Route[] {
  const store: CrawlStore = createCrawlStore(deps.db);
  const idempotency = createIdempotencyStore(deps.sql);

  async function summary(crawl: CrawlRow) {
    const [counts, credits] = await Promise.all([store.counts(crawl.id), store.credits(crawl.workflowId)]);
    const job = crawl.request as CrawlJobRequest;
    return {
      id: crawl.id,
      kind: crawl.kind,
      status: crawl.status,
      url: job.kind === 'crawl' ? job.url : null,
      total: counts.total,
      completed: counts.completed,
      failed: counts.failed,
      skipped: counts.skipped,
      queued: counts.queued,
      running: counts.running,
      credits,
      ...(crawl.error ? { error: crawl.error } : {}),
      created_at: crawl.createdAt.toISOString(),
      started_at: crawl.startedAt?.toISOString() ?? null,
      finished_at: crawl.finishedAt?.toISOString() ?? null,
      links: links(crawl.id),
    };
  }

  async function body(crawl: CrawlRow) {
    const pages = await store.pages(crawl.id, { limit: FIRST_PAGES + 1 });
    const shown = pages.slice(0, FIRST_PAGES);
    return { ...(await summary(crawl)), pages: shown.map(pageBody), next: pages.length > FIRST_PAGES ? pageCursor(shown[shown.length - 1]!.seq) : null };
  }

  async function own(id: string, userId: string): Promise<CrawlRow> {
    return ownedBy(await store.byId(id), userId, 'crawl');
  }

  /** 402 when `balance` cannot pay one page. */
  function requirePage(balance: number, pageCost: number): void {
    if (balance < pageCost) {
      throw new AppError('INSUFFICIENT_CREDIT', `A page costs ${pageCost} credit${pageCost === 1 ? '' : 's'}; ${balance} remaining`, { remaining: balance, cost: pageCost });
    }
  }

  async function startExecution(crawl: CrawlRow, seeded: boolean): Promise<void> {
    const client = await deps.temporal.get();
    const input: CrawlWorkflowInput = { crawlId: crawl.id, browserQueue: deps.queues.browser, seeded };
    await client.workflow.start('crawlWorkflow', {
      taskQueue: deps.queues.main,
      workflowId: crawl.workflowId,
      args: [input],
      memo: { accountId: crawl.userId, kind: crawl.kind },
      typedSearchAttributes: [
        { key: SEARCH_ATTRIBUTE_KEYS.accountId, value: crawl.userId },
        { key: CRAWL_ID_ATTRIBUTE, value: crawl.id },
      ],
    });
  }

  /** Checks, records and starts a job under `id`; 202 with its links. */
  async function startJob(auth: AuthContext, parsed: ParsedJob, id: string) {
    const { request, pageCost } = parsed;
    // The start URL is refused now as a scrape's would be (blacklist, private target); a DNS failure is left to the page.
    if (request.kind === 'crawl') await precheck(deps, request);
    if (request.webhook) await apiWebhooks(deps).guard.check(request.webhook.url);
    // One statement reads the balance and refuses at the account's runs-in-flight limit (429, before the 402), as a scrape's start does.
    requirePage(deps.limits ? await deps.limits.balanceForNewRun(auth.userId) : await getBalance(deps.sql, auth.userId), pageCost);
    const crawl = await store.create({ id, userId: auth.userId, apiKeyId: auth.apiKeyId, kind: request.kind, request, workflowId: crawlWorkflowId(id), pageCost });
    try {
      await startExecution(crawl, false);
    } catch (error) {
      // Never half-started: nothing ran, nothing was charged.
      await store.finish(id, 'failed', { code: 'INTERNAL', message: 'the crawl could not be started' });
      throw error;
    }
    return reply(202, { id, kind: crawl.kind, status: 'queued', links: links(id) });
  }

  function createRoute(path: '/crawl' | '/batch/scrape', summaryText: string, parse: (body: unknown) => ParsedJob, schema: typeof crawlRequestSchema | typeof batchRequestSchema, example: unknown): Route {
    return route({
      method: 'post',
      path,
      credential: 'either',
      tag: 'crawl',
      summary: summaryText,
      body: parsedBy(schema, parse, example),
      responses: { 202: crawlQueuedSchema },
      errors: ['VALIDATION_FAILED', 'INSUFFICIENT_CREDIT', 'BLACKLISTED', 'PRIVATE_TARGET', 'INVALID_URL'],
      idempotent: true,
      handler: async ({ auth, body: parsed, req }) => {
        const keyed = idempotentRequest(req, auth.userId, Date.now() + deps.config.SYNC_TIMEOUT_MS);
        if (!keyed) return startJob(auth, parsed, randomUUID());
        return runIdempotent({ store: idempotency, logger: deps.logger }, keyed, {
          start: (id) => startJob(auth, parsed, id),
          find: (id) => store.byId(id),
          // Its workflow could not be started: nothing ran, nothing was charged.
          neverStarted: (crawl) => crawl.status === 'failed' && crawl.startedAt === null,
          replay: (crawl) => Promise.resolve(reply(202, { id: crawl.id, kind: crawl.kind, status: crawl.status, links: links(crawl.id) })),
        });
      },
    });
  }

  return [
    createRoute(
      '/crawl',
      'Start a crawl (202): pages found from the start URL by links and sitemaps, each an ordinary scrape run',
      parseCrawlRequest,
      crawlRequestSchema,
      CRAWL_EXAMPLE,
    ),
    createRoute('/batch/scrape', 'Scrape a list of URLs as one job (202); served by the /crawl/{id} routes', parseBatchRequest, batchRequestSchema, BATCH_EXAMPLE),
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
        const rows = await store.list(auth.userId, query.limit + 1, decodeCursor(query.cursor));
        const items = rows.slice(0, query.limit);
        const nextCursor = rows.length > query.limit ? encodeCursor(items[items.length - 1]!) : null;
        return reply(200, { crawls: await Promise.all(items.map(summary)), nextCursor });
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
      handler: async ({ auth, params }) => reply(200, await body(await own(params.id, auth.userId))),
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
        const crawl = await own(params.id, auth.userId);
        const rows = await store.pages(crawl.id, { afterSeq: decodePageCursor(query.cursor), limit: query.limit + 1, ...(query.status ? { status: query.status as CrawlPageRow['status'] } : {}) });
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
      handler: async ({ auth, params }) => {
        const crawl = await own(params.id, auth.userId);
        if (CRAWL_FINISHED.includes(crawl.status)) throw new AppError('CONFLICT', `The job already ended (${crawl.status})`, { id: crawl.id, status: crawl.status });
        const client = await deps.temporal.get();
        const handle = client.workflow.getHandle(crawl.workflowId);
        await handle.cancel().catch((error: unknown) => deps.logger.info({ crawlId: crawl.id, err: error }, 'cancel of a closed crawl workflow'));
        await awaitWorkflow(client, handle, CANCEL_WAIT_MS).catch(() => undefined);
        const after = (await store.byId(crawl.id))!;
        return reply(CRAWL_FINISHED.includes(after.status) ? 200 : 202, await body(after));
      },
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
      handler: async ({ auth, params }) => {
        const crawl = await own(params.id, auth.userId);
        if (crawl.status !== 'credit_exhausted') throw new AppError('CONFLICT', `Only a job stopped by credit_exhausted can be resumed (this one is ${crawl.status})`, { id: crawl.id, status: crawl.status });
        requirePage(await getBalance(deps.sql, auth.userId), crawl.pageCost);
        // The execution that stopped may still be closing (its end event): a new one starts after it.
        const client = await deps.temporal.get();
        await awaitWorkflow(client, client.workflow.getHandle(crawl.workflowId), CANCEL_WAIT_MS).catch(() => undefined);
        const reopened = await store.reopen(crawl.id);
        if (!reopened) throw new AppError('CONFLICT', 'The job was resumed by another request', { id: crawl.id });
        try {
          await startExecution(reopened, true);
        } catch (error) {
          await store.finish(crawl.id, 'credit_exhausted', { code: 'INSUFFICIENT_CREDIT', message: 'credit ran out' });
          throw error;
        }
        return reply(202, { id: crawl.id, kind: crawl.kind, status: 'queued', links: links(crawl.id) });
      },
    }),
  ];
}

export function crawlRoutes(deps: AppDeps): Router {
  return mountRoutes(Router(), deps, crawlRouteTable(deps));
}
