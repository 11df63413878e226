/**
 * Limits end to end (real API and worker processes, PostgreSQL, Temporal, the fixture site), with
 * tiny limits set for this stack: an API key's requests per minute → 429 with Retry-After and the
 * standard body, nothing recorded or charged; an account's runs in flight → 429 until one finishes.
 */
import { type FixtureServer, startFixtureServer } from '../test/fixtures/server';
import { type TestAccount, balanceOf, createAccount, setBalance, sql } from '../test/helpers/accounts';
import { request } from '../test/helpers/http';
import { type Stack, startStack } from '../test/helpers/stack';
import { waitFor } from '../test/helpers/wait';

const RATE = 5;
let stack: Stack;
let fixtures: FixtureServer;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  stack = await startStack({ env: { RATE_LIMIT_PER_MINUTE: String(RATE), CONCURRENCY_LIMIT: '2' } });
});

afterAll(async () => {
  await stack?.stop();
  await fixtures?.close();
});

const runsOf = async (userId: string) => (await sql<{ id: string }>(stack.databaseUrl, 'SELECT id FROM scrape_run WHERE "userId" = $1', [userId])).length;
const scrape = (a: TestAccount, body: unknown) => request(stack.baseUrl, 'POST', '/webhook/unblocker', { 'x-api-key': a.apiKey }, body);

it('answers 429 with Retry-After past the requests per key per minute; no run, no debit', async () => {
  const account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 100);
  // Until a 429 with at least 5 s left in its minute (a minute may roll over meanwhile).
  let passed = 0;
  const limited = await waitFor('a 429 with time left in its minute', async () => {
    const answer = await request(stack.baseUrl, 'GET', '/webhook/runs/unknown-run', { 'x-api-key': account.apiKey });
    if (answer.status !== 429) {
      passed++;
      return undefined;
    }
    return Number(answer.headers.get('retry-after')) >= 5 ? answer : undefined;
  }, 150_000);
  expect(passed).toBeGreaterThanOrEqual(RATE);
  expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  expect(limited.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests', code: 'RATE_LIMITED', message: expect.stringContaining(`${RATE} requests`) });

  const [runs, balance] = [await runsOf(account.userId), await balanceOf(stack.databaseUrl, account.userId)];
  const refused = await scrape(account, { url: `${fixtures.url}/page/1` });
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(await runsOf(account.userId)).toBe(runs);
  expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(balance);

  // Another key is counted on its own.
  const other = await createAccount(stack.baseUrl);
  expect((await scrape(other, { url: `${fixtures.url}/page/1` })).status).toBe(200);

  const metrics = await (await fetch(`${stack.baseUrl}/metrics`)).text();
  expect(metrics).toMatch(/requests_limited_total\{limit="rate"\} [1-9]/);
});

it('answers 429 while the account has CONCURRENCY_LIMIT runs in flight, and runs again once one finished', async () => {
  const account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 100);
  const held = [1, 2].map((n) => `limits-${Date.now()}-${n}`);
  for (const key of held) expect((await scrape(account, { url: `${fixtures.url}/hold?key=${key}`, async: true })).status).toBe(202);
  // Both debited and fetching (the debit comes before the fetch).
  await waitFor('both held runs at the target', () => Promise.resolve((fixtures.hits.get('/hold') ?? 0) >= 2));
  const balance = await balanceOf(stack.databaseUrl, account.userId);
  const refused = await scrape(account, { url: `${fixtures.url}/page/2` });
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toBe('1');
  expect(refused.body).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', message: expect.stringContaining('runs in flight') });
  expect(await runsOf(account.userId)).toBe(2);
  expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(balance);

  fixtures.release(held[0]!);
  await waitFor('a held run finished', async () => {
    const live = await sql<{ n: number }>(stack.databaseUrl, `SELECT count(*)::int AS n FROM scrape_run WHERE "userId" = $1 AND status IN ('queued', 'running')`, [account.userId]);
    return live[0]!.n < 2;
  });
  expect((await scrape(account, { url: `${fixtures.url}/page/2` })).status).toBe(200);
  fixtures.release(held[1]!);
});

describe('across two API processes sharing PostgreSQL', () => {
  let second: Awaited<ReturnType<Stack['startSecondApi']>>;
  beforeAll(async () => {
    second = await stack.startSecondApi();
  });
  afterAll(async () => {
    await second?.stop();
  });

  it('holds the runs-in-flight limit', async () => {
    const account = await createAccount(stack.baseUrl);
    await setBalance(stack.databaseUrl, account.userId, 100);
    const via = (baseUrl: string, url: string, async = false) =>
      request(baseUrl, 'POST', '/webhook/unblocker', { 'x-api-key': account.apiKey }, { url, ...(async ? { async: true } : {}) });
    const hitsBefore = fixtures.hits.get('/hold') ?? 0;
    const held = [1, 2].map((n) => `limits-two-${Date.now()}-${n}`);
    // One run in flight started through each process: CONCURRENCY_LIMIT (2) reached.
    expect((await via(stack.baseUrl, `${fixtures.url}/hold?key=${held[0]}`, true)).status).toBe(202);
    expect((await via(second.baseUrl, `${fixtures.url}/hold?key=${held[1]}`, true)).status).toBe(202);
    await waitFor('both held runs at the target', () => Promise.resolve((fixtures.hits.get('/hold') ?? 0) >= hitsBefore + 2));
    for (const baseUrl of [stack.baseUrl, second.baseUrl]) {
      const refused = await via(baseUrl, `${fixtures.url}/page/3`);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', message: expect.stringContaining('runs in flight') });
    }
    expect(await runsOf(account.userId)).toBe(2);

    fixtures.release(held[1]!);
    await waitFor('a held run finished', async () => {
      const live = await sql<{ n: number }>(stack.databaseUrl, `SELECT count(*)::int AS n FROM scrape_run WHERE "userId" = $1 AND status IN ('queued', 'running')`, [account.userId]);
      return live[0]!.n < 2;
    });
    expect((await via(stack.baseUrl, `${fixtures.url}/page/3`)).status).toBe(200);
    fixtures.release(held[0]!);
  });

  it('adds the request counts of each process to the shared per-key count: the other process refuses once it learned them', async () => {
    const minuteOf = () => Math.floor(Date.now() / 60_000);
    const rowCount = async (apiKeyId: string, minute: number) =>
      (await sql<{ count: number }>(stack.databaseUrl, `SELECT count FROM api_key_rate WHERE "apiKeyId" = $1 AND "windowStart" = to_timestamp($2::bigint * 60)`, [apiKeyId, minute]))[0]?.count ?? 0;
    const get = (baseUrl: string, a: TestAccount) => request(baseUrl, 'GET', '/webhook/runs/unknown-run', { 'x-api-key': a.apiKey });
    // A minute rolling over mid-way resets the counts: then again with a fresh key (bounded).
    for (let attempt = 1; attempt <= 3; attempt++) {
      const minute = minuteOf();
      const account = await createAccount(stack.baseUrl);
      for (let n = 0; n < RATE; n++) expect((await get(stack.baseUrl, account)).status).toBe(404);
      await waitFor('the first process added its count', async () => (await rowCount(account.apiKeyId, minute)) >= RATE || minuteOf() !== minute);
      // The second process has not learned the shared count yet: its first request passes (the
      // documented approximation, one flush interval), its flush returns RATE + 1, and it refuses.
      const first = await get(second.baseUrl, account);
      await waitFor('the second process added its count', async () => (await rowCount(account.apiKeyId, minute)) >= RATE + 1 || minuteOf() !== minute);
      const refusedThere = await get(second.baseUrl, account);
      const refusedHere = await get(stack.baseUrl, account);
      if (minuteOf() !== minute) continue;
      expect(first.status).toBe(404);
      expect(refusedThere.status).toBe(429);
      expect(refusedThere.body).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining(`${RATE} requests`) });
      expect(refusedHere.status).toBe(429);
      return;
    }
    throw new Error('three minutes rolled over mid-test');
  });
});
