/**
 * Firecrawl-compatible crawl and batch scrape (docs/firecrawl.md "Crawl and batch scrape") driven
 * by the official SDKs, unchanged, with only the base URL set: `firecrawl-py` 4.55.0 (its
 * waiting `crawl()`, `start_crawl` + `get_crawl_status`, `cancel_crawl`, include/exclude, robots,
 * batch) and `@mendable/firecrawl-js` 4.42.0 (`crawl`, `startCrawl` + `getCrawlStatus` following
 * `next`, `cancelCrawl`, v1 `crawlUrl`). Real API and worker processes, Temporal, PostgreSQL,
 * against the crawl fixture site on loopback. After each job the ledger says what was charged: one
 * debit per page, a refund for each page that failed; and a webhook receiver on loopback gets the
 * Firecrawl-shaped events, signed.
 */
import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import Firecrawl, { FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { type CrawlSite, startCrawlSite } from '../../test/fixtures/crawl-site';
import { type TestAccount, createAccount, ledgerOf, setBalance, sql } from '../../test/helpers/accounts';
import { call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';
import { type EventReceiver, startEventReceiver } from '../../test/helpers/webhook-receiver';
import { type PyCall, type PyOutcome, firecrawlPython } from '../../test/helpers/firecrawl-py';

jest.setTimeout(600_000);

let site: CrawlSite;
let receiver: EventReceiver;
let stack: Stack;
let account: TestAccount;
let runPy: (call: PyCall) => Promise<PyOutcome>;
let webhookSecret: string;

beforeAll(async () => {
  runPy = firecrawlPython({ maxBuffer: 256 * 1024 * 1024 });
  [site, receiver] = await Promise.all([startCrawlSite(), startEventReceiver()]);
  stack = await startStack({ env: { WEBHOOK_PRIVATE_ALLOWLIST: '127.0.0.1', WEBHOOK_RETRY_INITIAL_MS: '100', WEBHOOK_RETRY_MAX_INTERVAL_MS: '200', WEBHOOK_RETRY_WINDOW_MS: '8000' } });
  account = await createAccount(stack.baseUrl);
  const secret = await call(stack.baseUrl, 'GET', '/api/webhook-secret', { cookie: account.cookie });
  webhookSecret = secret.body.secret as string;
}, 600_000);

afterAll(async () => {
  await stack?.stop();
  await Promise.all([site?.close(), receiver?.close()]);
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, account.userId, 100_000);
  site.reset();
  site.setPageDelay(0);
});

/** One call of the Python SDK (test/firecrawl/py_sdk.py), its outcome parsed. */
function py(method: string, args: unknown[], kwargs: Record<string, unknown> = {}, client: 'v1' | 'v2' = 'v2'): Promise<PyOutcome> {
  return runPy({ apiUrl: stack.baseUrl, apiKey: account.apiKey, client, method, args, kwargs });
}

const js = () => new Firecrawl({ apiKey: account.apiKey, apiUrl: stack.baseUrl });

interface JobRow {
  id: string;
  kind: string;
  status: string;
}
const jobRow = async (id: string) => (await sql<JobRow>(stack.databaseUrl, 'SELECT id, kind, status::text AS status FROM crawl WHERE id = $1', [id]))[0];
interface PageRunRow {
  id: string;
  url: string;
  status: string;
}
/** The job's page runs (scrape_run rows under its workflow). */
const pageRuns = (id: string) => sql<PageRunRow>(stack.databaseUrl, `SELECT id, url, status::text AS status FROM scrape_run WHERE "workflowId" = $1`, [`crawl-${id}`]);

/**
 * The ledger of a job: every page run that succeeded has exactly one debit of a credit and no
 * refund; a failed one its debit and its refund; a cancelled one its debit kept when it was
 * debited (a crawl's cancel keeps what was spent, docs/crawl.md). Returns the credits kept.
 */
async function expectLedgerOfJob(id: string): Promise<number> {
  const runs = await pageRuns(id);
  const ledger = await ledgerOf(stack.databaseUrl, account.userId);
  let kept = 0;
  for (const run of runs) {
    const rows = ledger.filter((row) => row.runId === run.id).map((row) => [row.reason, row.amount]);
    if (run.status === 'succeeded') expect(rows).toEqual([['debit', -1]]);
    else if (run.status === 'failed') expect(rows).toEqual(rows.length ? [['debit', -1], ['refund', 1]] : []);
    else expect(['cancelled']).toContain(run.status);
    kept -= rows.reduce((sum, [, amount]) => sum + (amount as number), 0);
  }
  return kept;
}

const urlsOf = (docs: Array<{ metadata?: { sourceURL?: string; source_url?: string } }>) => docs.map((d) => d.metadata?.sourceURL ?? d.metadata?.source_url).sort();

describe('Python SDK (firecrawl-py 4.55.0)', () => {
  it('crawl() waits for the job: every page a document, one debit per page, the job the native one', async () => {
    // crawlEntireDomain false (the default): only the start path and its children; /docs/0 has none (its links are /docs/1, /docs/2, …).
    const children = await py('crawl', [`${site.url}/docs/0`], { limit: 5, sitemap: 'skip', poll_interval: 1 });
    expect(children.ok).toBe(true);
    expect(urlsOf(children.value.data)).toEqual([`${site.url}/docs/0`]);

    // max_age 0: every page fetched (the SDK's default of 4 h would take /docs/0 from the results cache, free).
    const out = await py('crawl', [`${site.url}/docs/0`], { limit: 5, sitemap: 'skip', crawl_entire_domain: true, include_paths: ['^/docs/'], poll_interval: 1, scrape_options: { formats: ['markdown', 'links'], max_age: 0 } });
    expect(out).toMatchObject({ ok: true, type: 'CrawlJob' });
    const job = out.value;
    expect(job).toMatchObject({ status: 'completed', completed: 5, total: 5, credits_used: 5 });
    expect(job.data).toHaveLength(5);
    for (const doc of job.data) {
      expect(doc.metadata.source_url).toMatch(new RegExp(`^${site.url}/docs/\\d+$`));
      expect(doc.markdown.length).toBeGreaterThan(0);
      expect(Array.isArray(doc.links)).toBe(true);
      expect(doc.metadata.status_code).toBe(200);
    }
    const id = (await sql<{ id: string }>(stack.databaseUrl, `SELECT id FROM crawl WHERE "userId" = $1 ORDER BY "createdAt" DESC LIMIT 1`, [account.userId]))[0]!.id;
    expect(await jobRow(id)).toMatchObject({ kind: 'crawl', status: 'completed' });
    expect(await expectLedgerOfJob(id)).toBe(5);
    const native = await call(stack.baseUrl, 'GET', `/crawl/${id}`, { 'x-api-key': account.apiKey });
    expect(native.body).toMatchObject({ id, kind: 'crawl', status: 'completed', completed: 5, credits: 5 });
  });

  it('include/exclude paths are the crawl’s scope', async () => {
    const out = await py('crawl', [`${site.url}/`], { include_paths: ['^/docs/[0-9]$'], exclude_paths: ['^/docs/[5-9]$'], sitemap: 'skip', poll_interval: 1 });
    expect(out.ok).toBe(true);
    expect(urlsOf(out.value.data)).toEqual(['/', '/docs/0', '/docs/1', '/docs/2', '/docs/3', '/docs/4'].map((p) => `${site.url}${p}`).sort());
  });

  it('respects robots.txt unless ignore_robots_txt; the blocked URLs are in the errors answer', async () => {
    const kept = await py('crawl', [`${site.url}/`], { include_paths: ['^/private/'], sitemap: 'skip', poll_interval: 1 });
    expect(kept.ok).toBe(true);
    expect(urlsOf(kept.value.data)).toEqual([`${site.url}/`, `${site.url}/private/public`]);
    const id = (await sql<{ id: string }>(stack.databaseUrl, `SELECT id FROM crawl WHERE "userId" = $1 ORDER BY "createdAt" DESC LIMIT 1`, [account.userId]))[0]!.id;
    const errors = await py('get_crawl_errors', [id]);
    expect(errors.ok).toBe(true);
    expect(errors.value.robots_blocked).toEqual([`${site.url}/private/0`]);
    expect(site.hits('/private/0')).toBe(0);

    const ignored = await py('crawl', [`${site.url}/`], { include_paths: ['^/private/'], sitemap: 'skip', ignore_robots_txt: true, poll_interval: 1 });
    expect(ignored.ok).toBe(true);
    expect(urlsOf(ignored.value.data)).toEqual([`${site.url}/`, `${site.url}/private/public`, ...Array.from({ length: 10 }, (_, i) => `${site.url}/private/${i}`)].sort());
  });

  it('start_crawl, get_crawl_status until completed, cancel_crawl of a running job (then False: 409)', async () => {
    const started = await py('start_crawl', [`${site.url}/`], { limit: 3, sitemap: 'skip' });
    expect(started).toMatchObject({ ok: true, type: 'CrawlResponse' });
    expect(started.value.url).toBe(`${stack.baseUrl}/v2/crawl/${started.value.id}`);
    const done = await waitFor('the crawl completed', async () => {
      const status = await py('get_crawl_status', [started.value.id]);
      expect(status.ok).toBe(true);
      return status.value.status === 'completed' ? status.value : undefined;
    }, 180_000);
    expect(done).toMatchObject({ completed: 3, total: 3 });
    expect(done.data).toHaveLength(3);

    site.setPageDelay(2_000);
    const slow = await py('start_crawl', [`${site.url}/`], { limit: 50, sitemap: 'skip', max_concurrency: 2 });
    await waitFor('a page of the slow crawl in flight', async () => (await pageRuns(slow.value.id)).length > 0, 120_000);
    const cancelled = await py('cancel_crawl', [slow.value.id]);
    expect(cancelled).toMatchObject({ ok: true, value: true });
    await waitFor('the cancel recorded', async () => (await jobRow(slow.value.id))?.status === 'cancelled', 120_000);
    expect((await py('get_crawl_status', [slow.value.id])).value.status).toBe('cancelled');
    expect(await py('cancel_crawl', [slow.value.id])).toMatchObject({ ok: true, value: false });
    await expectLedgerOfJob(slow.value.id);
  });

  it('batch_scrape waits for the batch; a failing URL is refunded and listed in the errors', async () => {
    const urls = [`${site.url}/blog`, `${site.url}/shop`, `${site.url}/docs/1`, `${site.url}/reset`];
    const out = await py('batch_scrape', [urls], { formats: ['markdown'], poll_interval: 1 });
    expect(out).toMatchObject({ ok: true, type: 'BatchScrapeJob' });
    expect(out.value).toMatchObject({ status: 'completed', completed: 3, total: 4, credits_used: 3 });
    expect(urlsOf(out.value.data)).toEqual(urls.slice(0, 3).sort());
    const id = (await sql<{ id: string }>(stack.databaseUrl, `SELECT id FROM crawl WHERE "userId" = $1 ORDER BY "createdAt" DESC LIMIT 1`, [account.userId]))[0]!.id;
    expect(await jobRow(id)).toMatchObject({ kind: 'batch', status: 'completed' });
    expect(await expectLedgerOfJob(id)).toBe(3);
    const errors = await py('get_batch_scrape_errors', [id]);
    expect(errors.ok).toBe(true);
    expect(errors.value.errors).toEqual([expect.objectContaining({ url: `${site.url}/reset`, id: expect.any(String), error: expect.any(String) })]);
  });

  it('sends crawl.started, crawl.page and crawl.completed to the webhook, Firecrawl-shaped, with its headers and both signatures', async () => {
    receiver.setSecret('/fc', webhookSecret);
    const webhook = { url: `${receiver.origin}/fc`, headers: { 'x-custom': 'yes' }, metadata: { order: '42' }, events: ['started', 'page', 'completed'] };
    const started = await py('start_crawl', [`${site.url}/docs/0`], { limit: 3, sitemap: 'skip', crawl_entire_domain: true, include_paths: ['^/docs/'], webhook });
    expect(started.ok).toBe(true);
    const id = started.value.id as string;
    const events = await waitFor('the webhook events', () => {
      const mine = receiver.received.filter((d) => d.path === '/fc' && (d.event as { id?: string }).id === id);
      return Promise.resolve(mine.some((d) => (d.event as { type: string }).type === 'crawl.completed') && mine.length >= 5 ? mine : undefined);
    }, 180_000);
    const types = events.map((d) => (d.event as { type: string }).type);
    expect(types.filter((t) => t === 'crawl.started')).toHaveLength(1);
    expect(types.filter((t) => t === 'crawl.page')).toHaveLength(3);
    expect(types.filter((t) => t === 'crawl.completed')).toHaveLength(1);
    for (const delivery of events) {
      expect(delivery.verified).toBe(true);
      expect(delivery.headers['x-firecrawl-signature']).toBe(`sha256=${createHmac('sha256', webhookSecret).update(delivery.body).digest('hex')}`);
      expect(delivery.headers['x-custom']).toBe('yes');
      expect(delivery.event).toMatchObject({ success: true, id, metadata: { order: '42' }, webhookId: expect.any(String) });
    }
    const pages = events.filter((d) => (d.event as { type: string }).type === 'crawl.page').map((d) => (d.event as { data: Array<{ markdown: string; metadata: { sourceURL: string } }> }).data[0]!);
    for (const page of pages) {
      expect(page.markdown.length).toBeGreaterThan(0);
      expect(page.metadata.sourceURL).toMatch(new RegExp(`^${site.url}/docs/`));
    }
    // A receiver keeping Stripe's check works too (the same x-signature as our own events).
    expect(() => new Stripe('sk_test_unused').webhooks.constructEvent(events[0]!.body, events[0]!.signature, webhookSecret)).not.toThrow();
    // The webhook's headers (a receiver's credentials, as a rule) are sealed at rest: in the job's row and in every delivery row.
    const [job] = await sql<{ request: string }>(stack.databaseUrl, 'SELECT request::text AS request FROM crawl WHERE id = $1', [id]);
    const deliveries = await sql<{ headers: string }>(stack.databaseUrl, `SELECT "firecrawlHeaders"::text AS headers FROM webhook_delivery WHERE url = $1`, [webhook.url]);
    expect(deliveries.length).toBeGreaterThanOrEqual(5);
    for (const stored of [job!.request, ...deliveries.map((d) => d.headers)]) {
      expect(stored).toContain('"x-custom": "$sealed:v1:');
      expect(stored).not.toContain('"yes"');
    }
  });
});

describe('JS SDK (@mendable/firecrawl-js 4.42.0)', () => {
  it('startCrawl and getCrawlStatus follow `next` through every document; crawl() waits', async () => {
    const started = await js().startCrawl(`${site.url}/`, { limit: 130, sitemap: 'skip', maxConcurrency: 8 });
    expect(started.url).toBe(`${stack.baseUrl}/v2/crawl/${started.id}`);
    await waitFor('the large crawl completed', async () => (await jobRow(started.id))?.status === 'completed', 300_000);
    // The first page alone has 100 documents and a `next`; the SDK follows it.
    const first = await call(stack.baseUrl, 'GET', `/v2/crawl/${started.id}`, { authorization: `Bearer ${account.apiKey}` });
    expect(first.body.data).toHaveLength(100);
    expect(first.body.next).toBe(`${stack.baseUrl}/v2/crawl/${started.id}?skip=100`);
    const status = await js().getCrawlStatus(started.id);
    expect(status.status).toBe('completed');
    expect(status.data).toHaveLength(status.completed);
    expect(status.completed).toBeGreaterThan(100);
    expect(new Set(status.data.map((d) => d.metadata?.sourceURL)).size).toBe(status.completed);
    expect(await expectLedgerOfJob(started.id)).toBe(status.creditsUsed);

    const waited = await js().crawl(`${site.url}/docs/0`, { limit: 2, sitemap: 'skip', crawlEntireDomain: true, includePaths: ['^/docs/'], pollInterval: 1 });
    expect(waited).toMatchObject({ status: 'completed', completed: 2 });
    expect(waited.data).toHaveLength(2);
  });

  it('cancelCrawl cancels a running crawl; a second cancel is a 409 error', async () => {
    site.setPageDelay(2_000);
    const started = await js().startCrawl(`${site.url}/`, { limit: 50, sitemap: 'skip', maxConcurrency: 2 });
    await waitFor('a page in flight', async () => (await pageRuns(started.id)).length > 0, 120_000);
    expect(await js().cancelCrawl(started.id)).toBe(true);
    await waitFor('the cancel recorded', async () => (await jobRow(started.id))?.status === 'cancelled', 120_000);
    expect((await js().getCrawlStatus(started.id)).status).toBe('cancelled');
    await expect(js().cancelCrawl(started.id)).rejects.toMatchObject({ status: 409 });
    await expectLedgerOfJob(started.id);
  });

  it('batchScrape sends batch_scrape.* events to a webhook given as a URL; v1 batchScrapeUrls and checkCrawlErrors work on the v1 routes', async () => {
    receiver.setSecret('/fc-batch', webhookSecret);
    const urls = [`${site.url}/blog`, `${site.url}/shop`];
    const job = await js().batchScrape(urls, { options: { formats: ['markdown'] }, webhook: `${receiver.origin}/fc-batch`, pollInterval: 1 });
    expect(job).toMatchObject({ status: 'completed', completed: 2, total: 2, creditsUsed: 2 });
    expect(urlsOf(job.data as Array<{ metadata?: { sourceURL?: string } }>)).toEqual(urls.sort());
    const events = await waitFor('the batch webhook events', () => {
      const mine = receiver.received.filter((d) => d.path === '/fc-batch');
      return Promise.resolve(mine.some((d) => (d.event as { type: string }).type === 'batch_scrape.completed') && mine.length >= 4 ? mine : undefined);
    }, 180_000);
    expect(events.map((d) => (d.event as { type: string }).type).sort()).toEqual(['batch_scrape.completed', 'batch_scrape.page', 'batch_scrape.page', 'batch_scrape.started']);
    expect(events.every((d) => d.verified)).toBe(true);

    // The v1 SDK polls a batch on /v1/crawl/:id and asks for errors with DELETE /v1/crawl/:id/errors.
    const app = new FirecrawlAppV1({ apiKey: account.apiKey, apiUrl: stack.baseUrl });
    const v1 = await app.batchScrapeUrls([`${site.url}/docs/1`, `${site.url}/reset`], { formats: ['markdown'] }, 2);
    expect(v1).toMatchObject({ success: true, status: 'completed', completed: 1, total: 2 });
    const id = (await sql<{ id: string }>(stack.databaseUrl, `SELECT id FROM crawl WHERE "userId" = $1 ORDER BY "createdAt" DESC LIMIT 1`, [account.userId]))[0]!.id;
    expect(await jobRow(id)).toMatchObject({ kind: 'batch' });
    expect(await expectLedgerOfJob(id)).toBe(1);
    const errors = await app.checkCrawlErrors(id);
    expect(errors).toMatchObject({ errors: [expect.objectContaining({ url: `${site.url}/reset` })], robotsBlocked: [] });
  });

  it('v1 crawlUrl waits for the crawl on /v1/crawl', async () => {
    const app = new FirecrawlAppV1({ apiKey: account.apiKey, apiUrl: stack.baseUrl });
    const out = await app.crawlUrl(`${site.url}/docs/0`, { limit: 3, ignoreSitemap: true, allowBackwardLinks: true, includePaths: ['^/docs/'] }, 2);
    expect(out).toMatchObject({ success: true, status: 'completed', completed: 3, total: 3 });
    expect((out as { data: unknown[] }).data).toHaveLength(3);
  });
});
