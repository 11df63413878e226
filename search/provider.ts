/**
 * Web search (docs/search.md): the port every search backend implements, and what a search asks
 * of it. One backend today, SearXNG (search/searxng.ts); another (a paid API, a second
 * metasearch engine) is a module beside it implementing `SearchProvider`, chosen in
 * `searchProviderOf` (search/backends.ts). Everything above the port (filtering, the guard,
 * deduplication, the limit, the price, scraping the results) is the same for every backend.
 */

/** Where results come from: Firecrawl's `sources`. */
export const SEARCH_SOURCES = ['web', 'news', 'images'] as const;
export type SearchSource = (typeof SEARCH_SOURCES)[number];

/** SearXNG's `time_range` values; every backend is asked in these terms. */
export const TIME_RANGES = ['day', 'week', 'month', 'year'] as const;
export type TimeRange = (typeof TIME_RANGES)[number];

/** One page of one source, as a backend is asked for it. */
export interface SearchPageQuery {
  query: string;
  source: SearchSource;
  /** 1-based. Backends answer pages of their own size (SearXNG: what its engines gave, often 10 to 30). */
  page: number;
  timeRange?: TimeRange;
  /** A language or locale code (`en`, `de-DE`), or none: the backend's default. */
  language?: string;
  /** 0 off, 1 moderate, 2 strict; none: the backend's default. */
  safeSearch?: 0 | 1 | 2;
  /** When the answer is due (epoch ms): the backend gives up then (SEARCH_UNAVAILABLE). */
  deadline: number;
}

/** One result as the backend gave it, before filtering. Fields a source does not have are absent. */
export interface SearchHit {
  url: string;
  title?: string;
  /** The snippet (SearXNG's `content`). */
  description?: string;
  /** news: when it was published (ISO 8601), as the backend gave it. */
  publishedDate?: string;
  /** images: the image itself; news: a thumbnail. */
  imageUrl?: string;
  imageWidth?: number;
  imageHeight?: number;
}

export interface SearchPage {
  hits: SearchHit[];
}

export interface SearchProvider {
  /** For logs and docs (`searxng`). */
  readonly name: string;
  /**
   * One page of results of one source, in the backend's order. A backend that cannot be reached,
   * times out, or answers something other than its documented answer throws AppError
   * SEARCH_UNAVAILABLE (the caller refunds the search).
   */
  searchPage(query: SearchPageQuery): Promise<SearchPage>;
}
