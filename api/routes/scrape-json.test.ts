/**
 * The json and summary formats end to end (docs/scraping.md "Structured output"): real API and
 * worker processes, Temporal, PostgreSQL, Debian's Chromium, a local product-list page, and a
 * local chat-completions server (test/helpers/fake-llm.ts) standing in for the operator's model:
 * what it is asked is checked, what it answers is scripted. The CSS schema in both modes; the
 * model path in both modes, its retry, its failure (refunded, the page not fetched again), its
 * token counts and price; the 400s; LLM_NOT_CONFIGURED from an API without a model.
 */
import { type FakeLlm, startFakeLlm } from '../../test/helpers/fake-llm';
import { type ProductsServer, startProductsServer } from '../../test/fixtures/products';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance } from '../../test/helpers/accounts';
import { type Stack, startStack } from '../../test/helpers/stack';

jest.setTimeout(180_000);

const LLM_KEY = 'sk-test-llm-key-never-logged-7f3a';
const MODEL = 'fixture-model-1';

let stack: Stack;
let llm: FakeLlm;
let site: ProductsServer;
let account: TestAccount;

beforeAll(async () => {
  [llm, site] = await Promise.all([startFakeLlm(), startProductsServer()]);
  stack = await startStack({ env: { LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: LLM_KEY, LLM_MODEL: MODEL } });
  account = await createAccount(stack.baseUrl);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await Promise.all([llm?.close(), site?.close()]);
});

const START = 1000;
beforeEach(async () => {
  llm.reset();
  site.hits.clear();
  await setBalance(stack.databaseUrl, account.userId, START);
});

type Body = Record<string, unknown> & {
  id?: string;
  code?: string;
  message?: string | string[];
  json?: unknown;
  summary?: string;
  markdown?: string;
  llm_usage?: { model: string; prompt_tokens: number; completion_tokens: number; calls: number };
  credits?: { cost: number; remaining: number };
  refunded?: boolean;
};

async function scrape(body: unknown, baseUrl = stack.baseUrl): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${baseUrl}/webhook/unblocker`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

const ledgerOfRun = async (runId: string) => (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.runId === runId).map((row) => [row.reason, row.amount]);

const PRODUCT_CSS = {
  type: 'json',
  css: {
    baseSelector: 'li.product',
    fields: [
      { name: 'name', selector: 'a.title', type: 'text' },
      { name: 'price', selector: '.price', type: 'number' },
      { name: 'url', selector: 'a.title', type: 'attribute', attribute: 'href' },
      { name: 'sku', type: 'attribute', attribute: 'data-sku' },
      { name: 'maker', selector: '.maker', type: 'nested', fields: [{ name: 'name', selector: '.who', type: 'text' }, { name: 'since', selector: '.since', type: 'number' }] },
    ],
  },
};

const PRODUCT_SCHEMA = {
  type: 'object',
  properties: {
    products: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } }, required: ['name', 'price'], additionalProperties: false },
    },
  },
  required: ['products'],
  additionalProperties: false,
};

describe.each([
  ['http', 1],
  ['browser', 5],
] as const)('%s mode', (mode, price) => {
  it('a CSS schema gives the product list as [{name, price (number), url, …}], at the price of a plain scrape, no model asked', async () => {
    const { status, body } = await scrape({ url: `${site.url}/products`, mode, formats: [PRODUCT_CSS] });
    expect(status).toBe(200);
    const products: Array<Record<string, unknown>> = [
      { name: 'Brass lamp', price: 1299, url: `${site.url}/p/brass-lamp`, sku: 'L-1', maker: { name: 'Atelier Nord', since: 1987 } },
      { name: 'Oak chair', price: 12.5, url: `${site.url}/p/oak-chair`, sku: 'C-2', maker: { name: 'Bois & Fils', since: null } },
    ];
    // The browser reads the rendered page: the product the script adds is there too.
    if (mode === 'browser') products.push({ name: 'Wool stool', price: 89, url: `${site.url}/p/wool-stool`, sku: 'S-3', maker: null });
    expect(body.json).toEqual(products);
    expect(body.credits?.cost).toBe(price);
    expect(await ledgerOfRun(body.id!)).toEqual([['debit', -price]]);
    expect(body.llm_usage).toBeUndefined();
    expect(llm.calls).toHaveLength(0);
  });

  it('a JSON Schema sends the main content as markdown to the model, validates its answer, records its tokens and charges the model format', async () => {
    const answer = { products: [{ name: 'Brass lamp', price: 1299 }, { name: 'Oak chair', price: 12.5 }] };
    llm.script({ content: JSON.stringify(answer), usage: { prompt_tokens: 321, completion_tokens: 45 } });
    const { status, body } = await scrape({ url: `${site.url}/products`, mode, formats: ['markdown', { type: 'json', schema: PRODUCT_SCHEMA, prompt: 'List every product with its price.' }] });
    expect(status).toBe(200);
    expect(body.json).toEqual(answer);
    expect(body.llm_usage).toEqual({ model: MODEL, prompt_tokens: 321, completion_tokens: 45, calls: 1 });
    expect(body.credits?.cost).toBe(price + 5);
    expect(await ledgerOfRun(body.id!)).toEqual([['debit', -(price + 5)]]);

    // What the model was asked: the configured model, the key as a Bearer token, the page's main
    // content as markdown (the same as the markdown format), the prompt, the schema as response_format.
    expect(llm.calls).toHaveLength(1);
    const call = llm.calls[0]!;
    expect(call.path).toBe('/v1/chat/completions');
    expect(call.authorization).toBe(`Bearer ${LLM_KEY}`);
    expect(call.body.model).toBe(MODEL);
    expect(call.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'extraction', schema: PRODUCT_SCHEMA, strict: false } });
    const user = call.body.messages!.find((m) => m.role === 'user')!.content;
    expect(body.markdown).toContain('Hand-made furniture from the workshop in Lyon.');
    expect(user).toContain(body.markdown!);
    expect(user).toContain('List every product with its price.');
    expect(user).not.toContain('<li');
    // Stored with the run.
    const run = (await (await fetch(`${stack.baseUrl}/webhook/runs/${body.id}`, { headers: { 'x-api-key': account.apiKey } })).json()) as { status: string; result: Body };
    expect(run.status).toBe('succeeded');
    expect(run.result).toMatchObject({ json: answer, llm_usage: { prompt_tokens: 321, completion_tokens: 45 } });
  });
});

describe('the model path', () => {
  it('an invalid answer is asked again once, with what was wrong; the second, valid, is the result (tokens of both counted)', async () => {
    llm.script(
      { content: '{"products": [{"name": "Brass lamp", "price": "expensive"}]}', usage: { prompt_tokens: 300, completion_tokens: 20 } },
      { content: '```json\n{"products": [{"name": "Brass lamp", "price": 1299}]}\n```', usage: { prompt_tokens: 350, completion_tokens: 22 } },
    );
    const { status, body } = await scrape({ url: `${site.url}/products`, formats: [{ type: 'json', schema: PRODUCT_SCHEMA }] });
    expect(status).toBe(200);
    expect(body.json).toEqual({ products: [{ name: 'Brass lamp', price: 1299 }] });
    expect(body.llm_usage).toEqual({ model: MODEL, prompt_tokens: 650, completion_tokens: 42, calls: 2 });
    expect(llm.calls).toHaveLength(2);
    const retry = llm.calls[1]!.body.messages!;
    expect(retry.at(-2)).toMatchObject({ role: 'assistant', content: '{"products": [{"name": "Brass lamp", "price": "expensive"}]}' });
    expect(retry.at(-1)!.content).toContain('/products/0/price must be number');
    expect(site.hits.get('/products')).toBe(1);
  });

  it('invalid twice: 502 LLM_INVALID_OUTPUT, refunded, the page fetched once (no new scrape for the model)', async () => {
    llm.script({ content: 'Sure! Here are the products: a lamp.' }, { content: '{"products": "none"}' });
    const { status, body } = await scrape({ url: `${site.url}/products`, formats: [{ type: 'json', schema: PRODUCT_SCHEMA }], options: { retry_count: 2 } });
    expect(status).toBe(502);
    expect(body).toMatchObject({ code: 'LLM_INVALID_OUTPUT', refunded: true });
    expect(body.message).toContain('/products must be array');
    expect(llm.calls).toHaveLength(2);
    expect(site.hits.get('/products')).toBe(1);
    expect(await ledgerOfRun(body.id as string)).toEqual([
      ['debit', -6],
      ['refund', 6],
    ]);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START);
  });

  it('the endpoint failing (500) is tried once more; failing again: 502 LLM_FAILED, refunded', async () => {
    llm.script({ status: 500, content: 'overloaded' }, { status: 503, content: 'still overloaded' });
    const { status, body } = await scrape({ url: `${site.url}/products`, formats: ['summary'] });
    expect(status).toBe(502);
    expect(body).toMatchObject({ code: 'LLM_FAILED', refunded: true });
    expect(llm.calls).toHaveLength(2);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START);
  });

  it('summary: plain text from the model (no response_format), in browser mode too; with json, two model formats charged', async () => {
    llm.script({ content: '  A workshop in Lyon sells a brass lamp and an oak chair.  ', usage: { prompt_tokens: 200, completion_tokens: 15 } });
    const { status, body } = await scrape({ url: `${site.url}/products`, mode: 'browser', formats: [{ type: 'summary', prompt: 'One sentence.' }] });
    expect(status).toBe(200);
    expect(body.summary).toBe('A workshop in Lyon sells a brass lamp and an oak chair.');
    expect(body.credits?.cost).toBe(10);
    expect(llm.calls[0]!.body.response_format).toBeUndefined();
    expect(llm.calls[0]!.body.messages!.at(-1)!.content).toContain('One sentence.');
    // Rendered page: the product the script added is in what the model read.
    expect(llm.calls[0]!.body.messages!.at(-1)!.content).toContain('Wool stool');

    llm.reset();
    llm.script({ content: '{"products": []}' }, { content: 'Furniture.' });
    const both = await scrape({ url: `${site.url}/products`, formats: [{ type: 'json', schema: PRODUCT_SCHEMA }, 'summary'] });
    expect(both.status).toBe(200);
    expect(both.body).toMatchObject({ json: { products: [] }, summary: 'Furniture.', credits: { cost: 11 }, llm_usage: { calls: 2 } });
  });

  it('refuses before any work: an invalid JSON Schema, a bad CSS schema, a repeated json format (400, nothing charged); GET /pricing lists the price', async () => {
    const invalid = await scrape({ url: `${site.url}/products`, formats: [{ type: 'json', schema: { type: 'objekt' } }] });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('BAD_REQUEST');
    expect(String(invalid.body.message)).toContain('is not a valid JSON Schema');
    const selector = await scrape({ url: `${site.url}/products`, formats: [{ type: 'json', css: { fields: [{ name: 'a', selector: 'a[', type: 'text' }] } }] });
    expect(selector.status).toBe(400);
    expect(selector.body.code).toBe('INVALID_SELECTOR');
    const twice = await scrape({ url: `${site.url}/products`, formats: [PRODUCT_CSS, { type: 'json', schema: PRODUCT_SCHEMA }] });
    expect(twice.status).toBe(400);
    expect(site.hits.size).toBe(0);
    expect(llm.calls).toHaveLength(0);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START);
    const prices = (await (await fetch(`${stack.baseUrl}/pricing`)).json()) as { scrape: { extras: { llm_format: number } } };
    expect(prices.scrape.extras.llm_format).toBe(5);
  });

  it('never logs the key', () => {
    expect([...stack.output.api, ...stack.output.worker].join('')).not.toContain(LLM_KEY);
  });

  it('without a model configured (LLM_BASE_URL unset): 400 LLM_NOT_CONFIGURED up front, nothing charged; a CSS schema still works', async () => {
    const unconfigured = await stack.startSecondApi({ LLM_BASE_URL: '', LLM_MODEL: '', LLM_API_KEY: '' });
    try {
      for (const format of [{ type: 'json', schema: PRODUCT_SCHEMA }, 'summary', { type: 'json', prompt: 'the products' }]) {
        const { status, body } = await scrape({ url: `${site.url}/products`, formats: [format] }, unconfigured.baseUrl);
        expect(status).toBe(400);
        expect(body.code).toBe('LLM_NOT_CONFIGURED');
      }
      // A crawl asking for a model format is refused the same way, before it starts.
      const crawl = await fetch(`${unconfigured.baseUrl}/crawl`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
        body: JSON.stringify({ url: `${site.url}/products`, scrape: { formats: ['summary'] } }),
      });
      expect(crawl.status).toBe(400);
      expect(((await crawl.json()) as Body).code).toBe('LLM_NOT_CONFIGURED');
      expect(site.hits.size).toBe(0);
      expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START);
      const css = await scrape({ url: `${site.url}/products`, formats: [PRODUCT_CSS] }, unconfigured.baseUrl);
      expect(css.status).toBe(200);
      expect((css.body.json as unknown[]).length).toBe(2);
    } finally {
      await unconfigured.stop();
    }
  });
});
