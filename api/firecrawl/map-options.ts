/**
 * Firecrawl's map options → our map request (docs/firecrawl.md "Map fields"), shared by
 * `/v2/map` and `/v1/map`.
 *
 * Honoured: `url`, `limit` (at most our 10,000), `sitemap` (`include`|`skip`|`only`; v1's
 * `ignoreSitemap`/`sitemapOnly`), `includeSubdomains` (Firecrawl's default, true), `search` (the
 * links whose URL contains it, case-insensitive, before `limit`), `timeout` (ms: 408 past it,
 * the run cancelled and refunded). Ignored: `ignoreQueryParameters`, `location`, `useIndex`,
 * `filterByPath`, `integration`, `origin` and any other field.
 */
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { parseBody } from '../../platform/validate';
import { MAP_LIMITS, type MapRequest, SITEMAP_MODES, mapRequestSchema } from '../../crawl/map-request';
import { MAX_FIRECRAWL_TIMEOUT_MS, withScheme } from './scrape-options';

export const firecrawlMapRequestSchema = z.looseObject({
  url: z.string(),
  search: z.string().optional().meta({ description: 'Only links whose URL contains it (case-insensitive)' }),
  limit: z.number().int().min(1).optional().meta({ description: `Default 5000, at most ${MAP_LIMITS.maxLimit}` }),
  sitemap: z.enum(SITEMAP_MODES).optional(),
  includeSubdomains: z.boolean().optional().meta({ description: 'Default true (Firecrawl\'s)' }),
  ignoreSitemap: z.boolean().optional().meta({ description: 'v1: true is sitemap "skip"' }),
  sitemapOnly: z.boolean().optional().meta({ description: 'v1: true is sitemap "only"' }),
  timeout: z.number().positive().optional(),
  ignoreQueryParameters: z.boolean().optional(),
  integration: z.string().nullable().optional(),
  origin: z.string().optional(),
}).meta({ id: 'FirecrawlMapRequest' });

/** Firecrawl's default `limit`, within ours. */
const DEFAULT_LIMIT = Math.min(5000, MAP_LIMITS.maxLimit);

export interface MappedMap {
  request: MapRequest;
  search?: string;
  limit: number;
  timeoutMs?: number;
}

export function parseFirecrawlMap(body: unknown): MappedMap {
  const options = parseBody(firecrawlMapRequestSchema, body);
  const limit = Math.min(options.limit ?? DEFAULT_LIMIT, MAP_LIMITS.maxLimit);
  const sitemap = options.sitemap ?? (options.sitemapOnly ? 'only' : options.ignoreSitemap ? 'skip' : 'include');
  const search = options.search?.trim() ? options.search.trim() : undefined;
  const parsed = mapRequestSchema.safeParse({
    url: withScheme(options.url),
    // With `search`, every URL is listed, then filtered, then cut to `limit`.
    limit: search ? MAP_LIMITS.maxLimit : limit,
    sitemap,
    include_subdomains: options.includeSubdomains ?? true,
  });
  if (!parsed.success) throw new AppError('BAD_REQUEST', parsed.error.issues.map((i) => `${i.path.join('.') || 'body'} ${i.message}`).join('; '));
  const timeoutMs = options.timeout === undefined ? undefined : Math.min(Math.ceil(options.timeout), MAX_FIRECRAWL_TIMEOUT_MS);
  return { request: parsed.data, limit, ...(search ? { search } : {}), ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
}

/** The links a map answers: filtered by `search`, cut to `limit`. */
export function selectLinks(links: readonly string[], mapped: MappedMap): string[] {
  const needle = mapped.search?.toLowerCase();
  return (needle ? links.filter((link) => link.toLowerCase().includes(needle)) : links).slice(0, mapped.limit);
}
