/**
 * The request of `POST /map` (docs/crawl.md "Map"). Client-safe: the API validates with it, the
 * workflow carries its output type.
 */
import { z } from 'zod';
import { absoluteHttpUrl } from '../platform/zod-messages';

export const SITEMAP_MODES = ['include', 'skip', 'only'] as const;
export type SitemapMode = (typeof SITEMAP_MODES)[number];

export const MAP_LIMITS = {
  /** URLs answered when `limit` is not given. */
  defaultLimit: 1000,
  maxLimit: 10_000,
  /** Longer URLs are left out of a map (they are rarely pages, and they bloat the answer). */
  maxUrlLength: 2048,
} as const;

/** What a map costs: one credit, as one http page (docs/crawl.md "Map"). */
export const MAP_PRICE = 1;

/** Attempts of a map after the first (a 5xx start page, a network failure). */
export const MAP_RETRY_COUNT = 1;

const integer = (issue: { code?: string }) => (issue.code === 'invalid_type' || issue.code === 'invalid_format' ? 'must be an integer' : undefined);

export const mapRequestSchema = z.strictObject({
  url: absoluteHttpUrl(8192),
  limit: z.int({ error: integer }).min(1).max(MAP_LIMITS.maxLimit).default(MAP_LIMITS.defaultLimit),
  sitemap: z.enum(SITEMAP_MODES).default('include'),
  include_subdomains: z.boolean().default(false),
  /** Default false: robots.txt is honoured (nothing it disallows is fetched or listed). docs/crawl.md "Map". */
  ignore_robots: z.boolean().default(false),
});

export type MapRequest = z.output<typeof mapRequestSchema>;

/** What the map workflow and activity carry of a request (camel-case, defaults applied). */
export interface MapOptions {
  limit: number;
  sitemap: SitemapMode;
  includeSubdomains: boolean;
  /** true: robots.txt is read for its `Sitemap:` lines only. Absent (maps started before it): false. */
  ignoreRobots?: boolean;
}

export function mapOptionsOf(request: MapRequest): MapOptions {
  return { limit: request.limit, sitemap: request.sitemap, includeSubdomains: request.include_subdomains, ignoreRobots: request.ignore_robots };
}
