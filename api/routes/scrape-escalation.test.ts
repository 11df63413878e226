/**
 * Escalation end to end (docs/scraping.md "Escalation"): real API and worker processes, Temporal,
 * PostgreSQL, Chromium, the fixture site and two local proxies as the tiers (PROXY_TIERS: basic
 * through an HTTP proxy bound to 127.0.0.2, stealth through a SOCKS5 proxy bound to 127.0.0.3,
 * and a `de` pool). An `auto` scrape moves from http to the browser on a block page and on an
 * app shell, and from the basic to the stealth tier when the browser is blocked too; it pays
 * once, the price of what served it; blocked steps cost nothing; the run records each step.
 */
import { freePort } from '../../platform/free-port';
import { SCRAPE_ENGINES } from '../../scrape/engines';
import { PROXY_TIER_PRICES } from '../../scrape/proxy-tiers';
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestProxy, startHttpProxy, startSocksProxy } from '../../test/fixtures/proxies';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance } from '../../test/helpers/accounts';
import { type Json, call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';

jest.setTimeout(300_000);

let stack: Stack;
let fixtures: FixtureServer;
let account: TestAccount;
let basicProxy: TestProxy;
let stealthProxy: TestProxy;
let workerMetricsUrl: string;

const HTTP = SCRAPE_ENGINES.http.price;
const BROWSER = SCRAPE_ENGINES.browser.price;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  basicProxy = await startHttpProxy({ username: 'e2e', password: 'esc-basic-Pw-91', localAddress: '127.0.0.2' });
  stealthProxy = await startSocksProxy({ username: 'e2e', password: 'esc-stealth-Pw-37', localAddress: '127.0.0.3' });
  const metricsPort = await freePort();
  workerMetricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const tiers = { basic: { default: [basicProxy.url], de: [basicProxy.url] }, stealth: { default: [stealthProxy.url] } };
  stack = await startStack({ env: { PROXY_TIERS: JSON.stringify(tiers), WORKER_METRICS_PORT: String(metricsPort) } });
  account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 1000);
});

afterAll(async () => {
  await stack?.stop();
  await basicProxy?.close();
  await stealthProxy?.close();
  await fixtures?.close();
});

const key = () => ({ 'x-api-key': account.apiKey });
const scrape = (body: Record<string, unknown>) => call(stack.baseUrl, 'POST', '/webhook/unblocker', key(), body);
const runOf = async (id: unknown) => (await call(stack.baseUrl, 'GET', `/webhook/runs/${String(id)}`, key())).body;
const ledgerRowsOf = async (runId: unknown) => (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.runId === runId).map((row) => [row.reason, row.amount]);

/** A counter's samples summed over the API process and the worker (http steps run in the first, browser steps in the second). */
async function counted(name: string, labels: string): Promise<number> {
  let total = 0;
  for (const url of [`${stack.baseUrl}/metrics`, workerMetricsUrl]) {
    const text = await (await fetch(url)).text();
    const sample = new RegExp(`^${name}\\{${labels.replace(/[{}]/g, '\\$&')}\\} (\\d+)$`, 'm').exec(text);
    total += sample ? Number(sample[1]) : 0;
  }
  return total;
}

describe('mode auto', () => {
  it('a block page on http moves the same run to the browser: served by browser@basic, charged the browser price once', async () => {
    const escalations = await counted('scrape_escalations_total', 'from="http@basic",to="browser@basic",reason="blocked"');
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const pass = `esc-${Date.now()}`;
    const { status, body } = await scrape({ url: `${fixtures.url}/block-page/perimeterx-captcha-fanduel.html?key=${pass}&pass=1`, mode: 'auto', selectors: ['h1'], options: { retry_count: 0 } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ mode: 'browser', served_by: { engine: 'browser', proxy_tier: 'basic' }, credits: { cost: BROWSER }, data: [{ selector: 'h1', results: [{ text: 'Passed' }] }] });
    expect(body.escalation).toEqual([
      { attempt: 1, engine: 'http', proxy_tier: 'basic', outcome: 'TARGET_BLOCKED', escalated: 'blocked', blocked_by: 'perimeterx' },
      { attempt: 2, engine: 'browser', proxy_tier: 'basic', outcome: 'succeeded' },
    ]);
    expect(await ledgerRowsOf(body.id)).toEqual([['debit', -BROWSER]]);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before - BROWSER);
    expect(await runOf(body.id)).toMatchObject({ status: 'succeeded', escalation: body.escalation });
    await waitFor('the move counted', async () => (await counted('scrape_escalations_total', 'from="http@basic",to="browser@basic",reason="blocked"')) >= escalations + 1);
  });

  it('an app shell on http is rendered by the browser', async () => {
    const { status, body } = await scrape({ url: `${fixtures.url}/escalate/app-shell`, mode: 'auto', selectors: ['#rendered'], options: { retry_count: 0 } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ served_by: { engine: 'browser', proxy_tier: 'basic' }, data: [{ selector: '#rendered', results: [{ text: 'Rendered by JS' }] }] });
    expect(body.escalation).toEqual([
      { attempt: 1, engine: 'http', proxy_tier: 'basic', outcome: 'JAVASCRIPT_REQUIRED', escalated: 'app_shell' },
      { attempt: 2, engine: 'browser', proxy_tier: 'basic', outcome: 'succeeded' },
    ]);
    expect(await ledgerRowsOf(body.id)).toEqual([['debit', -BROWSER]]);
  });

  it('blocked on the browser too: the next tier (stealth) gets the page, charged browser + stealth once', async () => {
    const { status, body } = await scrape({ url: `${fixtures.url}/escalate/only-from/127.0.0.3`, mode: 'auto', selectors: ['#client'], options: { retry_count: 0 } });
    expect(status).toBe(200);
    const price = BROWSER + PROXY_TIER_PRICES.stealth;
    expect(body).toMatchObject({ served_by: { engine: 'browser', proxy_tier: 'stealth' }, credits: { cost: price }, data: [{ selector: '#client', results: [{ text: '127.0.0.3' }] }] });
    expect((body.escalation as Json[]).map((step) => [step.engine, step.proxy_tier, step.outcome, step.escalated])).toEqual([
      ['http', 'basic', 'TARGET_BLOCKED', 'blocked'],
      ['browser', 'basic', 'TARGET_BLOCKED', 'blocked'],
      ['browser', 'stealth', 'succeeded', undefined],
    ]);
    expect(await ledgerRowsOf(body.id)).toEqual([['debit', -price]]);
  });

  it('blocked on every step: failed TARGET_BLOCKED, nothing charged', async () => {
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const { status, body } = await scrape({ url: `${fixtures.url}/escalate/only-from/127.0.0.9`, mode: 'auto', options: { retry_count: 0 } });
    expect(status).toBe(502);
    expect(body).toMatchObject({ code: 'TARGET_BLOCKED', blocked_by: 'cloudflare' });
    expect(await ledgerRowsOf(body.id)).toEqual([]);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before);
    const run = await runOf(body.id);
    expect((run.escalation as Json[]).map((step) => `${String(step.engine)}@${String(step.proxy_tier)}:${String(step.outcome)}`)).toEqual([
      'http@basic:TARGET_BLOCKED',
      'browser@basic:TARGET_BLOCKED',
      'browser@stealth:TARGET_BLOCKED',
    ]);
  });

  // The pinned scrape is served by http in the API process: its answer is told in-process (runEvents), and names what served it as the run's row does.
  it('a pinned tier does not climb; a field only the browser has starts there', async () => {
    const pinned = await scrape({ url: `${fixtures.url}/client-address`, mode: 'auto', proxy_tier: 'stealth', selectors: ['#client'] });
    expect(pinned.status).toBe(200);
    expect(pinned.body).toMatchObject({ mode: 'http', served_by: { engine: 'http', proxy_tier: 'stealth' }, credits: { cost: HTTP + PROXY_TIER_PRICES.stealth }, data: [{ results: [{ text: '127.0.0.3' }] }] });
    expect(pinned.body.escalation).toEqual([{ attempt: 1, engine: 'http', proxy_tier: 'stealth', outcome: 'succeeded' }]);
    expect(await runOf(pinned.body.id)).toMatchObject({ escalation: pinned.body.escalation, result: { served_by: pinned.body.served_by } });
    const browserFirst = await scrape({ url: `${fixtures.url}/client-address`, mode: 'auto', wait_for: '#client', selectors: ['#client'] });
    expect(browserFirst.status).toBe(200);
    expect(browserFirst.body).toMatchObject({ mode: 'browser', served_by: { engine: 'browser', proxy_tier: 'basic' }, escalation: [{ attempt: 1, engine: 'browser', outcome: 'succeeded' }] });
  });

  it('mode http (the native default) never escalates: a block page fails as before, debited then refunded', async () => {
    const { status, body } = await scrape({ url: `${fixtures.url}/escalate/app-shell`, selectors: ['#rendered'] });
    expect(status).toBe(200);
    expect(body).toMatchObject({ mode: 'http', data: [{ selector: '#rendered', results: [] }] });
    expect(body.served_by).toBeUndefined();
  });
});

describe('crawls in auto mode', () => {
  it('a crawl page that needs the browser (an app shell) climbs as a scrape does: served by the browser, charged the browser price once', async () => {
    const api = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, key(), body);
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const started = await api('POST', '/crawl', { url: `${fixtures.url}/escalate/app-shell`, limit: 1, max_depth: 0, sitemap: 'skip', per_host_delay_ms: 0, scrape: { mode: 'auto', selectors: ['#rendered'] } });
    expect(started.status).toBe(202);
    const id = started.body.id as string;
    const ended = await waitFor(`crawl ${id} ended`, async () => {
      const got = await api('GET', `/crawl/${id}`);
      return ['completed', 'failed', 'cancelled', 'credit_exhausted'].includes(got.body.status as string) ? got.body : undefined;
    }, 240_000);
    expect(ended.status).toBe('completed');
    const pages = (await api('GET', `/crawl/${id}/pages?limit=10`)).body.pages as Json[];
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ status: 'succeeded' });
    const run = await runOf(pages[0]!.run_id);
    expect(run).toMatchObject({ status: 'succeeded', result: { mode: 'browser', served_by: { engine: 'browser', proxy_tier: 'basic' }, credits: { cost: BROWSER }, data: [{ selector: '#rendered', results: [{ text: 'Rendered by JS' }] }] } });
    expect((run.escalation as Json[]).map((step) => [step.engine, step.proxy_tier, step.outcome, step.escalated])).toEqual([
      ['http', 'basic', 'JAVASCRIPT_REQUIRED', 'app_shell'],
      ['browser', 'basic', 'succeeded', undefined],
    ]);
    expect(await ledgerRowsOf(pages[0]!.run_id)).toEqual([['debit', -BROWSER]]);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before - BROWSER);
  });
});

describe('cancelling a crawl in auto mode', () => {
  it("reaches the http step mid-fetch (the step heartbeats): the page's connection is dropped, not held until its timeout", async () => {
    const api = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, key(), body);
    const hold = `crawl-cancel-${Date.now()}`;
    // The page never answers; without the cancel the fetch would end at its 50 s timeout.
    const started = await api('POST', '/crawl', { url: `${fixtures.url}/hold?key=${hold}`, limit: 1, max_depth: 0, sitemap: 'skip', per_host_delay_ms: 0, scrape: { mode: 'auto', options: { retry_count: 0, timeout_ms: 50_000 } } });
    expect(started.status).toBe(202);
    const id = started.body.id as string;
    await waitFor('the page fetch to reach the site', () => Promise.resolve((fixtures.hits.get('/hold') ?? 0) > 0 ? true : undefined), 120_000);
    expect([200, 202]).toContain((await api('POST', `/crawl/${id}/cancel`)).status);
    // Heartbeats are throttled to 8 s: the cancel reaches the fetch well before the page's 50 s.
    await waitFor('the fetch to be abandoned', () => Promise.resolve(fixtures.abandoned.get(hold) ? true : undefined), 35_000);
    const ended = await waitFor(`crawl ${id} ended`, async () => {
      const got = await api('GET', `/crawl/${id}`);
      return ['completed', 'failed', 'cancelled', 'credit_exhausted'].includes(got.body.status as string) ? got.body : undefined;
    }, 60_000);
    expect(ended.status).toBe('cancelled');
    fixtures.release(hold);
  });
});

describe('countries and the Firecrawl fields', () => {
  it('country de goes through the de pool; a country with no pool is a 400 naming it', async () => {
    const de = await scrape({ url: `${fixtures.url}/client-address`, country: 'DE', selectors: ['#client'] });
    expect(de.status).toBe(200);
    expect(de.body).toMatchObject({ data: [{ results: [{ text: '127.0.0.2' }] }] });
    const fr = await scrape({ url: `${fixtures.url}/client-address`, country: 'fr' });
    expect(fr.status).toBe(400);
    expect(JSON.stringify(fr.body)).toContain('has no proxy: the countries with one are de');
    expect(JSON.stringify(fr.body)).toContain('fr');
  });

  it('Firecrawl: auto by default, proxy "stealth" pins the tier, location.country maps, an unknown country is a 400 naming it', async () => {
    const post = (body: Record<string, unknown>) => call(stack.baseUrl, 'POST', '/v2/scrape', { authorization: `Bearer ${account.apiKey}` }, body);
    const shell = await post({ url: `${fixtures.url}/escalate/app-shell`, formats: ['markdown'] });
    expect(shell.status).toBe(200);
    expect(String((shell.body.data as Json).markdown)).toContain('Rendered by JS');
    expect((shell.body.data as Json).metadata).toMatchObject({ proxyUsed: 'basic' });
    const stealth = await post({ url: `${fixtures.url}/client-address`, formats: ['markdown'], proxy: 'stealth' });
    expect(stealth.status).toBe(200);
    expect(String((stealth.body.data as Json).markdown)).toContain('127.0.0.3');
    expect((stealth.body.data as Json).metadata).toMatchObject({ proxyUsed: 'stealth', creditsUsed: HTTP + PROXY_TIER_PRICES.stealth });
    const located = await post({ url: `${fixtures.url}/client-address`, formats: ['markdown'], location: { country: 'DE', languages: ['de-DE'] } });
    expect(located.status).toBe(200);
    expect(String((located.body.data as Json).markdown)).toContain('127.0.0.2');
    const unknown = await post({ url: `${fixtures.url}/client-address`, location: { country: 'JP' } });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('has no proxy: the countries with one are de');
    expect(JSON.stringify(unknown.body)).toContain('jp');
    const badProxy = await post({ url: `${fixtures.url}/client-address`, proxy: 'mobile' });
    expect(badProxy.status).toBe(400);
    expect(JSON.stringify(badProxy.body)).toContain('is not supported: use basic, stealth, enhanced, auto');
  });

  it('Firecrawl: metadata.proxyUsed names the tier that served the page after the climb (stealth), charged once at its price', async () => {
    const post = (body: Record<string, unknown>) => call(stack.baseUrl, 'POST', '/v2/scrape', { authorization: `Bearer ${account.apiKey}` }, body);
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const climbed = await post({ url: `${fixtures.url}/escalate/only-from/127.0.0.3`, formats: ['markdown'], maxAge: 0 });
    expect(climbed.status).toBe(200);
    const metadata = (climbed.body.data as Json).metadata as Json;
    expect(String((climbed.body.data as Json).markdown)).toContain('127.0.0.3');
    expect(metadata).toMatchObject({ proxyUsed: 'stealth', creditsUsed: BROWSER + PROXY_TIER_PRICES.stealth });
    expect(await ledgerRowsOf(metadata.scrapeId)).toEqual([['debit', -(BROWSER + PROXY_TIER_PRICES.stealth)]]);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before - BROWSER - PROXY_TIER_PRICES.stealth);
    const basic = await post({ url: `${fixtures.url}/client-address`, formats: ['markdown'], maxAge: 0 });
    expect(basic.status).toBe(200);
    expect((basic.body.data as Json).metadata).toMatchObject({ proxyUsed: 'basic', creditsUsed: HTTP });
    expect(String((basic.body.data as Json).markdown)).toContain('127.0.0.2');
  });

  it('GET /pricing lists the tiers, their prices and which are configured', async () => {
    const { status, body } = await call(stack.baseUrl, 'GET', '/pricing', {});
    expect(status).toBe(200);
    expect(body.proxy_tiers).toMatchObject({ tiers: PROXY_TIER_PRICES, configured: ['basic', 'stealth'] });
  });
});
