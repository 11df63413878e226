/**
 * The results cache's key (docs/scraping.md "Results cache"): which requests may be answered from
 * an earlier run's result, and the canonical key two identical requests share.
 *
 * The key is a SHA-256 over the normalised request (the one parseScrapeRequest made: defaults
 * applied, selectors as objects) with every field that changes the result, serialised with sorted
 * keys so the order a client wrote its fields in does not matter. Left out are only the fields that
 * say how to run or answer, never what the page gives: `async`, `webhook`, `options` (retries and
 * the attempt deadline), and the cache's own `max_age` / `store_in_cache`. A field added to the
 * request later is in the key unless named here, so a new option can never make two different
 * requests share a result.
 *
 * Never cached (no key, so neither read nor stored): what depends on more than the URL and the
 * options (cookies, a session, actions other than waits, a form filled, custom headers, POST and a body, a pinned
 * proxy) and `changeTracking` (its answer is a comparison with the account's previous scrape).
 */
import { createHash } from 'node:crypto';
import type { ScrapeRequestPayload } from './request';

/** The request fields that never change a result. */
const NOT_IN_KEY = new Set(['async', 'webhook', 'options', 'max_age', 'store_in_cache']);

/** Fields whose absence means true (scrape/request.ts keeps them absent): the same result either way. */
const TRUE_WHEN_ABSENT = ['only_main_content', 'include_heading', 'block_detection'] as const;

export type CacheableRequest = Partial<ScrapeRequestPayload> & { url: string; async?: boolean; max_age?: number; store_in_cache?: boolean };

/** Why a request is never answered from (nor stored in) the cache; null when it may be. */
export function uncacheableReason(request: CacheableRequest): string | null {
  if (request.cookies?.length) return 'cookies';
  if (request.session) return 'a session';
  // Waits alone (Firecrawl's `waitFor`) only time the read: the page is the same one.
  if (request.actions?.some((action) => action.type !== 'wait')) return 'actions';
  if (request.fill_form) return 'a form to fill';
  if (request.headers && Object.keys(request.headers).length > 0) return 'custom headers';
  if (request.method === 'POST' || request.body !== undefined) return 'a POST';
  if (request.proxy !== undefined && request.proxy !== 'default') return 'a proxy choice';
  if (request.formats?.some((f) => f === 'changeTracking')) return 'changeTracking';
  return null;
}

/** JSON with object keys sorted at every level (arrays keep their order). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The URL as the fetch sees it: WHATWG-normalised (host case, default port, escapes), without its fragment. */
function fetchedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
}

/** The key of a cacheable request; null when it is never cached (uncacheableReason). */
export function resultCacheKey(request: CacheableRequest): string | null {
  if (uncacheableReason(request) !== null) return null;
  const keyed: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(request)) if (!NOT_IN_KEY.has(field)) keyed[field] = value;
  keyed.url = fetchedUrl(request.url);
  for (const field of TRUE_WHEN_ABSENT) keyed[field] ??= true;
  // `proxy: "default"` is what an absent one means.
  if (keyed.proxy === 'default') delete keyed.proxy;
  // The order formats are listed in changes nothing in the result.
  if (Array.isArray(keyed.formats)) keyed.formats = (keyed.formats as unknown[]).map(canonicalJson).sort();
  return createHash('sha256').update(canonicalJson(keyed)).digest('base64url');
}

/** The key a successful run stores: a cacheable request whose caller did not opt out (`store_in_cache: false`). */
export function storedCacheKey(request: CacheableRequest): string | null {
  return request.store_in_cache === false ? null : resultCacheKey(request);
}

/** The key to look a request up by: only when it allows a cached answer (`max_age` > 0). */
export function lookupCacheKey(request: CacheableRequest): { key: string; maxAgeMs: number } | null {
  const maxAgeMs = request.max_age ?? 0;
  if (maxAgeMs <= 0) return null;
  const key = resultCacheKey(request);
  return key === null ? null : { key, maxAgeMs };
}
