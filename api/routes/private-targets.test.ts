/**
 * The private-address guard end to end, switched on as a production deployment runs it
 * (ALLOW_PRIVATE_TARGETS=false): real API and worker processes, Temporal, PostgreSQL and Debian's
 * Chromium. The "public site" is the fixture server on a public-range address added to this
 * host's loopback interface (test/helpers/public-address.ts); what it redirects or links to is on
 * loopback (127.0.0.1, [::1], localhost: fixture servers that count every request), private
 * (10.x, 192.168.x) or link-local (169.254.169.254) addresses. Every refusal is asserted through
 * the real routes: its answer (403 PRIVATE_TARGET in the standard body), the run's record, the
 * ledger (nothing charged for refused work), and that nothing reached the loopback servers.
 */
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance } from '../../test/helpers/accounts';
import { type WebhookReceiver, nodeOf, startWebhookReceiver, waitForFlowRun } from '../../test/helpers/flows';
import { type Answer, type Json, call } from '../../test/helpers/http';
import { type PublicAddress, addPublicAddress } from '../../test/helpers/public-address';
import { auditRunsAndLedger, runsOf } from '../../test/helpers/run-ledger';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';

jest.setTimeout(300_000);

let address: PublicAddress | undefined;
/** The "public" site: the fixture server on the public-range address. */
let site: FixtureServer;
/** What a request that got past the guard would reach: fixture servers on 127.0.0.1 and [::1]. */
let loopback: FixtureServer;
let loopback6: FixtureServer;
/** A flow webhook receiver on 127.0.0.1. */
let receiver: WebhookReceiver;
let stack: Stack;
let account: TestAccount;

beforeAll(async () => {
  address = await addPublicAddress();
  [site, loopback, loopback6, receiver] = await Promise.all([
    startFixtureServer({ host: address.address }),
    startFixtureServer(),
    startFixtureServer({ host: '::1' }),
    startWebhookReceiver(),
  ]);
  stack = await startStack({ privateTargetGuard: true });
  account = await createAccount(stack.baseUrl);
});

afterAll(async () => {
  await stack?.stop();
  await Promise.all([site?.close(), loopback?.close(), loopback6?.close(), receiver?.close()]);
  await address?.release();
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, account.userId, 1000);
  loopback.resetCounters();
  loopback6.resetCounters();
  receiver.received.length = 0;
});

afterEach(() => {
  // Whatever a test did, nothing it sent got past the guard.
  expect({ loopback: Object.fromEntries(loopback.hits), loopback6: Object.fromEntries(loopback6.hits), receiver: receiver.received.length }).toEqual({ loopback: {}, loopback6: {}, receiver: 0 });
});

const key = () => ({ 'x-api-key': account.apiKey });
const api = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, key(), body);
const scrape = (body: Json) => api('POST', '/webhook/unblocker', body);

/** The private targets, by kind (functions: the servers start in beforeAll). */
const PRIVATE_TARGETS: Array<[string, () => string]> = [
  ['loopback 127.0.0.1', () => `${loopback.url}/page/secret`],
  ['IPv6 loopback [::1]', () => `${loopback6.url}/page/secret`],
  ['localhost', () => `http://localhost:${loopback.port}/page/secret`],
  ['private 10.x', () => 'http://10.0.0.1/page/secret'],
  ['private 192.168.x', () => 'http://192.168.1.1/page/secret'],
  ['link-local 169.254.169.254 (cloud metadata)', () => 'http://169.254.169.254/latest/meta-data/'],
];

/** A page of the public site that redirects (with `status`) to `url`. */
const redirectTo = (url: string, status = 302) => `${site.url}/redirect-to?url=${encodeURIComponent(url)}&status=${status}`;

/** The ledger rows of one run, as [reason, amount]. */
const ledgerOfRun = async (runId: string) => (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.runId === runId).map((row) => [row.reason, row.amount]);

/**
 * A scrape refused by the guard after it started (a redirect hop): 403 PRIVATE_TARGET in the
 * standard failed-run body, one attempt (a refusal is not retried), the run recorded failed with
 * that code, its debit refunded, the balance as before.
 */
async function expectRefusedAndRefunded(answer: Answer, balanceBefore: number): Promise<void> {
  expect(answer).toMatchObject({ status: 403, body: { statusCode: 403, error: 'Forbidden', code: 'PRIVATE_TARGET', id: expect.any(String), attempts: 1, refunded: true } });
  const id = answer.body.id as string;
  const run = await api('GET', `/webhook/runs/${id}`);
  expect(run.body).toMatchObject({ status: 'failed', error: { code: 'PRIVATE_TARGET', refunded: true } });
  const cost = (await runsOf(stack.databaseUrl, account.userId)).find((r) => r.id === id)!.cost;
  expect(cost).toBeGreaterThan(0);
  expect(await ledgerOfRun(id)).toEqual([
    ['debit', -cost],
    ['refund', cost],
  ]);
  expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(balanceBefore);
}

describe('the public site is reachable with the guard on (what every refusal below is measured against)', () => {
  it.each(['http', 'browser'])('%s mode: a page and a redirect within the site succeed, and are charged once', async (mode) => {
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const direct = await scrape({ url: `${site.url}/page/public`, mode, selectors: ['h1'] });
    expect(direct).toMatchObject({ status: 200, body: { data: [{ selector: 'h1', results: [{ text: 'Page public' }] }] } });
    const redirected = await scrape({ url: redirectTo(`${site.url}/page/moved`, 301), mode, selectors: ['h1'] });
    expect(redirected).toMatchObject({ status: 200, body: { final_url: `${site.url}/page/moved`, data: [{ selector: 'h1', results: [{ text: 'Page moved' }] }] } });
    const costs = (direct.body.credits as Json).cost + (redirected.body.credits as Json).cost;
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before - costs);
    expect(await ledgerOfRun(direct.body.id as string)).toEqual([['debit', -(direct.body.credits as Json).cost]]);
  });
});

describe('http mode: a redirect from the public site to a private address', () => {
  const cases = PRIVATE_TARGETS.flatMap(([kind, target]) => [301, 302, 307].map((status) => [`${status} to ${kind}`, status, target] as const));

  it.each(cases)('%s: 403 PRIVATE_TARGET, refunded', async (_name, status, target) => {
    const before = await balanceOf(stack.databaseUrl, account.userId);
    await expectRefusedAndRefunded(await scrape({ url: redirectTo(target(), status), selectors: ['h1'] }), before);
  });

  it.each(PRIVATE_TARGETS)('a chain of three hops through the public site, then to %s: 403 PRIVATE_TARGET, refunded', async (_kind, target) => {
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const chain = redirectTo(redirectTo(redirectTo(target(), 307), 301), 302);
    const hitsBefore = site.hits.get('/redirect-to') ?? 0;
    await expectRefusedAndRefunded(await scrape({ url: chain, selectors: ['h1'] }), before);
    // Every public hop was followed; the refusal is the last one's.
    expect((site.hits.get('/redirect-to') ?? 0) - hitsBefore).toBe(3);
  });
});

describe('browser mode', () => {
  it.each(PRIVATE_TARGETS)('a redirect of the page to %s: 403 PRIVATE_TARGET, refunded', async (_kind, target) => {
    const before = await balanceOf(stack.databaseUrl, account.userId);
    await expectRefusedAndRefunded(await scrape({ url: redirectTo(target()), mode: 'browser', selectors: ['h1'] }), before);
  });

  it.each(PRIVATE_TARGETS)('a page whose script navigates to %s: 403 PRIVATE_TARGET, refunded', async (_kind, target) => {
    const before = await balanceOf(stack.databaseUrl, account.userId);
    await expectRefusedAndRefunded(await scrape({ url: `${site.url}/navigate-to?url=${encodeURIComponent(target())}`, mode: 'browser', selectors: ['h1'] }), before);
  });

  it.each(PRIVATE_TARGETS)('a page loading %s as an image and with fetch(), directly and through a redirect: the page is scraped and charged, the requests are refused', async (_kind, target) => {
    for (const src of [target(), redirectTo(target())]) {
      const before = await balanceOf(stack.databaseUrl, account.userId);
      const answer = await scrape({ url: `${site.url}/embed?src=${encodeURIComponent(src)}`, mode: 'browser', wait_for: 'body[data-fetch]', selectors: [{ name: 'fetch', selector: 'body', attribute: 'data-fetch' }], capture_network: true });
      expect(answer).toMatchObject({ status: 200, body: { data: [{ name: 'fetch', results: [{ attributes: { 'data-fetch': 'failed' } }] }] } });
      // The page's requests toward the private address: aborted by the page's guard (a direct
      // request), or, for a redirect hop (which Playwright does not route), answered 403 by the
      // egress proxy that Chromium must go through (scrape/browser/egress-proxy.ts).
      const network = answer.body.network as Array<{ url: string; status: number | null; error?: string; response_headers: Record<string, string> }>;
      const towardPrivate = network.filter((entry) => entry.url === target());
      expect(towardPrivate.length).toBeGreaterThan(0);
      if (src === target()) {
        for (const entry of towardPrivate) expect(entry).toMatchObject({ status: null, error: expect.stringContaining('ERR_BLOCKED_BY_CLIENT') });
      } else {
        // The image gets the proxy's refusal; fetch() reports it as a failed request (CORS).
        const answered = towardPrivate.filter((entry) => entry.status !== null);
        expect(answered.length).toBeGreaterThan(0);
        for (const entry of answered) expect(entry).toMatchObject({ status: 403, response_headers: { 'x-scrape-guard': 'PRIVATE_TARGET' } });
      }
      const cost = (answer.body.credits as Json).cost as number;
      expect(await ledgerOfRun(answer.body.id as string)).toEqual([['debit', -cost]]);
      expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before - cost);
    }
  });
});

describe('a crawl whose site links to private addresses', () => {
  it('refuses every private page (nothing fetched, nothing charged) and crawls the public ones', async () => {
    const targets = PRIVATE_TARGETS.map(([, target]) => target());
    const start = `${site.url}/links-to?${[...targets, redirectTo(targets[0]!), `${site.url}/page/1`].map((url) => `url=${encodeURIComponent(url)}`).join('&')}`;
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const started = await api('POST', '/crawl', { url: start, same_origin: false, max_depth: 1, sitemap: 'skip', per_host_delay_ms: 0, scrape: { formats: ['links'] } });
    expect(started.status).toBe(202);
    const id = started.body.id as string;
    const ended = await waitFor(`crawl ${id} ended`, async () => {
      const got = await api('GET', `/crawl/${id}`);
      return ['completed', 'failed', 'cancelled', 'credit_exhausted'].includes(got.body.status as string) ? got.body : undefined;
    }, 240_000);
    const pages = (await api('GET', `/crawl/${id}/pages?limit=1000`)).body.pages as Json[];
    const byUrl = new Map(pages.map((page) => [page.url as string, page]));
    // The public pages were crawled.
    expect(byUrl.get(`${site.url}/page/1`)).toMatchObject({ status: 'succeeded' });
    expect(ended).toMatchObject({ status: 'completed' });
    // Each private link is a page refused by the guard: failed PRIVATE_TARGET, its debit refunded
    // (the audit below); none was fetched (afterEach), nor its host's robots.txt.
    const privatePages = pages.filter((page) => page.url !== start && page.url !== `${site.url}/page/1`);
    expect(privatePages).toHaveLength(PRIVATE_TARGETS.length + 1);
    for (const page of privatePages) expect(page).toMatchObject({ status: 'failed', error: { code: 'PRIVATE_TARGET' } });
    expect(ended).toMatchObject({ completed: 2, failed: privatePages.length });
    const audit = await auditRunsAndLedger(stack.databaseUrl, account.userId, pages.map((page) => page.run_id as string).filter(Boolean));
    expect({ missing: audit.missing, doubleDebits: audit.doubleDebits, wrongRefunds: audit.wrongRefunds, debitsWithoutRun: audit.debitsWithoutRun }).toEqual({ missing: [], doubleDebits: [], wrongRefunds: [], debitsWithoutRun: [] });
    // What the crawl kept is the two public pages' price, nothing for the refused ones.
    const crawlRuns = new Set(pages.map((page) => page.run_id));
    const kept = audit.runs.filter((run) => crawlRuns.has(run.id) && run.status === 'succeeded').reduce((sum, run) => sum + run.cost, 0);
    expect(ended.credits).toBe(kept);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before - kept);
  });
});

describe('a flow webhook node pointing at a private address', () => {
  it('fails the node with PRIVATE_TARGET and posts nothing; only the scrape node is charged', async () => {
    const webhookTargets = [receiver.url, redirectTo(receiver.url, 307), 'http://169.254.169.254/latest/meta-data/', `http://localhost:${new URL(receiver.url).port}/hook`];
    const created = await api('POST', '/flows', {
      name: 'private webhooks',
      nodes: [
        { id: 'page', type: 'scrape', config: { url: `${site.url}/page/flow`, selectors: ['h1'] } },
        ...webhookTargets.map((url, i) => ({ id: `hook${i}`, type: 'webhook', needs: ['page'], config: { url } })),
      ],
    });
    expect(created.status).toBe(201);
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const started = await api('POST', `/flows/${created.body.id}/runs`);
    expect(started.status).toBe(202);
    const run = await waitForFlowRun(stack.baseUrl, key(), created.body.id as string, started.body.id as string);
    expect(run.status).toBe('failed');
    expect(nodeOf(run, 'page')).toMatchObject({ status: 'succeeded' });
    webhookTargets.forEach((_url, i) => expect(nodeOf(run, `hook${i}`)).toMatchObject({ status: 'failed', error: { code: 'PRIVATE_TARGET' } }));
    const pageCost = (run.credits as Json).spent as number;
    expect(pageCost).toBeGreaterThan(0);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before - pageCost);
  });
});
