/**
 * Extract's `enableWebSearch` (docs/firecrawl.md "Extract") through the official SDKs, unchanged,
 * against real API and worker processes, Temporal and PostgreSQL: the prompt is searched on the
 * SearXNG fixture (test/fixtures/searxng/, SearXNG's documented JSON), whose results point at a
 * loopback page server (and one blacklisted host, which the guard drops: never scraped); the
 * found pages are scraped and read by the fake model. The ledger: one search's price, each page its scrape's price, the model step;
 * the search refunded when the backend is down; a second API without SEARXNG_ENDPOINT refuses with
 * SEARCH_NOT_CONFIGURED before anything is charged.
 */
import http from 'node:http';
import Firecrawl from '@mendable/firecrawl-js';
import { listenOnLoopback } from '../../platform/free-port';
import { type SearxngFixture, startSearxngFixture } from '../../test/fixtures/searxng/server';
import { type FakeLlm, startFakeLlm } from '../../test/helpers/fake-llm';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance } from '../../test/helpers/accounts';
import { type Stack, startStack } from '../../test/helpers/stack';
import { type PyCall, type PyOutcome, firecrawlPython } from '../../test/helpers/firecrawl-py';

jest.setTimeout(600_000);

const START = 1000;
const PAGES: Record<string, string> = {
  '/apple': '<html><head><title>Apple</title></head><body><main><h1>Apple</h1><p>Apples cost 3 EUR.</p></main></body></html>',
  '/pear': '<html><head><title>Pear</title></head><body><main><h1>Pear</h1><p>Pears cost 4 EUR.</p></main></body></html>',
};
const SCHEMA = { type: 'object', properties: { fruits: { type: 'array', items: { type: 'string' } } }, required: ['fruits'] };

let server: http.Server;
let base: string;
let searx: SearxngFixture;
let llm: FakeLlm;
let stack: Stack;
let noSearch: { baseUrl: string; stop(): Promise<void> };
let account: TestAccount;
let runPy: (call: PyCall) => Promise<PyOutcome>;

beforeAll(async () => {
  runPy = firecrawlPython();
  server = http.createServer((req, res) => {
    const page = PAGES[req.url ?? ''];
    if (!page) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  base = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  [searx, llm] = await Promise.all([startSearxngFixture({ pageSize: 10 }), startFakeLlm()]);
  stack = await startStack({ env: { SEARXNG_ENDPOINT: `${searx.url}/`, LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fixture-model', BLACKLIST_HOSTS: 'blocked.localhost' } });
  noSearch = await stack.startSecondApi({ SEARXNG_ENDPOINT: '' });
  account = await createAccount(stack.baseUrl);
}, 600_000);

afterAll(async () => {
  await noSearch?.stop();
  await stack?.stop();
  await Promise.all([searx?.close(), llm?.close()]);
  await new Promise((resolve) => server?.close(resolve));
});

beforeEach(async () => {
  llm.reset();
  searx.reset();
  await setBalance(stack.databaseUrl, account.userId, START);
});

function py(method: string, args: unknown[], kwargs: Record<string, unknown> = {}, apiUrl = stack.baseUrl): Promise<PyOutcome> {
  return runPy({ apiUrl, apiKey: account.apiKey, client: 'v2', method, args, kwargs });
}

const pricing = async () =>
  (await (await fetch(`${stack.baseUrl}/pricing`)).json()) as { search: { per_search: number }; scrape: { modes: { http: number }; extras: { llm_format: number } } };
const searchLedger = async () => (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.idempotencyKey.includes('search:')).map((row) => [row.reason, row.amount]);

describe('extract with enableWebSearch', () => {
  it('Python: the prompt is searched, the found pages (not the blacklisted one) scraped and read; one search, each page, the model step', async () => {
    searx.setResults('general', [
      { url: `${base}/apple`, title: 'Apple', content: 'apples' },
      { url: 'http://blocked.localhost/fruit', title: 'Blocked', content: 'never scraped' },
      { url: `${base}/pear`, title: 'Pear', content: 'pears' },
    ]);
    llm.script({ content: JSON.stringify({ fruits: ['Apple', 'Pear'] }) });
    const out = await py('extract', [], { prompt: 'fruit prices', schema: SCHEMA, enable_web_search: true, poll_interval: 1 });
    expect(out).toMatchObject({ ok: true, type: 'ExtractResponse', value: { status: 'completed', data: { fruits: ['Apple', 'Pear'] } } });
    // The search asked the backend for the prompt.
    expect(searx.requests.some((q) => q.q === 'fruit prices')).toBe(true);
    // The model read both pages found.
    const read = JSON.stringify(llm.calls.map((c) => c.body.messages));
    expect(read).toContain('Apples cost 3 EUR');
    expect(read).toContain('Pears cost 4 EUR');
    const prices = await pricing();
    const charged = prices.search.per_search + 2 * prices.scrape.modes.http + prices.scrape.extras.llm_format;
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START - charged);
    expect(await searchLedger()).toEqual([['debit', -prices.search.per_search]]);
  });

  it('JS: the backend down → a Firecrawl-shaped error, the search refunded, no extract started', async () => {
    searx.setMode('down');
    const earlier = (await searchLedger()).length;
    const firecrawl = new Firecrawl({ apiKey: account.apiKey, apiUrl: stack.baseUrl });
    const failed = await fetch(`${stack.baseUrl}/v2/extract`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'fruit prices', schema: SCHEMA, enableWebSearch: true }),
    });
    expect(failed.status).toBe(502);
    expect(await failed.json()).toMatchObject({ success: false, code: 'SEARCH_UNAVAILABLE' });
    const prices = await pricing();
    expect((await searchLedger()).slice(earlier)).toEqual([
      ['debit', -prices.search.per_search],
      ['refund', prices.search.per_search],
    ]);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START);
    // No page found at all: 400, the search refunded.
    searx.setMode('ok');
    searx.setResults('general', []);
    await expect(firecrawl.startExtract({ prompt: 'nothing', schema: SCHEMA, enableWebSearch: true })).rejects.toMatchObject({ status: 400 });
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START);
    expect(llm.calls).toHaveLength(0);
  });

  it('without a search backend: 400 SEARCH_NOT_CONFIGURED, nothing charged', async () => {
    const out = await py('start_extract', [[`${base}/apple`]], { prompt: 'fruit prices', schema: SCHEMA, enable_web_search: true }, noSearch.baseUrl);
    expect(out).toMatchObject({ ok: false, status: 400 });
    expect(out.message).toMatch(/SEARXNG_ENDPOINT/);
    const raw = await fetch(`${noSearch.baseUrl}/v2/extract`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ urls: [`${base}/apple`], prompt: 'fruit prices', enableWebSearch: true }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ success: false, details: { reason: 'SEARCH_NOT_CONFIGURED' } });
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START);
    expect(searx.requests).toHaveLength(0);
  });
});
