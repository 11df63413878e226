/**
 * The Firecrawl-compatible surface (docs/firecrawl.md): its routes, one module per route, and
 * what is mounted in front of its path groups.
 *
 * api/app.ts mounts, for `FIRECRAWL_PATHS` only:
 * 1. `firecrawlErrorShape` first (before the dependency gate and the body parser), so every
 *    error there leaves in Firecrawl's body and status;
 * 2. `bearerApiKey` (api/middleware/auth.ts) after the dependency gate: the key as a Bearer token;
 * then `firecrawlRouteTable` with the other JSON routes.
 *
 * A new compatible route (crawl, batch) is a module beside these, and one line below.
 */
import type { Route } from '../route-table';
import { firecrawlJobRouteTable } from './crawl';
import { v1MapRouteTable } from './map-v1';
import { v2MapRouteTable } from './map-v2';
import { firecrawlSearchRouteTable } from './search';
import { v1ScrapeRouteTable } from './scrape-v1';
import { v2ScrapeRouteTable } from './scrape-v2';
import { firecrawlUsageRouteTable } from './usage';
import { crawlParamsRouteTable } from './crawl-params';
import { parseRouteTable } from './parse';
import { extractRouteTable } from './extract';
import { firecrawlMonitorRouteTable } from './monitor';
import type { AppDeps } from '../deps';

export { firecrawlErrorShape } from './errors';
export { FIRECRAWL_TAG } from './schemas';

/** The path groups of the compatible API: Firecrawl's error shape and Bearer keys apply there. */
export const FIRECRAWL_PATHS = ['/v1', '/v2'] as const;

/** Where the key may also come as `Authorization: Bearer` (the MCP endpoint's clients send it so too). */
export const BEARER_PATHS = [...FIRECRAWL_PATHS, '/mcp'] as const;


export function firecrawlRouteTable(deps: AppDeps): Route[] {
  // The account routes first: `GET /v2/crawl/active` must be matched before `GET /v2/crawl/:id`.
  return [...firecrawlUsageRouteTable(deps), ...crawlParamsRouteTable(deps), ...parseRouteTable(deps), ...extractRouteTable(deps), ...v2ScrapeRouteTable(deps), ...v1ScrapeRouteTable(deps), ...v2MapRouteTable(deps), ...v1MapRouteTable(deps), ...firecrawlJobRouteTable(deps), ...firecrawlSearchRouteTable(deps), ...firecrawlMonitorRouteTable(deps)];
}
