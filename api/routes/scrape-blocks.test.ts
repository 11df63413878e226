/**
 * Block pages end to end (docs/scraping.md "Block pages"): real API and worker processes,
 * Temporal, PostgreSQL, Chromium, and the local fixture site serving block pages captured from
 * their vendors (test/fixtures/block-pages) with the vendors' statuses and headers. A blocked
 * attempt fails TARGET_BLOCKED with `blocked_by`, each attempt is tried, the run is refunded and
 * the block counted; `block_detection: false` takes the page; a crawl records a blocked page as
 * failed, never as content.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../platform/free-port';
import { SCRAPE_ENGINES } from '../../scrape/engines';
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance } from '../../test/helpers/accounts';
import { auditRunsAndLedger } from '../../test/helpers/run-ledger';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';

jest.setTimeout(300_000);

let stack: Stack;
let fixtures: FixtureServer;
let account: TestAccount;
let workerMetricsUrl: string;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  const metricsPort = await freePort();
  workerMetricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  stack = await startStack({ env: { WORKER_METRICS_PORT: String(metricsPort) } });
  account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 1000);
});

afterAll(async () => {
  await stack?.stop();
  await fixtures?.close();
});

type Body = Record<string, unknown>;

async function post(route: string, body: unknown): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${stack.baseUrl}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Body };
}

async function get(route: string): Promise<Body> {
  return (await (await fetch(`${stack.baseUrl}${route}`, { headers: { 'x-api-key': account.apiKey } })).json()) as Body;
}

const scrape = (body: unknown) => post('/webhook/unblocker', body);

/** scrape_blocks_total{mode, vendor} summed over the API process (http scrapes run there) and the worker. */
async function blocksCounted(mode: string, vendor: string): Promise<number> {
  let total = 0;
  for (const url of [`${stack.baseUrl}/metrics`, workerMetricsUrl]) {
    const text = await (await fetch(url)).text();
    const sample = new RegExp(`^scrape_blocks_total\\{mode="${mode}",vendor="${vendor}"\\} (\\d+)$`, 'm').exec(text);
    total += sample ? Number(sample[1]) : 0;
  }
  return total;
}

/** The run's ledger rows, as [reason, amount]. */
const ledgerRowsOf = async (runId: unknown) => (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.runId === runId).map((row) => [row.reason, row.amount]);

describe.each(['http', 'browser'] as const)('%s mode', (mode) => {
  const price = SCRAPE_ENGINES[mode].price;

  it('a Cloudflare challenge on every attempt fails TARGET_BLOCKED blocked_by cloudflare, after retry_count + 1 attempts, refunded and counted', async () => {
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const counted = await blocksCounted(mode, 'cloudflare');
    const { status, body } = await scrape({ url: `${fixtures.url}/block-page/cloudflare-managed-challenge-codepen.html`, mode, options: { retry_count: 1 } });
    expect(status).toBe(502);
    expect(body).toMatchObject({ statusCode: 502, code: 'TARGET_BLOCKED', blocked_by: 'cloudflare', attempts: 2, refunded: true });
    expect(body.message).toMatch(/blocked_by cloudflare, HTTP 403/);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before);
    expect(await ledgerRowsOf(body.id)).toEqual([
      ['debit', -price],
      ['refund', price],
    ]);
    // The run's record keeps the vendor and no content of the page.
    const run = await get(`/webhook/runs/${String(body.id)}`);
    expect(run).toMatchObject({ status: 'failed', error: { code: 'TARGET_BLOCKED', blocked_by: 'cloudflare', refunded: true } });
    expect(JSON.stringify(run)).not.toContain('Just a moment');
    await waitFor('both blocked attempts counted', async () => (await blocksCounted(mode, 'cloudflare')) >= counted + 2);
  });

  it('a vendor whose page alone says it (DataDome) is named too', async () => {
    const { status, body } = await scrape({ url: `${fixtures.url}/block-page/datadome-blocked-requests-5331.html`, mode, options: { retry_count: 0 } });
    expect(status).toBe(502);
    expect(body).toMatchObject({ code: 'TARGET_BLOCKED', blocked_by: 'datadome', attempts: 1, refunded: true });
  });

  it('block_detection: false answers the block page as the page, charged', async () => {
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const { status, body } = await scrape({ url: `${fixtures.url}/block-page/akamai-access-denied-redhat.html`, mode, block_detection: false, options: { retry_count: 1 } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 403, attempts: 1 });
    expect(String(body.html)).toContain('Access Denied');
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before - price);
    expect(await ledgerRowsOf(body.id)).toEqual([['debit', -price]]);
  });

  it('a block on the first attempt only: the retry gets the page, charged once', async () => {
    const key = `${mode}-${Date.now()}`;
    const { status, body } = await scrape({ url: `${fixtures.url}/block-page/perimeterx-captcha-fanduel.html?key=${key}&pass=1`, mode, selectors: ['h1'], options: { retry_count: 2 } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ attempts: 2, status: 200, data: [{ selector: 'h1', results: [{ text: 'Passed' }] }] });
    expect(await ledgerRowsOf(body.id)).toEqual([['debit', -price]]);
  });
});

describe('rate limits and the metric exposition', () => {
  it('a 429 is TARGET_BLOCKED blocked_by rate_limit; the exposition with the new counter passes promtool', async () => {
    const { status, body } = await scrape({ url: `${fixtures.url}/block-page/rate-limit-429-reddit.html`, options: { retry_count: 0 } });
    expect(status).toBe(502);
    expect(body).toMatchObject({ code: 'TARGET_BLOCKED', blocked_by: 'rate_limit', refunded: true });
    for (const url of [`${stack.baseUrl}/metrics`, workerMetricsUrl]) {
      const text = await (await fetch(url)).text();
      expect(text).toMatch(/# TYPE scrape_blocks_total counter/);
      const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'metrics-')), 'metrics.txt');
      writeFileSync(file, text);
      expect(execFileSync('sh', ['-c', `/usr/bin/promtool check metrics < ${file} 2>&1; echo "exit=$?"`], { encoding: 'utf8' })).toBe('exit=0\n');
    }
  });
});

describe('Firecrawl-compatible scrape', () => {
  it.each(['/v1/scrape', '/v2/scrape'])('%s answers a blocked scrape 500 with our code and the vendor', async (route) => {
    const { status, body } = await post(route, { url: `${fixtures.url}/block-page/sucuri-access-denied-foxycart.html`, timeout: 30_000 });
    expect(status).toBe(500);
    // `auto`, the default on these routes, charges only a served page: nothing was taken, so nothing was refunded.
    expect(body).toMatchObject({ success: false, code: 'TARGET_BLOCKED', details: { blocked_by: 'sucuri', refunded: false } });
    expect(body.error).toMatch(/blocked_by sucuri/);
  });
});

describe('crawl', () => {
  it('a blocked page is recorded failed TARGET_BLOCKED with its vendor, never as content; the other pages are', async () => {
    const blocked = `${fixtures.url}/block-page/imperva-incapsula-lieferando.html`;
    const start = `${fixtures.url}/links-to?url=${encodeURIComponent(`${fixtures.url}/page/1`)}&url=${encodeURIComponent(blocked)}`;
    const started = await post('/crawl', { url: start, limit: 10, max_depth: 1, scrape: { options: { retry_count: 0 } } });
    expect(started.status).toBe(202);
    const id = String(started.body.id);
    const job = await waitFor(`crawl ${id} ended`, async () => {
      const got = await get(`/crawl/${id}`);
      return ['completed', 'failed', 'cancelled', 'credit_exhausted'].includes(got.status as string) ? got : undefined;
    }, 240_000);
    expect(job.status).toBe('completed');
    const pages = (await get(`/crawl/${id}/pages`)).pages as Body[];
    const blockedPage = pages.find((p) => p.url === blocked);
    expect(blockedPage).toMatchObject({ status: 'failed', error: { code: 'TARGET_BLOCKED' } });
    expect(JSON.stringify(blockedPage)).not.toContain('Incapsula incident ID');
    expect(pages.find((p) => p.url === `${fixtures.url}/page/1`)).toMatchObject({ status: 'succeeded' });
    // The blocked page's run: failed, blocked_by named, refunded; the ledger agrees for every run.
    const run = await get(`/webhook/runs/${String(blockedPage!.run_id)}`);
    expect(run).toMatchObject({ status: 'failed', error: { code: 'TARGET_BLOCKED', blocked_by: 'imperva', refunded: true } });
    const audit = await auditRunsAndLedger(stack.databaseUrl, account.userId, []);
    expect(audit.wrongRefunds).toEqual([]);
    expect(audit.doubleDebits).toEqual([]);
  });
});
