/**
 * A map (docs/crawl.md "Map"): the start page's links (the http engine, format `links`) and the
 * site's sitemap URLs (robots.txt `Sitemap:` lines or /sitemap.xml, indexes followed), normalised,
 * deduplicated, in scope, at most `limit`; no content. It is an engine in the sense of
 * activities/scrape/run-scrape.ts (`(request, call) => ScrapeResult`), so a map is an ordinary
 * scrape run: debited once by its run, retried, refunded when every attempt fails, recorded.
 */
import type { HttpEngine } from '../activities/scrape/http';
import type { Engine } from '../activities/scrape/run-scrape';
import type { PageLink, ScrapeResult } from '../scrape/types';
import { type DiscoveryDeps, discoverSitemaps, fetchRobots } from './fetch';
import { MAP_LIMITS, type MapOptions } from './map-request';
import { CRAWLER_USER_AGENT_TOKEN, parseRobots, robotsUrlOf } from './robots';
import { compileScope, normalizeUrl } from './url';

/** The page's status that makes a map attempt fail (and be retried): the scrape's rule. */
const isRetryableStatus = (status: number) => status >= 500 || status === 429;

export interface MapEngineDeps {
  httpEngine: Pick<HttpEngine, 'scrape' | 'fetchRaw'>;
}

/** The engine of one map: `req.url` is the start URL. */
export function createMapEngine(deps: MapEngineDeps, options: MapOptions): Engine {
  return async (req, call): Promise<ScrapeResult> => {
    const started = performance.now();
    const timeoutMs = call.timeoutMs ?? 30_000;
    // Sitemap documents are not fetched past this (what was found so far is answered).
    const deadline = Date.now() + timeoutMs - 1000;
    const start = normalizeUrl(req.url);
    if (start === null) throw new Error(`not an http(s) URL: ${req.url}`);

    let page: ScrapeResult | undefined;
    if (options.sitemap !== 'only') {
      page = await deps.httpEngine.scrape({ url: start, formats: ['links'] }, call);
      // The scrape's rule: the attempt fails (and is retried) on a 5xx or 429 start page.
      if (isRetryableStatus(page.status)) return page;
    }

    // In scope: the start URL's origin, and the origin it redirected to.
    const scopes = [start, ...(page && normalizeUrl(page.final_url) !== start ? [page.final_url] : [])].map((startUrl) =>
      compileScope({ startUrl, sameOrigin: true, allowSubdomains: options.includeSubdomains, includePaths: [], excludePaths: [] }),
    );
    const accept = (url: string) => url.length <= MAP_LIMITS.maxUrlLength && scopes.some((scope) => scope(url).ok);

    const links = new Map<string, PageLink>();
    const add = (url: string | null, text = '', rel: string | null = null) => {
      if (url === null || links.size >= options.limit || links.has(url) || !accept(url)) return;
      links.set(url, { url, text, rel });
    };
    if (page) {
      // The start page itself is listed when it is a page (not a 404).
      if (page.status < 400) add(normalizeUrl(page.final_url) ?? start);
      for (const link of page.links ?? []) add(normalizeUrl(link.url), link.text, link.rel);
    }

    let sitemapStatus: number | undefined;
    if (options.sitemap !== 'skip' && links.size < options.limit) {
      const discovery: DiscoveryDeps = {
        httpEngine: deps.httpEngine,
        ...(call.isBlacklisted ? { blacklist: { isBlacklisted: call.isBlacklisted } } : {}),
        // The page's proxy (chosen by the rotation for this attempt), for every request of the map.
        ...(call.proxy ? { proxy: call.proxy } : {}),
      };
      const origin = new URL(start).origin;
      const robots = await fetchRobots(discovery, origin, call.signal);
      const rules = parseRobots(robotsUrlOf(origin), robots.body, CRAWLER_USER_AGENT_TOKEN);
      const found = await discoverSitemaps(discovery, origin, rules.sitemaps, options.limit - links.size, call.signal, {
        accept: (url) => accept(url) && !links.has(url),
        deadline,
      });
      sitemapStatus = found.sitemaps.find((s) => s.status !== undefined)?.status;
      for (const url of found.urls) add(url);
    }

    return {
      url: req.url,
      final_url: page?.final_url ?? start,
      // sitemap "only": the first sitemap document's status (0 when none answered).
      status: page?.status ?? sitemapStatus ?? 0,
      mode: 'http',
      elapsed_ms: Math.round(performance.now() - started),
      headers: page?.headers ?? {},
      links: [...links.values()],
    };
  };
}
