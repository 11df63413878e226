/**
 * Firecrawl's `json` and `summary` formats (docs/firecrawl.md) through the official JavaScript
 * SDK `@mendable/firecrawl-js` 4.42.0, unchanged: v2 `{type: "json", schema, prompt}` and
 * `summary`, v1 `formats: ["json"]` with `jsonOptions` and `["extract"]` with `extractOptions`.
 * Real API and worker processes, Temporal, PostgreSQL; the page from a loopback fixture server;
 * the model a local chat-completions server (test/helpers/fake-llm.ts), its answers scripted.
 */
import Firecrawl, { FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { type FakeLlm, startFakeLlm } from '../../test/helpers/fake-llm';
import { type ProductsServer, startProductsServer } from '../../test/fixtures/products';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance } from '../../test/helpers/accounts';
import { type Stack, startStack } from '../../test/helpers/stack';

jest.setTimeout(180_000);

let stack: Stack;
let llm: FakeLlm;
let site: ProductsServer;
let account: TestAccount;

beforeAll(async () => {
  [llm, site] = await Promise.all([startFakeLlm(), startProductsServer()]);
  stack = await startStack({ env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fixture-model-2' } });
  account = await createAccount(stack.baseUrl);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await Promise.all([llm?.close(), site?.close()]);
});

const START = 1000;
beforeEach(async () => {
  llm.reset();
  await setBalance(stack.databaseUrl, account.userId, START);
});

const js = () => new Firecrawl({ apiKey: account.apiKey, apiUrl: stack.baseUrl });
const jsV1 = () => new FirecrawlAppV1({ apiKey: account.apiKey, apiUrl: stack.baseUrl });
const ledgerOfRun = async (runId: string) => (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.runId === runId).map((row) => [row.reason, row.amount]);

const SCHEMA = {
  type: 'object',
  properties: { shop_city: { type: 'string' }, product_count: { type: 'integer' } },
  required: ['shop_city', 'product_count'],
};

const userMessage = (index: number) => llm.calls[index]!.body.messages!.find((m) => m.role === 'user')!.content;

describe('JavaScript SDK @mendable/firecrawl-js 4.42.0', () => {
  it('v2 scrape: {type: "json", schema, prompt} and summary come back in the document; the model read the page as markdown', async () => {
    llm.script({ content: '{"shop_city": "Lyon", "product_count": 2}' }, { content: 'A workshop in Lyon selling furniture.' });
    const doc = await js().scrape(`${site.url}/products`, { formats: ['markdown', { type: 'json', schema: SCHEMA, prompt: 'Where is the shop, how many products?' }, 'summary'] });
    expect(doc.json).toEqual({ shop_city: 'Lyon', product_count: 2 });
    expect(doc.summary).toBe('A workshop in Lyon selling furniture.');
    expect(doc.markdown).toContain('Hand-made furniture from the workshop in Lyon.');
    expect(llm.calls).toHaveLength(2);
    expect(llm.calls[0]!.body).toMatchObject({ model: 'fixture-model-2', response_format: { type: 'json_schema', json_schema: { schema: SCHEMA } } });
    expect(userMessage(0)).toContain('Where is the shop, how many products?');
    expect(userMessage(0)).toContain(doc.markdown!);
    // http 1 + two model formats.
    expect(doc.metadata!.creditsUsed).toBe(11);
    expect(await ledgerOfRun(doc.metadata!.scrapeId!)).toEqual([['debit', -11]]);
  });

  it('v2 scrape: a json answer invalid twice is an error the SDK throws, and nothing is charged', async () => {
    llm.script({ content: '{"shop_city": "Lyon"}' }, { content: '{"shop_city": 7, "product_count": 2}' });
    let thrown: { status?: number; message: string } | undefined;
    try {
      await js().scrape(`${site.url}/products`, { formats: [{ type: 'json', schema: SCHEMA }] });
    } catch (error) {
      thrown = error as { status?: number; message: string };
    }
    expect(thrown).toBeDefined();
    expect(thrown!.message).toContain('not valid against the schema');
    expect(llm.calls).toHaveLength(2);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START);
  });

  it('v1 scrapeUrl: formats ["json"] with jsonOptions, and ["extract"] with extractOptions', async () => {
    llm.script({ content: '{"shop_city": "Lyon", "product_count": 2}' });
    const scraped = (await jsV1().scrapeUrl(`${site.url}/products`, { formats: ['json'], jsonOptions: { schema: SCHEMA, prompt: 'The shop.', systemPrompt: 'Be exact.' } } as never)) as {
      success: boolean;
      json?: unknown;
      metadata?: { scrapeId?: string };
    };
    expect(scraped.success).toBe(true);
    expect(scraped.json).toEqual({ shop_city: 'Lyon', product_count: 2 });
    expect(userMessage(0)).toContain('Be exact.\n\nThe shop.');
    expect(llm.calls[0]!.body.response_format).toMatchObject({ json_schema: { schema: SCHEMA } });

    llm.reset();
    llm.script({ content: '{"shop_city": "Lyon", "product_count": 2}' });
    const extracted = (await jsV1().scrapeUrl(`${site.url}/products`, { formats: ['extract'], extractOptions: { schema: SCHEMA } } as never)) as { success: boolean; extract?: unknown };
    expect(extracted.success).toBe(true);
    expect(extracted.extract).toEqual({ shop_city: 'Lyon', product_count: 2 });
  });
});
