/**
 * A crawl survives crashes (issue 12): one crawl of the whole fixture site (≥ 300 pages, a slow
 * page answer so it is long enough), and mid-crawl, one after the other, SIGKILL of
 *   - the worker process (it runs the crawl workflow and its page activities), started again;
 *   - the API process, started again;
 *   - the Temporal dev server (file-backed, like `npm start`'s), started again.
 * The crawl then ends `completed` with its frontier intact: every page of the site's graph
 * recorded once, each with exactly one scrape run, succeeded once (or failed, for the site's
 * failing pages), debited exactly once and refunded exactly when it failed. At the HTTP level a
 * page whose request was in flight when the worker died is requested again by its retried
 * activity (at-least-once execution); those are counted, bounded by the crawl's concurrency, and
 * printed. Real processes throughout; everything on 127.0.0.1.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../platform/free-port';
import { type RunningTemporal, startTemporalDevServer } from '../../scripts/runtime/temporal-server';
import { type CrawlSite, startCrawlSite } from '../../test/fixtures/crawl-site';
import { createAccount, setBalance, sql } from '../../test/helpers/accounts';
import { call } from '../../test/helpers/http';
import { auditRunsAndLedger } from '../../test/helpers/run-ledger';
import { testEnv } from '../../test/helpers/env';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';

jest.setTimeout(600_000);

const CONCURRENCY = 4;
const RETRY_COUNT = 1;
let temporal: RunningTemporal;
let temporalPort: number;
let dbFile: string;
let stack: Stack;
let site: CrawlSite;

const startTemporal = () => startTemporalDevServer({ cliPath: testEnv('temporalCli'), port: temporalPort, dbFile });

beforeAll(async () => {
  dbFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'crawl-durable-')), 'temporal.db');
  temporalPort = await freePort();
  [site, temporal] = await Promise.all([startCrawlSite({ pageDelayMs: 150 }), startTemporal()]);
  stack = await startStack({ env: { TEMPORAL_ADDRESS: temporal.address } });
});

afterAll(async () => {
  await stack?.stop();
  await temporal?.stop();
  await site?.close();
});

/** Progress read from PostgreSQL (the API may be down while we look). */
async function progress(crawlId: string): Promise<{ status: string; settled: number }> {
  const [crawl] = await sql<{ status: string }>(stack.databaseUrl, 'SELECT status FROM crawl WHERE id = $1', [crawlId]);
  const [pages] = await sql<{ n: number }>(stack.databaseUrl, `SELECT count(*)::int AS n FROM crawl_page WHERE "crawlId" = $1 AND status IN ('succeeded', 'failed')`, [crawlId]);
  return { status: crawl!.status, settled: pages!.n };
}

const until = (what: string, check: () => Promise<boolean>) => waitFor(what, check, 300_000);

it('a crawl killed under its worker, its API and its Temporal server ends with every page recorded, scraped and debited exactly once', async () => {
  const account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 100_000);
  const started = await call(stack.baseUrl, 'POST', '/crawl', { 'x-api-key': account.apiKey }, {
    url: `${site.url}/`,
    limit: 10_000,
    max_depth: 100,
    per_host_delay_ms: 0,
    concurrency: CONCURRENCY,
    // A page in flight when the worker dies loses that attempt (its heartbeat times out): one retry.
    scrape: { options: { retry_count: RETRY_COUNT } },
  });
  expect(started.status).toBe(202);
  const id = started.body.id as string;
  const log: string[] = [];
  const crashAt = async (settled: number, label: string, crash: () => Promise<void>) => {
    await until(`${settled} pages settled`, async () => (await progress(id)).settled >= settled);
    const before = (await progress(id)).settled;
    await crash();
    log.push(`${label} at ${before} pages`);
  };

  await crashAt(40, 'worker SIGKILLed', async () => {
    await stack.killWorker();
    await stack.startWorker();
  });
  await crashAt(110, 'API SIGKILLed', async () => {
    await stack.killApi();
    await stack.restartApi();
  });
  await crashAt(180, 'Temporal dev server SIGKILLed', async () => {
    temporal.process.kill('SIGKILL');
    await new Promise((r) => temporal.process.once('exit', r));
    temporal = await startTemporal();
  });
  await until('the crawl ended', async () => (await progress(id)).status !== 'running');

  const body = (await call(stack.baseUrl, 'GET', `/crawl/${id}`, { 'x-api-key': account.apiKey })).body;
  expect(body.status).toBe('completed');

  // The frontier: exactly the pages of the site's graph (links and sitemaps, robots respected), each once.
  const allowed = (p: string) => !site.pages.get(p)?.disallowed;
  const starts = ['/', ...site.sitemapPaths.filter(allowed)];
  const want = new Set<string>();
  const queue = [...starts];
  for (const s of starts) want.add(s);
  while (queue.length) {
    const p = queue.shift()!;
    if (site.pages.get(p)?.fails) continue;
    for (const next of site.outLinks(p)) {
      if (!want.has(next) && allowed(next)) {
        want.add(next);
        queue.push(next);
      }
    }
  }
  expect(want.size).toBeGreaterThanOrEqual(300);
  const pages = await sql<{ url: string; status: string; runId: string }>(
    stack.databaseUrl,
    `SELECT url, status, "runId" FROM crawl_page WHERE "crawlId" = $1 AND status <> 'skipped'`,
    [id],
  );
  const pathOf = (url: string) => `${new URL(url).pathname}${new URL(url).search}`;
  expect(new Set(pages.map((p) => pathOf(p.url)))).toEqual(want);
  expect(pages.length).toBe(want.size);
  const failing = new Set(site.failingPaths);
  expect(pages.filter((p) => p.status !== (failing.has(pathOf(p.url)) ? 'failed' : 'succeeded'))).toEqual([]);

  // One scrape run per page (no second run for any URL), every run finished, each debited once, refunded exactly when it failed.
  const runs = await sql<{ id: string; url: string; status: string }>(stack.databaseUrl, `SELECT id, url, status::text AS status FROM scrape_run WHERE "workflowId" = $1`, [`crawl-${id}`]);
  expect(runs.length).toBe(want.size);
  expect(new Set(runs.map((r) => r.id))).toEqual(new Set(pages.map((p) => p.runId)));
  expect(runs.filter((r) => r.status !== 'succeeded' && r.status !== 'failed')).toEqual([]);
  const audit = await auditRunsAndLedger(stack.databaseUrl, account.userId, pages.map((p) => p.runId));
  expect({ missing: audit.missing, doubleDebits: audit.doubleDebits, wrongRefunds: audit.wrongRefunds, debitsWithoutRun: audit.debitsWithoutRun }).toEqual({
    missing: [],
    doubleDebits: [],
    wrongRefunds: [],
    debitsWithoutRun: [],
  });
  expect(audit.debits).toBe(want.size);
  expect(audit.refunds).toBe([...want].filter((p) => failing.has(p)).length);
  expect(audit.balance).toBe(100_000 + audit.moved);

  // HTTP: every page requested; again only when its request was in flight as the worker died.
  const hits = [...site.allHits().entries()].filter(([p]) => p !== '/robots.txt' && !p.includes('sitemap'));
  const wantPaths = new Set([...want].map((p) => new URL(p, site.url).pathname));
  expect(new Set(hits.map(([p]) => p))).toEqual(wantPaths);
  // A failing page is requested once per attempt; any other page once, twice when the worker died under its request.
  const failingPathnames = new Set(site.failingPaths.map((p) => new URL(p, site.url).pathname));
  const again = hits.filter(([p, n]) => n > (failingPathnames.has(p) ? RETRY_COUNT + 1 : 1));
  expect(again.every(([p, n]) => n === (failingPathnames.has(p) ? RETRY_COUNT + 2 : 2))).toBe(true);
  expect(again.length).toBeLessThanOrEqual(CONCURRENCY);
  console.log(
    `[crawl durability] ${log.join('; ')}; ended ${body.status}: ${want.size} pages, ${runs.length} runs, ` +
      `${audit.debits} debits, ${audit.refunds} refunds, 0 double debits; requested twice at the HTTP level (in flight at the worker kill): ${again.length}`,
  );
});
