/**
 * `POST /v1/map` (docs/firecrawl.md): Firecrawl v1's map → our map run (the function of
 * `POST /map`) → `{success: true, links: ["…"]}`.
 */
import { z } from 'zod';
import { type Reply, type Route, parsedBy, reply, route } from '../route-table';
import { firecrawlMapRequestSchema, parseFirecrawlMap, selectLinks } from './map-options';
import { runFirecrawlMap } from './run';
import { FIRECRAWL_CREDENTIALS, FIRECRAWL_ERROR_RESPONSES } from './schemas';
import type { AppDeps } from '../deps';

const responses = { 200: z.object({ success: z.literal(true), links: z.array(z.string()) }).meta({ id: 'FirecrawlV1MapResponse' }), ...FIRECRAWL_ERROR_RESPONSES };

export function v1MapRouteTable(deps: AppDeps): Route[] {
  return [
    route({
      method: 'post',
      path: '/v1/map',
      credential: 'apiKey',
      tag: 'firecrawl',
      summary: "Firecrawl v1 map: a site's URLs as strings (the same run as POST /map, 1 credit)",
      description: `${FIRECRAWL_CREDENTIALS} As /v2/map; also \`ignoreSitemap\` and \`sitemapOnly\`.`,
      body: parsedBy(firecrawlMapRequestSchema, parseFirecrawlMap, { url: 'https://example.com/', limit: 100 }),
      responses,
      errors: ['BAD_REQUEST', 'INSUFFICIENT_CREDIT', 'BLACKLISTED', 'PRIVATE_TARGET'],
      handler: async ({ auth, body }) => {
        const outcome = await runFirecrawlMap(deps, auth, body.request, body.timeoutMs);
        if (!outcome.ok) return reply(outcome.status, outcome.body) as Reply<typeof responses>;
        return reply(200, { success: true, links: selectLinks(outcome.value.links, body) });
      },
    }),
  ];
}
