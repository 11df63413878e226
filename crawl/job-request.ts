/**
 * Request contracts of `POST /crawl` and `POST /batch/scrape` (docs/crawl.md "Crawl", "Batch
 * scrape"). Every problem is reported at once: 422 VALIDATION_FAILED listing the shape's
 * problems, the scope regexes' (crawl/url.ts `scopeProblems`) and the page scrape request's
 * (parsed by the scrape route's own parser with the page URL put in, so a crawl page accepts
 * exactly what `POST /webhook/unblocker` accepts, minus `url`, `async` and `webhook`).
 */
import { z } from 'zod';
import { AppError } from '../platform/errors';
import { absoluteHttpUrl } from '../platform/zod-messages';
import { webhookSpecSchema } from '../webhooks/spec';
import { issueMessage } from '../platform/validate';
import { type ScrapeRequest, asSentScrapeRequest, parseScrapeRequest, scrapeCost } from '../scrape/request';
import { normalizeUrl, scopeProblems } from './url';
import type { ScrapeRequestPayload } from '../scrape/request';
import type { EscalationStep } from '../scrape/proxy-tiers';

export const CRAWL_LIMIT_MAX = 10_000;
export const CRAWL_LIMIT_DEFAULT = 100;
export const BATCH_URLS_MAX = 10_000;
export const CRAWL_CONCURRENCY_MAX = 32;
export const CRAWL_DEPTH_MAX = 100;
export const PER_HOST_DELAY_MAX_MS = 60_000;

const integer = (issue: { code?: string }) => (issue.code === 'invalid_type' || issue.code === 'invalid_format' ? 'must be an integer' : undefined);
const int = () => z.int({ error: integer });

/** The scrape request of every page, without `url` (the page's), `async` and `webhook` (the job's). */
const pageScrapeSchema = z
  .record(z.string(), z.unknown())
  .meta({ description: 'The scrape request of each page, as POST /webhook/unblocker takes it, without `url`, `async` and `webhook`.' });

const pathPatterns = z.array(z.string().max(1000)).max(50);

export const crawlRequestSchema = z.strictObject({
  url: absoluteHttpUrl(8192),
  limit: int().min(1).max(CRAWL_LIMIT_MAX).default(CRAWL_LIMIT_DEFAULT),
  max_depth: int().min(0).max(CRAWL_DEPTH_MAX).default(3),
  include_paths: pathPatterns.default([]),
  exclude_paths: pathPatterns.default([]),
  same_origin: z.boolean().default(true),
  allow_subdomains: z.boolean().default(false),
  respect_robots: z.boolean().default(true),
  sitemap: z.enum(['include', 'skip', 'only']).default('include'),
  concurrency: int().min(1).max(CRAWL_CONCURRENCY_MAX).default(4),
  per_host_delay_ms: int().min(0).max(PER_HOST_DELAY_MAX_MS).default(250),
  scrape: pageScrapeSchema.default({}),
  webhook: webhookSpecSchema.optional(),
  // Pages are told apart by path, not query: `/p?x=1` and `/p?x=2` are the page `/p` (docs/crawl.md).
  ignore_query_parameters: z.boolean().optional(),
});

export const batchRequestSchema = z.strictObject({
  urls: z.array(absoluteHttpUrl(8192)).min(1).max(BATCH_URLS_MAX),
  concurrency: int().min(1).max(CRAWL_CONCURRENCY_MAX).default(4),
  per_host_delay_ms: int().min(0).max(PER_HOST_DELAY_MAX_MS).default(0),
  scrape: pageScrapeSchema.default({}),
  webhook: webhookSpecSchema.optional(),
});

type CrawlShape = z.output<typeof crawlRequestSchema>;
type BatchShape = z.output<typeof batchRequestSchema>;

/** The page scrape request as every page runs it (`url` replaced per page). */
export type PageScrape = Omit<ScrapeRequestPayload, 'url'>;

/** What a job stores (crawl.request) and its workflow reads. */
export type CrawlJobRequest = (
  | (Omit<CrawlShape, 'scrape'> & { kind: 'crawl'; scrape: PageScrape })
  | (Omit<BatchShape, 'scrape' | 'urls'> & { kind: 'batch'; urls: string[]; scrape: PageScrape })
) & {
  /** `auto` pages: the steps each page climbs, built by the API from its tiers (api/scrape-escalation.ts) when the job starts. */
  escalation?: EscalationStep[];
};

export interface ParsedJob {
  request: CrawlJobRequest;
  /** Credits one page costs. */
  pageCost: number;
}

/**
 * The page request: the scrape parser's answer for `{...scrape, url}`; a crawl page always stores
 * its `links` (docs/crawl.md "Pages"), with markdown when no format was asked for.
 */
function pageScrape(scrape: Record<string, unknown>, url: string, followLinks: boolean, problems: string[]): { page: PageScrape; cost: number } | null {
  for (const field of ['url', 'async', 'webhook'] as const) {
    if (field in scrape) problems.push(`scrape.${field} is not allowed (the ${field === 'url' ? 'page' : 'job'}'s own is used)`);
  }
  let parsed: ScrapeRequest;
  try {
    // A request parsed once already in `auto` mode is parsed again as what the caller sent.
    parsed = parseScrapeRequest({ ...asSentScrapeRequest(scrape), url, async: false, webhook: undefined });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const messages = Array.isArray(error.messages) ? error.messages : [error.messages];
    problems.push(...messages.map((m) => `scrape.${m}`));
    return null;
  }
  const { url: _url, async: _async, webhook: _webhook, ...page } = parsed;
  if (followLinks) {
    const formats = page.formats ?? ['markdown'];
    page.formats = formats.includes('links') ? formats : [...formats, 'links'];
  }
  return { page, cost: scrapeCost(parsed) };
}

function shapeProblems(error: z.ZodError): string[] {
  return [...new Set(error.issues.map(issueMessage))];
}

/** POST /crawl's body → the job, or 422 listing every problem. */
export function parseCrawlRequest(body: unknown): ParsedJob {
  const parsed = crawlRequestSchema.safeParse(body);
  const problems: string[] = parsed.success ? [] : shapeProblems(parsed.error);
  const raw = (body ?? {}) as Record<string, unknown>;
  const include = Array.isArray(raw.include_paths) ? raw.include_paths.filter((p): p is string => typeof p === 'string') : [];
  const exclude = Array.isArray(raw.exclude_paths) ? raw.exclude_paths.filter((p): p is string => typeof p === 'string') : [];
  problems.push(...scopeProblems({ includePaths: include, excludePaths: exclude }));
  const url = parsed.success ? parsed.data.url : typeof raw.url === 'string' ? raw.url : 'http://example.com/';
  const scrape = parsed.success ? parsed.data.scrape : isObject(raw.scrape) ? raw.scrape : {};
  const page = pageScrape(scrape, url, true, problems);
  if (parsed.success && normalizeUrl(parsed.data.url) === null) problems.push('url is not a crawlable http(s) URL');
  if (problems.length || !parsed.success || !page) throw new AppError('VALIDATION_FAILED', problems);
  return { request: { ...parsed.data, kind: 'crawl', url: normalizeUrl(parsed.data.url)!, scrape: page.page }, pageCost: page.cost };
}

/** POST /batch/scrape's body → the job (URLs normalised, duplicates dropped), or 422 listing every problem. */
export function parseBatchRequest(body: unknown): ParsedJob {
  const parsed = batchRequestSchema.safeParse(body);
  const problems: string[] = parsed.success ? [] : shapeProblems(parsed.error);
  const raw = (body ?? {}) as Record<string, unknown>;
  const first = parsed.success ? parsed.data.urls[0]! : 'http://example.com/';
  const scrape = parsed.success ? parsed.data.scrape : isObject(raw.scrape) ? raw.scrape : {};
  const page = pageScrape(scrape, first, false, problems);
  const urls: string[] = [];
  if (parsed.success) {
    const seen = new Set<string>();
    parsed.data.urls.forEach((u, i) => {
      const normal = normalizeUrl(u);
      if (normal === null) problems.push(`urls.${i} is not a crawlable http(s) URL`);
      else if (!seen.has(normal)) {
        seen.add(normal);
        urls.push(normal);
      }
    });
  }
  if (problems.length || !parsed.success || !page) throw new AppError('VALIDATION_FAILED', problems);
  return { request: { ...parsed.data, kind: 'batch', urls, scrape: page.page }, pageCost: page.cost };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
