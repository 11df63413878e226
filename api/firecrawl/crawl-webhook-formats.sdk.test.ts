/**
 * A compatible batch scrape or crawl asking for every format Firecrawl's webhooks carry: each
 * `batch_scrape.page` / `crawl.page` event's document is the status route's document of the same
 * page (issue 37: the events carried only markdown, html, rawHtml and links). Driven by the
 * official JavaScript SDK `@mendable/firecrawl-js` 4.42.0, unchanged; real API and worker
 * processes, Temporal, PostgreSQL, Chromium (the screenshot), the model a local chat-completions
 * server (test/helpers/fake-llm.ts); the events to a loopback receiver checking our signature.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { type FakeLlm, startFakeLlm } from '../../test/helpers/fake-llm';
import { type ProductsServer, startProductsServer } from '../../test/fixtures/products';
import { type TestAccount, createAccount, setBalance } from '../../test/helpers/accounts';
import { call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';
import { type EventReceiver, startEventReceiver } from '../../test/helpers/webhook-receiver';

jest.setTimeout(300_000);

let stack: Stack;
let llm: FakeLlm;
let site: ProductsServer;
let receiver: EventReceiver;
let account: TestAccount;
let webhookSecret: string;

beforeAll(async () => {
  [llm, site, receiver] = await Promise.all([startFakeLlm(), startProductsServer(), startEventReceiver()]);
  stack = await startStack({ env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fixture-model', WEBHOOK_PRIVATE_ALLOWLIST: '127.0.0.1' } });
  account = await createAccount(stack.baseUrl);
  webhookSecret = (await call(stack.baseUrl, 'GET', '/api/webhook-secret', { cookie: account.cookie })).body.secret as string;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await Promise.all([llm?.close(), site?.close(), receiver?.close()]);
});

beforeEach(async () => {
  llm.reset();
  await setBalance(stack.databaseUrl, account.userId, 10_000);
});

const js = () => new Firecrawl({ apiKey: account.apiKey, apiUrl: stack.baseUrl });

const SCHEMA = { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] };
/** Every format a document may carry (v2 names), and a browser action whose output the document shows. */
const EVERY_FORMAT = ['markdown', 'html', 'rawHtml', 'links', 'screenshot', { type: 'json' as const, schema: SCHEMA }, 'summary', 'changeTracking'];
const EVERY_FIELD = ['markdown', 'html', 'rawHtml', 'links', 'screenshot', 'json', 'summary', 'changeTracking', 'actions', 'metadata'];

type Document = Record<string, unknown> & { metadata: { scrapeId: string; sourceURL: string } };

describe('Firecrawl webhooks carry every format asked for', () => {
  it('batch_scrape.page: the document is the status route\'s, every format included', async () => {
    // The model answers the json and the summary formats (the same JSON text serves both, whichever comes first).
    llm.script({ content: '{"label": "shop"}' }, { content: '{"label": "shop"}' });
    receiver.setSecret('/every-format', webhookSecret);
    const url = `${site.url}/products`;
    const started = await js().startBatchScrape([url], {
      options: { formats: EVERY_FORMAT as never, actions: [{ type: 'executeJavascript', script: 'return document.title' }] as never },
      webhook: { url: `${receiver.origin}/every-format`, events: ['page'] },
    });
    const pageEvent = await waitFor('the batch_scrape.page event', () => {
      const mine = receiver.received.find((d) => d.path === '/every-format' && (d.event as { id?: string }).id === started.id);
      return Promise.resolve(mine);
    }, 240_000);
    expect(pageEvent.verified).toBe(true);
    expect(pageEvent.event).toMatchObject({ success: true, type: 'batch_scrape.page' });
    const sent = (pageEvent.event as { data: Document[] }).data[0]!;
    const status = await waitFor('the batch completed', async () => {
      const answer = await js().getBatchScrapeStatus(started.id);
      return answer.status === 'completed' ? answer : undefined;
    }, 120_000);
    const answered = (status.data as unknown as Document[]).find((d) => d.metadata.scrapeId === sent.metadata.scrapeId)!;
    expect(answered).toBeDefined();
    expect(Object.keys(answered).sort()).toEqual([...EVERY_FIELD].sort());
    expect(Object.keys(sent).sort()).toEqual([...EVERY_FIELD].sort());
    expect(sent).toEqual(answered);
  });

  it('batch_scrape.page of a page answered from the results cache says so: cacheState hit, cachedAt, 0 credits', async () => {
    const url = `${site.url}/products?cached=${Date.now()}`;
    const first = await js().scrape(url, { formats: ['markdown'], maxAge: 600_000 });
    expect(first.metadata).toMatchObject({ cacheState: 'miss' });
    receiver.setSecret('/cached-page', webhookSecret);
    const started = await js().startBatchScrape([url], {
      options: { formats: ['markdown'], maxAge: 600_000 },
      webhook: { url: `${receiver.origin}/cached-page`, events: ['page'] },
    });
    const pageEvent = await waitFor('the batch_scrape.page event', () => {
      const mine = receiver.received.find((d) => d.path === '/cached-page' && (d.event as { id?: string }).id === started.id);
      return Promise.resolve(mine);
    }, 120_000);
    const sent = (pageEvent.event as { data: Document[] }).data[0]!;
    expect(sent.metadata).toMatchObject({ sourceURL: url, cacheState: 'hit', creditsUsed: 0 });
    expect(Date.parse((sent.metadata as { cachedAt?: string }).cachedAt ?? '')).toBeGreaterThan(0);
    expect(sent.markdown).toBe(first.markdown);
  });
});
