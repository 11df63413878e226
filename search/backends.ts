/**
 * The configured search backend (docs/search.md): SearXNG when SEARXNG_ENDPOINT is set, else none
 * (the search routes answer SEARCH_NOT_CONFIGURED before any debit). Another backend is chosen
 * here, from its own variables.
 */
import type { Config } from '../platform/config';
import type { SearchProvider } from './provider';
import { searxngProvider } from './searxng';

export type SearchConfig = Pick<Config, 'SEARXNG_ENDPOINT' | 'SEARXNG_ENGINES' | 'SEARXNG_CATEGORIES' | 'SEARXNG_TIMEOUT_MS'>;

export function searchProviderOf(config: SearchConfig): SearchProvider | null {
  if (config.SEARXNG_ENDPOINT) {
    return searxngProvider({ endpoint: config.SEARXNG_ENDPOINT, engines: config.SEARXNG_ENGINES, categories: config.SEARXNG_CATEGORIES, timeoutMs: config.SEARXNG_TIMEOUT_MS });
  }
  return null;
}
