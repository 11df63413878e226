/**
 * The web-search step of an extract (`enableWebSearch`, docs/firecrawl.md "Extract"): the
 * extract's prompt searched on the configured backend (search/, POST /v2/search's), the web
 * results' URLs added to the pages the extract scrapes. It is a search as POST /search runs one
 * (api/search-run.ts): its price (`search.per_search` on /pricing) debited once, refunded when the
 * backend fails (SEARCH_UNAVAILABLE) or when the extract it was for is not started after all; the
 * targets the guard refuses (blacklist, private addresses) are dropped. No backend configured
 * (SEARXNG_ENDPOINT unset): undefined, and the route answers 400 SEARCH_NOT_CONFIGURED before
 * anything is started or charged.
 */
import { refundCredit } from '../../accounts/credit';
import { searchProviderOf } from '../../search/backends';
import { searchRequestSchema } from '../../search/request';
import type { AuthContext } from '../middleware/auth';
import { runSearch, searchDebitKey } from '../search-run';
import type { AppDeps } from '../deps';

export interface ExtractSearched {
  /** The web results' URLs, best first, at most the limit asked. */
  urls: string[];
  /** Gives the search back (the extract it was for could not be started). */
  refund(): Promise<void>;
}

export interface ExtractSearch {
  /** Searches `query` for the account (one search's price), at most `limit` web results. */
  search(auth: AuthContext, query: string, limit: number): Promise<ExtractSearched>;
}

/** The search an extract may use on this service; undefined while none is configured. */
export function extractSearchOf(deps: AppDeps): ExtractSearch | undefined {
  if (!searchProviderOf(deps.config)) return undefined;
  return {
    async search(auth, query, limit) {
      const request = searchRequestSchema.parse({ query: query.slice(0, 2000), limit, sources: ['web'] });
      const outcome = await runSearch(deps, auth, { request });
      return {
        urls: (outcome.results.web ?? []).map((result) => result.url),
        refund: async () => void (await refundCredit(deps.sql, { debitKey: searchDebitKey(outcome.id) })),
      };
    },
  };
}
