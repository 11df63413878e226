/**
 * `POST /v2/scrape` (docs/firecrawl.md): Firecrawl v2's scrape → our scrape run → Firecrawl's
 * answer `{success: true, data: document}`. The mapping of fields: api/firecrawl/scrape-options.ts;
 * the run: api/firecrawl/run.ts (the native scrape's own function).
 */
import { z } from 'zod';
import { parseBody } from '../../platform/validate';
import { type Reply, type Route, parsedBy, reply, route } from '../route-table';
import { runFirecrawlScrape } from './run';
import { type MappedScrape, firecrawlScrapeOptionsSchema, toScrapeRequest } from './scrape-options';
import { FIRECRAWL_CREDENTIALS, FIRECRAWL_ERROR_RESPONSES, firecrawlDocumentSchema } from './schemas';
import type { AppDeps } from '../deps';

export const v2ScrapeRequestSchema = firecrawlScrapeOptionsSchema.extend({ url: z.string() }).meta({ id: 'FirecrawlV2ScrapeRequest' });

export const V2_SCRAPE_EXAMPLE = { url: 'https://example.com/', formats: ['markdown', 'links'], onlyMainContent: true };

const responses = { 200: z.object({ success: z.literal(true), data: firecrawlDocumentSchema }).meta({ id: 'FirecrawlV2ScrapeResponse' }), ...FIRECRAWL_ERROR_RESPONSES };

/** A v2 scrape body → our request; 400 naming the field. */
export function parseV2Scrape(body: unknown): MappedScrape {
  const options = parseBody(v2ScrapeRequestSchema, body);
  return toScrapeRequest(options.url, options);
}

export function v2ScrapeRouteTable(deps: AppDeps): Route[] {
  return [
    route({
      method: 'post',
      path: '/v2/scrape',
      credential: 'apiKey',
      tag: 'firecrawl',
      summary: 'Firecrawl v2 scrape: one page as markdown, html, rawHtml, links or a screenshot (the same run as POST /webhook/unblocker)',
      description: `${FIRECRAWL_CREDENTIALS} http mode unless a screenshot, \`waitFor\` or \`mobile\` needs a browser; \`mode\` forces one. \`timeout\` (ms): the answer comes within it, else 408 and the run is cancelled and refunded.`,
      body: parsedBy(v2ScrapeRequestSchema, parseV2Scrape, V2_SCRAPE_EXAMPLE),
      responses,
      errors: ['BAD_REQUEST', 'INVALID_SELECTOR', 'INSUFFICIENT_CREDIT', 'BLACKLISTED', 'PRIVATE_TARGET'],
      handler: async ({ auth, body }) => {
        const outcome = await runFirecrawlScrape(deps, auth, body);
        // A failed run's body is ours; api/firecrawl/errors.ts answers it in Firecrawl's shape and status.
        if (!outcome.ok) return reply(outcome.status, outcome.body) as Reply<typeof responses>;
        return reply(200, { success: true, data: outcome.value });
      },
    }),
  ];
}
