/**
 * The Firecrawl crawl and batch bodies → the native ones (crawl-request.ts), checked through the
 * native parsers, which must accept what the mapping produces and refuse what they refuse.
 */
import { parseBatchRequest, parseCrawlRequest } from '../../crawl/job-request';
import { AppError } from '../../platform/errors';
import { type ScrapeOptionsMapper, mapBatchRequest, mapCrawlRequest } from './crawl-request';

/** A stand-in for the compatible scrape mapper: markdown pages, the formats remembered. */
const scrape: ScrapeOptionsMapper = (options) => ({ scrape: { mode: 'http', formats: ['markdown'] }, wanted: { formats: options.formats ?? ['markdown'] } });

/** What the Python SDK 4.55.0 sends for `start_crawl(url, <every option>)` (captured on the wire). */
const PYTHON_CRAWL = {
  url: 'https://example.com/docs',
  prompt: 'only blog',
  scrapeOptions: { onlyMainContent: true, removeBase64Images: true, fastMode: false, blockAds: true, storeInCache: true, maxAge: 14400000, formats: ['markdown'], mobile: false },
  webhook: { url: 'https://hook.example/x', headers: { a: 'b' }, metadata: { m: '1' }, events: ['completed', 'page', 'started', 'failed'] },
  includePaths: ['/a.*'],
  excludePaths: ['/b'],
  maxDiscoveryDepth: 2,
  sitemap: 'skip',
  ignoreQueryParameters: true,
  deduplicateSimilarURLs: true,
  crawlEntireDomain: true,
  allowExternalLinks: false,
  allowSubdomains: true,
  ignoreRobotsTxt: true,
  delay: 1,
  maxConcurrency: 2,
  regexOnFullURL: false,
  zeroDataRetention: false,
  limit: 5,
  origin: 'python-sdk@4.55.0',
};

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('mapCrawlRequest', () => {
  it('maps every option the Python SDK sends and the native parser accepts the result', () => {
    const mapped = mapCrawlRequest(PYTHON_CRAWL, 'v2', scrape);
    expect(mapped.body).toEqual({
      url: 'https://example.com/docs',
      limit: 5,
      max_depth: 2,
      include_paths: ['/a.*'],
      exclude_paths: ['/b'],
      same_origin: true,
      allow_subdomains: true,
      respect_robots: false,
      sitemap: 'skip',
      per_host_delay_ms: 1000,
      concurrency: 2,
      scrape: { mode: 'http', formats: ['markdown'] },
      // The Python SDK's ignoreQueryParameters: true (issue 37: honoured, no longer ignored).
      ignore_query_parameters: true,
    });
    expect(mapped.webhook).toEqual({ url: 'https://hook.example/x', headers: { a: 'b' }, metadata: { m: '1' }, events: ['completed', 'page', 'started', 'failed'] });
    const job = parseCrawlRequest(mapped.body).request;
    expect(job).toMatchObject({ kind: 'crawl', limit: 5, max_depth: 2, respect_robots: false, sitemap: 'skip' });
  });

  it('keeps a crawl to the start path’s children unless crawlEntireDomain, and applies Firecrawl’s defaults', () => {
    const mapped = mapCrawlRequest({ url: 'https://example.com/blog/', origin: 'js-sdk@0.1.0' }, 'v2', scrape);
    expect(mapped.body).toMatchObject({ include_paths: ['^\\/blog(/|$)'], limit: 10_000, max_depth: 100, sitemap: 'include', respect_robots: true, same_origin: true, per_host_delay_ms: 0 });
    expect(mapped.body.concurrency).toBeUndefined();
    expect(mapCrawlRequest({ url: 'https://example.com/' }, 'v2', scrape).body.include_paths).toEqual([]);
    const parsed = parseCrawlRequest(mapped.body);
    expect(parsed.request).toMatchObject({ include_paths: ['^\\/blog(/|$)'] });
  });

  it('reads the v1 names: maxDepth, allowBackwardLinks, ignoreSitemap; a string webhook wants every event', () => {
    const mapped = mapCrawlRequest({ url: 'https://example.com/a', maxDepth: 3, allowBackwardLinks: true, ignoreSitemap: true, webhook: 'https://hook.example/y' }, 'v1', scrape);
    expect(mapped.body).toMatchObject({ max_depth: 3, include_paths: [], sitemap: 'skip' });
    expect(mapped.webhook).toEqual({ url: 'https://hook.example/y', headers: {}, metadata: {}, events: ['started', 'page', 'completed', 'failed'] });
  });

  it('gives a start URL without a scheme http://, as scrape and map do', () => {
    expect(mapCrawlRequest({ url: 'example.com/' }, 'v2', scrape).body.url).toBe('http://example.com/');
    expect(mapBatchRequest({ urls: ['example.com/a', 'https://example.com/b'] }, 'v2', scrape).body.urls).toEqual(['http://example.com/a', 'https://example.com/b']);
  });

  it('lowers numbers above our ceilings instead of refusing them', () => {
    const mapped = mapCrawlRequest({ url: 'https://example.com/', limit: 50_000, maxDiscoveryDepth: 1000, maxConcurrency: 500, delay: 600 }, 'v2', scrape);
    expect(mapped.body).toMatchObject({ limit: 10_000, max_depth: 100, concurrency: 32, per_host_delay_ms: 60_000 });
    expect(() => parseCrawlRequest(mapped.body)).not.toThrow();
  });

  it('refuses malformed fields with 400 naming them', () => {
    expect(refusal(() => mapCrawlRequest({ url: 'https://example.com/', limit: 'ten' }, 'v2', scrape))).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('limit') });
    expect(refusal(() => mapCrawlRequest({ url: 'https://example.com/', sitemap: 'always' }, 'v2', scrape))).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('sitemap') });
    expect(refusal(() => mapCrawlRequest({ url: 'https://example.com/', webhook: { url: 'https://h.example/', events: ['everything'] } }, 'v2', scrape)).code).toBe('BAD_REQUEST');
    expect(refusal(() => mapCrawlRequest({ limit: 3 }, 'v2', scrape)).message).toContain('url');
    expect(refusal(() => mapCrawlRequest({ url: 'https://example.com/', webhook: { url: 'https://h.example/', headers: { 'Content-Length': '1' } } }, 'v2', scrape)).code).toBe('BAD_REQUEST');
    expect(refusal(() => mapCrawlRequest({ url: 'https://example.com/', webhook: { url: 'https://h.example/', headers: { 'x-a': 'b\r\nx-b: c' } } }, 'v2', scrape)).code).toBe('BAD_REQUEST');
    expect(mapCrawlRequest({ url: 'https://example.com/', webhook: { url: 'https://h.example/', headers: { 'X-Custom': 'yes' } } }, 'v2', scrape).webhook?.headers).toEqual({ 'x-custom': 'yes' });
  });

  it('leaves to the native parser what it refuses (a bad URL, a regex RE2 cannot run)', () => {
    expect(refusal(() => parseCrawlRequest(mapCrawlRequest({ url: 'ftp://example.com/' }, 'v2', scrape).body)).code).toBe('VALIDATION_FAILED');
    expect(refusal(() => parseCrawlRequest(mapCrawlRequest({ url: 'https://example.com/', includePaths: ['(?=a)'] }, 'v2', scrape).body)).code).toBe('VALIDATION_FAILED');
  });
});

describe('mapBatchRequest', () => {
  it('takes the scrape options from the top level and keeps the batch’s own fields out of them', () => {
    const seen: Array<Record<string, unknown>> = [];
    const spy: ScrapeOptionsMapper = (options, version) => {
      seen.push(options);
      return scrape(options, version);
    };
    const mapped = mapBatchRequest(
      { urls: ['https://example.com/a', 'https://example.com/b'], formats: ['markdown', 'html'], onlyMainContent: true, webhook: 'https://hook.example/b', ignoreInvalidURLs: true, maxConcurrency: 2, origin: 'python-sdk@4.55.0' },
      'v2',
      spy,
    );
    expect(seen).toEqual([{ formats: ['markdown', 'html'], onlyMainContent: true }]);
    expect(mapped.body).toEqual({ urls: ['https://example.com/a', 'https://example.com/b'], concurrency: 2, scrape: { mode: 'http', formats: ['markdown'] } });
    expect(mapped.invalidURLs).toEqual([]);
    expect(parseBatchRequest(mapped.body).request).toMatchObject({ kind: 'batch', urls: ['https://example.com/a', 'https://example.com/b'], concurrency: 2 });
  });

  it('lists invalid URLs when they are ignored (v2 default) and refuses them otherwise (v1 default)', () => {
    expect(mapBatchRequest({ urls: ['https://example.com/a', 'not a url', 'mailto:a@b.c'] }, 'v2', scrape).invalidURLs).toEqual(['not a url', 'mailto:a@b.c']);
    expect(refusal(() => mapBatchRequest({ urls: ['https://example.com/a', 'not a url'] }, 'v1', scrape)).code).toBe('BAD_REQUEST');
    expect(refusal(() => mapBatchRequest({ urls: ['not a url'] }, 'v2', scrape)).message).toContain('no valid');
    expect(refusal(() => mapBatchRequest({ urls: [] }, 'v2', scrape)).code).toBe('BAD_REQUEST');
  });

  it('refuses appendToId: a job keeps the URLs it started with', () => {
    expect(refusal(() => mapBatchRequest({ urls: ['https://example.com/a'], appendToId: '3f1d6c2e-1111-4b7a-9a55-2e6a8e0c1f00' }, 'v2', scrape)).message).toContain('appendToId');
  });
});
