/**
 * A map (docs/crawl.md "Map"): the start page's links (the http engine, format `links`) and the
 * site's sitemap URLs (robots.txt `Sitemap:` lines or /sitemap.xml, indexes followed), normalised,
 * deduplicated, in scope, at most `limit`; no content. It is an engine in the sense of
 * activities/scrape/run-scrape.ts (`(request, call) => ScrapeResult`), so a map is an ordinary
 * scrape run: debited once by its run, retried, refunded when every attempt fails, recorded.
 *
 * robots.txt is honoured unless `ignoreRobots`: the start page is fetched only when its rules
 * allow it, and no URL they disallow is listed; a start origin whose robots.txt cannot be read
 * (5xx, 429, no answer) fails the attempt (RFC 9309: disallow all until it can be read), which is
 * retried like a failing start page.
 */
import type { HttpEngine } from '../scrape/http/engine';
import { AppError } from '../platform/errors';
import type { PageLink, ScrapeResult } from '../scrape/types';
import { type DiscoveryDeps, discoverSitemaps, fetchRobots } from './fetch';
import { MAP_LIMITS, type MapOptions } from './map-request';
import { CRAWLER_USER_AGENT_TOKEN, type RobotsRules, parseRobots, robotsFailure, robotsUrlOf, robotsVerdict } from './robots';
import { compileScope, normalizeUrl } from './url';
import type { Engine } from '../scrape/request';

/** The page's status that makes a map attempt fail (and be retried): the scrape's rule. */
const isRetryableStatus = (status: number) => status >= 500 || status === 429;

/** Origins whose robots.txt one map reads at most (the start's, its redirect's, subdomains'); URLs of others are left out. */
export const MAP_ROBOTS_ORIGINS = 10;

export interface MapEngineDeps {
  httpEngine: Pick<HttpEngine, 'scrape' | 'fetchRaw'>;
}

interface RobotsOfOrigin {
  status: number | null;
  /** null: it could not be read (or the origin is past MAP_ROBOTS_ORIGINS): nothing of it is listed. */
  rules: RobotsRules | null;
  /** The guard refused the origin (private, blacklisted): nothing of it may be fetched or listed. */
  refused?: Error;
}

/** robots.txt of each origin a map meets, fetched once (at most MAP_ROBOTS_ORIGINS). */
function robotsOfOrigins(discovery: DiscoveryDeps, signal: AbortSignal | undefined) {
  const byOrigin = new Map<string, Promise<RobotsOfOrigin>>();
  const read = async (origin: string): Promise<RobotsOfOrigin> => {
    let fetched: { status: number | null; body: string | null };
    try {
      fetched = await fetchRobots(discovery, origin, signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      return { status: null, rules: null, refused: error instanceof Error ? error : new Error(String(error)) };
    }
    const verdict = robotsVerdict(fetched);
    return { status: fetched.status, rules: verdict === 'unreachable' ? null : parseRobots(robotsUrlOf(origin), fetched.body, CRAWLER_USER_AGENT_TOKEN) };
  };
  const of = (origin: string): Promise<RobotsOfOrigin> => {
    let found = byOrigin.get(origin);
    if (!found) {
      found = byOrigin.size >= MAP_ROBOTS_ORIGINS ? Promise.resolve({ status: null, rules: null }) : read(origin);
      byOrigin.set(origin, found);
    }
    return found;
  };
  return {
    of,
    async allows(url: string): Promise<boolean> {
      const { rules } = await of(new URL(url).origin);
      return rules !== null && rules.isAllowed(url);
    },
  };
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
    const origin = new URL(start).origin;
    const discovery: DiscoveryDeps = {
      httpEngine: deps.httpEngine,
      ...(call.isBlacklisted ? { blacklist: { isBlacklisted: call.isBlacklisted } } : {}),
      // The page's proxy (chosen by the rotation for this attempt), for every request of the map.
      ...(call.proxy ? { proxy: call.proxy } : {}),
    };
    const robots = options.ignoreRobots ? undefined : robotsOfOrigins(discovery, call.signal);
    let startRobots: RobotsOfOrigin | undefined;
    if (robots) {
      startRobots = await robots.of(origin);
      // The start origin refused by the guard: the scrape's own refusal (403), as without robots.
      if (startRobots.refused) throw startRobots.refused;
      if (!startRobots.rules) {
        const status = startRobots.status;
        throw new AppError(
          status !== null && isRetryableStatus(status) ? 'TARGET_ERROR' : 'SCRAPE_FAILED',
          `robots.txt of ${origin} could not be read (${robotsFailure(status)}): RFC 9309 disallows the whole site until it can be; try again later, or send "ignore_robots": true`,
        );
      }
    }

    let page: ScrapeResult | undefined;
    if (options.sitemap !== 'only' && (!startRobots?.rules || startRobots.rules.isAllowed(start))) {
      page = await deps.httpEngine.scrape({ url: start, formats: ['links'] }, call);
      // The scrape's rule: the attempt fails (and is retried) on a 5xx or 429 start page.
      if (isRetryableStatus(page.status)) return page;
    }

    // In scope: the start URL's origin, and the origin it redirected to.
    const scopes = [start, ...(page && normalizeUrl(page.final_url) !== start ? [page.final_url] : [])].map((startUrl) =>
      compileScope({ startUrl, sameOrigin: true, allowSubdomains: options.includeSubdomains, includePaths: [], excludePaths: [] }),
    );
    const inScope = (url: string) => url.length <= MAP_LIMITS.maxUrlLength && scopes.some((scope) => scope(url).ok);
    const allowed = async (url: string) => !robots || (await robots.allows(url));

    const links = new Map<string, PageLink>();
    const add = async (url: string | null, text = '', rel: string | null = null) => {
      if (url === null || links.size >= options.limit || links.has(url) || !inScope(url) || !(await allowed(url))) return;
      links.set(url, { url, text, rel });
    };
    if (page) {
      // The start page itself is listed when it is a page (not a 404).
      if (page.status < 400) await add(normalizeUrl(page.final_url) ?? start);
      for (const link of page.links ?? []) await add(normalizeUrl(link.url), link.text, link.rel);
    }

    let sitemapStatus: number | undefined;
    if (options.sitemap !== 'skip' && links.size < options.limit) {
      // robots.txt names the sitemaps (read for them even when its rules are ignored).
      const rules = startRobots?.rules ?? parseRobots(robotsUrlOf(origin), (await fetchRobots(discovery, origin, call.signal)).body, CRAWLER_USER_AGENT_TOKEN);
      // Without `Sitemap:` lines the fallback /sitemap.xml is a URL like any other: fetched only when allowed.
      const fallbackAllowed = rules.sitemaps.length > 0 || !robots || rules.isAllowed(new URL('/sitemap.xml', origin).href);
      if (fallbackAllowed) {
        const found = await discoverSitemaps(discovery, origin, rules.sitemaps, options.limit - links.size, call.signal, {
          accept: async (url) => inScope(url) && !links.has(url) && (await allowed(url)),
          deadline,
        });
        sitemapStatus = found.sitemaps.find((s) => s.status !== undefined)?.status;
        for (const url of found.urls) await add(url);
      }
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
