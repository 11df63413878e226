/**
 * Crawls and batch scrapes end to end (docs/crawl.md): real API and worker processes, Temporal,
 * PostgreSQL and the 317-page fixture site (test/fixtures/crawl-site.ts), whose counters say what
 * was fetched and when. Expectations are computed from the site's own link graph, never
 * hard-coded. Limit, depth, include/exclude, robots, sitemap modes, de-duplication (each URL
 * fetched once), politeness (request times per host), cancel, credit exhaustion and resume (no
 * page fetched or billed twice), batch, events, the metric, validation, 402, ownership and
 * Idempotency-Key.
 */
import { Client, Connection } from '@temporalio/client';
import { freePort } from '../../platform/free-port';
import { CRAWL_PAGES_PER_EXECUTION } from '../../workflows/definitions';
import { type CrawlSite, startCrawlSite } from '../../test/fixtures/crawl-site';
import { type TestAccount, balanceOf, createAccount, setBalance, sql } from '../../test/helpers/accounts';
import { type Json, call } from '../../test/helpers/http';
import { auditRunsAndLedger } from '../../test/helpers/run-ledger';
import { testEnv } from '../../test/helpers/env';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';
import { type EventReceiver, startEventReceiver } from '../../test/helpers/webhook-receiver';
import { testDataConverter } from '../../test/helpers/temporal-codec';

jest.setTimeout(300_000);

let stack: Stack;
let site: CrawlSite;
let politeSite: CrawlSite;
let receiver: EventReceiver;
let owner: TestAccount;
let other: TestAccount;
let workerMetricsUrl: string;

beforeAll(async () => {
  const metricsPort = await freePort();
  workerMetricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  [site, politeSite, receiver] = await Promise.all([startCrawlSite(), startCrawlSite({ crawlDelaySeconds: 1 }), startEventReceiver()]);
  stack = await startStack({
    env: {
      WORKER_METRICS_PORT: String(metricsPort),
      WEBHOOK_PRIVATE_ALLOWLIST: '127.0.0.1',
      WEBHOOK_RETRY_INITIAL_MS: '100',
      WEBHOOK_RETRY_MAX_INTERVAL_MS: '200',
      WEBHOOK_RETRY_WINDOW_MS: '8000',
    },
  });
  [owner, other] = await Promise.all([createAccount(stack.baseUrl), createAccount(stack.baseUrl)]);
});

afterAll(async () => {
  await stack?.stop();
  await Promise.all([site?.close(), politeSite?.close(), receiver?.close()]);
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, owner.userId, 100_000);
  site.reset();
  site.setPageDelay(0);
});

const key = (a: TestAccount) => ({ 'x-api-key': a.apiKey });
const api = (method: string, path: string, auth: Record<string, string>, body?: unknown, headers: Record<string, string> = {}) => call(stack.baseUrl, method, path, { ...auth, ...headers }, body);

/** Every page of a job, through GET /crawl/:id/pages and its cursor (a small page size, so the cursor is exercised). */
async function allPages(id: string, status?: string): Promise<Json[]> {
  const pages: Json[] = [];
  let cursor: string | null = null;
  for (;;) {
    const query = new URLSearchParams({ limit: '37', ...(cursor ? { cursor } : {}), ...(status ? { status } : {}) });
    const got = await api('GET', `/crawl/${id}/pages?${query}`, key(owner));
    expect(got.status).toBe(200);
    pages.push(...(got.body.pages as Json[]));
    cursor = got.body.next as string | null;
    if (!cursor) return pages;
  }
}

const ENDED = ['completed', 'failed', 'cancelled', 'credit_exhausted'];

async function waitForEnd(id: string, account = owner): Promise<Json> {
  return waitFor(`crawl ${id} ended`, async () => {
    const got = await api('GET', `/crawl/${id}`, key(account));
    return ENDED.includes(got.body.status as string) ? got.body : undefined;
  }, 240_000);
}

async function crawl(body: Json, account = owner): Promise<Json> {
  const started = await api('POST', '/crawl', key(account), body);
  expect(started.status).toBe(202);
  expect(started.body).toMatchObject({ status: 'queued', kind: 'crawl' });
  return waitForEnd(started.body.id as string, account);
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/**
 * The pages a crawl should fetch, by breadth-first search over the site's own link graph from
 * `starts` (depth 0): `allowed` decides which links are followed into (scope and robots), failing
 * pages are not expanded, nothing deeper than `maxDepth`.
 */
function expected(s: CrawlSite, starts: string[], options: { maxDepth: number; allowed: (path: string) => boolean }): Map<string, number> {
  const depth = new Map<string, number>();
  const queue: string[] = [];
  for (const start of starts) {
    if (!depth.has(start)) {
      depth.set(start, 0);
      queue.push(start);
    }
  }
  while (queue.length) {
    const path = queue.shift()!;
    const d = depth.get(path)!;
    if (d >= options.maxDepth || s.pages.get(path)?.fails) continue;
    for (const next of s.outLinks(path)) {
      if (depth.has(next) || !options.allowed(next)) continue;
      depth.set(next, d + 1);
      queue.push(next);
    }
  }
  return depth;
}

const pageHits = (s: CrawlSite) => [...s.allHits().entries()].filter(([path]) => path !== '/robots.txt' && !path.includes('sitemap'));

const notDisallowed = (s: CrawlSite) => (path: string) => !s.pages.get(path)?.disallowed;

describe('a crawl of the whole site', () => {
  it('fetches every page reachable by links and sitemaps exactly once, skips what robots.txt disallows, stays on its origin, bills each page once', async () => {
    const body = await crawl({ url: `${site.url}/`, limit: 10_000, max_depth: 100, per_host_delay_ms: 0, concurrency: 8, scrape: { options: { retry_count: 0 } } });
    const sitemapStarts = site.sitemapPaths.filter(notDisallowed(site));
    const want = expected(site, ['/', ...sitemapStarts], { maxDepth: 100, allowed: notDisallowed(site) });
    expect(want.size).toBeGreaterThanOrEqual(300);

    const pages = await allPages(body.id as string);
    const fetched = pages.filter((p) => p.status === 'succeeded' || p.status === 'failed').map((p) => pathOf(p.url as string));
    expect(new Set(fetched)).toEqual(new Set(want.keys()));
    expect(fetched.length).toBe(want.size);
    // Skipped: the disallowed pages some fetched page links to (never fetched).
    const skipped = pages.filter((p) => p.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    for (const p of skipped) {
      expect(site.pages.get(pathOf(p.url as string))?.disallowed).toBe(true);
      expect(p.error).toMatchObject({ code: 'ROBOTS_DISALLOWED' });
    }
    // The failing pages failed (one attempt each: retry_count 0) and were refunded.
    const failed = pages.filter((p) => p.status === 'failed').map((p) => pathOf(p.url as string));
    expect(new Set(failed)).toEqual(new Set(site.failingPaths.filter((p) => want.has(p))));

    // De-duplication: each page requested once (the URL spellings, cycles and sitemaps notwithstanding).
    const hits = pageHits(site);
    expect(hits.filter(([, n]) => n !== 1)).toEqual([]);
    expect(new Set(hits.map(([path]) => path))).toEqual(new Set([...want.keys()].map((p) => new URL(p, site.url).pathname)));
    for (const path of site.disallowedPaths) expect(site.hits(path)).toBe(0);
    expect(site.hits('/robots.txt')).toBe(1);
    // Off-origin links are not followed (same_origin, no subdomains).
    expect([...site.other.allHits().values()].reduce((a, b) => a + b, 0)).toBe(0);
    expect(site.subHits('/')).toBe(0);

    const succeeded = fetched.length - failed.length;
    expect(body).toMatchObject({ status: 'completed', total: want.size, completed: succeeded, failed: failed.length, skipped: skipped.length, credits: succeeded });
    expect(body.pages as Json[]).toHaveLength(100);
    expect(body.next).toEqual(expect.any(String));

    // Each page is an ordinary scrape run, debited once, refunded when it failed.
    const audit = await auditRunsAndLedger(stack.databaseUrl, owner.userId, pages.filter((p) => p.run_id).map((p) => p.run_id as string));
    expect({ missing: audit.missing, doubleDebits: audit.doubleDebits, wrongRefunds: audit.wrongRefunds }).toEqual({ missing: [], doubleDebits: [], wrongRefunds: [] });
    const run = await api('GET', `/webhook/runs/${pages.find((p) => p.status === 'succeeded')!.run_id}`, key(owner));
    expect(run.body).toMatchObject({ status: 'succeeded', result: { links: expect.any(Array), markdown: expect.any(String) } });

    // More pages than one execution takes: it continued as new (history stays bounded).
    const connection = await Connection.connect({ address: testEnv('temporalAddress') });
    try {
      const client = new Client({ connection, dataConverter: testDataConverter() });
      const executions = await waitFor('the executions listed', async () => {
        const found: string[] = [];
        for await (const execution of client.workflow.list({ query: `WorkflowId = "crawl-${body.id}"` })) found.push(execution.runId);
        return found.length >= Math.ceil(want.size / CRAWL_PAGES_PER_EXECUTION) ? found : undefined;
      });
      expect(executions.length).toBeGreaterThanOrEqual(2);
    } finally {
      await connection.close();
    }

    const metrics = await (await fetch(workerMetricsUrl)).text();
    const counted = /crawl_pages_total\{kind="crawl",outcome="succeeded"\} (\d+)/.exec(metrics);
    expect(Number(counted?.[1])).toBeGreaterThanOrEqual(succeeded);
  });
});

describe('limits and scope', () => {
  it('limit: exactly `limit` pages are fetched', async () => {
    const body = await crawl({ url: `${site.url}/`, limit: 25, sitemap: 'skip', per_host_delay_ms: 0, max_depth: 100, scrape: { options: { retry_count: 0 } } });
    expect(body).toMatchObject({ status: 'completed', total: 25 });
    expect(pageHits(site).reduce((sum, [, n]) => sum + n, 0)).toBe(25);
  });

  it('max_depth: pages up to that many links from the start, no deeper', async () => {
    const body = await crawl({ url: `${site.url}/`, max_depth: 2, sitemap: 'skip', per_host_delay_ms: 0, limit: 10_000, scrape: { options: { retry_count: 0 } } });
    const want = expected(site, ['/'], { maxDepth: 2, allowed: notDisallowed(site) });
    const pages = (await allPages(body.id as string)).filter((p) => p.status !== 'skipped');
    expect(new Set(pages.map((p) => pathOf(p.url as string)))).toEqual(new Set(want.keys()));
    for (const p of pages) expect(p.depth).toBe(want.get(pathOf(p.url as string)));
  });

  it('include_paths and exclude_paths (regexes on the path): the start page, then only links in scope', async () => {
    const included = await crawl({ url: `${site.url}/`, include_paths: ['^/docs/'], exclude_paths: ['^/docs/[5-9]\\d$'], sitemap: 'skip', per_host_delay_ms: 0, max_depth: 100, limit: 10_000 });
    const inScope = (path: string) => /^\/docs\//.test(path) && !/^\/docs\/[5-9]\d$/.test(path) && !site.pages.get(path)?.disallowed;
    const want = expected(site, ['/'], { maxDepth: 100, allowed: inScope });
    const pages = (await allPages(included.id as string)).filter((p) => p.status !== 'skipped');
    expect(new Set(pages.map((p) => pathOf(p.url as string)))).toEqual(new Set(want.keys()));
    expect(site.hits('/docs/55')).toBe(0);
    expect(site.hits('/blog')).toBe(0);
  });

  it('respect_robots: false fetches what robots.txt disallows', async () => {
    const body = await crawl({ url: `${site.url}/`, respect_robots: false, sitemap: 'skip', per_host_delay_ms: 0, max_depth: 100, limit: 10_000, scrape: { options: { retry_count: 0 } } });
    const want = expected(site, ['/'], { maxDepth: 100, allowed: () => true });
    expect(body).toMatchObject({ status: 'completed', skipped: 0, total: want.size });
    const reached = site.disallowedPaths.filter((p) => want.has(p));
    expect(reached.length).toBeGreaterThan(0);
    for (const path of reached) expect(site.hits(path)).toBe(1);
  });

  it('sitemap modes: skip never reads a sitemap; only fetches the sitemap URLs and follows no links', async () => {
    await crawl({ url: `${site.url}/`, sitemap: 'skip', per_host_delay_ms: 0, max_depth: 100, limit: 10_000, scrape: { options: { retry_count: 0 } } });
    expect([...site.allHits().keys()].filter((p) => p.includes('sitemap'))).toEqual([]);
    for (const path of site.sitemapOnlyPaths) expect(site.hits(new URL(path, site.url).pathname)).toBe(0);

    site.reset();
    const only = await crawl({ url: `${site.url}/`, sitemap: 'only', per_host_delay_ms: 0, limit: 10_000 });
    const want = site.sitemapPaths.filter(notDisallowed(site));
    const pages = (await allPages(only.id as string)).filter((p) => p.status !== 'skipped');
    expect(new Set(pages.map((p) => pathOf(p.url as string)))).toEqual(new Set(want));
    expect(site.hits('/sitemaps/archive.xml.gz')).toBe(1);
  });
});

describe('politeness', () => {
  /** Gaps (ms) between consecutive page requests at the site (robots.txt and sitemaps left out). */
  const gaps = (s: CrawlSite) => {
    const times = s
      .mainRequestLog()
      .filter((r) => r.path !== '/robots.txt' && !r.path.includes('sitemap'))
      .map((r) => r.at);
    return times.slice(1).map((t, i) => t - times[i]!);
  };

  it("robots.txt's Crawl-delay (larger than per_host_delay_ms) spaces the requests to a host, whatever the concurrency", async () => {
    politeSite.reset();
    const body = await crawl({ url: `${politeSite.url}/`, limit: 6, sitemap: 'skip', per_host_delay_ms: 100, concurrency: 8 });
    expect(body).toMatchObject({ status: 'completed', total: 6 });
    const measured = gaps(politeSite);
    expect(measured).toHaveLength(5);
    console.log(`[crawl politeness] Crawl-delay 1 s: gaps between requests ${measured.map((g) => Math.round(g)).join(', ')} ms`);
    // 1 ms: performance.now() against the workflow clock's whole milliseconds.
    for (const gap of measured) expect(gap).toBeGreaterThanOrEqual(999);
  });

  it('per_host_delay_ms spaces the requests when robots.txt asks for nothing', async () => {
    const body = await crawl({ url: `${site.url}/`, limit: 6, sitemap: 'skip', per_host_delay_ms: 400, concurrency: 4 });
    expect(body).toMatchObject({ status: 'completed', total: 6 });
    const measured = gaps(site);
    expect(measured).toHaveLength(5);
    for (const gap of measured) expect(gap).toBeGreaterThanOrEqual(399);
  });
});

describe('cancel, credit exhaustion and resume', () => {
  it('cancel stops the crawl: pages in flight cancelled, the workflow closed, the ledger consistent', async () => {
    site.setPageDelay(300);
    const started = await api('POST', '/crawl', key(owner), { url: `${site.url}/`, sitemap: 'skip', per_host_delay_ms: 0, concurrency: 2, limit: 200, max_depth: 100 });
    const id = started.body.id as string;
    await waitFor('a few pages done', async () => ((await api('GET', `/crawl/${id}`, key(owner))).body.completed as number) >= 3);
    const cancelled = await api('POST', `/crawl/${id}/cancel`, key(owner));
    expect([200, 202]).toContain(cancelled.status);
    const body = await waitForEnd(id);
    expect(body.status).toBe('cancelled');
    expect(body.running).toBe(0);
    expect(body.completed as number).toBeLessThan(200);
    const connection = await Connection.connect({ address: testEnv('temporalAddress') });
    try {
      const description = await new Client({ connection, dataConverter: testDataConverter() }).workflow.getHandle(`crawl-${id}`).describe();
      expect(description.status.name).toBe('CANCELLED');
    } finally {
      await connection.close();
    }
    const runs = await sql<{ status: string }>(stack.databaseUrl, `SELECT status::text AS status FROM scrape_run WHERE "workflowId" = $1`, [`crawl-${id}`]);
    expect(runs.filter((r) => r.status === 'queued' || r.status === 'running')).toEqual([]);
    const audit = await auditRunsAndLedger(stack.databaseUrl, owner.userId, []);
    expect({ doubleDebits: audit.doubleDebits, wrongRefunds: audit.wrongRefunds }).toEqual({ doubleDebits: [], wrongRefunds: [] });
    expect((await api('POST', `/crawl/${id}/cancel`, key(owner))).status).toBe(409);
  });

  it('credit running out stops the crawl at credit_exhausted; after a top-up, resume finishes it without fetching or billing a page twice', async () => {
    const account = await createAccount(stack.baseUrl);
    await setBalance(stack.databaseUrl, account.userId, 20);
    const started = await api('POST', '/crawl', key(account), { url: `${site.url}/`, sitemap: 'skip', per_host_delay_ms: 0, concurrency: 4, limit: 60, max_depth: 100, scrape: { options: { retry_count: 0 } } });
    const id = started.body.id as string;
    const stopped = await waitForEnd(id, account);
    expect(stopped.status).toBe('credit_exhausted');
    expect(stopped.queued as number).toBeGreaterThan(0);
    const fetchedBefore = (stopped.completed as number) + (stopped.failed as number);
    expect(pageHits(site).reduce((sum, [, n]) => sum + n, 0)).toBe(fetchedBefore);
    // Resume without credit: 402, nothing started.
    await setBalance(stack.databaseUrl, account.userId, 0);
    expect((await api('POST', `/crawl/${id}/resume`, key(account))).status).toBe(402);

    await setBalance(stack.databaseUrl, account.userId, 1000);
    const resumed = await api('POST', `/crawl/${id}/resume`, key(account));
    expect(resumed.status).toBe(202);
    const done = await waitForEnd(id, account);
    expect(done).toMatchObject({ status: 'completed', total: 60, queued: 0 });
    expect(pageHits(site).filter(([, n]) => n !== 1)).toEqual([]);
    expect(pageHits(site).length).toBe(60);
    // Ledger: every page's run debited once (refunded if it failed); the runs refused at their debit were never charged.
    const audit = await auditRunsAndLedger(stack.databaseUrl, account.userId, []);
    expect({ doubleDebits: audit.doubleDebits, wrongRefunds: audit.wrongRefunds, debitsWithoutRun: audit.debitsWithoutRun }).toEqual({ doubleDebits: [], wrongRefunds: [], debitsWithoutRun: [] });
    expect(audit.outcomes['failed INSUFFICIENT_CREDIT']).toBeGreaterThan(0);
    expect(audit.debits).toBe(60);
    expect(done.credits).toBe(60 - (done.failed as number));
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(1000 - (60 - fetchedBefore) + (done.failed as number) - (stopped.failed as number));
    expect((await api('POST', `/crawl/${id}/resume`, key(account))).status).toBe(409);
  });
});

describe('batch scrape', () => {
  it('scrapes each listed URL once (spellings deduplicated), follows no links, shares the /crawl routes', async () => {
    const urls = [`${site.url}/docs/3`, `HTTP://LOCALHOST:${site.port}/docs/3#x`, `${site.url}/shop`, `${site.url}/blog/post/5`, `${site.url}/broken`, `${site.url}/search?page=1&q=crawl`];
    const started = await api('POST', '/batch/scrape', key(owner), { urls, concurrency: 3, scrape: { formats: ['text'], options: { retry_count: 0 } } });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ kind: 'batch', status: 'queued', links: { self: `/crawl/${started.body.id}` } });
    const body = await waitForEnd(started.body.id as string);
    expect(body).toMatchObject({ kind: 'batch', status: 'completed', total: 5, completed: 4, failed: 1, url: null });
    expect(new Map(pageHits(site))).toEqual(new Map([['/docs/3', 1], ['/shop', 1], ['/blog/post/5', 1], ['/broken', 1], ['/search', 1]]));
  });
});

describe('events', () => {
  it('crawl.page for each page and crawl.completed at the end, to the request webhook', async () => {
    receiver.received.length = 0;
    const body = await crawl({ url: `${site.url}/`, limit: 5, sitemap: 'skip', per_host_delay_ms: 0, webhook: { url: `${receiver.origin}/hooks/crawl`, metadata: { job: 'ev' } } });
    const types = await waitFor('events delivered', () => {
      const seen = receiver.received.filter((r) => r.path === '/hooks/crawl').map((r) => r.event);
      return Promise.resolve(seen.some((e) => e.type === 'crawl.completed') && seen.filter((e) => e.type === 'crawl.page').length === 5 ? seen : undefined);
    });
    const end = types.find((e) => e.type === 'crawl.completed')!;
    expect(end.data).toMatchObject({ object: 'crawl', id: body.id, status: 'completed', total: 5, metadata: { job: 'ev' } });
    const page = types.find((e) => e.type === 'crawl.page')!;
    expect(page.data).toMatchObject({ object: 'crawl_page', crawl_id: body.id, status: 'succeeded', run_id: expect.any(String) });
  });
});

describe('the API contract', () => {
  it('422 lists every problem at once', async () => {
    const bad = await api('POST', '/crawl', key(owner), {
      url: 'ftp://example.com/',
      limit: 0,
      include_paths: ['(?=look)'],
      sitemap: 'sometimes',
      concurrency: 1000,
      scrape: { mode: 'nope', async: true },
    });
    expect(bad.status).toBe(422);
    const messages = (bad.body.message as string[]).join('\n');
    for (const field of ['url', 'limit', 'include_paths', 'sitemap', 'concurrency', 'scrape.mode', 'scrape.async']) expect(messages).toContain(field);
    const batch = await api('POST', '/batch/scrape', key(owner), { urls: [], extra: 1 });
    expect(batch.status).toBe(422);
    expect((batch.body.message as string[]).length).toBeGreaterThanOrEqual(2);
  });

  it('402 when the balance cannot pay one page', async () => {
    const poor = await createAccount(stack.baseUrl);
    await setBalance(stack.databaseUrl, poor.userId, 0);
    const refused = await api('POST', '/crawl', key(poor), { url: `${site.url}/` });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ code: 'INSUFFICIENT_CREDIT', cost: 1, remaining: 0 });
    expect((await api('GET', '/crawl', key(poor))).body.crawls).toEqual([]);
  });

  it("owner only: another account's job is 403, an unknown one 404; the list is the account's own", async () => {
    const body = await crawl({ url: `${site.url}/`, limit: 1, sitemap: 'skip' });
    expect((await api('GET', `/crawl/${body.id}`, key(other))).status).toBe(403);
    expect((await api('GET', `/crawl/${body.id}/pages`, key(other))).status).toBe(403);
    expect((await api('POST', `/crawl/${body.id}/cancel`, key(other))).status).toBe(403);
    expect((await api('GET', '/crawl/00000000-0000-4000-8000-000000000000', key(owner))).status).toBe(404);
    const mine = await api('GET', '/crawl', { cookie: owner.cookie });
    expect((mine.body.crawls as Json[]).map((c) => c.id)).toContain(body.id);
    expect((await api('GET', '/crawl', key(other))).body.crawls).toEqual([]);
  });

  it('Idempotency-Key: a repeat answers the first job and starts nothing', async () => {
    const request = { url: `${site.url}/`, limit: 2, sitemap: 'skip', per_host_delay_ms: 0 };
    const headers = { 'idempotency-key': `crawl-${Date.now()}` };
    const first = await api('POST', '/crawl', key(owner), request, headers);
    const second = await api('POST', '/crawl', key(owner), request, headers);
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.body.id).toBe(first.body.id);
    const reused = await api('POST', '/crawl', key(owner), { ...request, limit: 3 }, headers);
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    await waitForEnd(first.body.id as string);
    const rows = await sql<{ n: number }>(stack.databaseUrl, `SELECT count(*)::int AS n FROM crawl WHERE id = $1`, [first.body.id]);
    expect(rows[0]!.n).toBe(1);
  });
});
