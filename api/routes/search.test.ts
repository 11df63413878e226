/**
 * Web search end to end (docs/search.md): `POST /search`, `/v2/search`, `/v1/search`, the MCP
 * `search` tool and firecrawl-mcp's `firecrawl_search`, driven by real clients (firecrawl-py
 * 4.55.0, @mendable/firecrawl-js 4.42.0, the MCP SDK client) against the real API and worker
 * processes, Temporal and PostgreSQL. The backend is the SearXNG fixture (test/fixtures/searxng/,
 * SearXNG's documented JSON); its results point at the crawl fixture site on loopback, so
 * scraping them is real. Each search's ledger is checked against GET /pricing.
 */
import path from 'node:path';
import Firecrawl, { FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type CrawlSite, startCrawlSite } from '../../test/fixtures/crawl-site';
import { type SearxngFixture, type SearxngResultInput, startSearxngFixture } from '../../test/fixtures/searxng/server';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance, sql } from '../../test/helpers/accounts';
import { call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { type PyCall, type PyOutcome, firecrawlPython } from '../../test/helpers/firecrawl-py';

jest.setTimeout(600_000);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let site: CrawlSite;
let searx: SearxngFixture;
let stack: Stack;
let account: TestAccount;
let runPy: (call: PyCall) => Promise<PyOutcome>;
let searchPrice: number;
const clients: Client[] = [];

beforeAll(async () => {
  runPy = firecrawlPython();
  [site, searx] = await Promise.all([startCrawlSite(), startSearxngFixture({ pageSize: 10 })]);
  stack = await startStack({ env: { SEARXNG_ENDPOINT: `${searx.url}/`, SEARXNG_ENGINES: 'duckduckgo,brave', BLACKLIST_HOSTS: 'blocked.localhost' } });
  account = await createAccount(stack.baseUrl);
  const pricing = await call(stack.baseUrl, 'GET', '/pricing', {});
  searchPrice = pricing.body.search.per_search as number;
  expect(searchPrice).toBeGreaterThan(0);
}, 600_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await stack?.stop();
  await Promise.all([site?.close(), searx?.close()]);
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, account.userId, 100);
  searx.reset();
  site.reset();
});

const key = () => ({ 'x-api-key': account.apiKey });
/** Web results on the fixture site: /docs/N, titled and described. */
const docsResults = (numbers: number[]): SearxngResultInput[] => numbers.map((n) => ({ url: `${site.url}/docs/${n}`, title: `Docs ${n}`, content: `About docs ${n}` }));

/** The ledger rows of one search id (its own price) and of its batch's page runs. */
async function ledgerOfSearch(searchId: string, batchId?: string) {
  const ledger = await ledgerOf(stack.databaseUrl, account.userId);
  const own = ledger.filter((row) => row.runId === searchId).map((row) => [row.reason, row.amount]);
  const runs = batchId ? await sql<{ id: string; status: string }>(stack.databaseUrl, `SELECT id, status::text AS status FROM scrape_run WHERE "workflowId" = $1`, [`crawl-${batchId}`]) : [];
  const pages = runs.map((run) => ({ status: run.status, rows: ledger.filter((row) => row.runId === run.id).map((row) => [row.reason, row.amount]) }));
  return { own, pages };
}

function py(method: string, args: unknown[], kwargs: Record<string, unknown> = {}, client: 'v1' | 'v2' = 'v2', apiUrl = stack.baseUrl): Promise<PyOutcome> {
  return runPy({ apiUrl, apiKey: account.apiKey, client, method, args, kwargs });
}

describe('POST /search (native)', () => {
  it('answers the backend\'s results in order, deduplicated, without blacklisted or non-http targets, at most limit; one debit of the listed price', async () => {
    searx.setResults('general', [
      ...docsResults([1, 2]),
      { url: `${site.url}/docs/1#again`, title: 'Docs 1 again' },
      { url: `http://blocked.localhost:${site.port}/docs/3`, title: 'Blacklisted' },
      { url: 'mailto:someone@example.com', title: 'Not a page' },
      ...docsResults([4, 5, 6]),
    ]);
    const answer = await call(stack.baseUrl, 'POST', '/search', key(), { query: 'docs', limit: 3, language: 'de', country: 'at', time_range: 'week', safe_search: 1 });
    expect(answer.status).toBe(200);
    expect(answer.body.web).toEqual([
      { url: `${site.url}/docs/1`, title: 'Docs 1', description: 'About docs 1', position: 1 },
      { url: `${site.url}/docs/2`, title: 'Docs 2', description: 'About docs 2', position: 2 },
      { url: `${site.url}/docs/4`, title: 'Docs 4', description: 'About docs 4', position: 3 },
    ]);
    expect(answer.body.credits).toEqual({ cost: searchPrice, remaining: 100 - searchPrice });
    // What SearXNG was asked: its JSON API, the operator's engines, the locale, the time range.
    expect(searx.requests).toHaveLength(1);
    expect(searx.requests[0]).toMatchObject({ q: 'docs', format: 'json', categories: 'general', engines: 'duckduckgo,brave', language: 'de-AT', time_range: 'week', safesearch: '1', pageno: '1' });
    expect(await ledgerOfSearch(answer.body.id)).toEqual({ own: [['debit', -searchPrice]], pages: [] });
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(100 - searchPrice);
    expect(site.hits('/docs/1')).toBe(0);
  });

  it('pages through the backend until limit; news and images in their own lists', async () => {
    searx.setResults('general', docsResults(Array.from({ length: 15 }, (_, i) => i)));
    searx.setResults('news', [{ url: `${site.url}/blog/post/1`, title: 'Post 1', content: 'News one', publishedDate: '2026-11-27T10:00:00', thumbnail: `${site.url}/img/1.png` }]);
    searx.setResults('images', [{ url: `${site.url}/shop`, title: 'Shop', img_src: `${site.url}/img/shop.jpg`, resolution: '800 x 600' }]);
    const answer = await call(stack.baseUrl, 'POST', '/search', key(), { query: 'many', limit: 12, sources: ['web', 'news', 'images'] });
    expect(answer.status).toBe(200);
    expect(answer.body.web.map((r: Json) => r.position)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(searx.requests.filter((r) => r.categories === 'general').map((r) => r.pageno)).toEqual(['1', '2']);
    expect(answer.body.news).toEqual([{ url: `${site.url}/blog/post/1`, title: 'Post 1', description: 'News one', position: 1, published_date: '2026-11-27T10:00:00', image_url: `${site.url}/img/1.png` }]);
    expect(answer.body.images).toEqual([{ url: `${site.url}/shop`, title: 'Shop', position: 1, image_url: `${site.url}/img/shop.jpg`, image_width: 800, image_height: 600 }]);
    // One price per search, whatever its sources and pages.
    expect((await ledgerOfSearch(answer.body.id)).own).toEqual([['debit', -searchPrice]]);
  });

  it('include_domains / exclude_domains keep or drop a host and its subdomains', async () => {
    searx.setResults('general', [...docsResults([1]), { url: `${site.subUrl}/sub/1`, title: 'Sub 1' }]);
    const only = await call(stack.baseUrl, 'POST', '/search', key(), { query: 'x', include_domains: ['blog.localhost'] });
    expect(only.body.web.map((r: Json) => r.url)).toEqual([`${site.subUrl}/sub/1`]);
    const without = await call(stack.baseUrl, 'POST', '/search', key(), { query: 'x', exclude_domains: ['blog.localhost'] });
    expect(without.body.web.map((r: Json) => r.url)).toEqual([`${site.url}/docs/1`]);
  });

  it('with scrape: every result scraped once as one batch job, each page debited at its scrape price, a failed page refunded', async () => {
    searx.setResults('general', [...docsResults([7, 8]), { url: `${site.url}/broken`, title: 'Broken' }, { url: `http://blocked.localhost:${site.port}/docs/9`, title: 'Blacklisted' }]);
    const answer = await call(stack.baseUrl, 'POST', '/search', key(), { query: 'docs', limit: 5, scrape: { formats: ['markdown'], options: { retry_count: 0 } } });
    expect(answer.status).toBe(200);
    const web = answer.body.web as Json[];
    expect(web.map((r) => r.url)).toEqual([`${site.url}/docs/7`, `${site.url}/docs/8`, `${site.url}/broken`]);
    expect(web[0]!.scrape).toMatchObject({ status: 'succeeded', result: { markdown: expect.stringContaining('Content of /docs/7') } });
    expect(web[1]!.scrape.result.markdown).toContain('Content of /docs/8');
    expect(web[2]!.scrape).toMatchObject({ status: 'failed', error: { code: expect.any(String) } });
    expect(web[2]!.scrape.result).toBeUndefined();
    expect(answer.body.warning).toMatch(/1 of 3 results could not be scraped/);
    expect([site.hits('/docs/7'), site.hits('/docs/8')]).toEqual([1, 1]);
    const { own, pages } = await ledgerOfSearch(answer.body.id, answer.body.batch_id);
    expect(own).toEqual([['debit', -searchPrice]]);
    expect(pages).toHaveLength(3);
    for (const page of pages) expect(page.rows).toEqual(page.status === 'succeeded' ? [['debit', -1]] : [['debit', -1], ['refund', 1]]);
    expect(answer.body.credits.cost).toBe(searchPrice + 2);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(100 - searchPrice - 2);
    // The batch is the native job: GET /crawl/:id shows it.
    const job = await call(stack.baseUrl, 'GET', `/crawl/${answer.body.batch_id}`, key());
    expect(job.body).toMatchObject({ kind: 'batch', status: 'completed', completed: 2, failed: 1 });
  });

  it('SEARCH_UNAVAILABLE (503) when the backend fails, answers 403 (json not enabled) or not JSON: refunded in full', async () => {
    for (const mode of ['down', 'html', 'garbage'] as const) {
      searx.setMode(mode);
      const answer = await call(stack.baseUrl, 'POST', '/search', key(), { query: 'anything' });
      expect([mode, answer.status, answer.body.code, answer.body.refunded]).toEqual([mode, 503, 'SEARCH_UNAVAILABLE', true]);
      expect((await ledgerOfSearch(answer.body.id)).own).toEqual([['debit', -searchPrice], ['refund', searchPrice]]);
    }
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(100);
  });

  it('refused requests charge nothing and never reach the backend: 422, 402', async () => {
    const before = (await ledgerOf(stack.databaseUrl, account.userId)).length;
    const bad = await call(stack.baseUrl, 'POST', '/search', key(), { query: 'x', limit: 101, sources: ['maps'] });
    expect([bad.status, bad.body.code]).toEqual([422, 'VALIDATION_FAILED']);
    const badScrape = await call(stack.baseUrl, 'POST', '/search', key(), { query: 'x', scrape: { formats: ['nope'] } });
    expect([badScrape.status, badScrape.body.code]).toEqual([422, 'VALIDATION_FAILED']);
    await setBalance(stack.databaseUrl, account.userId, 0);
    const broke = await call(stack.baseUrl, 'POST', '/search', key(), { query: 'x' });
    expect([broke.status, broke.body.code]).toEqual([402, 'INSUFFICIENT_CREDIT']);
    expect(searx.requests).toHaveLength(0);
    // Only the balance set to 0 (an adjustment of the test helper, if any) since: no debit.
    expect((await ledgerOf(stack.databaseUrl, account.userId)).slice(before).filter((row) => row.reason === 'debit')).toHaveLength(0);
  });
});

describe('without a backend, and under the private-address policy', () => {
  it('SEARCH_NOT_CONFIGURED: 400 natively, Firecrawl\'s shape on /v2 and /v1 and to firecrawl-py; nothing debited', async () => {
    const before = (await ledgerOf(stack.databaseUrl, account.userId)).length;
    const bare = await stack.startSecondApi({ SEARXNG_ENDPOINT: '' });
    try {
      const native = await call(bare.baseUrl, 'POST', '/search', key(), { query: 'x' });
      expect([native.status, native.body.code]).toEqual([400, 'SEARCH_NOT_CONFIGURED']);
      for (const version of ['v2', 'v1']) {
        const answer = await call(bare.baseUrl, 'POST', `/${version}/search`, { authorization: `Bearer ${account.apiKey}` }, { query: 'x' });
        expect([answer.status, answer.body.success, answer.body.code]).toEqual([400, false, 'SEARCH_NOT_CONFIGURED']);
      }
      const sdk = await py('search', ['x'], {}, 'v2', bare.baseUrl);
      expect(sdk).toMatchObject({ ok: false, status: 400 });
      expect(sdk.message).toMatch(/SEARXNG_ENDPOINT/);
    } finally {
      await bare.stop();
    }
    expect((await ledgerOf(stack.databaseUrl, account.userId)).slice(before)).toEqual([]);
  });

  it('with private targets refused (ALLOW_PRIVATE_TARGETS=false), loopback results are dropped; the operator\'s backend on loopback is still asked', async () => {
    const guarded = await stack.startSecondApi({ ALLOW_PRIVATE_TARGETS: 'false' });
    try {
      searx.setResults('general', [...docsResults([1]), { url: 'http://127.0.0.1:9/x', title: 'Loopback' }, { url: 'http://10.1.2.3/', title: 'Private' }]);
      const answer = await call(guarded.baseUrl, 'POST', '/search', key(), { query: 'x' });
      expect([answer.status, answer.body.web]).toEqual([200, []]);
      // Nothing kept on page 1, so page 2 was asked (empty: the end).
      expect(searx.requests.map((r) => r.pageno)).toEqual(['1', '2']);
    } finally {
      await guarded.stop();
    }
  });
});

describe('Firecrawl SDKs', () => {
  it('firecrawl-py search() without scrape_options: web results {url, title, description, position}', async () => {
    searx.setResults('general', docsResults([1, 2, 3]));
    const out = await py('search', ['docs'], { limit: 2, tbs: 'qdr:m', location: 'Germany' });
    expect(out).toMatchObject({ ok: true, type: 'SearchData' });
    expect(out.value.web).toEqual([
      { url: `${site.url}/docs/1`, title: 'Docs 1', description: 'About docs 1', position: 1, category: null },
      { url: `${site.url}/docs/2`, title: 'Docs 2', description: 'About docs 2', position: 2, category: null },
    ]);
    expect(searx.requests[0]).toMatchObject({ time_range: 'month', language: 'de-DE' });
    expect(site.hits('/docs/1')).toBe(0);
  });

  it('firecrawl-py search() with scrape_options: each web result a document with its markdown; the ledger as /pricing says', async () => {
    searx.setResults('general', docsResults([11, 12]));
    const out = await py('search', ['docs'], { limit: 2, scrape_options: { formats: ['markdown'] } });
    expect(out).toMatchObject({ ok: true });
    const docs = out.value.web as Json[];
    expect(docs).toHaveLength(2);
    expect(docs[0]!.markdown).toContain('Content of /docs/11');
    expect(docs[1]!.markdown).toContain('Content of /docs/12');
    expect(docs[0]!.metadata).toMatchObject({ source_url: `${site.url}/docs/11`, status_code: 200 });
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(100 - searchPrice - 2);
  });

  it('firecrawl-py news and images sources, Firecrawl\'s field names', async () => {
    searx.setResults('news', [{ url: `${site.url}/blog/post/2`, title: 'Post 2', content: 'Snippet', publishedDate: '2026-11-01T00:00:00' }]);
    searx.setResults('images', [{ url: `${site.url}/shop`, title: 'Shop', img_src: `${site.url}/i.jpg`, resolution: '640 x 480' }]);
    const out = await py('search', ['things'], { sources: ['news', 'images'] });
    expect(out.value.news).toEqual([{ title: 'Post 2', url: `${site.url}/blog/post/2`, snippet: 'Snippet', date: '2026-11-01T00:00:00', image_url: null, position: 1, category: null }]);
    expect(out.value.images).toEqual([{ title: 'Shop', image_url: `${site.url}/i.jpg`, image_width: 640, image_height: 480, url: `${site.url}/shop`, position: 1 }]);
    expect(out.value.web).toBeNull();
  });

  it('firecrawl-py: a backend failure raises after the SDK\'s retries, every attempt refunded', async () => {
    searx.setMode('down');
    const before = (await ledgerOf(stack.databaseUrl, account.userId)).length;
    const out = await py('search', ['x'], {});
    expect(out).toMatchObject({ ok: false, status: 502 });
    const ledger = (await ledgerOf(stack.databaseUrl, account.userId)).slice(before);
    expect(ledger.length).toBeGreaterThan(0);
    expect(ledger.filter((row) => row.reason === 'debit')).toHaveLength(ledger.filter((row) => row.reason === 'refund').length);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(100);
  });

  it('@mendable/firecrawl-js search (v2, with scrapeOptions) and the v1 client\'s search', async () => {
    searx.setResults('general', docsResults([21, 22, 23]));
    const app = new Firecrawl({ apiKey: account.apiKey, apiUrl: stack.baseUrl });
    const found = await app.search('docs', { limit: 2, scrapeOptions: { formats: ['markdown'] } });
    const web = found.web as Json[];
    expect(web.map((r) => [r.url, r.position])).toEqual([
      [`${site.url}/docs/21`, 1],
      [`${site.url}/docs/22`, 2],
    ]);
    expect(web[0]!.markdown).toContain('Content of /docs/21');
    expect(web[0]!.metadata).toMatchObject({ sourceURL: `${site.url}/docs/21` });
    const v1 = new FirecrawlAppV1({ apiKey: account.apiKey, apiUrl: stack.baseUrl });
    const old = await v1.search('docs', { limit: 3 });
    expect(old.success).toBe(true);
    expect((old.data as Json[]).map((r) => r.url)).toEqual([`${site.url}/docs/21`, `${site.url}/docs/22`, `${site.url}/docs/23`]);
    expect((old.data as Json[])[0]!.markdown).toBeUndefined();
    // v1's default lang/country (en, us) reach SearXNG as a locale.
    expect(searx.requests.at(-1)).toMatchObject({ language: 'en-US' });
  });
});

describe('MCP', () => {
  it('our /mcp search tool: the native route\'s results, debited once', async () => {
    searx.setResults('general', docsResults([31, 32]));
    const client = new Client({ name: 'scrape-api-tests', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp`), { requestInit: { headers: key() } }));
    clients.push(client);
    const result = (await client.callTool({ name: 'search', arguments: { query: 'docs', limit: 2, scrape: { formats: ['markdown'] } } }, undefined, { timeout: 120_000 })) as CallToolResult & { structuredContent: Json };
    expect(result.isError ?? false).toBe(false);
    const web = result.structuredContent.web as Json[];
    expect(web.map((r) => r.url)).toEqual([`${site.url}/docs/31`, `${site.url}/docs/32`]);
    expect(web[0]!.scrape.result.markdown).toContain('Content of /docs/31');
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(100 - searchPrice - 2);
  });

  it('firecrawl-mcp\'s firecrawl_search (its default sources include its catalogue): our web results', async () => {
    searx.setResults('general', docsResults([41, 42, 43]));
    let stderr = '';
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.resolve(__dirname, '../../node_modules/firecrawl-mcp/dist/index.js')],
      env: { ...(process.env as Record<string, string>), FIRECRAWL_API_URL: stack.baseUrl, FIRECRAWL_API_KEY: account.apiKey },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'scrape-api-tests', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    const result = (await client.callTool({ name: 'firecrawl_search', arguments: { query: 'docs', limit: 2 } }, undefined, { timeout: 120_000 })) as CallToolResult & { structuredContent?: Json };
    expect([result.isError ?? false, stderr.slice(-2000)]).toEqual([false, stderr.slice(-2000)]);
    const body = result.structuredContent!;
    expect(body.success).toBe(true);
    expect((body.data.web as Json[]).map((r) => r.url)).toEqual([`${site.url}/docs/41`, `${site.url}/docs/42`]);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(100 - searchPrice);
  });
});
