/**
 * The web-search step of an extract (`enableWebSearch`, docs/firecrawl.md "Extract"): a port the
 * search provider fills (POST /v2/search's backend). Until one is wired here, `enableWebSearch:
 * true` is refused with 400 (`details.reason: SEARCH_NOT_CONFIGURED`) before anything is started
 * or charged.
 */
import type { AppDeps } from '../deps';

export interface ExtractSearch {
  /** Result URLs for `query`, best first, at most `limit`, the guard's refusals already dropped. */
  searchUrls(query: string, limit: number): Promise<string[]>;
}

/** The search an extract may use on this service; undefined while none is configured. */
export function extractSearchOf(_deps: AppDeps): ExtractSearch | undefined {
  return undefined;
}
