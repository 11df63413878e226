/**
 * The search domain's pure parts (docs/search.md): the SearXNG client against the fixture server
 * (test/fixtures/searxng/, SearXNG's documented JSON) over real HTTP, the collector over a stub
 * provider, and the translations of Firecrawl's fields.
 */
import { startSearxngFixture, searxngResult, type SearxngFixture } from '../test/fixtures/searxng/server';
import { AppError } from '../platform/errors';
import { collectResults, maxPagesFor, onDomain } from './collect';
import type { SearchHit, SearchPageQuery, SearchProvider } from './provider';
import { countryOfLocation, localeOf, searchRequestSchema, timeRangeOfTbs } from './request';
import { hitOf, searxngProvider } from './searxng';

let searx: SearxngFixture;
beforeAll(async () => {
  searx = await startSearxngFixture({ pageSize: 3 });
});
afterAll(() => searx.close());
beforeEach(() => searx.reset());

const soon = () => Date.now() + 5000;

describe('the SearXNG client', () => {
  it('asks GET /search with the JSON format, the operator\'s engines and categories on web, and reads url/title/content', async () => {
    searx.setResults('science', [{ url: 'https://a.example/1', title: 'A', content: 'first' }]);
    const provider = searxngProvider({ endpoint: `${searx.url}/`, engines: 'arxiv', categories: 'science', timeoutMs: 5000 });
    const page = await provider.searchPage({ query: 'q', source: 'web', page: 1, timeRange: 'year', language: 'fr-FR', safeSearch: 2, deadline: soon() });
    expect(page.hits).toEqual([{ url: 'https://a.example/1', title: 'A', description: 'first' }]);
    expect(searx.requests).toEqual([{ q: 'q', format: 'json', pageno: '1', categories: 'science', engines: 'arxiv', language: 'fr-FR', time_range: 'year', safesearch: '2' }]);
  });

  it('news and images: their own categories, without the operator\'s engines', async () => {
    searx.setResults('news', [{ url: 'https://n.example/', title: 'N', content: 'news', publishedDate: '2026-01-02T03:04:05', thumbnail: 'https://n.example/t.png' }]);
    const provider = searxngProvider({ endpoint: searx.url, engines: 'google', timeoutMs: 5000 });
    expect((await provider.searchPage({ query: 'q', source: 'news', page: 1, deadline: soon() })).hits).toEqual([
      { url: 'https://n.example/', title: 'N', description: 'news', publishedDate: '2026-01-02T03:04:05', imageUrl: 'https://n.example/t.png' },
    ]);
    expect(searx.requests[0]).toEqual({ q: 'q', format: 'json', pageno: '1', categories: 'news' });
  });

  it('image results: img_src and the resolution as width and height', () => {
    const raw = searxngResult({ url: 'https://i.example/page', title: 'I', img_src: 'https://i.example/i.jpg', resolution: '1920 x 1080' }, 'images');
    expect(hitOf(raw, 'images')).toEqual({ url: 'https://i.example/page', title: 'I', imageUrl: 'https://i.example/i.jpg', imageWidth: 1920, imageHeight: 1080 });
    expect(hitOf({ title: 'an answer without url' }, 'web')).toBeNull();
  });

  it('SEARCH_UNAVAILABLE for a 500, a 403 (JSON not enabled), a body that is not JSON, an unreachable or silent instance', async () => {
    const provider = searxngProvider({ endpoint: searx.url, timeoutMs: 5000 });
    const query: SearchPageQuery = { query: 'q', source: 'web', page: 1, deadline: soon() };
    for (const [mode, message] of [
      ['down', /HTTP 500/],
      ['html', /enable `json` in search.formats/],
      ['garbage', /other than JSON/],
    ] as const) {
      searx.setMode(mode);
      const error = await provider.searchPage({ ...query, deadline: soon() }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect([(error as AppError).code, (error as AppError).message]).toEqual(['SEARCH_UNAVAILABLE', expect.stringMatching(message)]);
    }
    const closed = searxngProvider({ endpoint: 'http://127.0.0.1:9', timeoutMs: 5000 });
    expect(await closed.searchPage(query).catch((e: unknown) => (e as AppError).code)).toBe('SEARCH_UNAVAILABLE');
  });
});

describe('collectResults', () => {
  /** A backend answering pages of `pages`, counting the calls. */
  function stub(pages: string[][]): SearchProvider & { calls: number } {
    const provider = {
      name: 'stub',
      calls: 0,
      searchPage(query: SearchPageQuery) {
        provider.calls++;
        return Promise.resolve({ hits: (pages[query.page - 1] ?? []).map((url): SearchHit => ({ url, title: url })) });
      },
    };
    return provider;
  }
  const base = { query: { query: 'q', deadline: soon() }, sources: ['web'] as const, accept: () => Promise.resolve(true) };

  it('keeps the backend\'s order, drops duplicates (normalised) and non-http URLs, stops at limit, numbers positions after filtering', async () => {
    const provider = stub([['https://a.example/1', 'HTTPS://A.EXAMPLE/1#x', 'ftp://a.example/f', 'https://a.example/2'], ['https://a.example/3', 'https://a.example/4']]);
    const results = await collectResults({ ...base, provider, limit: 3 });
    expect(results.web!.map((r) => [r.url, r.position])).toEqual([
      ['https://a.example/1', 1],
      ['https://a.example/2', 2],
      ['https://a.example/3', 3],
    ]);
    expect(provider.calls).toBe(2);
  });

  it('stops when a page brings nothing new, and after maxPagesFor(limit) pages', async () => {
    const repeating = stub([['https://a.example/1'], ['https://a.example/1'], ['https://a.example/2']]);
    expect((await collectResults({ ...base, provider: repeating, limit: 5 })).web).toHaveLength(1);
    expect(repeating.calls).toBe(2);
    const endless = { name: 'endless', calls: 0, searchPage: (q: SearchPageQuery) => ((endless.calls += 1), Promise.resolve({ hits: [{ url: `https://e.example/${q.page}` }] })) };
    await collectResults({ ...base, provider: endless, limit: 100 });
    expect(endless.calls).toBe(maxPagesFor(100));
  });

  it('the guard and the domain filters drop results before they count', async () => {
    const provider = stub([['https://blocked.example/', 'https://docs.a.example/x', 'https://b.example/', 'https://a.example/y']]);
    const accept = (url: URL) => Promise.resolve(url.hostname !== 'blocked.example');
    expect((await collectResults({ ...base, provider, limit: 5, accept })).web!.map((r) => r.url)).toEqual(['https://docs.a.example/x', 'https://b.example/', 'https://a.example/y']);
    expect((await collectResults({ ...base, provider, limit: 5, accept, includeDomains: ['a.example'] })).web!.map((r) => r.url)).toEqual(['https://docs.a.example/x', 'https://a.example/y']);
    expect((await collectResults({ ...base, provider, limit: 5, accept, excludeDomains: ['a.example'] })).web!.map((r) => r.url)).toEqual(['https://b.example/']);
    expect([onDomain('A.example.', 'a.example'), onDomain('ba.example', 'a.example')]).toEqual([true, false]);
  });
});

describe('Firecrawl\'s fields', () => {
  it('tbs qdr:* → a time range (hour widened to day); anything else null', () => {
    expect(['qdr:h', 'qdr:d', 'qdr:w', 'qdr:m', 'qdr:y', 'qdr:d3'].map(timeRangeOfTbs)).toEqual(['day', 'day', 'week', 'month', 'year', 'day']);
    expect(timeRangeOfTbs('cdr:1,cd_min:1/1/2024')).toBeNull();
  });

  it('a locale from a language and a country; a country alone → its likely language; a location\'s country', () => {
    expect([localeOf('de', 'at'), localeOf('en-GB', 'us'), localeOf(undefined, 'br'), localeOf('fr', undefined), localeOf(undefined, undefined)]).toEqual(['de-AT', 'en-GB', 'pt-BR', 'fr', undefined]);
    expect([countryOfLocation('Germany'), countryOfLocation('San Francisco,California,United States'), countryOfLocation('Atlantis')]).toEqual(['DE', 'US', undefined]);
  });

  it('the native request: defaults, limits, domains cleaned', () => {
    expect(searchRequestSchema.parse({ query: ' x ' })).toEqual({ query: 'x', limit: 5, sources: ['web'] });
    expect(searchRequestSchema.parse({ query: 'x', include_domains: ['https://Docs.Example.com/path', '*.a.example'] }).include_domains).toEqual(['docs.example.com', 'a.example']);
    expect(searchRequestSchema.safeParse({ query: 'x', limit: 101 }).success).toBe(false);
    expect(searchRequestSchema.safeParse({ query: '' }).success).toBe(false);
  });
});
