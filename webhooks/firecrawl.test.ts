/**
 * Firecrawl-shaped events (webhooks/firecrawl.ts) and Firecrawl's signature header: what a
 * receiver written for Firecrawl reads. The page event's database read is exercised end to end by
 * api/firecrawl/crawl.sdk.test.ts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type FirecrawlPageDocument, firecrawlEventOf, firecrawlEventType } from './firecrawl';
import { scrapedPageOfRun, toFirecrawlDocument } from '../scrape/firecrawl-document';
import { firecrawlSignature } from './signing';
import type { FirecrawlWebhookTarget } from './spec';

const target = (events: string[], kind: FirecrawlWebhookTarget['kind'] = 'crawl'): FirecrawlWebhookTarget => ({ kind, headers: {}, metadata: { order: '42' }, events, wanted: { formats: ['markdown', 'links'] } });
const noDb: FirecrawlPageDocument = () => Promise.reject(new Error('no page is read for this event'));

describe('firecrawlEventOf', () => {
  it('names batch events batch_scrape.* and crawl events crawl.*', () => {
    expect(firecrawlEventType('batch', 'page')).toBe('batch_scrape.page');
    expect(firecrawlEventType('crawl', 'completed')).toBe('crawl.completed');
  });

  it('turns our end events into Firecrawl’s, with the webhook metadata, and only when wanted', async () => {
    const all = target(['started', 'page', 'completed', 'failed'], 'batch');
    expect(await firecrawlEventOf(noDb, all, 'crawl.completed', { id: 'j1', status: 'completed' })).toEqual({
      type: 'batch_scrape.completed',
      body: { success: true, type: 'batch_scrape.completed', id: 'j1', data: [], metadata: { order: '42' } },
    });
    expect(await firecrawlEventOf(noDb, all, 'crawl.failed', { id: 'j1', error: { code: 'SCRAPE_FAILED', message: 'no page could be fetched' } })).toMatchObject({
      body: { success: false, type: 'batch_scrape.failed', error: 'no page could be fetched' },
    });
    expect(await firecrawlEventOf(noDb, target(['page']), 'crawl.completed', { id: 'j1' })).toBeNull();
    expect(await firecrawlEventOf(noDb, target(['completed']), 'crawl.page', { crawl_id: 'j1', status: 'succeeded', run_id: 'r1' })).toBeNull();
    expect(await firecrawlEventOf(noDb, target(['started']), 'crawl.started', { id: 'j1' })).toMatchObject({ type: 'crawl.started', body: { success: true, id: 'j1', data: [] } });
    expect(await firecrawlEventOf(noDb, target(['started']), 'scrape.completed', { id: 'r1' })).toBeNull();
  });

  it('a failed page is success: false with the error, and no document', async () => {
    expect(await firecrawlEventOf(noDb, target(['page']), 'crawl.page', { crawl_id: 'j1', status: 'failed', error: { code: 'TARGET_ERROR', message: 'HTTP 500' } })).toEqual({
      type: 'crawl.page',
      body: { success: false, type: 'crawl.page', id: 'j1', data: [], metadata: { order: '42' }, error: 'HTTP 500' },
    });
  });
});

describe('a page event\'s document (scrape/firecrawl-document.ts, the status routes\' mapper)', () => {
  const run = {
    id: 'r1',
    url: 'http://e.test/a',
    httpStatus: 200 as number | null,
    cost: 1,
    result: {
      final_url: 'http://e.test/a/',
      markdown: '# A',
      html: '<h1>A</h1>',
      summary: 'about A',
      links: [{ url: 'http://e.test/b', text: 'b', rel: null }],
      metadata: { title: 'A', description: null, language: 'en', content_type: 'text/html', 'og:title': 'A!' },
    },
  };

  it('shows the formats asked for and Firecrawl’s metadata names', () => {
    expect(toFirecrawlDocument(scrapedPageOfRun(run), { formats: ['markdown', 'links', 'summary'] })).toEqual({
      markdown: '# A',
      links: ['http://e.test/b'],
      summary: 'about A',
      metadata: { 'og:title': 'A!', ogTitle: 'A!', title: 'A', language: 'en', sourceURL: 'http://e.test/a', url: 'http://e.test/a/', statusCode: 200, contentType: 'text/html', scrapeId: 'r1', creditsUsed: 1, proxyUsed: 'basic', cacheState: 'miss' },
    });
  });

  it('an unknown status code is 0, never a made-up 200', () => {
    expect(toFirecrawlDocument(scrapedPageOfRun({ ...run, httpStatus: null }), { formats: ['markdown'] }).metadata.statusCode).toBe(0);
  });

  it('the page event carries the mapper\'s document', async () => {
    const made = await firecrawlEventOf((runId) => Promise.resolve({ metadata: { scrapeId: runId } }), target(['page']), 'crawl.page', { crawl_id: 'j1', status: 'succeeded', run_id: 'r9' });
    expect(made).toMatchObject({ type: 'crawl.page', body: { success: true, data: [{ metadata: { scrapeId: 'r9' } }] } });
  });
});

describe('firecrawlSignature', () => {
  it('is sha256=<hex HMAC of the raw body>, as Firecrawl’s receivers check it', () => {
    const body = JSON.stringify({ success: true, type: 'crawl.page' });
    const header = firecrawlSignature('whsec_test', body);
    const [algorithm, hex] = header.split('=');
    expect(algorithm).toBe('sha256');
    expect(timingSafeEqual(Buffer.from(hex!, 'hex'), createHmac('sha256', 'whsec_test').update(body).digest())).toBe(true);
    expect(firecrawlSignature('whsec_test', `${body} `)).not.toBe(header);
  });
});
