/**
 * The results cache end to end (docs/scraping.md "Results cache"): real API and worker processes,
 * Temporal, PostgreSQL, Chromium, and the fixture server counting the requests it answers. A second
 * identical request within `max_age` is answered from the first one's result: the site is not asked
 * again, nothing is charged (the ledger), and a `cached` run is recorded. `max_age: 0`, another
 * account, `store_in_cache: false` and every never-cached kind fetch. Firecrawl's SDKs
 * (@mendable/firecrawl-js 4.42.0, firecrawl-py 4.55.0, run as api/firecrawl/sdk.test.ts does) see
 * `metadata.cacheState`; crawl and batch pages are taken from the cache.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance, sql } from '../../test/helpers/accounts';
import { request } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';
import { type PyCall, type PyOutcome, firecrawlPython } from '../../test/helpers/firecrawl-py';

jest.setTimeout(300_000);

let site: FixtureServer;
let stack: Stack;
let account: TestAccount;
let other: TestAccount;
let runPy: (call: PyCall) => Promise<PyOutcome>;

beforeAll(async () => {
  runPy = firecrawlPython();
  site = await startFixtureServer();
  stack = await startStack();
  [account, other] = await Promise.all([createAccount(stack.baseUrl), createAccount(stack.baseUrl)]);
  await Promise.all([setBalance(stack.databaseUrl, account.userId, 1000), setBalance(stack.databaseUrl, other.userId, 1000)]);
}, 600_000);

afterAll(async () => {
  await stack?.stop();
  await site?.close();
});

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const scrape = async (body: unknown, who: TestAccount = account) => {
  const answer = await request(stack.baseUrl, 'POST', '/webhook/unblocker', { 'x-api-key': who.apiKey }, body);
  return { status: answer.status, body: answer.body };
};
/** Requests the fixture server answered on `pathname` so far. */
const hitsOf = (pathname: string) => site.hits.get(pathname) ?? 0;
const runRow = async (id: string) =>
  (await sql<{ status: string; cost: number; cachedFrom: string | null; workflowId: string }>(stack.databaseUrl, 'SELECT status::text AS status, cost, "cachedFrom", "workflowId" FROM scrape_run WHERE id = $1', [id]))[0];
const ledgerOfRun = async (who: TestAccount, runId: string) => (await ledgerOf(stack.databaseUrl, who.userId)).filter((row) => row.runId === runId).map((row) => [row.reason, row.amount]);

/** Each test its own URL (a query the page ignores), so no test answers another's. */
let serial = 0;
const fresh = (pathname = '/article') => `${site.url}${pathname}?cache-test=${++serial}`;

describe('native POST /webhook/unblocker with max_age', () => {
  it('a second identical scrape within max_age is a hit: the site is not asked, nothing is charged, a cached run is recorded', async () => {
    const url = fresh();
    const before = hitsOf('/article');
    const first = await scrape({ url, formats: ['markdown', 'links'], max_age: 600_000 });
    expect(first.status).toBe(200);
    expect(first.body.cache).toEqual({ state: 'miss' });
    expect(first.body.credits.cost).toBe(1);
    expect(hitsOf('/article')).toBe(before + 1);
    expect(await ledgerOfRun(account, first.body.id)).toEqual([['debit', -1]]);
    const balance = await balanceOf(stack.databaseUrl, account.userId);

    // The same request, its formats in another order: the same result, so the same key.
    const second = await scrape({ url, formats: ['links', 'markdown'], max_age: 600_000 });
    expect(second.status).toBe(200);
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body.cache.state).toBe('hit');
    expect(Date.parse(second.body.cache.cached_at)).toBeGreaterThan(0);
    expect(second.body.markdown).toBe(first.body.markdown);
    expect(second.body.links).toEqual(first.body.links);
    expect(second.body.credits).toEqual({ cost: 0, remaining: balance });
    expect(hitsOf('/article')).toBe(before + 1);
    expect(await ledgerOfRun(account, second.body.id)).toEqual([]);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(balance);
    expect(await runRow(second.body.id)).toMatchObject({ status: 'cached', cost: 0, cachedFrom: first.body.id });
    // What GET /pricing says a hit costs.
    expect((await request(stack.baseUrl, 'GET', '/pricing', {})).body.cache.hit).toBe(second.body.credits.cost);

    // History shows it: GET /webhook/runs/:id and the account's run list.
    const shown = await request(stack.baseUrl, 'GET', `/webhook/runs/${second.body.id}`, { 'x-api-key': account.apiKey });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ status: 'cached', result: { cache: { state: 'hit' }, markdown: first.body.markdown, credits: { cost: 0 } } });
    // A finished run cannot be cancelled.
    expect((await request(stack.baseUrl, 'POST', `/webhook/runs/${second.body.id}/cancel`, { 'x-api-key': account.apiKey })).status).toBe(409);
  });

  it('max_age 0 and no max_age fetch; a result older than max_age is not used', async () => {
    const url = fresh();
    const before = hitsOf('/article');
    expect((await scrape({ url, max_age: 600_000 })).body.cache.state).toBe('miss');
    const zero = await scrape({ url, max_age: 0 });
    expect(zero.status).toBe(200);
    expect(zero.body.cache).toBeUndefined();
    expect(zero.body.credits.cost).toBe(1);
    const none = await scrape({ url });
    expect(none.body.credits.cost).toBe(1);
    expect(hitsOf('/article')).toBe(before + 3);
    // The newest success is at least a few ms old: a max_age of 1 ms finds none.
    await waitFor('a millisecond to pass', async () => Date.now() > (await lastFinished(url)) + 5);
    expect((await scrape({ url, max_age: 1 })).body.cache.state).toBe('miss');
    expect(hitsOf('/article')).toBe(before + 4);
  });

  it("another account's result is never used", async () => {
    const url = fresh();
    const before = hitsOf('/article');
    expect((await scrape({ url, max_age: 600_000 })).body.cache.state).toBe('miss');
    const theirs = await scrape({ url, max_age: 600_000 }, other);
    expect(theirs.body.cache.state).toBe('miss');
    expect(theirs.body.credits.cost).toBe(1);
    expect(hitsOf('/article')).toBe(before + 2);
  });

  it('store_in_cache: false leaves the result out of the cache; an async hit answers 202 cached', async () => {
    const url = fresh();
    const before = hitsOf('/article');
    await scrape({ url, store_in_cache: false });
    expect((await scrape({ url, max_age: 600_000 })).body.cache.state).toBe('miss');
    expect(hitsOf('/article')).toBe(before + 2);
    const queued = await scrape({ url, max_age: 600_000, async: true });
    expect(queued.status).toBe(202);
    expect(queued.body.status).toBe('cached');
    expect(hitsOf('/article')).toBe(before + 2);
    expect(await runRow(queued.body.id)).toMatchObject({ status: 'cached', cost: 0 });
  });

  it('a browser hit brings its screenshot along, served under the cached run', async () => {
    const url = fresh();
    const first = await scrape({ url, mode: 'browser', formats: ['markdown', 'screenshot'], max_age: 600_000 });
    expect(first.status).toBe(200);
    const before = hitsOf('/article');
    const second = await scrape({ url, mode: 'browser', formats: ['markdown', 'screenshot'], max_age: 600_000 });
    expect(second.body).toMatchObject({ cache: { state: 'hit' }, credits: { cost: 0 }, screenshot: { url: `/webhook/runs/${second.body.id}/screenshot`, bytes: first.body.screenshot.bytes } });
    expect(hitsOf('/article')).toBe(before);
    const png = await fetch(`${stack.baseUrl}${second.body.screenshot.url}`, { headers: { 'x-api-key': account.apiKey } });
    expect(png.status).toBe(200);
    expect((await png.arrayBuffer()).byteLength).toBe(first.body.screenshot.bytes);
  });

  // Each never-cached kind: the second identical request fetches again and is charged again.
  const NEVER_CACHED: Array<[string, (url: string) => Record<string, unknown>, string]> = [
    ['cookies', (url) => ({ url, cookies: [{ name: 'c', value: '1' }] }), '/article'],
    ['a session', (url) => ({ url, session: { name: `cache-${serial}`, save: true } }), '/article'],
    ['actions', (url) => ({ url, mode: 'browser', actions: [{ type: 'scroll', direction: 'down' }] }), '/article'],
    ['custom headers', (url) => ({ url, headers: { 'x-test': 'yes' } }), '/echo'],
    ['a POST body', (url) => ({ url, method: 'POST', body: { a: 1 } }), '/echo'],
    ['a proxy choice', (url) => ({ url, proxy: 'none' }), '/article'],
  ];
  it.each(NEVER_CACHED)('a request with %s is never cached', async (_kind, body, pathname) => {
    const url = fresh(pathname);
    const before = hitsOf(pathname);
    const first = await scrape({ ...body(url), max_age: 600_000 });
    expect(first.status).toBe(200);
    const second = await scrape({ ...body(url), max_age: 600_000 });
    expect(second.status).toBe(200);
    expect(second.body.cache).toEqual({ state: 'miss' });
    expect(second.body.credits.cost).toBeGreaterThan(0);
    expect(hitsOf(pathname)).toBe(before + 2);
    expect(await runRow(second.body.id)).toMatchObject({ status: 'succeeded' });
  });
});

async function lastFinished(url: string): Promise<number> {
  const [row] = await sql<{ at: Date }>(stack.databaseUrl, `SELECT max("finishedAt") AS at FROM scrape_run WHERE url = $1 AND status = 'succeeded'`, [url]);
  return row!.at.getTime();
}

/** One call of the Python SDK (test/firecrawl/py_sdk.py), its outcome parsed. */
function py(method: string, args: unknown[], kwargs: Record<string, unknown> = {}): Promise<PyOutcome> {
  return runPy({ apiUrl: stack.baseUrl, apiKey: account.apiKey, client: 'v2', method, args, kwargs });
}

describe('Firecrawl SDKs: maxAge and metadata.cacheState', () => {
  it('firecrawl-js 4.42.0: maxAge answers the second scrape from the cache (cacheState hit, cachedAt, 0 credits)', async () => {
    const app = new Firecrawl({ apiKey: account.apiKey, apiUrl: stack.baseUrl });
    const url = fresh();
    const before = hitsOf('/article');
    const first = await app.scrape(url, { formats: ['markdown'], maxAge: 600_000 });
    expect(first.metadata).toMatchObject({ cacheState: 'miss', creditsUsed: 1 });
    const second = await app.scrape(url, { formats: ['markdown'], maxAge: 600_000 });
    expect(second.metadata).toMatchObject({ cacheState: 'hit', creditsUsed: 0 });
    expect(Date.parse(second.metadata!.cachedAt!)).toBeGreaterThan(0);
    expect(second.markdown).toBe(first.markdown);
    expect(hitsOf('/article')).toBe(before + 1);
    // maxAge: 0 always fetches.
    expect((await app.scrape(url, { formats: ['markdown'], maxAge: 0 })).metadata).toMatchObject({ cacheState: 'miss', creditsUsed: 1 });
    expect(hitsOf('/article')).toBe(before + 2);
    expect(await ledgerOfRun(account, second.metadata!.scrapeId!)).toEqual([]);
  });

  it('firecrawl-py 4.55.0: its default max_age (4 h) answers a repeat from the cache; max_age=0 fetches', async () => {
    const url = fresh();
    const before = hitsOf('/article');
    const first = await py('scrape', [url], { formats: ['markdown'] });
    expect(first).toMatchObject({ ok: true, value: { metadata: { cache_state: 'miss', credits_used: 1 } } });
    const second = await py('scrape', [url], { formats: ['markdown'] });
    expect(second).toMatchObject({ ok: true, value: { markdown: first.value!.markdown, metadata: { cache_state: 'hit', credits_used: 0 } } });
    expect(Date.parse(second.value!.metadata.cached_at)).toBeGreaterThan(0);
    expect(hitsOf('/article')).toBe(before + 1);
    const third = await py('scrape', [url], { formats: ['markdown'], max_age: 0 });
    expect(third).toMatchObject({ ok: true, value: { metadata: { cache_state: 'miss', credits_used: 1 } } });
    expect(hitsOf('/article')).toBe(before + 2);
  });
});

describe('crawl and batch honour max_age per page', () => {
  it('a batch page scraped before is taken from the cache (not fetched, not charged); the other is fetched', async () => {
    const cachedUrl = fresh();
    const newUrl = fresh();
    expect((await scrape({ url: cachedUrl, max_age: 600_000 })).body.cache.state).toBe('miss');
    const before = hitsOf('/article');
    const started = await request(stack.baseUrl, 'POST', '/batch/scrape', { 'x-api-key': account.apiKey }, { urls: [cachedUrl, newUrl], scrape: { max_age: 600_000 } });
    expect(started.status).toBe(202);
    const id = (started.body).id as string;
    const job = await waitFor('the batch to finish', async () => {
      const shown = (await request(stack.baseUrl, 'GET', `/crawl/${id}`, { 'x-api-key': account.apiKey })).body;
      return shown.status === 'completed' ? shown : undefined;
    });
    expect(hitsOf('/article')).toBe(before + 1);
    const pages = ((await request(stack.baseUrl, 'GET', `/crawl/${id}/pages`, { 'x-api-key': account.apiKey })).body).pages as Body[];
    const runOf = (url: string) => pages.find((page) => page.url === url)!.run_id as string;
    expect(await runRow(runOf(cachedUrl))).toMatchObject({ status: 'cached', cost: 0 });
    expect(await runRow(runOf(newUrl))).toMatchObject({ status: 'succeeded', cost: 1 });
    expect(await ledgerOfRun(account, runOf(cachedUrl))).toEqual([]);
    expect(job.credits).toBe(1);
  });

  it('firecrawl-js batchScrape with maxAge: the cached page is a hit of 0 credits, the job charged only for the fetched one', async () => {
    const app = new Firecrawl({ apiKey: account.apiKey, apiUrl: stack.baseUrl });
    const cachedUrl = fresh();
    const newUrl = fresh();
    await app.scrape(cachedUrl, { formats: ['markdown'], maxAge: 600_000 });
    const before = hitsOf('/article');
    const job = await app.batchScrape([cachedUrl, newUrl], { options: { formats: ['markdown'], maxAge: 600_000 }, pollInterval: 1 });
    expect(job).toMatchObject({ status: 'completed', completed: 2, creditsUsed: 1 });
    const byUrl = new Map(job.data.map((doc) => [doc.metadata!.sourceURL, doc.metadata!]));
    expect(byUrl.get(cachedUrl)).toMatchObject({ cacheState: 'hit', creditsUsed: 0 });
    expect(byUrl.get(newUrl)).toMatchObject({ cacheState: 'miss', creditsUsed: 1 });
    expect(hitsOf('/article')).toBe(before + 1);
  });
});
