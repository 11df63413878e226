/**
 * Crawling rules end to end (docs/crawl.md "robots.txt", "How a crawl runs", "Map";
 * docs/operations.md "Limits"): real API and worker processes, Temporal, PostgreSQL and the crawl
 * fixture site, whose robots lab hosts answer robots.txt with the status a test sets.
 * - a robots.txt answering 5xx means "disallow all" until it can be read; 4xx means allow all;
 *   one never readable is given up on (its pages skipped, never fetched);
 * - a page waiting for its host's politeness delay holds no concurrency slot;
 * - POST /map honours robots.txt unless `ignore_robots`;
 * - a crawl counts as one run in flight, whatever its pages in flight.
 */
import { normalizeUrl } from '../../crawl/url';
import { type CrawlSite, LAB_DISALLOWED, LAB_PAGES, startCrawlSite } from '../../test/fixtures/crawl-site';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance, sql } from '../../test/helpers/accounts';
import { type Json, call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';

jest.setTimeout(300_000);

/** robots.txt that cannot be read is asked again after this (then after as long as it has failed), and given up on after GIVE_UP_MS. */
const RETRY_MS = 500;
const GIVE_UP_MS = 12_000;
const CONCURRENCY_LIMIT = 3;

let stack: Stack;
let site: CrawlSite;
let politeSite: CrawlSite;
let slowSite: CrawlSite;
let owner: TestAccount;

beforeAll(async () => {
  [site, politeSite, slowSite] = await Promise.all([startCrawlSite(), startCrawlSite({ crawlDelaySeconds: 60 }), startCrawlSite({ pageDelayMs: 4000 })]);
  stack = await startStack({ env: { CRAWL_ROBOTS_RETRY_MS: String(RETRY_MS), CRAWL_ROBOTS_GIVE_UP_MS: String(GIVE_UP_MS), CONCURRENCY_LIMIT: String(CONCURRENCY_LIMIT) } });
  owner = await createAccount(stack.baseUrl);
});

afterAll(async () => {
  await stack?.stop();
  await Promise.all([site?.close(), politeSite?.close(), slowSite?.close()]);
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, owner.userId, 10_000);
  site.reset();
});

const key = (a: TestAccount) => ({ 'x-api-key': a.apiKey });
const api = (method: string, path: string, account: TestAccount, body?: unknown) => call(stack.baseUrl, method, path, key(account), body);
const ENDED = ['completed', 'failed', 'cancelled', 'credit_exhausted'];

async function startCrawl(body: Json, account = owner): Promise<string> {
  const started = await api('POST', '/crawl', account, body);
  expect(started.status).toBe(202);
  return started.body.id as string;
}

const waitForEnd = (id: string, account = owner) =>
  waitFor(`crawl ${id} ended`, async () => {
    const got = await api('GET', `/crawl/${id}`, account);
    return ENDED.includes(got.body.status as string) ? got.body : undefined;
  }, 240_000);

async function pagesOf(id: string): Promise<Json[]> {
  const got = await api('GET', `/crawl/${id}/pages?limit=1000`, owner);
  expect(got.status).toBe(200);
  return got.body.pages as Json[];
}

const pathOf = (url: string) => new URL(url).pathname;

describe('robots.txt that cannot be read', () => {
  it('503: nothing of the host is fetched until robots.txt answers; then its pages are crawled by its rules', async () => {
    const name = 'flaky';
    site.setLabRobots(name, 503);
    const id = await startCrawl({ url: `${site.labUrl(name)}/`, sitemap: 'skip', per_host_delay_ms: 0, concurrency: 2 });
    // Asked again (after RETRY_MS, then backing off) while the start page waits.
    await waitFor('robots.txt asked three times', () => Promise.resolve(site.labHits(name, '/robots.txt') >= 3));
    const waiting = await api('GET', `/crawl/${id}`, owner);
    expect(waiting.body).toMatchObject({ status: 'running', total: 1, queued: 1, running: 0, completed: 0 });
    expect(LAB_PAGES.map((path) => site.labHits(name, path))).toEqual(LAB_PAGES.map(() => 0));

    site.setLabRobots(name, 200);
    const ended = await waitForEnd(id);
    expect(ended).toMatchObject({ status: 'completed', completed: LAB_PAGES.length, failed: 0, skipped: 1 });
    for (const path of LAB_PAGES) expect([path, site.labHits(name, path)]).toEqual([path, 1]);
    expect(site.labHits(name, LAB_DISALLOWED)).toBe(0);
    const skipped = (await pagesOf(id)).filter((page) => page.status === 'skipped');
    expect(skipped).toEqual([expect.objectContaining({ url: `${site.labUrl(name)}${LAB_DISALLOWED}`, error: { code: 'ROBOTS_DISALLOWED', message: 'robots.txt disallows this URL' } })]);
  });

  it('never readable: the host is given up on after CRAWL_ROBOTS_GIVE_UP_MS, its pages skipped and never fetched', async () => {
    const name = 'down';
    site.setLabRobots(name, 500);
    const id = await startCrawl({ url: `${site.labUrl(name)}/`, sitemap: 'skip', per_host_delay_ms: 0 });
    const ended = await waitForEnd(id);
    expect(ended).toMatchObject({ status: 'completed', total: 0, completed: 0, skipped: 1 });
    const [page] = await pagesOf(id);
    expect(page).toMatchObject({ url: `${site.labUrl(name)}/`, status: 'skipped', run_id: null, error: { code: 'ROBOTS_DISALLOWED' } });
    expect((page!.error as { message: string }).message).toMatch(/^robots\.txt could not be read for \d+ s \(HTTP 500\): RFC 9309 disallows the whole host then$/);
    expect(site.labHits(name, '/')).toBe(0);
    expect(site.labHits(name, '/robots.txt')).toBeGreaterThanOrEqual(2);
  });

  it('4xx: robots.txt is unavailable, everything is allowed', async () => {
    const name = 'gone';
    site.setLabRobots(name, 404);
    const ended = await waitForEnd(await startCrawl({ url: `${site.labUrl(name)}/`, sitemap: 'skip', per_host_delay_ms: 0 }));
    expect(ended).toMatchObject({ status: 'completed', completed: LAB_PAGES.length + 1, skipped: 0 });
    expect(site.labHits(name, LAB_DISALLOWED)).toBe(1);
    expect(site.labHits(name, '/robots.txt')).toBe(1);
  });
});

describe('politeness', () => {
  it("a page waiting for its host's Crawl-delay holds no slot: the other hosts' pages are fetched meanwhile; it is fetched in its turn", async () => {
    politeSite.reset();
    // Crawl-delay 60 on the main host; the other server and the subdomain have no robots.txt (no
    // delay). The first claim takes the start page and a sitemap page of the main host together
    // (the workflow learns the host's delay from them): the second waits its turn, 60 s, claimed.
    const id = await startCrawl({ url: `${politeSite.url}/`, same_origin: false, sitemap: 'include', per_host_delay_ms: 0, concurrency: 2, max_depth: 2, limit: 1000 });
    const mainPages = () => politeSite.mainRequestLog().filter((r) => r.path !== '/robots.txt' && !r.path.includes('sitemap'));
    const otherPages = ['/', '/page/1', '/page/2', '/page/3', '/page/4'];
    const otherAllFetched = () => otherPages.every((path) => politeSite.other.hits(path) === 1);
    // Ends when the other host's pages are all fetched, or when the main host's second page is
    // (60 s after its first): with slots held by pages waiting for the main host, only the latter.
    await waitFor("the other host's pages, or the main host's second page", () => Promise.resolve(otherAllFetched() || mainPages().length >= 2), 150_000);
    expect({ otherAllFetched: otherAllFetched(), mainPages: mainPages().length }).toEqual({ otherAllFetched: true, mainPages: 1 });

    // The page that waited, queued, for longer than the sweep of runs that never started waits
    // (30 s), is fetched in its turn and succeeds: it is not taken for an orphan.
    const [first, second] = await waitFor("the main host's second page", () => Promise.resolve(mainPages().length >= 2 && mainPages()), 150_000);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(59_999);
    const secondUrl = normalizeUrl(`${politeSite.url}${second!.path}`);
    await waitFor('the second page settled', async () => (await pagesOf(id)).find((page) => page.url === secondUrl && page.status !== 'running'));
    expect((await pagesOf(id)).find((page) => page.url === secondUrl)).toMatchObject({ status: 'succeeded', http_status: 200 });
    // None failed: the page claimed with the start page, queued while it waited, was not failed as never started.
    expect((await pagesOf(id)).filter((page) => page.status === 'failed')).toEqual([]);

    expect([200, 202]).toContain((await api('POST', `/crawl/${id}/cancel`, owner)).status);
    const ended = await waitForEnd(id);
    expect(ended).toMatchObject({ status: 'cancelled', running: 0 });
    const live = await sql<{ n: number }>(stack.databaseUrl, `SELECT count(*)::int AS n FROM scrape_run WHERE "workflowId" = $1 AND status IN ('queued', 'running')`, [`crawl-${id}`]);
    expect(live[0]!.n).toBe(0);
  });
});

describe('POST /map and robots.txt', () => {
  const map = (body: Json) => api('POST', '/map', owner, body);
  const abs = (path: string) => normalizeUrl(site.url + path)!;

  it('leaves out what robots.txt disallows; ignore_robots: true lists it', async () => {
    const honoured = await map({ url: site.url, sitemap: 'skip' });
    expect(honoured.status).toBe(200);
    const expectedLinks = [abs('/'), ...site.outLinks('/').map(abs)];
    expect(new Set(honoured.body.links as string[])).toEqual(new Set(expectedLinks.filter((url) => !site.disallowedPaths.includes(pathOf(url)))));
    expect(honoured.body.links).toContain(abs('/private/public'));
    expect(honoured.body.links).not.toContain(abs('/private/0'));
    expect(site.hits('/robots.txt')).toBe(1);

    const ignored = await map({ url: site.url, sitemap: 'skip', ignore_robots: true });
    expect(ignored.status).toBe(200);
    expect(new Set(ignored.body.links as string[])).toEqual(new Set(expectedLinks));
  });

  it('robots.txt answering 503: the start page is not fetched, the map fails after its retry and is refunded; ignore_robots maps it', async () => {
    const name = 'maplab';
    site.setLabRobots(name, 503);
    const before = await balanceOf(stack.databaseUrl, owner.userId);
    const failed = await map({ url: `${site.labUrl(name)}/` });
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ code: 'TARGET_ERROR', refunded: true, attempts: 2 });
    expect(failed.body.message).toMatch(/robots\.txt of .* could not be read \(HTTP 503\)/);
    expect(site.labHits(name, '/')).toBe(0);
    expect(site.labHits(name, '/robots.txt')).toBe(2);
    expect(await balanceOf(stack.databaseUrl, owner.userId)).toBe(before);
    const ledger = (await ledgerOf(stack.databaseUrl, owner.userId)).filter((row) => row.runId === failed.body.id);
    expect(ledger.map((row) => [row.reason, row.amount]).sort()).toEqual([['debit', -1], ['refund', 1]]);

    const ignored = await map({ url: `${site.labUrl(name)}/`, sitemap: 'skip', ignore_robots: true });
    expect(ignored.status).toBe(200);
    expect(new Set(ignored.body.links as string[])).toEqual(new Set([...LAB_PAGES, LAB_DISALLOWED].map((path) => normalizeUrl(`${site.labUrl(name)}${path}`))));
  });
});

describe('runs in flight', () => {
  it('a crawl counts as one run in flight (its pages do not), and its pages are cancelled with it, not alone', async () => {
    const account = await createAccount(stack.baseUrl);
    await setBalance(stack.databaseUrl, account.userId, 1000);
    const first = await startCrawl({ url: `${slowSite.url}/`, sitemap: 'skip', per_host_delay_ms: 0, concurrency: 4, limit: 30 }, account);
    await waitFor('three pages of the crawl in flight', async () => ((await api('GET', `/crawl/${first}`, account)).body.running as number) >= 3);

    // One run in flight (the crawl) of the limit's three: a scrape is accepted.
    const scrape = await api('POST', '/webhook/unblocker', account, { url: `${site.url}/docs/1` });
    expect(scrape.status).toBe(200);
    // A page of the crawl is cancelled with its crawl: the answer names the crawl's cancel.
    const running = (await api('GET', `/crawl/${first}/pages?status=running`, account)).body.pages as Json[];
    const pageCancel = await api('POST', `/webhook/runs/${String(running[0]!.run_id)}/cancel`, account);
    expect(pageCancel.status).toBe(409);
    expect(pageCancel.body).toMatchObject({ code: 'CONFLICT', crawl_id: first, links: { cancel: `/crawl/${first}/cancel` } });

    const second = await startCrawl({ url: `${slowSite.url}/blog`, sitemap: 'skip', per_host_delay_ms: 0, concurrency: 4, limit: 30 }, account);
    const third = await startCrawl({ url: `${slowSite.url}/shop`, sitemap: 'skip', per_host_delay_ms: 0, concurrency: 4, limit: 30 }, account);
    // Three jobs in flight: the limit.
    const refused = await api('POST', '/webhook/unblocker', account, { url: `${site.url}/docs/2` });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', message: `The account has 3 runs in flight (the limit is ${CONCURRENCY_LIMIT}); retry when one finishes` });
    expect((await api('POST', '/crawl', account, { url: `${site.url}/` })).status).toBe(429);

    for (const id of [first, second, third]) expect([200, 202]).toContain((await api('POST', `/crawl/${id}/cancel`, account)).status);
    for (const id of [first, second, third]) await waitForEnd(id, account);
    expect((await api('POST', '/webhook/unblocker', account, { url: `${site.url}/docs/3` })).status).toBe(200);
  });
});
