/**
 * The Firecrawl mappers on their own (no service): scrape options → our request (mode choice,
 * formats, refusals), our error bodies → Firecrawl's, our result → a Firecrawl document, map
 * options. The SDKs drive the same code end to end in api/firecrawl/sdk.test.ts.
 */
import { AppError, ERROR_CODES, errorBody } from '../../platform/errors';
import { UNAUTHORIZED_BODY } from '../middleware/auth';
import { toFirecrawlDocument } from './document';
import { firecrawlErrorOf, toFirecrawlError } from './errors';
import { parseFirecrawlMap, selectLinks } from './map-options';
import { parseV1Scrape } from './scrape-v1';
import { parseV2Scrape } from './scrape-v2';

const URL_ = 'https://example.com/a';

function badRequest(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).message;
  }
  throw new Error('no error');
}

describe('scrape options → our request', () => {
  it('defaults: markdown, main content, http mode, metadata always asked', () => {
    const { request, wanted, timeoutMs } = parseV2Scrape({ url: URL_, origin: 'js-sdk@4.42.0' });
    expect(request).toMatchObject({ url: URL_, mode: 'http', formats: ['markdown', 'metadata'], only_main_content: true });
    expect(wanted).toEqual({ formats: ['markdown'], fullPage: false });
    expect(timeoutMs).toBeUndefined();
  });

  it('gives a URL without a scheme http://, as Firecrawl does; other schemes stay refused', () => {
    expect(parseV2Scrape({ url: 'example.com/a' }).request.url).toBe('http://example.com/a');
    expect(parseFirecrawlMap({ url: 'example.com' }).request.url).toBe('http://example.com');
    expect(badRequest(() => parseV2Scrape({ url: 'mailto:a@example.com' }))).toContain('url');
    expect(badRequest(() => parseV2Scrape({ url: '' }))).toContain('url');
  });

  it("accepts the Python SDK's defaulted fields and unknown ones", () => {
    const { request } = parseV2Scrape({
      url: URL_,
      onlyMainContent: false,
      removeBase64Images: true,
      fastMode: false,
      blockAds: true,
      storeInCache: true,
      maxAge: 14400000,
      mobile: false,
      parsers: ['pdf'],
      zeroDataRetention: false,
      integration: 'langchain',
      skipTlsVerification: true,
      proxy: 'stealth',
      location: { country: 'DE', languages: ['de'] },
      somethingNew: { a: 1 },
      formats: ['markdown', { type: 'html' }, 'rawHtml', 'links'],
    });
    expect(request).toMatchObject({ mode: 'http', only_main_content: false, formats: ['markdown', 'html', 'rawHtml', 'links', 'metadata'] });
  });

  it('chooses the browser for a screenshot, waitFor or mobile; mode forces one', () => {
    expect(parseV2Scrape({ url: URL_, formats: [{ type: 'screenshot', fullPage: true }] }).request).toMatchObject({ mode: 'browser', formats: ['screenshot@fullPage', 'metadata'] });
    expect(parseV2Scrape({ url: URL_, formats: ['screenshot'] }).request).toMatchObject({ mode: 'browser', formats: ['screenshot', 'metadata'] });
    expect(parseV2Scrape({ url: URL_, waitFor: 500 }).request.mode).toBe('browser');
    expect(parseV2Scrape({ url: URL_, waitFor: 0 }).request.mode).toBe('http');
    expect(parseV2Scrape({ url: URL_, mobile: true }).request.mode).toBe('browser');
    expect(parseV2Scrape({ url: URL_, waitFor: 500, mode: 'http' }).request.mode).toBe('http');
    // waitFor is a leading wait action (not in http mode, where there is no page to wait on); mobile is ours.
    expect(parseV2Scrape({ url: URL_, waitFor: 500 }).request.actions).toEqual([{ type: 'wait', milliseconds: 500 }]);
    expect(parseV2Scrape({ url: URL_, waitFor: 500, mode: 'http' }).request.actions).toBeUndefined();
    expect(parseV2Scrape({ url: URL_, mobile: true }).request.mobile).toBe(true);
    const acted = parseV2Scrape({ url: URL_, waitFor: 100, actions: [{ type: 'click', selector: '#more' }, { type: 'screenshot', fullPage: true }] }).request;
    expect(acted.mode).toBe('browser');
    expect(acted.actions).toEqual([
      { type: 'wait', milliseconds: 100 },
      { type: 'click', selector: '#more', all: false },
      { type: 'screenshot', fullPage: true },
    ]);
    expect(parseV2Scrape({ url: URL_, mode: 'browser' }).request.mode).toBe('browser');
    expect(parseV1Scrape({ url: URL_, formats: ['screenshot@fullPage'] }).request).toMatchObject({ mode: 'browser', formats: ['screenshot@fullPage', 'metadata'] });
  });

  it('timeout bounds the answer and each attempt', () => {
    const { request, timeoutMs } = parseV2Scrape({ url: URL_, timeout: 1500 });
    expect(timeoutMs).toBe(1500);
    expect(request.options.timeout_ms).toBe(1500);
    expect(parseV2Scrape({ url: URL_, timeout: 120000 }).request.options.timeout_ms).toBe(50000);
    expect(parseV2Scrape({ url: URL_, timeout: 10_000_000 }).timeoutMs).toBe(300000);
  });

  it('refuses what it cannot do, naming the field, and malformed input', () => {
    expect(badRequest(() => parseV2Scrape({ url: URL_, formats: ['markdown', { type: 'json', prompt: 'x' }] }))).toContain('formats[1] "json" is not supported');
    expect(badRequest(() => parseV2Scrape({ url: URL_, formats: ['summary'] }))).toContain('"summary" is not supported');
    expect(badRequest(() => parseV2Scrape({ url: URL_, formats: [{ type: 'changeTracking' }] }))).toContain('"changeTracking" is not supported');
    expect(badRequest(() => parseV1Scrape({ url: URL_, formats: ['extract'] }))).toContain('"extract" is not supported');
    expect(badRequest(() => parseV2Scrape({ url: URL_, formats: ['pdf-magic'] }))).toContain('supported formats are markdown, html, rawHtml, links, screenshot');
    expect(badRequest(() => parseV2Scrape({ url: URL_, actions: [{ type: 'pdf' }] }))).toContain('actions.0.type must name an action type');
    expect(badRequest(() => parseV2Scrape({ url: URL_, actions: [{ type: 'screenshot', quality: 80 }] }))).toContain('quality is not allowed');
    expect(badRequest(() => parseV2Scrape({ url: URL_, actions: [{ type: 'click', selector: 'a' }], mode: 'http' }))).toContain('actions is only available in browser mode');
    expect(parseV2Scrape({ url: URL_, actions: [] }).request.mode).toBe('http');
    expect(badRequest(() => parseV2Scrape({ url: 'ftp://example.com/' }))).toContain('url');
    expect(badRequest(() => parseV2Scrape({}))).toContain('url');
    expect(badRequest(() => parseV2Scrape({ url: URL_, onlyMainContent: 'yes' }))).toContain('onlyMainContent');
    expect(badRequest(() => parseV2Scrape({ url: URL_, mode: 'rocket' }))).toContain('mode');
    expect(badRequest(() => parseV2Scrape({ url: URL_, formats: ['screenshot'], mode: 'http' }))).toContain('browser');
  });
});

describe('errors → Firecrawl', () => {
  it('maps every code of ours to a status the SDKs interpret', () => {
    const allowed = new Set([400, 401, 402, 403, 404, 405, 408, 409, 413, 429, 500, 502]);
    for (const code of ERROR_CODES) expect([code, allowed.has(firecrawlErrorOf(code).status)]).toEqual([code, true]);
    expect(firecrawlErrorOf('INSUFFICIENT_CREDIT').status).toBe(402);
    expect(firecrawlErrorOf('PRIVATE_TARGET')).toEqual({ status: 403, code: 'PRIVATE_TARGET' });
    expect(firecrawlErrorOf('TIMEOUT')).toEqual({ status: 408, code: 'SCRAPE_TIMEOUT' });
    expect(firecrawlErrorOf('TIMEOUT', 'map')).toEqual({ status: 408, code: 'MAP_TIMEOUT' });
    expect(firecrawlErrorOf('SCRAPE_FAILED').status).toBe(500);
    expect(firecrawlErrorOf('DEPENDENCY_UNAVAILABLE').status).toBe(502);
    expect(firecrawlErrorOf('RATE_LIMITED').status).toBe(429);
  });

  it('keeps the message and what our body adds, never processing_continues', () => {
    const timeout = toFirecrawlError(new AppError('TIMEOUT', 'too slow', { id: 'run-1', refunded: true }).toBody());
    expect(timeout).toEqual({ status: 408, body: { success: false, code: 'SCRAPE_TIMEOUT', error: 'too slow', details: { id: 'run-1', refunded: true, reason: 'TIMEOUT' } } });
    const credit = toFirecrawlError(errorBody('INSUFFICIENT_CREDIT', 'costs 5', { remaining: 1, cost: 5 }));
    expect(credit).toEqual({ status: 402, body: { success: false, code: 'INSUFFICIENT_CREDITS', error: 'costs 5', details: { remaining: 1, cost: 5, reason: 'INSUFFICIENT_CREDIT' } } });
    expect(toFirecrawlError({ ...UNAUTHORIZED_BODY })).toEqual({ status: 401, body: { success: false, code: 'UNAUTHORIZED', error: 'Unauthorized' } });
    expect(toFirecrawlError(errorBody('VALIDATION_FAILED', ['a is bad', 'b is bad'])).body.error).toBe('a is bad; b is bad');
  });
});

describe('our result → a Firecrawl document', () => {
  const page = {
    id: 'run-9',
    url: 'https://example.com/a',
    final_url: 'https://example.com/b',
    status: 200,
    cost: 6,
    markdown: '# A',
    html: '<h1>A</h1>',
    rawHtml: '<html>…',
    links: [{ url: 'https://example.com/c', text: 'C', rel: null }],
    metadata: {
      title: 'A',
      description: null,
      language: 'en',
      canonical: null,
      favicon: null,
      published_time: null,
      status: 200,
      content_type: 'text/html',
      final_url: 'https://example.com/b',
      'og:title': 'A og',
      'og:site_name': 'Ex',
      'twitter:card': 'summary',
    },
  };

  it("answers the actions' outputs as Firecrawl names them, their screenshots as PNG data URLs in order", () => {
    const actions = {
      screenshots: [{ url: '/webhook/runs/run-9/actions/screenshots/0', width: 1, height: 1, bytes: 4 }, { url: '/webhook/runs/run-9/actions/screenshots/1', width: 1, height: 1, bytes: 3 }],
      scrapes: [{ url: 'https://example.com/b', html: '<p>x</p>' }],
      javascriptReturns: [{ type: 'number', value: 3 }],
    };
    const doc = toFirecrawlDocument({ ...page, actions }, { formats: ['markdown'], fullPage: false }, { actionScreenshots: [new Uint8Array([137, 80, 78, 71]), new Uint8Array([1, 2, 3])] });
    expect(doc.actions).toEqual({
      screenshots: ['data:image/png;base64,iVBORw==', 'data:image/png;base64,AQID'],
      scrapes: [{ url: 'https://example.com/b', html: '<p>x</p>' }],
      javascriptReturns: [{ type: 'number', value: 3 }],
      pdfs: [],
    });
    expect(toFirecrawlDocument(page, { formats: ['markdown'], fullPage: false }).actions).toBeUndefined();
  });

  it('answers the formats asked, links as strings, metadata as Firecrawl names it', () => {
    const doc = toFirecrawlDocument(page, { formats: ['markdown', 'links', 'screenshot'], fullPage: false }, { screenshot: new Uint8Array([137, 80, 78, 71]) });
    expect(doc).toEqual({
      markdown: '# A',
      links: ['https://example.com/c'],
      screenshot: 'data:image/png;base64,iVBORw==',
      metadata: {
        title: 'A',
        language: 'en',
        'og:title': 'A og',
        ogTitle: 'A og',
        'og:site_name': 'Ex',
        ogSiteName: 'Ex',
        'twitter:card': 'summary',
        sourceURL: 'https://example.com/a',
        url: 'https://example.com/b',
        statusCode: 200,
        contentType: 'text/html',
        scrapeId: 'run-9',
        creditsUsed: 6,
        proxyUsed: 'basic',
        cacheState: 'miss',
      },
    });
  });
});

describe('map options', () => {
  it("Firecrawl's defaults within ours, v1's sitemap switches, search before limit", () => {
    const plain = parseFirecrawlMap({ url: URL_, origin: 'python-sdk@4.55.0' });
    expect(plain.request).toMatchObject({ url: URL_, sitemap: 'include', include_subdomains: true, limit: 5000 });
    expect(parseFirecrawlMap({ url: URL_, sitemapOnly: true }).request.sitemap).toBe('only');
    expect(parseFirecrawlMap({ url: URL_, ignoreSitemap: true }).request.sitemap).toBe('skip');
    expect(parseFirecrawlMap({ url: URL_, limit: 30000 }).limit).toBe(10000);
    const searched = parseFirecrawlMap({ url: URL_, search: 'Blog', limit: 2 });
    expect(searched.request.limit).toBe(10000);
    expect(selectLinks(['https://e.com/', 'https://e.com/blog/1', 'https://e.com/BLOG/2', 'https://e.com/blog/3'], searched)).toEqual(['https://e.com/blog/1', 'https://e.com/BLOG/2']);
    expect(badRequest(() => parseFirecrawlMap({ url: URL_, sitemap: 'sometimes' }))).toContain('sitemap');
    expect(badRequest(() => parseFirecrawlMap({ url: 'ftp://nope/' }))).toContain('url');
  });
});
