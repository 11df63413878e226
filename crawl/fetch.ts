/**
 * The guarded GETs of discovery: robots.txt and sitemaps (docs/crawl.md "robots.txt", "Sitemaps").
 * They go through the http engine's `fetchRaw` (scrape/http/engine.ts), i.e. the same SSRF
 * guard (platform/target-guard.ts: every hop's scheme, blacklist and resolved address), redirect checks,
 * decompression with a size cap, deadline and outbound proxy as a scrape; the proxy is chosen by
 * the same rotation (scrape/proxies.ts), sticky per scope and host like a flow's scrapes
 * (`proxyStickyKey`). Never a second fetcher.
 */
import type { HttpEngine, RawResponse } from '../scrape/http/engine';
import { AppError } from '../platform/errors';
import type { BlacklistCheck } from '../platform/target-guard';
import type { ProxyEndpoint } from '../platform/proxy-endpoints';
import type { ProxyRotation } from '../scrape/proxies';
import { MAX_ROBOTS_BYTES, robotsUrlOf } from './robots';
import { SITEMAP_LIMITS, parseSitemap } from './sitemap';
import { normalizeUrl } from './url';
import { proxyStickyKey } from '../scrape/proxies';

export interface DiscoveryDeps {
  /** The process's http engine (ActivityDeps.httpEngine): its `fetchRaw` does every request. */
  httpEngine: Pick<HttpEngine, 'fetchRaw'>;
  /** The host blacklist (ActivityDeps.blacklist), applied to every hop. */
  blacklist?: { isBlacklisted: BlacklistCheck };
  /** PROXY_URLS rotation (absent: direct), as a scrape's. */
  proxies?: ProxyRotation;
  /** PROXY_STICKY: one proxy per `proxyScope` and host. */
  proxySticky?: boolean;
  /** The sticky scope (a crawl's id, a map's run id). */
  proxyScope?: string;
  /** One proxy for every request instead of the rotation's choice (a map uses its page's). */
  proxy?: ProxyEndpoint;
  /** Deadline of one request; default 15 s. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const SITEMAP_ACCEPT = 'application/xml,text/xml;q=0.9,application/x-gzip;q=0.8,text/plain;q=0.5,*/*;q=0.1';

/**
 * One guarded GET with the deps' blacklist, proxy and deadline. Errors are the engine's AppErrors
 * (PRIVATE_TARGET, BLACKLISTED, RESPONSE_TOO_LARGE, SCRAPE_FAILED, PROXY_FAILED); a cancel
 * rejects with the signal's reason.
 */
export async function guardedGet(deps: DiscoveryDeps, url: string, options: { maxBytes: number; accept?: string; signal?: AbortSignal; timeoutMs?: number }): Promise<RawResponse> {
  let proxy: ProxyEndpoint | undefined = deps.proxy;
  if (!proxy && deps.proxies) proxy = deps.proxies.pick(deps.proxySticky && deps.proxyScope ? proxyStickyKey(deps.proxyScope, url) : undefined);
  try {
    const res = await deps.httpEngine.fetchRaw(url, {
      maxBytes: options.maxBytes,
      timeoutMs: Math.min(options.timeoutMs ?? Infinity, deps.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      ...(options.accept ? { accept: options.accept } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(deps.blacklist ? { isBlacklisted: deps.blacklist.isBlacklisted } : {}),
      ...(proxy ? { proxy } : {}),
    });
    if (proxy && deps.proxies) deps.proxies.succeeded(proxy);
    return res;
  } catch (error) {
    if (proxy && deps.proxies && error instanceof AppError && error.code === 'PROXY_FAILED') deps.proxies.failed(proxy);
    throw error;
  }
}

/**
 * GET `<origin>/robots.txt`: `{status, body}` with the text of a 2xx answer (at most
 * MAX_ROBOTS_BYTES); any other status gives `body: null`, and so does a network failure, a
 * timeout or a body over the cap (`status: null`). What that means is `robotsVerdict`'s
 * (crawl/robots.ts): 4xx allows all, 5xx/429/no answer disallows all until it can be read. A
 * guard refusal (PRIVATE_TARGET, BLACKLISTED) is thrown: the host cannot be crawled at all.
 */
export async function fetchRobots(deps: DiscoveryDeps, origin: string, signal?: AbortSignal): Promise<{ status: number | null; body: string | null }> {
  const robotsUrl = robotsUrlOf(origin);
  let res: RawResponse;
  try {
    res = await guardedGet(deps, robotsUrl, { maxBytes: MAX_ROBOTS_BYTES * 4, accept: 'text/plain,*/*;q=0.1', ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw error;
    if (error instanceof AppError && (error.code === 'PRIVATE_TARGET' || error.code === 'BLACKLISTED' || error.code === 'INVALID_URL')) throw error;
    // Unreachable, too large, timed out: no answer (robotsVerdict: disallow all until it can be read).
    return { status: null, body: null };
  }
  if (res.status < 200 || res.status >= 300) return { status: res.status, body: null };
  return { status: res.status, body: res.body.subarray(0, MAX_ROBOTS_BYTES).toString('utf8') };
}

export interface DiscoverOptions {
  /** Sitemap documents fetched at most (start + nested); default SITEMAP_LIMITS.maxSitemaps. */
  maxSitemaps?: number;
  /** Index levels followed; default SITEMAP_LIMITS.maxDepth. */
  maxDepth?: number;
  /** Decompressed bytes per sitemap; default SITEMAP_LIMITS.maxBytes. */
  maxBytes?: number;
  /** Only page URLs this accepts are kept and counted against `limit` (e.g. the crawl's scope; a map's robots.txt check answers a promise). */
  accept?: (url: string) => boolean | Promise<boolean>;
  /** Epoch ms: no sitemap document is fetched after it (the rest counted in skippedSitemaps), nor beyond it. */
  deadline?: number;
}

/** What one discovery did: the URLs, and each sitemap document's fate (tests, logs, map). */
export interface SitemapDiscovery {
  urls: string[];
  sitemaps: Array<{ url: string; depth: number; outcome: 'urlset' | 'sitemapindex' | 'text' | 'http_error' | 'fetch_failed' | 'too_large' | 'bad_gzip' | 'invalid_xml' | 'dtd' | 'not_a_sitemap'; status?: number; urls?: number }>;
  /** Nested sitemaps left unfetched by maxSitemaps / maxDepth. */
  skippedSitemaps: number;
}

/**
 * Sitemap discovery with its record: robots' `Sitemap:` lines, else `<origin>/sitemap.xml`,
 * breadth first through indexes (bounded), each document through `guardedGet`. A document that
 * fails (status, network, guard, invalid) is recorded and skipped; only a cancel throws.
 */
export async function discoverSitemaps(
  deps: DiscoveryDeps,
  origin: string,
  robotsSitemaps: string[],
  limit: number,
  signal?: AbortSignal,
  options: DiscoverOptions = {},
): Promise<SitemapDiscovery> {
  const maxSitemaps = options.maxSitemaps ?? SITEMAP_LIMITS.maxSitemaps;
  const maxDepth = options.maxDepth ?? SITEMAP_LIMITS.maxDepth;
  const maxBytes = options.maxBytes ?? SITEMAP_LIMITS.maxBytes;
  const starts = robotsSitemaps.map((s) => normalizeUrl(s)).filter((s): s is string => s !== null);
  if (starts.length === 0) starts.push(new URL('/sitemap.xml', origin).href);

  const record: SitemapDiscovery = { urls: [], sitemaps: [], skippedSitemaps: 0 };
  const found = new Set<string>();
  const seen = new Set<string>();
  const queue: Array<{ url: string; depth: number }> = [];
  for (const url of starts) {
    if (!seen.has(url)) queue.push({ url, depth: 0 });
    seen.add(url);
  }

  while (queue.length > 0 && found.size < limit) {
    const { url, depth } = queue.shift()!;
    const left = options.deadline === undefined ? undefined : options.deadline - Date.now();
    if (record.sitemaps.length >= maxSitemaps || (left !== undefined && left <= 0)) {
      record.skippedSitemaps += queue.length + 1;
      break;
    }
    let res: RawResponse;
    try {
      res = await guardedGet(deps, url, { maxBytes, accept: SITEMAP_ACCEPT, ...(signal ? { signal } : {}), ...(left !== undefined ? { timeoutMs: left } : {}) });
    } catch (error) {
      if (signal?.aborted) throw error;
      record.sitemaps.push({ url, depth, outcome: error instanceof AppError && error.code === 'RESPONSE_TOO_LARGE' ? 'too_large' : 'fetch_failed' });
      continue;
    }
    if (res.status < 200 || res.status >= 300) {
      record.sitemaps.push({ url, depth, outcome: 'http_error', status: res.status });
      continue;
    }
    const parsed = parseSitemap(res.body, { maxBytes, maxUrls: SITEMAP_LIMITS.maxUrlsPerSitemap });
    if (!parsed.ok) {
      record.sitemaps.push({ url, depth, outcome: parsed.reason, status: res.status });
      continue;
    }
    let added = 0;
    for (const page of parsed.urls) {
      if (found.size >= limit) break;
      if (found.has(page) || (options.accept && !(await options.accept(page)))) continue;
      found.add(page);
      added++;
    }
    for (const child of parsed.sitemaps) {
      if (seen.has(child)) continue;
      seen.add(child);
      if (depth + 1 > maxDepth) record.skippedSitemaps++;
      else queue.push({ url: child, depth: depth + 1 });
    }
    record.sitemaps.push({ url, depth, outcome: parsed.kind, status: res.status, urls: added });
  }
  record.urls = [...found];
  return record;
}

/** Sitemap URLs from robots' Sitemap: lines, else /sitemap.xml, following indexes; normalised, deduplicated, at most `limit`. */
export async function discoverSitemapUrls(
  deps: DiscoveryDeps,
  origin: string,
  robotsSitemaps: string[],
  limit: number,
  signal?: AbortSignal,
  options: DiscoverOptions = {},
): Promise<string[]> {
  return (await discoverSitemaps(deps, origin, robotsSitemaps, limit, signal, options)).urls;
}
