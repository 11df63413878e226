/**
 * `POST /v1/scrape` (docs/firecrawl.md): Firecrawl v1's scrape, for the older integrations
 * (`FirecrawlAppV1`, `Firecrawl().v1`, pinned SDKs). Its fields are v2's, plus the v1 string
 * `screenshot@fullPage`, and `jsonOptions` / `extractOptions` for its `json` / `extract` formats
 * (`changeTrackingOptions` is ignored: no diff modes on v1). The answer is v2's (with
 * `extract` beside `json` when v1's `extract` format was asked).
 */
import { z } from 'zod';
import { parseBody } from '../../platform/validate';
import { type Reply, type Route, parsedBy, reply, route } from '../route-table';
import { runFirecrawlScrape } from './run';
import { type MappedScrape, firecrawlScrapeOptionsSchema, toScrapeRequest } from './scrape-options';
import { FIRECRAWL_CREDENTIALS, FIRECRAWL_ERROR_RESPONSES, firecrawlDocumentSchema } from './schemas';
import type { AppDeps } from '../deps';

export const v1ScrapeRequestSchema = firecrawlScrapeOptionsSchema
  .extend({
    url: z.string(),
    formats: z.array(z.string()).optional().meta({ description: 'markdown (default), html, rawHtml, links, screenshot, screenshot@fullPage, json (with jsonOptions), extract (with extractOptions), summary, changeTracking (with markdown)' }),
  })
  .meta({ id: 'FirecrawlV1ScrapeRequest' });

export const V1_SCRAPE_EXAMPLE = { url: 'https://example.com/', formats: ['markdown', 'screenshot@fullPage'], timeout: 30000 };

const responses = { 200: z.object({ success: z.literal(true), data: firecrawlDocumentSchema }).meta({ id: 'FirecrawlV1ScrapeResponse' }), ...FIRECRAWL_ERROR_RESPONSES };

export function parseV1Scrape(body: unknown): MappedScrape {
  const options = parseBody(v1ScrapeRequestSchema, body);
  return toScrapeRequest(options.url, options);
}

export function v1ScrapeRouteTable(deps: AppDeps): Route[] {
  return [
    route({
      method: 'post',
      path: '/v1/scrape',
      credential: 'apiKey',
      tag: 'firecrawl',
      summary: 'Firecrawl v1 scrape (the same run as POST /webhook/unblocker)',
      description: `${FIRECRAWL_CREDENTIALS} As /v2/scrape; \`formats\` also takes \`screenshot@fullPage\`.`,
      body: parsedBy(v1ScrapeRequestSchema, parseV1Scrape, V1_SCRAPE_EXAMPLE),
      responses,
      errors: ['BAD_REQUEST', 'INVALID_SELECTOR', 'INSUFFICIENT_CREDIT', 'BLACKLISTED', 'PRIVATE_TARGET'],
      handler: async ({ auth, body }) => {
        const outcome = await runFirecrawlScrape(deps, auth, body);
        if (!outcome.ok) return reply(outcome.status, outcome.body) as Reply<typeof responses>;
        return reply(200, { success: true, data: outcome.value });
      },
    }),
  ];
}
