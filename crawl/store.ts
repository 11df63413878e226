/**
 * The crawl tables' one owner (docs/crawl.md "Tables"): `crawl` (the job), `crawl_page` (the
 * frontier: one row per normalised URL, UNIQUE (crawlId, url), so a URL is fetched at most once
 * per crawl whatever finds it twice) and `crawl_host` (robots.txt of each origin, fetched once).
 * Every transition is guarded (`… WHERE status = …`), so a retried activity or a replayed
 * workflow changes nothing twice. Each claimed page is an ordinary `scrape_run` row (workflowId
 * `crawl-<id>`), recorded in the same transaction as the claim by its own store (scrape/runs.ts).
 *
 * The statements: store-jobs.ts (`crawl`), store-frontier.ts (adding, claiming, holding pages),
 * store-pages.ts (outcomes, page reads), store-hosts.ts (`crawl_host`); shapes in store-rows.ts.
 */
import type { Database } from '../platform/db';
import { crawlFrontierStatements } from './store-frontier';
import { crawlHostStatements } from './store-hosts';
import { crawlJobStatements } from './store-jobs';
import { crawlPageStatements } from './store-pages';
import { crawlQuery } from './store-rows';

export type { PageRunTemplate } from '../scrape/runs';
export { CRAWL_FINISHED, CRAWL_PAGE_STATUSES } from './store-rows';
export type { ClaimedPage, CrawlHostRow, CrawlKind, CrawlPageRow, CrawlPageStatus, CrawlRow, CrawlStatus, FrontierHold, NewPage, PageCounts } from './store-rows';

export function createCrawlStore(db: Database) {
  const q = crawlQuery(db);
  return {
    ...crawlJobStatements(q),
    ...crawlFrontierStatements(db, q),
    ...crawlPageStatements(q),
    ...crawlHostStatements(q),
  };
}

export type CrawlStore = ReturnType<typeof createCrawlStore>;
