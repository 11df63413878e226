/**
 * The results cache's key (scrape/cache-key.ts) on requests as parseScrapeRequest makes them, and
 * Firecrawl's maxAge / storeInCache as the compatible routes map them.
 */
import { parseScrapeRequest } from './request';
import { lookupCacheKey, resultCacheKey, storedCacheKey, uncacheableReason } from './cache-key';
import { parseV2Scrape } from '../api/firecrawl/scrape-v2';

const URL_ = 'https://example.com/page';
const key = (body: Record<string, unknown>) => resultCacheKey(parseScrapeRequest({ url: URL_, ...body }));

describe('resultCacheKey', () => {
  it('is the same for requests that differ only in how they run or are answered', () => {
    const base = key({ formats: ['markdown', 'links'] });
    expect(base).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key({ formats: ['links', 'markdown'] })).toBe(base);
    expect(key({ formats: ['markdown', 'links'], async: true, options: { retry_count: 0, timeout_ms: 5000 }, max_age: 1000, store_in_cache: true })).toBe(base);
    expect(key({ formats: ['markdown', 'links'], only_main_content: true })).toBe(base);
    expect(resultCacheKey(parseScrapeRequest({ url: 'https://EXAMPLE.com:443/page#part', formats: ['markdown', 'links'] }))).toBe(base);
  });

  it('differs for anything that changes the result', () => {
    const base = key({ formats: ['markdown'] });
    for (const other of [
      { formats: ['html'] },
      { formats: ['markdown'], mode: 'browser' },
      { formats: ['markdown'], only_main_content: false },
      { formats: ['markdown'], include_tags: ['main'] },
      { formats: ['markdown'], selectors: ['h1'] },
      { formats: ['markdown'], wait_for: '#app', mode: 'browser' },
      { formats: ['markdown'], mobile: true, mode: 'browser' },
    ]) expect(key(other)).not.toBe(base);
    expect(resultCacheKey(parseScrapeRequest({ url: `${URL_}?q=1`, formats: ['markdown'] }))).not.toBe(base);
  });

  it('is null for every never-cached kind; waits alone are cached', () => {
    const never: Array<[Record<string, unknown>, string]> = [
      [{ cookies: [{ name: 'a', value: 'b' }] }, 'cookies'],
      [{ session: { name: 's' } }, 'a session'],
      [{ mode: 'browser', actions: [{ type: 'click', selector: 'a' }] }, 'actions'],
      [{ mode: 'browser', fill_form: { fields: { '#q': 'x' } } }, 'a form to fill'],
      [{ headers: { 'x-a': '1' } }, 'custom headers'],
      [{ method: 'POST', body: 'x' }, 'a POST'],
      [{ proxy: 'none' }, 'a proxy choice'],
      [{ formats: ['markdown', 'changeTracking'] }, 'changeTracking'],
    ];
    for (const [body, reason] of never) {
      const request = parseScrapeRequest({ url: URL_, ...body });
      expect(uncacheableReason(request)).toBe(reason);
      expect(resultCacheKey(request)).toBeNull();
    }
    expect(key({ mode: 'browser', actions: [{ type: 'wait', milliseconds: 100 }] })).not.toBeNull();
    expect(key({ proxy: 'default' })).toBe(key({}));
  });

  it('is looked up only with max_age > 0, and stored unless store_in_cache is false', () => {
    expect(lookupCacheKey(parseScrapeRequest({ url: URL_ }))).toBeNull();
    expect(lookupCacheKey(parseScrapeRequest({ url: URL_, max_age: 0 }))).toBeNull();
    expect(lookupCacheKey(parseScrapeRequest({ url: URL_, max_age: 5000 }))).toEqual({ key: key({}), maxAgeMs: 5000 });
    expect(storedCacheKey(parseScrapeRequest({ url: URL_ }))).toBe(key({}));
    expect(storedCacheKey(parseScrapeRequest({ url: URL_, store_in_cache: false }))).toBeNull();
  });
});

describe('Firecrawl maxAge and storeInCache', () => {
  it('maps maxAge (ms, floored, capped at a year) and storeInCache: false; 0 or absent fetches', () => {
    expect(parseV2Scrape({ url: URL_, maxAge: 14400000, storeInCache: true }).request).toMatchObject({ max_age: 14400000 });
    expect(parseV2Scrape({ url: URL_, maxAge: 1500.7 }).request.max_age).toBe(1500);
    expect(parseV2Scrape({ url: URL_, maxAge: 1e15 }).request.max_age).toBe(365 * 24 * 3600 * 1000);
    expect(parseV2Scrape({ url: URL_, maxAge: 0 }).request.max_age).toBeUndefined();
    expect(parseV2Scrape({ url: URL_ }).request.max_age).toBeUndefined();
    expect(parseV2Scrape({ url: URL_, storeInCache: false }).request.store_in_cache).toBe(false);
  });

  it('refuses a native max_age out of range', () => {
    expect(() => parseScrapeRequest({ url: URL_, max_age: -1 })).toThrow(/max_age/);
    expect(() => parseScrapeRequest({ url: URL_, max_age: 1.5 })).toThrow(/max_age must be an integer/);
  });
});
