/**
 * The results of a search (docs/search.md "Results"), whatever the backend: for each source, the
 * backend's pages in its order, each hit kept when its URL is http(s), on an allowed domain, not
 * seen before (URLs compared normalised: crawl/url.ts) and accepted by the caller's guard
 * (blacklist, private targets), until `limit` are kept, the backend runs dry, or MAX_PAGES.
 */
import { normalizeUrl } from '../crawl/url';
import type { SearchHit, SearchPageQuery, SearchProvider, SearchSource } from './provider';

/** A hit kept, with its normalised URL (what a batch of its pages is keyed by) and its 1-based position. */
export interface SearchResult extends SearchHit {
  normalizedUrl: string;
  position: number;
}

export type SearchResults = Partial<Record<SearchSource, SearchResult[]>>;

export interface CollectOptions {
  provider: SearchProvider;
  /** What every page asks, besides its source and number. */
  query: Omit<SearchPageQuery, 'source' | 'page'>;
  sources: readonly SearchSource[];
  limit: number;
  includeDomains?: readonly string[];
  excludeDomains?: readonly string[];
  /** The target guard: false drops the hit (never shown, never scraped). */
  accept: (url: URL) => Promise<boolean>;
}

/** Pages asked of the backend per source at most: SearXNG pages hold about 10 to 30 results. */
export function maxPagesFor(limit: number): number {
  return Math.min(10, Math.ceil(limit / 10) + 1);
}

/** Whether `host` is `domain` or one of its subdomains. */
export function onDomain(host: string, domain: string): boolean {
  const h = host.toLowerCase().replace(/\.+$/, '');
  return h === domain || h.endsWith(`.${domain}`);
}

function domainAllowed(host: string, options: CollectOptions): boolean {
  if (options.includeDomains?.length && !options.includeDomains.some((d) => onDomain(host, d))) return false;
  return !options.excludeDomains?.some((d) => onDomain(host, d));
}

async function collectSource(options: CollectOptions, source: SearchSource): Promise<SearchResult[]> {
  const kept: SearchResult[] = [];
  const seen = new Set<string>();
  for (let page = 1; page <= maxPagesFor(options.limit) && kept.length < options.limit; page++) {
    const { hits } = await options.provider.searchPage({ ...options.query, source, page });
    const fresh: Array<{ hit: SearchHit; url: URL; normalizedUrl: string }> = [];
    for (const hit of hits) {
      const normalizedUrl = normalizeUrl(hit.url);
      if (normalizedUrl === null || seen.has(normalizedUrl)) continue;
      seen.add(normalizedUrl);
      const url = new URL(normalizedUrl);
      if (domainAllowed(url.hostname, options)) fresh.push({ hit, url, normalizedUrl });
    }
    // A page with nothing new: the backend has no more (SearXNG repeats or answers empty past its end).
    if (fresh.length === 0) break;
    const verdicts = await Promise.all(fresh.map((candidate) => options.accept(candidate.url)));
    fresh.forEach((candidate, i) => {
      if (verdicts[i] && kept.length < options.limit) kept.push({ ...candidate.hit, normalizedUrl: candidate.normalizedUrl, position: kept.length + 1 });
    });
  }
  return kept;
}

/** Every asked source's results (sources searched one after another: a backend is one instance, not a farm). */
export async function collectResults(options: CollectOptions): Promise<SearchResults> {
  const results: SearchResults = {};
  for (const source of options.sources) results[source] = await collectSource(options, source);
  return results;
}
