/**
 * Firecrawl's extract (docs/firecrawl.md "Extract"): `POST /v2/extract` starts a job,
 * `GET /v2/extract/:id` answers its status and data; the same under `/v1`.
 *
 * The pages are scraped by native jobs started here as the Firecrawl batch and crawl routes start
 * theirs (the native handlers, so the same guard, ledger, refunds, limits): one batch for the
 * plain `urls`, one crawl per wildcard URL (`https://e.com/blog/*`: the crawl of `/blog/` and its
 * children, at most EXTRACT_WILDCARD_LIMIT pages). Then the job's workflow
 * (workflows/extract.workflow.ts) waits for them and gives the pages' main content to the
 * operator's model (activities/extract.ts).
 *
 * Refused before anything is started or charged: no model configured (400 LLM_NOT_CONFIGURED),
 * neither `prompt` nor `schema`, an invalid schema, no URL, `enableWebSearch` while no search is
 * configured (400, `details.reason: SEARCH_NOT_CONFIGURED`), too little credit for the model step.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { getBalance } from '../../accounts/credit';
import { type ParsedJob, parseBatchRequest, parseCrawlRequest } from '../../crawl/job-request';
import { createExtractStore, type ExtractRow } from '../../crawl/extract-store';
import { AppError } from '../../platform/errors';
import { parseBody } from '../../platform/validate';
import { LLM_FORMAT_PRICE } from '../../scrape/engines';
import { jsonSchemaProblem } from '../../scrape/llm/json-schema';
import { extractWorkflow } from '../../workflows/extract.workflow';
import { workflowIds } from '../../workflows/definitions';
import { SEARCH_ATTRIBUTE_KEYS } from '../scrape-dispatch/search-attributes';
import { ownedBy } from '../ownership';
import { type Route, type RouteInput, type TableRoute, parsedBy, reply, route } from '../route-table';
import { crawlRouteTable } from '../routes/crawl';
import type { AppDeps } from '../deps';
import { type FirecrawlVersion, mapBatchRequest, mapCrawlRequest } from './crawl-request';
import { scrapeOptionsMapper } from './crawl-mappers';
import { type ExtractSearched, extractSearchOf } from './extract-search';
import { SEARCH_PRICE } from '../../search/request';
import { FIRECRAWL_CREDENTIALS, FIRECRAWL_ERROR_RESPONSES } from './schemas';

/** Pages a wildcard URL's crawl fetches at most. */
export const EXTRACT_WILDCARD_LIMIT = 10;
/** Search results an `enableWebSearch` extract scrapes. */
const WEB_SEARCH_RESULTS = 5;
/** How long Firecrawl says a job's answer stays readable (ours are kept; a lower bound). */
const EXPIRES_AFTER_MS = 24 * 60 * 60 * 1000;

export const extractBodySchema = z.looseObject({
  urls: z.array(z.string().max(2048)).max(100).optional(),
  prompt: z.string().max(20_000).optional(),
  schema: z.record(z.string(), z.unknown()).optional(),
  systemPrompt: z.string().max(20_000).optional(),
  allowExternalLinks: z.boolean().optional(),
  enableWebSearch: z.boolean().optional(),
  showSources: z.boolean().optional(),
  scrapeOptions: z.record(z.string(), z.unknown()).optional(),
  ignoreInvalidURLs: z.boolean().optional(),
});
type ExtractBody = z.output<typeof extractBodySchema>;

const startedSchema = z.object({ success: z.literal(true), id: z.string(), urlTrace: z.array(z.string()) });
const statusSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  status: z.enum(['processing', 'completed', 'failed', 'cancelled']),
  data: z.unknown().optional(),
  sources: z.record(z.string(), z.array(z.string())).optional(),
  error: z.string().optional(),
  expiresAt: z.string(),
  creditsUsed: z.int(),
  tokensUsed: z.int(),
});

/** 400 for what cannot be extracted, before anything is started. */
function checkBody(deps: AppDeps, body: ExtractBody): void {
  if (!deps.config.LLM_BASE_URL || !deps.config.LLM_MODEL) {
    throw new AppError('LLM_NOT_CONFIGURED', 'extract needs a model, and this service has none configured (the operator sets LLM_BASE_URL and LLM_MODEL); nothing was started or charged');
  }
  if (!body.prompt?.trim() && !body.schema) throw new AppError('BAD_REQUEST', 'extract needs a prompt, a schema, or both');
  if (body.schema) {
    const problem = jsonSchemaProblem(body.schema);
    if (problem) throw new AppError('BAD_REQUEST', `schema: ${problem}`);
  }
  if (!body.urls?.length && !body.enableWebSearch) throw new AppError('BAD_REQUEST', 'urls: at least one URL (or enableWebSearch with a prompt)');
}

/** `https://e.com/blog/*` → `https://e.com/blog/`; a plain URL → null. */
function wildcardBase(url: string): string | null {
  return /\/\*$/.test(url.trim()) ? url.trim().slice(0, -1) : null;
}

/** The scrape options of every page: the caller's, with the formats the model reads (markdown). */
function pageOptions(body: ExtractBody): Record<string, unknown> {
  return { ...(body.scrapeOptions ?? {}), formats: ['markdown'] };
}

export function extractRouteTable(deps: AppDeps): Route[] {
  const store = createExtractStore(deps.db);
  const native = crawlRouteTable(deps);
  const nativeRoute = (path: string) => native.find((r): r is TableRoute => r.kind === 'table' && r.method === 'post' && r.path === path)!;
  const startCrawl = nativeRoute('/crawl');
  const startBatch = nativeRoute('/batch/scrape');
  const cancelJob = nativeRoute('/crawl/:id/cancel');

  async function startJob(handler: TableRoute, parsed: ParsedJob, wanted: unknown, input: RouteInput<string, unknown, unknown>): Promise<string> {
    (parsed.request as { firecrawl?: unknown }).firecrawl = { version: 'v2', wanted };
    const answer = await handler.handler({ ...input, params: {}, query: undefined, body: parsed });
    return (answer.body as { id: string }).id;
  }

  /** The native jobs of an extract, mapped first (a 400 starts nothing), then started; a failed start cancels those already started. */
  async function startJobs(body: ExtractBody, urls: string[], input: RouteInput<string, unknown, unknown>): Promise<string[]> {
    const plain = urls.filter((url) => wildcardBase(url) === null);
    const wild = urls.map(wildcardBase).filter((base): base is string => base !== null);
    const options = pageOptions(body);
    const mapped: Array<{ handler: TableRoute; parsed: ParsedJob; wanted: unknown }> = [];
    if (plain.length) {
      const batch = mapBatchRequest({ ...options, urls: plain, ignoreInvalidURLs: body.ignoreInvalidURLs ?? false }, 'v2', scrapeOptionsMapper('scrapeOptions.'));
      mapped.push({ handler: startBatch, parsed: parseBatchRequest(batch.body), wanted: batch.wanted });
    }
    for (const base of wild) {
      const crawl = mapCrawlRequest({ url: base, limit: EXTRACT_WILDCARD_LIMIT, allowExternalLinks: body.allowExternalLinks ?? false, scrapeOptions: options }, 'v2', scrapeOptionsMapper('scrapeOptions.'));
      mapped.push({ handler: startCrawl, parsed: parseCrawlRequest(crawl.body), wanted: crawl.wanted });
    }
    const started: string[] = [];
    try {
      for (const job of mapped) started.push(await startJob(job.handler, job.parsed, job.wanted, input));
    } catch (error) {
      for (const id of started) await Promise.resolve(cancelJob.handler({ ...input, params: { id }, query: undefined, body: undefined })).catch(() => undefined);
      throw error;
    }
    return started;
  }

  async function statusOf(job: ExtractRow) {
    const [pageCredits, model] = await Promise.all([
      store.pageCredits(job.id),
      deps.sql.query<{ kept: number | null }>(`SELECT -sum(amount)::int AS kept FROM credit_ledger WHERE "idempotencyKey" IN ($1, $2)`, [`debit:extract:${job.id}`, `refund:debit:extract:${job.id}`]),
    ]);
    const showSources = (job.request as { showSources?: boolean }).showSources === true;
    return {
      success: true as const,
      id: job.id,
      status: job.status,
      ...(job.status === 'completed' ? { data: job.data } : {}),
      ...(job.status === 'completed' && showSources ? { sources: job.sources ?? {} } : {}),
      ...(job.error ? { error: `${job.error.code}: ${job.error.message}` } : {}),
      expiresAt: new Date(new Date(job.createdAt).getTime() + EXPIRES_AFTER_MS).toISOString(),
      creditsUsed: pageCredits + Number(model[0]?.kept ?? 0),
      tokensUsed: job.usage ? job.usage.prompt_tokens + job.usage.completion_tokens : 0,
    };
  }

  function routesOf(version: FirecrawlVersion): Route[] {
    return [
      route({
        method: 'post',
        path: `/${version}/extract`,
        credential: 'apiKey',
        tag: 'firecrawl',
        summary: `Firecrawl ${version}: extract structured data from pages with the operator's model (a durable job: poll GET /${version}/extract/{id})`,
        description: `${FIRECRAWL_CREDENTIALS} Each page costs its scrape's price (the batch or crawl job's); the model step ${LLM_FORMAT_PRICE} credits, refunded when the model fails. \`url/*\` crawls that site (at most ${EXTRACT_WILDCARD_LIMIT} pages).`,
        body: parsedBy(extractBodySchema, (value) => parseBody(extractBodySchema, value), { urls: ['https://example.com/'], prompt: 'the page title', schema: { type: 'object', properties: { title: { type: 'string' } } } }),
        responses: { 200: startedSchema, ...FIRECRAWL_ERROR_RESPONSES },
        errors: ['BAD_REQUEST', 'LLM_NOT_CONFIGURED', 'INSUFFICIENT_CREDIT', 'BLACKLISTED', 'PRIVATE_TARGET', 'INVALID_URL', 'RATE_LIMITED'],
        handler: async (input) => {
          const body = input.body;
          checkBody(deps, body);
          const urls = [...(body.urls ?? [])];
          let searched: ExtractSearched | undefined;
          if (body.enableWebSearch) {
            const search = extractSearchOf(deps);
            if (!search) throw new AppError('BAD_REQUEST', 'enableWebSearch needs a search backend, and this service has none configured (SEARXNG_ENDPOINT); nothing was started or charged', { reason: 'SEARCH_NOT_CONFIGURED' });
            if (!body.prompt?.trim()) throw new AppError('BAD_REQUEST', 'enableWebSearch needs a prompt: it is what is searched');
            const balance = await getBalance(deps.sql, input.auth.userId);
            if (balance < LLM_FORMAT_PRICE + SEARCH_PRICE) throw new AppError('INSUFFICIENT_CREDIT', `The search costs ${SEARCH_PRICE} credit and the model step ${LLM_FORMAT_PRICE}; ${balance} remaining`, { remaining: balance, required: LLM_FORMAT_PRICE + SEARCH_PRICE });
            searched = await search.search(input.auth, body.prompt, WEB_SEARCH_RESULTS);
            urls.push(...searched.urls.filter((url) => !urls.includes(url)));
          }
          let jobIds: string[];
          try {
            const balance = await getBalance(deps.sql, input.auth.userId);
            if (balance < LLM_FORMAT_PRICE) throw new AppError('INSUFFICIENT_CREDIT', `The model step costs ${LLM_FORMAT_PRICE} credits; ${balance} remaining`, { remaining: balance, required: LLM_FORMAT_PRICE });
            if (urls.length === 0) throw new AppError('BAD_REQUEST', 'enableWebSearch found no page to read for this prompt, and no urls were given; the search was refunded');
            jobIds = await startJobs(body, urls, input);
          } catch (error) {
            // The extract is not started: the search made for it is given back.
            await searched?.refund();
            throw error;
          }
          const id = randomUUID();
          const workflowId = workflowIds.extract(id);
          await store.insert({ id, userId: input.auth.userId, apiKeyId: input.auth.apiKeyId, request: body, jobIds, workflowId });
          const client = await deps.temporal.get();
          await client.workflow.start(extractWorkflow, {
            taskQueue: deps.queues.main,
            workflowId,
            args: [{ extractId: id }],
            memo: { accountId: input.auth.userId, kind: 'extract' },
            typedSearchAttributes: [{ key: SEARCH_ATTRIBUTE_KEYS.accountId, value: input.auth.userId }],
          });
          return reply(200, { success: true, id, urlTrace: [] });
        },
      }),
      route({
        method: 'get',
        path: `/${version}/extract/:id`,
        params: ['id'],
        credential: 'apiKey',
        tag: 'firecrawl',
        summary: `Firecrawl ${version}: an extract job's status, data and (with showSources) the pages each field came from`,
        description: FIRECRAWL_CREDENTIALS,
        responses: { 200: statusSchema, ...FIRECRAWL_ERROR_RESPONSES },
        errors: ['NOT_FOUND', 'FORBIDDEN'],
        handler: async ({ auth, params }) => reply(200, await statusOf(ownedBy(await store.byId(params.id), auth.userId, 'extract job'))),
      }),
    ];
  }

  return [...routesOf('v2'), ...routesOf('v1')];
}
