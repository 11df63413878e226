/**
 * Firecrawl's extract (docs/firecrawl.md "Extract") driven by the official SDKs, unchanged:
 * `firecrawl-py` 4.55.0 and `@mendable/firecrawl-js` 4.42.0, against real API and worker
 * processes, Temporal (the extract workflow, and the batch and crawl jobs it waits for) and
 * PostgreSQL; pages from a loopback server, the model a local chat-completions server
 * (test/helpers/fake-llm.ts) whose answers are scripted. LLM_MAX_INPUT_CHARS is at its minimum so
 * that two pages are two chunks: their partial answers are merged (arrays concatenated without
 * duplicates, a scalar from the first page that has it) and validated against the schema.
 * The ledger: each page its scrape's price, the model step its format's price, refunded when
 * the model fails; nothing for a refused request.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { waitFor } from '../../test/helpers/wait';
import { type FakeLlm, startFakeLlm } from '../../test/helpers/fake-llm';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance, sql } from '../../test/helpers/accounts';
import { type Stack, startStack } from '../../test/helpers/stack';
import { type PyCall, type PyOutcome, firecrawlPython } from '../../test/helpers/firecrawl-py';

jest.setTimeout(600_000);

const START = 1000;
/** About 560 characters of text: one page fits a chunk of LLM_MAX_INPUT_CHARS=1000, two do not. */
const LONG = (name: string) => `${name} is sold here. `.repeat(28);

const PAGES: Record<string, string> = {
  '/a': `<html><head><title>Product A</title></head><body><main><h1>Product A</h1><p>${LONG('Apple')}</p></main></body></html>`,
  '/b': `<html><head><title>Product B</title></head><body><main><h1>Product B</h1><p>${LONG('Banana')}</p></main></body></html>`,
  '/shop/': '<html><head><title>Shop</title></head><body><main><h1>Shop</h1><a href="/shop/x">X</a> <a href="/shop/y">Y</a></main></body></html>',
  '/shop/x': '<html><head><title>X</title></head><body><main><h1>Item X</h1><p>costs 3</p></main></body></html>',
  '/shop/y': '<html><head><title>Y</title></head><body><main><h1>Item Y</h1><p>costs 4</p></main></body></html>',
};

const SCHEMA = {
  type: 'object',
  properties: { products: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, shop: { type: 'string' } },
  required: ['products', 'shop'],
};

let server: http.Server;
let base: string;
let llm: FakeLlm;
let stack: Stack;
let noModel: { baseUrl: string; stop(): Promise<void> };
let account: TestAccount;
let runPy: (call: PyCall) => Promise<PyOutcome>;

beforeAll(async () => {
  runPy = firecrawlPython();
  server = http.createServer((req, res) => {
    if (req.url === '/paper.pdf') return void res.writeHead(200, { 'content-type': 'application/pdf' }).end(readFileSync(path.join(__dirname, '..', '..', 'test', 'fixtures', 'documents', 'latex-paper.pdf')));
    const page = PAGES[req.url ?? ''];
    if (!page) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  llm = await startFakeLlm();
  stack = await startStack({ env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fixture-model', LLM_MAX_INPUT_CHARS: '1000' } });
  noModel = await stack.startSecondApi({ LLM_BASE_URL: '', LLM_MODEL: '' });
  account = await createAccount(stack.baseUrl);
}, 600_000);

afterAll(async () => {
  await noModel?.stop();
  await stack?.stop();
  await llm?.close();
  await new Promise((resolve) => server?.close(resolve));
});

beforeEach(async () => {
  llm.reset();
  await setBalance(stack.databaseUrl, account.userId, START);
});

function py(method: string, args: unknown[], kwargs: Record<string, unknown> = {}, apiUrl = stack.baseUrl): Promise<PyOutcome> {
  return runPy({ apiUrl, apiKey: account.apiKey, client: 'v2', method, args, kwargs });
}

const js = (apiUrl = stack.baseUrl) => new Firecrawl({ apiKey: account.apiKey, apiUrl });
const modelLedger = async (id: string) => (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.idempotencyKey.endsWith(`extract:${id}`)).map((row) => [row.reason, row.amount]);
const pricing = async () => (await (await fetch(`${stack.baseUrl}/pricing`)).json()) as { scrape: { modes: { http: number }; extras: { llm_format: number } } };
const crawlCount = async () => Number((await sql<{ n: string }>(stack.databaseUrl, 'SELECT count(*) AS n FROM crawl WHERE "userId" = $1', [account.userId]))[0]!.n);

describe('extract', () => {
  it('Python: two pages, two chunks, their answers merged and validated; sources; the ledger', async () => {
    llm.script(
      { content: JSON.stringify({ products: [{ name: 'Apple' }], shop: 'Fruit shop' }), usage: { prompt_tokens: 100, completion_tokens: 20 } },
      { content: JSON.stringify({ products: [{ name: 'Apple' }, { name: 'Banana' }], shop: 'Another name' }), usage: { prompt_tokens: 110, completion_tokens: 30 } },
    );
    const out = await py('extract', [[`${base}/a`, `${base}/b`]], { prompt: 'the products and the shop', schema: SCHEMA, show_sources: true, poll_interval: 1 });
    expect(out).toMatchObject({ ok: true, type: 'ExtractResponse', value: { status: 'completed' } });
    expect(out.value.data).toEqual({ products: [{ name: 'Apple' }, { name: 'Banana' }], shop: 'Fruit shop' });
    expect(out.value.sources).toEqual({ products: [`${base}/a`, `${base}/b`], shop: [`${base}/a`] });
    expect(out.value.tokens_used).toBe(260);
    // Each page was its own chunk, read with the schema's `required` relaxed and the prompt.
    expect(llm.calls).toHaveLength(2);
    expect(JSON.stringify(llm.calls[0]!.body.messages)).toContain('Apple is sold here');
    expect(JSON.stringify(llm.calls[0]!.body.messages)).not.toContain('Banana is sold here');
    expect(JSON.stringify(llm.calls[1]!.body.messages)).toContain('Banana is sold here');
    expect(JSON.stringify(llm.calls[0]!.body.messages)).toContain('the products and the shop');
    const prices = await pricing();
    const charged = 2 * prices.scrape.modes.http + prices.scrape.extras.llm_format;
    expect(out.value.credits_used).toBe(charged);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START - charged);
    expect(await modelLedger(out.value.id as string)).toEqual([['debit', -prices.scrape.extras.llm_format]]);
    // The tokens are the account's token usage now.
    expect((await js().getTokenUsage()).remainingTokens).toBe(0);
    const tokens = (await (await fetch(`${stack.baseUrl}/v2/team/token-usage`, { headers: { authorization: `Bearer ${account.apiKey}` } })).json()) as { data: { tokensUsed: number } };
    expect(tokens.data.tokensUsed).toBeGreaterThanOrEqual(260);
  });

  it('JS: a wildcard URL crawls that site (its pages in one chunk); GET /v1/extract/:id answers the same job', async () => {
    llm.script({ content: JSON.stringify({ items: ['X', 'Y'] }) });
    const out = await js().extract({ urls: [`${base}/shop/*`], prompt: 'the items sold', pollInterval: 1 });
    expect(out).toMatchObject({ status: 'completed', data: { items: ['X', 'Y'] } });
    expect(out.sources).toBeUndefined();
    expect(llm.calls).toHaveLength(1);
    const asked = JSON.stringify(llm.calls[0]!.body.messages);
    for (const page of ['/shop/', '/shop/x', '/shop/y']) expect(asked).toContain(`${base}${page}`);
    const v1 = await fetch(`${stack.baseUrl}/v1/extract/${out.id as string}`, { headers: { authorization: `Bearer ${account.apiKey}` } });
    expect(await v1.json()).toMatchObject({ success: true, status: 'completed', data: { items: ['X', 'Y'] } });
    const other = await createAccount(stack.baseUrl);
    const foreign = await fetch(`${stack.baseUrl}/v2/extract/${out.id as string}`, { headers: { authorization: `Bearer ${other.apiKey}` } });
    expect(foreign.status).toBe(403);
  });

  it('the model failing: the job fails, the model step is refunded, the pages kept', async () => {
    llm.script({ status: 400, content: 'the model refuses' });
    const out = await py('extract', [[`${base}/shop/x`]], { prompt: 'the item', poll_interval: 1 });
    expect(out).toMatchObject({ ok: true, value: { status: 'failed' } });
    expect(out.value.error).toContain('LLM_FAILED');
    const prices = await pricing();
    expect(await modelLedger(out.value.id as string)).toEqual([
      ['debit', -prices.scrape.extras.llm_format],
      ['refund', prices.scrape.extras.llm_format],
    ]);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START - prices.scrape.modes.http);
  });

  it('refused before anything starts: no model, web search without a backend, neither prompt nor schema, too little credit', async () => {
    const jobs = await crawlCount();
    const noLlm = await py('extract', [[`${base}/a`]], { prompt: 'x' }, noModel.baseUrl);
    expect(noLlm).toMatchObject({ ok: false, status: 400 });
    expect(noLlm.message).toContain('LLM_BASE_URL');
    const search = await js().startExtract({ urls: [`${base}/a`], prompt: 'x', enableWebSearch: true }).catch((error: unknown) => error);
    expect(search).toMatchObject({ status: 400 });
    expect(String((search as Error).message)).toContain('enableWebSearch');
    expect(await py('start_extract', [[`${base}/a`]])).toMatchObject({ ok: false, status: 400 });
    await setBalance(stack.databaseUrl, account.userId, 1);
    expect(await py('start_extract', [[`${base}/a`]], { prompt: 'x' })).toMatchObject({ ok: false, status: 402 });
    expect(await crawlCount()).toBe(jobs);
    expect(llm.calls).toHaveLength(0);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(1);
  });
});

describe('/mcp tools extract, extract_status and parse', () => {
  it('extract then extract_status until completed; parse a PDF at a URL', async () => {
    const client = new Client({ name: 'extract-tests', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${account.apiKey}` } } }));
    try {
      const tool = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult & { structuredContent: Record<string, unknown> };
      llm.script({ content: JSON.stringify({ item: 'X' }) });
      const started = await tool('extract', { urls: [`${base}/shop/x`], prompt: 'the item' });
      expect(started.isError).toBeFalsy();
      const id = started.structuredContent.id as string;
      const done = await waitFor('the extract job done', async () => {
        const status = await tool('extract_status', { id });
        return status.structuredContent.status === 'processing' ? undefined : status;
      }, 120_000);
      expect(done.structuredContent).toMatchObject({ status: 'completed', data: { item: 'X' } });

      const parsed = await tool('parse', { url: `${base}/paper.pdf` });
      expect(parsed.isError).toBeFalsy();
      expect((parsed.content[0] as { text: string }).text).toContain('Beagle');
      expect(parsed.structuredContent).toMatchObject({ metadata: { document_type: 'pdf' } });
    } finally {
      await client.close();
    }
  });
});
