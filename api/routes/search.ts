/**
 * `POST /search` (API key or session; docs/search.md): a web search over the configured backend
 * (SearXNG), optionally scraping every web and news result as one batch job. The run itself:
 * api/search-run.ts; the MCP `search` tool calls this route.
 */
import { z } from 'zod';
import { SEARCH_PRICE, searchRequestSchema } from '../../search/request';
import type { SearchResult } from '../../search/collect';
import { SEARCH_SOURCES, type SearchSource } from '../../search/provider';
import { type Route, reply, route, unprocessable } from '../route-table';
import { runBody } from '../scrape-run';
import { type SearchOutcome, runSearch } from '../search-run';
import { errorBodySchema } from '../schemas/responses';
import type { AppDeps } from '../deps';

export const SEARCH_EXAMPLE = { query: 'temporal workflows', limit: 5, sources: ['web'], time_range: 'month', scrape: { formats: ['markdown'] } };

const resultSchema = z.looseObject({
  url: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  position: z.int(),
  published_date: z.string().optional(),
  image_url: z.string().optional(),
  image_width: z.int().optional(),
  image_height: z.int().optional(),
  scrape: z
    .looseObject({ run_id: z.string().nullable(), status: z.string(), result: z.record(z.string(), z.unknown()).optional(), error: z.object({ code: z.string(), message: z.string() }).optional() })
    .optional()
    .meta({ description: 'With `scrape`: the result\'s page run (GET /webhook/runs/{run_id}), its result when it succeeded' }),
});

const searchAnswerSchema = z
  .object({
    id: z.string().meta({ description: 'The search (the ledger rows of its price carry it as runId)' }),
    query: z.string(),
    web: z.array(resultSchema).optional(),
    news: z.array(resultSchema).optional(),
    images: z.array(resultSchema).optional(),
    batch_id: z.string().optional().meta({ description: 'With `scrape`: the batch job of the results\' pages (GET /crawl/{batch_id})' }),
    warning: z.string().optional(),
    credits: z.object({ cost: z.number(), remaining: z.number() }),
  })
  .meta({ id: 'SearchResult' });

const responses = { 200: searchAnswerSchema, 400: errorBodySchema, 402: errorBodySchema, 503: errorBodySchema };

function nativeResult(result: SearchResult, outcome: SearchOutcome) {
  const page = outcome.batchId ? outcome.pages.get(result.normalizedUrl) : undefined;
  const scrape = page
    ? { run_id: page.runId, status: page.status, ...(page.run ? { result: (({ credits: _credits, ...rest }) => rest)(runBody(page.run, 0)) } : {}), ...(page.error ? { error: page.error } : {}) }
    : undefined;
  return {
    url: result.url,
    ...(result.title !== undefined ? { title: result.title } : {}),
    ...(result.description !== undefined ? { description: result.description } : {}),
    position: result.position,
    ...(result.publishedDate !== undefined ? { published_date: result.publishedDate } : {}),
    ...(result.imageUrl !== undefined ? { image_url: result.imageUrl } : {}),
    ...(result.imageWidth !== undefined ? { image_width: result.imageWidth, image_height: result.imageHeight } : {}),
    ...(scrape ? { scrape } : {}),
  };
}

export function searchRouteTable(deps: AppDeps): Route[] {
  return [
    route({
      method: 'post',
      path: '/search',
      credential: 'either',
      tag: 'search',
      summary: `Search the web (SearXNG): ranked results per source, optionally each result scraped (${SEARCH_PRICE} credit a search, plus each page's scrape)`,
      description:
        'Results in the backend\'s order, deduplicated by URL, without the targets the guard refuses (blacklist, private addresses), at most `limit` per source. With `scrape`, every web and news result is scraped as one batch job (each page its scrape\'s price, failures refunded), answered with the results until `timeout_ms`. 400 SEARCH_NOT_CONFIGURED without a backend (SEARXNG_ENDPOINT); 503 SEARCH_UNAVAILABLE when it fails (refunded). docs/search.md.',
      body: unprocessable(searchRequestSchema, SEARCH_EXAMPLE),
      responses,
      errors: ['VALIDATION_FAILED', 'SEARCH_NOT_CONFIGURED', 'SEARCH_UNAVAILABLE', 'LLM_NOT_CONFIGURED', 'INSUFFICIENT_CREDIT', 'RATE_LIMITED'],
      handler: async ({ auth, body }) => {
        const outcome = await runSearch(deps, auth, { request: body, scrape: body.scrape });
        const sources = Object.fromEntries(
          SEARCH_SOURCES.filter((source) => outcome.results[source]).map((source: SearchSource) => [source, outcome.results[source]!.map((result) => nativeResult(result, outcome))]),
        );
        return reply(200, {
          id: outcome.id,
          query: body.query,
          ...sources,
          ...(outcome.batchId ? { batch_id: outcome.batchId } : {}),
          ...(outcome.warning ? { warning: outcome.warning } : {}),
          credits: { cost: outcome.cost, remaining: outcome.remaining },
        });
      },
    }),
  ];
}
