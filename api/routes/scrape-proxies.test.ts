/**
 * Outbound proxies end to end (docs/scraping.md "Proxies"): real API and worker processes,
 * Temporal, PostgreSQL, Debian's Chromium, the fixture site, and two local proxies started here
 * (an HTTP proxy, proxy-chain; a SOCKS5 proxy) plus a dead one, all on loopback and with
 * credentials. PROXY_URLS lists them in the order dead, http, socks5, and one worker process runs
 * every scrape (API_WORKER=false: the rotation is per process), so the order is known: the dead
 * one fails the first attempt (PROXY_FAILED, retried through the next proxy) and is then cooled
 * down for the rest of the file, and http and browser scrapes share the rotation.
 */
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestProxy, deadProxyUrl, startHttpProxy, startSocksProxy } from '../../test/fixtures/proxies';
import { type TestAccount, createAccount, setBalance, sql } from '../../test/helpers/accounts';
import { type Json, call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitForFlowRun } from '../../test/helpers/flows';

const HTTP_PASSWORD = 'e2e-http-Pw-7f3a9c';
const SOCKS_PASSWORD = 'e2e-socks-Pw-41be0d';
const DEAD_PASSWORD = 'e2e-dead-Pw-c0ffee';

let stack: Stack;
let fixtures: FixtureServer;
let account: TestAccount;
let httpProxy: TestProxy;
let socksProxy: TestProxy;
let dead: { url: string; id: string };
const bodies: string[] = [];

beforeAll(async () => {
  fixtures = await startFixtureServer();
  httpProxy = await startHttpProxy({ username: 'e2e', password: HTTP_PASSWORD, localAddress: '127.0.0.2' });
  socksProxy = await startSocksProxy({ username: 'e2e', password: SOCKS_PASSWORD, localAddress: '127.0.0.3' });
  dead = await deadProxyUrl();
  dead.url = dead.url.replace('dead:proxy', `dead:${DEAD_PASSWORD}`);
  stack = await startStack({
    env: { PROXY_URLS: [dead.url, httpProxy.url, socksProxy.url].join(','), PROXY_COOLDOWN_MS: '600000', PROXY_STICKY: 'true', API_WORKER: 'false' },
  });
  account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 10_000);
});

afterAll(async () => {
  await stack?.stop();
  await httpProxy?.close();
  await socksProxy?.close();
  await fixtures?.close();
});

const key = () => ({ 'x-api-key': account.apiKey });

async function scrape(body: Record<string, unknown>): Promise<{ status: number; body: Json }> {
  const answer = await call(stack.baseUrl, 'POST', '/webhook/unblocker', key(), { url: `${fixtures.url}/client-address`, selectors: ['#client'], ...body });
  bodies.push(JSON.stringify(answer.body));
  return answer;
}

async function run(id: string): Promise<Json> {
  const answer = await call(stack.baseUrl, 'GET', `/webhook/runs/${String(id)}`, key());
  expect(answer.status).toBe(200);
  bodies.push(JSON.stringify(answer.body));
  return answer.body;
}

const seenBy = (body: Json) => (body.data as Array<{ results: Array<{ text: string }> }>)[0]!.results[0]!.text;

describe('one rotation for both engines (the worker process runs every scrape here: API_WORKER=false)', () => {
  it('http: the dead proxy fails attempt 1 (PROXY_FAILED, recorded with host:port), attempt 2 goes through the http proxy', async () => {
    const before = httpProxy.count();
    const first = await scrape({ mode: 'http' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 200, attempts: 2 });
    expect(seenBy(first.body)).toBe('127.0.0.2');
    expect(httpProxy.count()).toBe(before + 1);
    const stored = await run(first.body.id as string);
    expect(stored.proxy_attempts).toEqual([
      { attempt: 1, proxy: dead.id, outcome: 'PROXY_FAILED', message: expect.stringContaining(`proxy ${dead.id} failed`) },
      { attempt: 2, proxy: httpProxy.id, outcome: 'succeeded' },
    ]);
  });

  it('browser: next in turn, the SOCKS5 proxy (the page and its subresources)', async () => {
    const before = socksProxy.count();
    const second = await scrape({ mode: 'browser' });
    expect(second.status).toBe(200);
    expect(second.body.attempts).toBe(1);
    expect(seenBy(second.body)).toBe('127.0.0.3');
    expect(socksProxy.count()).toBeGreaterThan(before);
    expect((await run(second.body.id as string)).proxy_attempts).toEqual([{ attempt: 1, proxy: socksProxy.id, outcome: 'succeeded' }]);
  });

  it('the dead proxy stays cooled down: http, browser and http again alternate between the two live proxies', async () => {
    const expected = [
      ['http', httpProxy, '127.0.0.2'],
      ['browser', socksProxy, '127.0.0.3'],
      ['browser', httpProxy, '127.0.0.2'],
      ['http', socksProxy, '127.0.0.3'],
    ] as const;
    // Which proxy carried each is told by the address the site saw (each proxy connects from its
    // own); its connection count may not move: the http engine keeps a proxy's tunnel alive and
    // reuses it for the same target.
    for (const [mode, proxy, address] of expected) {
      const answer = await scrape({ mode });
      expect({ mode, attempts: answer.body.attempts, seen: seenBy(answer.body) }).toEqual({ mode, attempts: 1, seen: address });
      expect((await run(answer.body.id as string)).proxy_attempts).toEqual([{ attempt: 1, proxy: proxy.id, outcome: 'succeeded' }]);
    }
  });

  it.each(['http', 'browser'] as const)('%s with proxy: "none" goes direct: the site sees our own address, no proxy counts it, nothing is recorded', async (mode) => {
    const counts = [httpProxy.count(), socksProxy.count()];
    const direct = await scrape({ mode, proxy: 'none' });
    expect(direct.status).toBe(200);
    expect(seenBy(direct.body)).toBe('127.0.0.1');
    expect([httpProxy.count(), socksProxy.count()]).toEqual(counts);
    expect((await run(direct.body.id as string)).proxy_attempts).toBeUndefined();
  });
});

it('refuses a proxy value other than "none" or "default" (400)', async () => {
  const bad = await scrape({ proxy: 'socks' });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.body.message)).toContain('proxy');
});

it('PROXY_STICKY: every scrape of a flow run goes through one proxy per host; another run gets the next proxy', async () => {
  const created = await call(stack.baseUrl, 'POST', '/flows', key(), {
    name: 'sticky',
    nodes: [
      { id: 'list', type: 'scrape', config: { url: `${fixtures.url}/links?n=4`, selectors: [{ name: 'links', selector: 'a.link', attribute: 'href', all: true }] } },
      { id: 'pages', type: 'foreach', needs: ['list'], config: { from: '{{ nodes.list.data.0.results }}', concurrency: 2, request: { url: '{{ item.text }}', selectors: ['h1'] } } },
    ],
  });
  expect(created.status).toBe(201);
  const proxiesOf = async (): Promise<string[]> => {
    const started = await call(stack.baseUrl, 'POST', `/flows/${String(created.body.id)}/runs`, key());
    expect([200, 202]).toContain(started.status);
    const finished = await waitForFlowRun(stack.baseUrl, key(), created.body.id as string, started.body.id as string);
    expect(finished.status).toBe('succeeded');
    const rows = await sql<{ proxyAttempts: Array<{ proxy: string }> | null }>(stack.databaseUrl, 'SELECT "proxyAttempts" FROM scrape_run WHERE "flowRunId" = $1', [started.body.id]);
    expect(rows).toHaveLength(5);
    return rows.flatMap((r) => (r.proxyAttempts ?? []).map((a) => a.proxy));
  };
  const first = await proxiesOf();
  expect(first).toHaveLength(5);
  expect(new Set(first).size).toBe(1);
  const second = await proxiesOf();
  expect(new Set(second).size).toBe(1);
  expect(second[0]).not.toBe(first[0]);
  expect([httpProxy.id, socksProxy.id]).toEqual(expect.arrayContaining([first[0], second[0]]));
});

it('a block page drawn through one proxy: the attempt fails TARGET_BLOCKED, that proxy cools down and the retry goes through the other (docs/scraping.md "Block pages")', async () => {
  const blocked = await scrape({ mode: 'http', url: `${fixtures.url}/block-page/cloudflare-managed-challenge-codepen.html?key=through-proxies&pass=1`, selectors: ['h1'], options: { retry_count: 2 } });
  expect(blocked.status).toBe(200);
  expect(blocked.body).toMatchObject({ attempts: 2, data: [{ results: [{ text: 'Passed' }] }] });
  const attempts = (await run(blocked.body.id as string)).proxy_attempts as Array<{ proxy: string }>;
  expect(attempts).toEqual([
    { attempt: 1, proxy: expect.any(String), outcome: 'TARGET_BLOCKED', message: expect.stringContaining('blocked_by cloudflare') },
    { attempt: 2, proxy: expect.any(String), outcome: 'succeeded' },
  ]);
  expect(attempts[1]!.proxy).not.toBe(attempts[0]!.proxy);
  expect([httpProxy.id, socksProxy.id]).toEqual(expect.arrayContaining([attempts[0]!.proxy, attempts[1]!.proxy]));
});

it('credentials appear in no log line, run record or answer (the logs do name proxies by host:port)', async () => {
  const logs = [...stack.output.api, ...stack.output.worker].join('');
  expect(logs).toContain(dead.id);
  const rows = await sql<{ row: string }>(stack.databaseUrl, 'SELECT row_to_json(r)::text AS row FROM scrape_run r');
  expect(rows.length).toBeGreaterThan(0);
  for (const secret of [HTTP_PASSWORD, SOCKS_PASSWORD, DEAD_PASSWORD]) {
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(encodeURIComponent(secret));
    for (const { row } of rows) expect(row).not.toContain(secret);
    for (const body of bodies) expect(body).not.toContain(secret);
  }
});
