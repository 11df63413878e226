/**
 * Firecrawl's crawl and batch-scrape request bodies (`POST /v2/crawl`, `/v1/crawl`,
 * `/v2/batch/scrape`, `/v1/batch/scrape`) → the native bodies of `POST /crawl` and
 * `POST /batch/scrape` (docs/crawl.md), which the native parsers then check exactly as they check
 * our own clients' (crawl/job-request.ts). One mapping, no second set of rules: what the native
 * crawl refuses (a bad regex, a scrape option the mode cannot do) is refused here too, as 400.
 *
 * Fields we act on are typed (a wrong type is malformed: 400); every other field (the SDKs'
 * defaulted ones, `origin`, `integration`, newer SDK fields) passes the schema and is ignored.
 * docs/firecrawl.md "Crawl and batch scrape" lists which is which and why.
 */
import { z } from 'zod';
import { CRAWL_CONCURRENCY_MAX, CRAWL_DEPTH_MAX, CRAWL_LIMIT_MAX, PER_HOST_DELAY_MAX_MS } from '../../crawl/job-request';
import { AppError } from '../../platform/errors';
import { issueMessage } from '../../platform/validate';
import { withScheme } from './scrape-options';

/** Firecrawl's `webhook`: a URL, or `{url, headers, metadata, events}`. */
export const FIRECRAWL_WEBHOOK_EVENTS = ['started', 'page', 'completed', 'failed'] as const;
export type FirecrawlWebhookEvent = (typeof FIRECRAWL_WEBHOOK_EVENTS)[number];

/** Header names a webhook may not set: they frame the request itself (ours: content type and signatures always win). */
const FRAMING_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer']);
const headerName = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/, { error: 'must be an HTTP header name' })
  .refine((name) => !FRAMING_HEADERS.has(name.toLowerCase()), { error: 'is a header the request itself sets' });
const headerValue = z.string().max(8192).regex(/^[^\r\n\0]*$/, { error: 'must not contain line breaks' });

const webhookObject = z.looseObject({
  url: z.string(),
  headers: z.record(headerName, headerValue).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  events: z.array(z.enum(FIRECRAWL_WEBHOOK_EVENTS)).optional(),
});
export const firecrawlWebhookSchema = z.union([z.string(), webhookObject], { error: 'must be a URL or an object {url, headers?, metadata?, events?}' });

/** A Firecrawl webhook as a job keeps it. */
export interface FirecrawlWebhook {
  url: string;
  headers: Record<string, string>;
  metadata: Record<string, unknown>;
  events: FirecrawlWebhookEvent[];
}

export function normalizeWebhook(webhook: z.output<typeof firecrawlWebhookSchema> | undefined): FirecrawlWebhook | undefined {
  if (webhook === undefined) return undefined;
  if (typeof webhook === 'string') return { url: webhook, headers: {}, metadata: {}, events: [...FIRECRAWL_WEBHOOK_EVENTS] };
  // Names lower-cased, so one of ours (content-type, x-signature, …) always replaces a caller's of the same name.
  const headers = Object.fromEntries(Object.entries(webhook.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  return { url: webhook.url, headers, metadata: webhook.metadata ?? {}, events: webhook.events?.length ? [...new Set(webhook.events)] : [...FIRECRAWL_WEBHOOK_EVENTS] };
}

const patterns = z.array(z.string());
const scrapeOptionsSchema = z.record(z.string(), z.unknown());

/** The crawl fields we act on (both versions; v1's own names beside v2's). Everything else is ignored. */
const crawlSchema = z.looseObject({
  url: z.string(),
  limit: z.number().int().positive().optional(),
  includePaths: patterns.optional(),
  excludePaths: patterns.optional(),
  maxDiscoveryDepth: z.number().int().nonnegative().optional(),
  crawlEntireDomain: z.boolean().optional(),
  allowSubdomains: z.boolean().optional(),
  allowExternalLinks: z.boolean().optional(),
  ignoreRobotsTxt: z.boolean().optional(),
  sitemap: z.enum(['include', 'skip', 'only']).optional(),
  delay: z.number().nonnegative().optional(),
  maxConcurrency: z.number().int().positive().optional(),
  scrapeOptions: scrapeOptionsSchema.optional(),
  webhook: firecrawlWebhookSchema.optional(),
  ignoreQueryParameters: z.boolean().optional(),
  regexOnFullURL: z.boolean().optional(),
  zeroDataRetention: z.boolean().optional(),
  // v1 names.
  maxDepth: z.number().int().nonnegative().optional(),
  allowBackwardLinks: z.boolean().optional(),
  ignoreSitemap: z.boolean().optional(),
});

/** Batch fields we act on; the scrape options are the rest of the body (top level). */
const batchSchema = z.looseObject({
  urls: z.array(z.string()).min(1),
  webhook: firecrawlWebhookSchema.optional(),
  maxConcurrency: z.number().int().positive().optional(),
  ignoreInvalidURLs: z.boolean().optional(),
  appendToId: z.string().optional(),
  zeroDataRetention: z.boolean().optional(),
});

/** `zeroDataRetention: true` asks that nothing be kept; every run here is a stored run (docs/firecrawl.md). */
export const ZERO_DATA_RETENTION_REFUSED = 'zeroDataRetention is not supported: every scrape is kept as a run (its record and result, readable with GET /webhook/runs/:id); send false or leave it out';
const REGEX_ON_FULL_URL_REFUSED = 'regexOnFullURL is not supported: includePaths and excludePaths match the URL\'s path; send false or leave it out';

/** Batch fields that are not scrape options (they never reach the page's scrape request). */
const BATCH_OWN_FIELDS = ['urls', 'webhook', 'maxConcurrency', 'ignoreInvalidURLs', 'appendToId', 'zeroDataRetention', 'origin', 'integration'];
/** Crawl-level fields the SDKs send that are not scrape options either. */
const JOB_META_FIELDS = new Set(['origin', 'integration']);

export type FirecrawlVersion = 'v1' | 'v2';

/**
 * Firecrawl's scrape options (`scrapeOptions`, or a batch's top level) → our page scrape request
 * (without `url`, `async`, `webhook`) and what each page's document shows (`wanted`, kept with the
 * job: the status answers build documents from it).
 */
export type ScrapeOptionsMapper = (options: Record<string, unknown>, version: FirecrawlVersion) => { scrape: Record<string, unknown>; wanted: unknown };

export interface MappedJob {
  /** The native body (`POST /crawl` or `POST /batch/scrape`), for the native parser. */
  body: Record<string, unknown>;
  /** The formats each page's document shows (the scrape mapper's). */
  wanted: unknown;
  webhook?: FirecrawlWebhook;
}

function malformed(error: z.ZodError): never {
  throw new AppError('BAD_REQUEST', [...new Set(error.issues.map(issueMessage))].join('; '));
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/** RE2-safe literal of a path. */
const escapeRegex = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, (c) => `\\${c}`);

/**
 * Firecrawl follows only the start URL's child paths unless `crawlEntireDomain` (v1:
 * `allowBackwardLinks`): from `https://e.com/blog` it crawls `/blog` and `/blog/…`. Our crawl
 * expresses that as an include pattern; the caller's own `includePaths`, when given, decide instead.
 */
function childPathsOf(url: string): string | null {
  let path: string;
  try {
    path = new URL(url).pathname.replace(/\/+$/, '');
  } catch {
    return null;
  }
  return path === '' ? null : `^${escapeRegex(path)}(/|$)`;
}

/** A Firecrawl crawl request → the native crawl body. */
export function mapCrawlRequest(raw: unknown, version: FirecrawlVersion, mapScrape: ScrapeOptionsMapper): MappedJob {
  // A URL without a scheme gets http://, as for scrape and map (scrape-options.ts `withScheme`).
  const parsed = crawlSchema.safeParse(isRecord(raw) ? { ...raw, url: withScheme(raw.url) } : raw);
  if (!parsed.success) malformed(parsed.error);
  const fc = parsed.data;
  if (fc.regexOnFullURL === true) throw new AppError('BAD_REQUEST', REGEX_ON_FULL_URL_REFUSED);
  if (fc.zeroDataRetention === true) throw new AppError('BAD_REQUEST', ZERO_DATA_RETENTION_REFUSED);
  const entireDomain = fc.crawlEntireDomain ?? fc.allowBackwardLinks ?? false;
  const include = fc.includePaths ?? [];
  const child = !entireDomain && include.length === 0 ? childPathsOf(fc.url) : null;
  const depth = fc.maxDiscoveryDepth ?? fc.maxDepth;
  const sitemap = fc.sitemap ?? (fc.ignoreSitemap ? 'skip' : 'include');
  const scrapeOptions = Object.fromEntries(Object.entries(fc.scrapeOptions ?? {}).filter(([key]) => !JOB_META_FIELDS.has(key)));
  const page = mapScrape(scrapeOptions, version);
  const body: Record<string, unknown> = {
    url: fc.url,
    // Firecrawl's default is 10,000 pages, our ceiling: a larger limit is lowered to it.
    limit: clamp(fc.limit ?? CRAWL_LIMIT_MAX, 1, CRAWL_LIMIT_MAX),
    max_depth: clamp(depth ?? CRAWL_DEPTH_MAX, 0, CRAWL_DEPTH_MAX),
    include_paths: child ? [child] : include,
    exclude_paths: fc.excludePaths ?? [],
    same_origin: !(fc.allowExternalLinks ?? false),
    allow_subdomains: fc.allowSubdomains ?? false,
    respect_robots: !(fc.ignoreRobotsTxt ?? false),
    sitemap,
    // No politeness delay unless asked (Firecrawl has none by default); robots.txt's Crawl-delay still applies.
    per_host_delay_ms: clamp(Math.round((fc.delay ?? 0) * 1000), 0, PER_HOST_DELAY_MAX_MS),
    ...(fc.maxConcurrency !== undefined ? { concurrency: clamp(fc.maxConcurrency, 1, CRAWL_CONCURRENCY_MAX) } : {}),
    scrape: page.scrape,
    ...(fc.ignoreQueryParameters === true ? { ignore_query_parameters: true } : {}),
  };
  const webhook = normalizeWebhook(fc.webhook);
  return { body, wanted: page.wanted, ...(webhook ? { webhook } : {}) };
}

export interface MappedBatch extends MappedJob {
  /** URLs left out because they are not absolute http(s) URLs (`ignoreInvalidURLs`). */
  invalidURLs: string[];
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * A Firecrawl batch request → the native batch body. `ignoreInvalidURLs` (v2's default: true,
 * v1's: false) leaves out what is not an http(s) URL and lists it in `invalidURLs`; otherwise such
 * a URL is a 400. `appendToId` (adding URLs to a running job) is refused: a job's URLs are fixed.
 */
export function mapBatchRequest(raw: unknown, version: FirecrawlVersion, mapScrape: ScrapeOptionsMapper): MappedBatch {
  const parsed = batchSchema.safeParse(raw);
  if (!parsed.success) malformed(parsed.error);
  const fc = parsed.data;
  if (fc.zeroDataRetention === true) throw new AppError('BAD_REQUEST', ZERO_DATA_RETENTION_REFUSED);
  if (fc.appendToId !== undefined) throw new AppError('BAD_REQUEST', 'appendToId is not supported: a batch job has the URLs it was started with; start another batch');
  const ignoreInvalid = fc.ignoreInvalidURLs ?? version === 'v2';
  const urls: string[] = [];
  const invalidURLs: string[] = [];
  for (const given of fc.urls) {
    // Without a scheme: http://, as for scrape and map; an invalid URL is listed as it was given.
    const url = withScheme(given) as string;
    if (isHttpUrl(url)) urls.push(url);
    else if (ignoreInvalid) invalidURLs.push(given);
    else throw new AppError('BAD_REQUEST', `urls: ${JSON.stringify(given.slice(0, 200))} is not an absolute http(s) URL`);
  }
  if (urls.length === 0) throw new AppError('BAD_REQUEST', 'urls has no valid http(s) URL');
  const scrapeOptions = Object.fromEntries(Object.entries(fc).filter(([key]) => !BATCH_OWN_FIELDS.includes(key)));
  const page = mapScrape(scrapeOptions, version);
  const body: Record<string, unknown> = {
    urls,
    ...(fc.maxConcurrency !== undefined ? { concurrency: clamp(fc.maxConcurrency, 1, CRAWL_CONCURRENCY_MAX) } : {}),
    scrape: page.scrape,
  };
  const webhook = normalizeWebhook(fc.webhook);
  return { body, wanted: page.wanted, invalidURLs, ...(webhook ? { webhook } : {}) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
