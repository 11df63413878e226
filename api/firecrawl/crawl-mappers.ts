/**
 * The compatible crawl and batch routes' use of the shared mappers (scrape-options.ts,
 * document.ts): a job's `scrapeOptions` become the native page scrape request (without `url`,
 * `async`, `webhook`: the page's and the job's own), and a page's scrape run becomes its document,
 * exactly as `POST /v2/scrape` maps and answers one page.
 */
import { parseBody } from '../../platform/validate';
import type { AppDeps } from '../deps';
import type { ScrapeOptionsMapper } from './crawl-request';
import type { DocumentMapper } from './crawl-status';
import { firecrawlDocumentOfRun } from '../../scrape/firecrawl-document';
import { type WantedFormats, firecrawlScrapeOptionsSchema, toScrapeRequest } from './scrape-options';

/** A stand-in page URL: the options are mapped once for the job; each page puts its own URL in. */
const ANY_PAGE = 'http://example.com/';

export function scrapeOptionsMapper(where: string): ScrapeOptionsMapper {
  return (options) => {
    const mapped = toScrapeRequest(ANY_PAGE, parseBody(firecrawlScrapeOptionsSchema, options), where);
    const { url: _url, async: _async, webhook: _webhook, ...scrape } = mapped.request;
    return { scrape, wanted: mapped.wanted };
  };
}

/** The status routes' documents: the same mapper the page webhooks use (scrape/firecrawl-document.ts). */
export function documentMapper(deps: AppDeps): DocumentMapper {
  return async (run, wanted) => (await firecrawlDocumentOfRun(deps.db, run, wanted as WantedFormats)) as unknown as Record<string, unknown>;
}
