/**
 * Response schemas of the Firecrawl-compatible routes, for the OpenAPI document (tag
 * `firecrawl`) and the schema fuzz. Shared by every route module of this folder.
 */
import { z } from 'zod';
import type { Responses } from '../route-table';

export const firecrawlErrorSchema = z
  .object({
    success: z.literal(false),
    code: z.string().meta({ description: "Firecrawl's code where one exists (BAD_REQUEST, SCRAPE_TIMEOUT, …), else ours (docs/errors.md)" }),
    error: z.string(),
    details: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
  })
  .meta({ id: 'FirecrawlError' });

export const firecrawlMetadataSchema = z
  .looseObject({
    title: z.string().optional(),
    description: z.string().optional(),
    language: z.string().optional(),
    sourceURL: z.string(),
    url: z.string(),
    statusCode: z.number(),
    contentType: z.string().optional(),
    scrapeId: z.string(),
    creditsUsed: z.number(),
    proxyUsed: z.enum(['basic', 'stealth']),
    cacheState: z.enum(['hit', 'miss']),
    cachedAt: z.string().optional().meta({ description: 'A cache hit: when the page was fetched (ISO 8601)' }),
  })
  .meta({ id: 'FirecrawlMetadata', description: 'Plus every og:* and twitter:* meta tag under its own name (and og ones camel-cased: ogTitle)' });

export const firecrawlDocumentSchema = z
  .object({
    markdown: z.string().optional(),
    html: z.string().optional(),
    rawHtml: z.string().optional(),
    links: z.array(z.string()).optional(),
    screenshot: z.string().optional().meta({ description: 'data:image/png;base64,…' }),
    json: z.unknown().optional().meta({ description: 'The json format: the model\'s answer, valid against the schema' }),
    extract: z.unknown().optional().meta({ description: 'v1\'s extract format: as json' }),
    summary: z.string().optional(),
    actions: z
      .object({
        screenshots: z.array(z.string()).meta({ description: 'One per screenshot action, data:image/png;base64,…' }),
        scrapes: z.array(z.object({ url: z.string(), html: z.string() })),
        javascriptReturns: z.array(z.object({ type: z.string(), value: z.unknown() })),
        pdfs: z.array(z.string()).meta({ description: 'Always empty (no pdf action)' }),
      })
      .optional()
      .meta({ description: 'With `actions`: what they produced' }),
    metadata: firecrawlMetadataSchema,
  })
  .meta({ id: 'FirecrawlDocument' });

/**
 * Every error status these routes answer, in Firecrawl's body (api/firecrawl/errors.ts): our
 * 503s leave as 502 (the status the SDKs retry), a failed target as 500, a timeout as 408.
 */
export const FIRECRAWL_ERROR_RESPONSES = {
  400: firecrawlErrorSchema,
  401: firecrawlErrorSchema,
  402: firecrawlErrorSchema,
  403: firecrawlErrorSchema,
  404: firecrawlErrorSchema,
  408: firecrawlErrorSchema,
  409: firecrawlErrorSchema,
  413: firecrawlErrorSchema,
  429: firecrawlErrorSchema,
  500: firecrawlErrorSchema,
  502: firecrawlErrorSchema,
} as const satisfies Responses;

/** Said in every route's description: how these routes take the key. */
export const FIRECRAWL_CREDENTIALS =
  'The API key as `Authorization: Bearer <key>` (what the Firecrawl SDKs send) or `x-api-key`. Errors are Firecrawl\'s `{success: false, code, error, details?}` (docs/firecrawl.md).';

/** The OpenAPI tag of these routes, and its description. */
export const FIRECRAWL_TAG = {
  name: 'firecrawl',
  description:
    "Firecrawl-compatible API (/v2, /v1): the official SDKs work with only the base URL changed. Key as `Authorization: Bearer` or `x-api-key`; errors in Firecrawl's shape; the same runs, ledger and limits as the native routes (docs/firecrawl.md).",
} as const;
