/**
 * Firecrawl's crawl and batch-scrape routes (docs/firecrawl.md "Crawl and batch scrape"):
 * `POST /v2/crawl`, `GET|DELETE /v2/crawl/:id`, `GET /v2/crawl/:id/errors`, the same under
 * `/v2/batch/scrape`, and their `/v1` twins.
 *
 * Each is the native route's own work, not a copy of it: the body is mapped to the native one
 * (crawl-request.ts), parsed by the native parser, and handed to the native `POST /crawl` /
 * `POST /batch/scrape` / `POST /crawl/:id/cancel` handlers of api/routes/crawl.ts, found in
 * their route table. So a compatible job is the same durable run (crawl workflow, run records,
 * ledger, target guard, blacklist, runs-in-flight limit, idempotency) and is seen by the native
 * routes too (`GET /crawl/:id`). The status answers read the same rows (crawl-status.ts).
 *
 * Both kinds are served under both paths (one store, as Firecrawl's own server does): the JS v1
 * SDK polls a batch on `/v1/crawl/:id`, and asks for errors with `DELETE /v1/crawl/:id/errors`.
 */
import type { Request } from 'express';
import { z } from 'zod';
import { type CrawlJobRequest, type ParsedJob, parseBatchRequest, parseCrawlRequest } from '../../crawl/job-request';
import { type CrawlRow, createCrawlStore } from '../../crawl/store';
import { ownedBy } from '../ownership';
import { type Route, type RouteInput, type TableRoute, parsedBy, reply, route } from '../route-table';
import { crawlRouteTable } from '../routes/crawl';
import type { AuthContext } from '../middleware/auth';
import type { AppDeps } from '../deps';
import { type FirecrawlVersion, type FirecrawlWebhook, type ScrapeOptionsMapper, mapBatchRequest, mapCrawlRequest } from './crawl-request';
import { type DocumentMapper, errorsBody, statusBody, statusQuery } from './crawl-status';
import { firecrawlJobEvents, firecrawlJobWebhook, type FirecrawlJobEvents } from './crawl-webhooks';
import { documentMapper, scrapeOptionsMapper } from './crawl-mappers';
import { FIRECRAWL_CREDENTIALS, FIRECRAWL_ERROR_RESPONSES, firecrawlDocumentSchema } from './schemas';

/** What a compatible job keeps beside the native request (`crawl.request.firecrawl`). */
export interface FirecrawlJobInfo {
  version: FirecrawlVersion;
  /** The formats each page's document shows (the scrape mapper's). */
  wanted: unknown;
  /** Given to the start only (it becomes the native `webhook`); never stored here. */
  webhook?: FirecrawlWebhook;
}

export interface FirecrawlJobMappers {
  /** Of a crawl's `scrapeOptions`. */
  scrape: ScrapeOptionsMapper;
  /** Of a batch's top-level scrape options. */
  batchScrape: ScrapeOptionsMapper;
  document: DocumentMapper;
  /** Records and starts the job's `crawl.started` / `batch_scrape.started` event (crawl-webhooks.ts). */
  events?: FirecrawlJobEvents;
}

type JobPath = 'crawl' | 'batch/scrape';

/** The service's public base URL: BETTER_AUTH_URL when set, else the request's own scheme and host (behind a loopback proxy, its X-Forwarded-*). */
export function publicBase(deps: AppDeps, req: Request): string {
  return deps.config.BETTER_AUTH_URL?.replace(/\/+$/, '') ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

const anyBody = z.record(z.string(), z.unknown());
const crawlBodyDoc = anyBody.meta({
  description:
    'Firecrawl crawl request: url, limit, includePaths, excludePaths, maxDiscoveryDepth (v1 maxDepth), crawlEntireDomain (v1 allowBackwardLinks), allowSubdomains, allowExternalLinks, ignoreRobotsTxt, sitemap (v1 ignoreSitemap), delay, maxConcurrency, scrapeOptions, webhook; other fields are accepted and ignored (docs/firecrawl.md).',
});
const batchBodyDoc = anyBody.meta({ description: 'Firecrawl batch scrape request: urls, the scrape options at the top level, webhook, maxConcurrency, ignoreInvalidURLs (docs/firecrawl.md).' });
const startedSchema = z.object({ success: z.literal(true), id: z.string(), url: z.string(), invalidURLs: z.array(z.string()).optional() });
const statusSchema = z.object({
  success: z.literal(true),
  status: z.enum(['scraping', 'completed', 'failed', 'cancelled']),
  completed: z.number().int(),
  total: z.number().int(),
  creditsUsed: z.number().int(),
  expiresAt: z.string(),
  next: z.string().optional(),
  data: z.array(firecrawlDocumentSchema),
});
const cancelledSchema = z.object({ success: z.literal(true), status: z.literal('cancelled') });
const errorsSchema = z.object({
  errors: z.array(z.object({ id: z.string(), timestamp: z.string().optional(), url: z.string(), code: z.string().optional(), error: z.string() })),
  robotsBlocked: z.array(z.string()),
});
const statusQueryDoc = z.object({ skip: z.string().optional(), limit: z.string().optional() });

export function firecrawlJobRouteTable(
  deps: AppDeps,
  mappers: FirecrawlJobMappers = { scrape: scrapeOptionsMapper('scrapeOptions.'), batchScrape: scrapeOptionsMapper(''), document: documentMapper(deps), events: firecrawlJobEvents(deps) },
): Route[] {
  const store = createCrawlStore(deps.db);
  const native = crawlRouteTable(deps);
  function nativeRoute(method: 'post', path: string): TableRoute {
    const found = native.find((r): r is TableRoute => r.kind === 'table' && r.method === method && r.path === path);
    if (!found) throw new Error(`api/routes/crawl.ts has no ${method.toUpperCase()} ${path}`);
    return found;
  }
  const startCrawl = nativeRoute('post', '/crawl');
  const startBatch = nativeRoute('post', '/batch/scrape');
  const cancelJob = nativeRoute('post', '/crawl/:id/cancel');

  /** The native start handler on the parsed native job; the job's id. */
  async function start(native: TableRoute, parsed: ParsedJob, info: FirecrawlJobInfo, input: RouteInput<string, unknown, unknown>): Promise<string> {
    const request = parsed.request as CrawlJobRequest & { firecrawl?: FirecrawlJobInfo };
    // The webhook is not kept here: its headers are a receiver's credentials, kept sealed in the native `webhook` only.
    request.firecrawl = { version: info.version, wanted: info.wanted };
    // The job's events go to the Firecrawl webhook in Firecrawl's shape (crawl-webhooks.ts); the
    // native webhook field carries the URL, so the native checks (the webhook target guard) apply.
    if (info.webhook) request.webhook = firecrawlJobWebhook(info.webhook, request.kind, info.wanted);
    const answer = await native.handler({ ...input, req: withFirecrawlIdempotencyKey(input.req), params: {}, query: undefined, body: parsed });
    const id = (answer.body as { id: string }).id;
    const crawl = await store.byId(id);
    // Best effort beside the job (docs/webhooks.md): the job is started and answered whatever happens here.
    if (crawl && info.webhook && mappers.events) await mappers.events.started(crawl).catch((error: unknown) => deps.logger.warn({ crawlId: id, err: error }, 'the Firecrawl started event could not be recorded'));
    return id;
  }

  /**
   * Firecrawl's SDKs send `x-idempotency-key` (their `idempotencyKey` option): it is our
   * Idempotency-Key (api/idempotency.ts), so a repeated start answers the same job, once charged; a
   * request carrying both is read by ours. The hash is of the Firecrawl request as sent.
   */
  function withFirecrawlIdempotencyKey(req: Request): Request {
    const key = req.headers['x-idempotency-key'];
    if (key === undefined || req.headers['idempotency-key'] !== undefined) return req;
    return Object.create(req, { headers: { value: { ...req.headers, 'idempotency-key': key }, enumerable: true } }) as Request;
  }

  async function own(id: string, auth: AuthContext): Promise<CrawlRow> {
    return ownedBy(await store.byId(id), auth.userId, 'job');
  }

  const infoOf = (crawl: CrawlRow): FirecrawlJobInfo | undefined => (crawl.request as { firecrawl?: FirecrawlJobInfo }).firecrawl;

  function routesOf(version: FirecrawlVersion, path: JobPath): Route[] {
    const base = `/${version}/${path}`;
    const noun = path === 'crawl' ? 'crawl' : 'batch scrape';
    const routes: Route[] = [
      route({
        method: 'post',
        path: base,
        credential: 'apiKey',
        tag: 'firecrawl',
        summary: path === 'crawl' ? `Firecrawl ${version}: start a crawl (the native crawl job)` : `Firecrawl ${version}: start a batch scrape (the native batch job)`,
        body: parsedBy(path === 'crawl' ? crawlBodyDoc : batchBodyDoc, (value) => value),
        responses: { 200: startedSchema, ...FIRECRAWL_ERROR_RESPONSES },
        description: FIRECRAWL_CREDENTIALS,
        errors: ['BAD_REQUEST', 'VALIDATION_FAILED', 'INSUFFICIENT_CREDIT', 'BLACKLISTED', 'PRIVATE_TARGET', 'INVALID_URL', 'RATE_LIMITED'],
        idempotent: true,
        handler: async (input) => {
          if (path === 'crawl') {
            const mapped = mapCrawlRequest(input.body, version, mappers.scrape);
            const id = await start(startCrawl, parseCrawlRequest(mapped.body), { version, wanted: mapped.wanted, ...(mapped.webhook ? { webhook: mapped.webhook } : {}) }, input);
            return reply(200, { success: true, id, url: `${publicBase(deps, input.req)}${base}/${id}` });
          }
          const mapped = mapBatchRequest(input.body, version, mappers.batchScrape);
          const id = await start(startBatch, parseBatchRequest(mapped.body), { version, wanted: mapped.wanted, ...(mapped.webhook ? { webhook: mapped.webhook } : {}) }, input);
          return reply(200, { success: true, id, url: `${publicBase(deps, input.req)}${base}/${id}`, invalidURLs: mapped.invalidURLs });
        },
      }),
      route({
        method: 'get',
        path: `${base}/:id`,
        params: ['id'],
        credential: 'apiKey',
        tag: 'firecrawl',
        summary: `Firecrawl ${version}: a ${noun}'s status and documents (\`next\` pages through them)`,
        query: parsedBy(statusQueryDoc, (value) => statusQuery((value ?? {}) as Record<string, unknown>)),
        responses: { 200: statusSchema, ...FIRECRAWL_ERROR_RESPONSES },
        errors: ['NOT_FOUND', 'FORBIDDEN'],
        handler: async ({ auth, params, query, req }) => {
          const crawl = await own(params.id, auth);
          const [counts, credits] = await Promise.all([store.counts(crawl.id), store.credits(crawl.workflowId)]);
          const wanted = infoOf(crawl)?.wanted ?? { formats: ['markdown'], fullPage: false };
          const body = await statusBody(deps.db, mappers.document, { crawl, counts, credits, query, selfUrl: `${publicBase(deps, req)}${base}/${crawl.id}`, wanted });
          return reply(200, body);
        },
      }),
      route({
        method: 'delete',
        path: `${base}/:id`,
        params: ['id'],
        credential: 'apiKey',
        tag: 'firecrawl',
        summary: `Firecrawl ${version}: cancel a ${noun} (the native cancel); 409 when it already ended`,
        responses: { 200: cancelledSchema, ...FIRECRAWL_ERROR_RESPONSES },
        errors: ['NOT_FOUND', 'FORBIDDEN', 'CONFLICT'],
        handler: async (input) => {
          await own(input.params.id, input.auth);
          await cancelJob.handler({ ...input, query: undefined, body: undefined });
          return reply(200, { success: true, status: 'cancelled' });
        },
      }),
      route({
        method: 'get',
        path: `${base}/:id/errors`,
        params: ['id'],
        credential: 'apiKey',
        tag: 'firecrawl',
        summary: `Firecrawl ${version}: a ${noun}'s failed pages and the URLs robots.txt disallowed`,
        responses: { 200: errorsSchema, ...FIRECRAWL_ERROR_RESPONSES },
        errors: ['NOT_FOUND', 'FORBIDDEN'],
        handler: async ({ auth, params }) => reply(200, await errorsBody(deps.db, (await own(params.id, auth)).id)),
      }),
    ];
    if (version === 'v1' && path === 'crawl') {
      // The JS v1 SDK's checkCrawlErrors sends DELETE, not GET: answered as the GET (nothing is deleted).
      routes.push(
        route({
          method: 'delete',
          path: `${base}/:id/errors`,
          params: ['id'],
          credential: 'apiKey',
          tag: 'firecrawl',
          summary: 'Firecrawl v1: a job\'s errors, as GET (the JS v1 SDK sends DELETE here); nothing is deleted',
          responses: { 200: errorsSchema, ...FIRECRAWL_ERROR_RESPONSES },
          errors: ['NOT_FOUND', 'FORBIDDEN'],
          handler: async ({ auth, params }) => reply(200, await errorsBody(deps.db, (await own(params.id, auth)).id)),
        }),
      );
    }
    return routes;
  }

  return [...routesOf('v2', 'crawl'), ...routesOf('v2', 'batch/scrape'), ...routesOf('v1', 'crawl'), ...routesOf('v1', 'batch/scrape')];
}
