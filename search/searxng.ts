/**
 * The SearXNG backend (docs/search.md "SearXNG"): its search API, `GET <SEARXNG_ENDPOINT>/search`
 * with `q`, `format=json`, `categories`, `engines`, `language`, `pageno`, `time_range`,
 * `safesearch` (SearXNG's docs/dev/search_api.rst). The answer is `get_json_response` of its
 * searx/webutils.py: `{query, results: [...], answers, corrections, infoboxes, suggestions,
 * unresponsive_engines}`, each result a MainResult's fields (`url`, `title`, `content`,
 * `engine`, `category`, `publishedDate`, `img_src`, `thumbnail_src`, `thumbnail`, `resolution`, …).
 *
 * Self-hosted Firecrawl calls it the same way (apps/api/src/search/v2/searxng.ts): the same
 * variables, `SEARXNG_ENGINES` and `SEARXNG_CATEGORIES` passed through on web searches. Unlike
 * Firecrawl, which answers no results when SearXNG fails, a failure here is SEARCH_UNAVAILABLE
 * (refunded): an empty answer would be charged and look like "nothing found".
 */
import { z } from 'zod';
import { AppError } from '../platform/errors';
import type { SearchHit, SearchPage, SearchPageQuery, SearchProvider, SearchSource } from './provider';

export interface SearxngOptions {
  /** The instance's base URL (SEARXNG_ENDPOINT); `/search` is appended. */
  endpoint: string;
  /** SEARXNG_ENGINES, passed through on web searches. */
  engines?: string;
  /** SEARXNG_CATEGORIES, passed through on web searches (default `general`). */
  categories?: string;
  /** One request's deadline at most (SEARXNG_TIMEOUT_MS); the search's own deadline when sooner. */
  timeoutMs: number;
}

/** What SearXNG answers; only what is read is checked, everything else is let through. */
const resultSchema = z.looseObject({
  url: z.string().nullish(),
  title: z.string().nullish(),
  content: z.string().nullish(),
  publishedDate: z.string().nullish(),
  img_src: z.string().nullish(),
  thumbnail_src: z.string().nullish(),
  thumbnail: z.string().nullish(),
  resolution: z.string().nullish(),
});
const answerSchema = z.looseObject({ results: z.array(z.unknown()) });

/** The SearXNG category each source searches; web's is the operator's SEARXNG_CATEGORIES when set. */
const CATEGORY: Record<SearchSource, string> = { web: 'general', news: 'news', images: 'images' };

function unavailable(message: string): AppError {
  return new AppError('SEARCH_UNAVAILABLE', `The search backend ${message}; nothing is charged for this search`);
}

/** `1920 x 1080` (SearXNG's images `resolution`) → width and height. */
function dimensions(resolution: string | null | undefined): { imageWidth?: number; imageHeight?: number } {
  const match = /^\s*(\d{1,6})\s*[x×]\s*(\d{1,6})\s*$/i.exec(resolution ?? '');
  return match ? { imageWidth: Number(match[1]), imageHeight: Number(match[2]) } : {};
}

const text = (value: string | null | undefined) => (value ? value : undefined);

/** One SearXNG result as a hit of `source`; null when it has no URL (an answer or infobox row). */
export function hitOf(raw: unknown, source: SearchSource): SearchHit | null {
  const parsed = resultSchema.safeParse(raw);
  if (!parsed.success || !parsed.data.url) return null;
  const r = parsed.data;
  const hit: SearchHit = { url: r.url!, title: text(r.title), description: text(r.content) };
  if (source === 'news') return { ...hit, publishedDate: text(r.publishedDate), imageUrl: text(r.thumbnail) ?? text(r.img_src) ?? text(r.thumbnail_src) };
  if (source === 'images') return { ...hit, imageUrl: text(r.img_src) ?? text(r.thumbnail_src), ...dimensions(r.resolution) };
  return hit;
}

export function searxngProvider(options: SearxngOptions): SearchProvider {
  const base = options.endpoint.replace(/\/+$/, '');

  function urlOf(query: SearchPageQuery): string {
    const params = new URLSearchParams({ q: query.query, format: 'json', pageno: String(query.page) });
    params.set('categories', query.source === 'web' ? options.categories || CATEGORY.web : CATEGORY[query.source]);
    if (query.source === 'web' && options.engines) params.set('engines', options.engines);
    if (query.language) params.set('language', query.language);
    if (query.timeRange) params.set('time_range', query.timeRange);
    if (query.safeSearch !== undefined) params.set('safesearch', String(query.safeSearch));
    return `${base}/search?${params.toString()}`;
  }

  return {
    name: 'searxng',
    async searchPage(query: SearchPageQuery): Promise<SearchPage> {
      const waitMs = Math.max(1, Math.min(options.timeoutMs, query.deadline - Date.now()));
      let response: Response;
      try {
        response = await fetch(urlOf(query), { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(waitMs), redirect: 'error' });
      } catch (error) {
        const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        throw unavailable(timedOut ? `did not answer within ${waitMs} ms` : 'could not be reached');
      }
      if (response.status === 403) {
        await response.body?.cancel();
        // SearXNG's answer to a format its settings do not enable (search.formats).
        throw unavailable('refused the JSON format (403): enable `json` in search.formats of its settings.yml');
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        throw unavailable(`answered HTTP ${response.status}`);
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw unavailable('answered something other than JSON');
      }
      const answer = answerSchema.safeParse(body);
      if (!answer.success) throw unavailable('answered JSON without a `results` list');
      return { hits: answer.data.results.map((raw) => hitOf(raw, query.source)).filter((hit): hit is SearchHit => hit !== null) };
    },
  };
}
