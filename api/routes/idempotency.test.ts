/**
 * The Idempotency-Key header end to end (real API and worker processes, Temporal, PostgreSQL, the
 * fixture site): a repeat answers from the first request's run and never starts or charges a
 * second; another body → 422; concurrent duplicates → one run; a repeat after the first answer
 * was lost waits for the run; an expired key starts anew; flows, payments and subscriptions alike.
 */
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestAccount, createAccount, ledgerOf, setBalance, sql } from '../../test/helpers/accounts';
import { type Json, call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';

let stack: Stack;
let fixtures: FixtureServer;
let account: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  stack = await startStack({ env: { PAYMENT_PROVIDER: 'local', LOCAL_PAYMENT_SECRET: 'local-test-secret-0123456789' } });
  [account, other] = await Promise.all([createAccount(stack.baseUrl), createAccount(stack.baseUrl)]);
});

afterAll(async () => {
  await stack?.stop();
  await fixtures?.close();
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, account.userId, 1000);
});

let keys = 0;
const newKey = () => `key-${Date.now()}-${++keys}`;

const scrape = (body: unknown, idempotencyKey?: string, a: TestAccount = account) =>
  call(stack.baseUrl, 'POST', '/webhook/unblocker', { 'x-api-key': a.apiKey, ...(idempotencyKey !== undefined ? { 'idempotency-key': idempotencyKey } : {}) }, body);

const runsOf = async (userId: string) => (await sql<{ id: string }>(stack.databaseUrl, 'SELECT id FROM scrape_run WHERE "userId" = $1', [userId])).map((r) => r.id);
const debitsOf = async (runId: unknown) => (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.runId === runId).map((row) => [row.reason, row.amount]);

describe('POST /webhook/unblocker', () => {
  it('answers a repeat with the same run, status and body; one run, one debit', async () => {
    const key = newKey();
    const before = await runsOf(account.userId);
    const first = await scrape({ url: `${fixtures.url}/page/1`, selectors: ['h1'] }, key);
    expect(first.status).toBe(200);
    // The same JSON in another key order is the same request.
    const again = await scrape({ selectors: ['h1'], url: `${fixtures.url}/page/1` }, key);
    expect(again).toEqual(first);
    expect(await runsOf(account.userId)).toHaveLength(before.length + 1);
    expect(await debitsOf(first.body.id)).toEqual([['debit', -1]]);
    // The key is the account's: another account's same key is its own request.
    const theirs = await scrape({ url: `${fixtures.url}/page/1`, selectors: ['h1'] }, key, other);
    expect(theirs.status).toBe(200);
    expect(theirs.body.id).not.toBe(first.body.id);
  });

  it('refuses the same key with another body (422) and a malformed key (400), in the standard body', async () => {
    const key = newKey();
    expect((await scrape({ url: `${fixtures.url}/page/1` }, key)).status).toBe(200);
    const reused = await scrape({ url: `${fixtures.url}/page/2` }, key);
    expect(reused).toEqual({
      status: 422,
      body: { statusCode: 422, error: 'Unprocessable Entity', code: 'IDEMPOTENCY_KEY_REUSED', message: expect.stringContaining('Idempotency-Key') },
    });
    for (const bad of ['', '   ', 'k'.repeat(256), 'clé']) {
      const refused = await scrape({ url: `${fixtures.url}/page/1` }, bad);
      expect(refused).toEqual({ status: 400, body: { statusCode: 400, error: 'Bad Request', code: 'BAD_REQUEST', message: expect.stringContaining('Idempotency-Key') } });
    }
    expect((await scrape({ url: `${fixtures.url}/page/3` }, 'k'.repeat(255))).status).toBe(200);
  });

  it('starts one run for concurrent duplicates', async () => {
    const key = newKey();
    const before = await runsOf(account.userId);
    const answers = await Promise.all(Array.from({ length: 8 }, () => scrape({ url: `${fixtures.url}/page/4` }, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await runsOf(account.userId)).toHaveLength(before.length + 1);
    expect(await debitsOf(answers[0]!.body.id)).toEqual([['debit', -1]]);
  });

  it('a retry after the first answer was lost waits for the same run, then answers its result', async () => {
    const key = newKey();
    const hold = `idem-${key}`;
    const body = { url: `${fixtures.url}/hold?key=${hold}` };
    const before = new Set(await runsOf(account.userId));
    // The first attempt's connection is lost after the run was accepted.
    const lost = new AbortController();
    const first = fetch(`${stack.baseUrl}/webhook/unblocker`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey, 'idempotency-key': key },
      body: JSON.stringify(body),
      signal: lost.signal,
    }).catch((error: unknown) => error);
    const runId = await waitFor('the held run', async () => (await runsOf(account.userId)).find((id) => !before.has(id)));
    await waitFor('the target hit', () => Promise.resolve((fixtures.hits.get('/hold') ?? 0) > 0));
    lost.abort();
    expect(await first).toMatchObject({ name: 'AbortError' });

    const retry = scrape(body, key);
    // The retry found the run (still held) and waits for it rather than starting another.
    await waitFor('the retry waiting', () => Promise.resolve(stack.output.api.join('').includes(`"resourceId":"${runId}","msg":"idempotent repeat`)));
    fixtures.release(hold);
    const answered = await retry;
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ id: runId, status: 200 });
    expect(await scrape(body, key)).toEqual(answered);
    expect((await runsOf(account.userId)).filter((id) => !before.has(id))).toEqual([runId]);
    expect(await debitsOf(runId)).toEqual([['debit', -1]]);
  });

  it('replays a failed run as it failed (same status and body), refunded once', async () => {
    const key = newKey();
    const body = { url: `${fixtures.url}/status/503`, options: { retry_count: 0 } };
    const first = await scrape(body, key);
    expect(first.status).toBe(502);
    expect(first.body).toMatchObject({ code: 'TARGET_ERROR', id: expect.any(String), refunded: true });
    expect(await scrape(body, key)).toEqual(first);
    expect(await debitsOf(first.body.id)).toEqual([
      ['debit', -1],
      ['refund', 1],
    ]);
  });

  it('answers an async repeat with the run id (202) and its current status', async () => {
    const key = newKey();
    const body = { url: `${fixtures.url}/page/5`, async: true };
    const first = await scrape(body, key);
    expect(first).toMatchObject({ status: 202, body: { status: 'queued' } });
    await waitFor('the run finished', async () => (await sql<{ status: string }>(stack.databaseUrl, 'SELECT status::text AS status FROM scrape_run WHERE id = $1', [first.body.id]))[0]?.status === 'succeeded');
    expect(await scrape(body, key)).toEqual({ status: 202, body: { id: first.body.id, status: 'succeeded', links: first.body.links } });
    // Sync and async are different requests.
    expect((await scrape({ url: `${fixtures.url}/page/5` }, key)).status).toBe(422);
  });

  it('frees the key when the first request was refused before its run (402): a retry after a top-up runs', async () => {
    const key = newKey();
    await setBalance(stack.databaseUrl, account.userId, 0);
    expect((await scrape({ url: `${fixtures.url}/page/6` }, key)).status).toBe(402);
    await setBalance(stack.databaseUrl, account.userId, 10);
    const paid = await scrape({ url: `${fixtures.url}/page/6` }, key);
    expect(paid.status).toBe(200);
    expect(await debitsOf(paid.body.id)).toEqual([['debit', -1]]);
  });

  it('starts a new run once the key expired (24 h)', async () => {
    const key = newKey();
    const body = { url: `${fixtures.url}/page/7` };
    const first = await scrape(body, key);
    await sql(stack.databaseUrl, `UPDATE idempotency_key SET "createdAt" = now() - interval '25 hours' WHERE "userId" = $1 AND key = $2`, [account.userId, key]);
    const later = await scrape(body, key);
    expect(later.status).toBe(200);
    expect(later.body.id).not.toBe(first.body.id);
    expect(await debitsOf(later.body.id)).toEqual([['debit', -1]]);
    expect(await scrape(body, key)).toEqual(later);
  });
});

describe('POST /flows/:id/runs', () => {
  let flowId: string;
  beforeAll(async () => {
    const created = await call(stack.baseUrl, 'POST', '/flows', { 'x-api-key': account.apiKey }, { name: 'one page', nodes: [{ id: 'page', type: 'scrape', config: { url: `${fixtures.url}/page/1` } }] });
    flowId = created.body.id as string;
  });
  const start = (key: string, query = '') => call(stack.baseUrl, 'POST', `/flows/${flowId}/runs${query}`, { 'x-api-key': account.apiKey, 'idempotency-key': key });
  const flowRuns = async () => (await sql<{ id: string }>(stack.databaseUrl, 'SELECT id FROM flow_run WHERE "flowId" = $1', [flowId])).map((r) => r.id);

  it('starts one run for repeats and concurrent duplicates; a repeat with ?wait=true waits for its result', async () => {
    const key = newKey();
    const before = (await flowRuns()).length;
    const answers = await Promise.all(Array.from({ length: 5 }, () => start(key)));
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(202));
    const runId = answers[0]!.body.id as string;
    expect(answers.every((a) => a.body.id === runId)).toBe(true);
    const waited = await start(key, '?wait=true');
    expect(waited.status).toBe(200);
    expect(waited.body).toMatchObject({ id: runId, status: 'succeeded' });
    expect(await start(key, '?wait=true')).toEqual(waited);
    expect(await flowRuns()).toHaveLength(before + 1);
    const scrapes = await sql<{ id: string }>(stack.databaseUrl, 'SELECT id FROM scrape_run WHERE "flowRunId" = $1', [runId]);
    expect(scrapes).toHaveLength(1);
    expect(await debitsOf(scrapes[0]!.id)).toEqual([['debit', -1]]);
    // The same key on another path is another request.
    expect((await call(stack.baseUrl, 'POST', '/webhook/unblocker', { 'x-api-key': account.apiKey, 'idempotency-key': key }, { url: `${fixtures.url}/page/1` })).status).toBe(422);
  });
});

describe('payments and subscriptions', () => {
  const pay = (key: string, body: Json) => call(stack.baseUrl, 'POST', '/api/payments', { cookie: account.cookie, 'idempotency-key': key }, body);
  const payments = async () => (await sql<{ id: string }>(stack.databaseUrl, 'SELECT id FROM payment WHERE "userId" = $1', [account.userId])).map((r) => r.id);

  it('creates one payment (one checkout) for repeats and concurrent duplicates; another pack → 422', async () => {
    const key = newKey();
    const before = (await payments()).length;
    const answers = await Promise.all(Array.from({ length: 5 }, () => pay(key, { packId: 'pack-1k' })));
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(201));
    expect(answers.every((a) => JSON.stringify(a.body) === JSON.stringify(answers[0]!.body))).toBe(true);
    expect(await pay(key, { packId: 'pack-1k' })).toEqual(answers[0]);
    expect(await payments()).toHaveLength(before + 1);
    expect((await pay(key, { packId: 'pack-5k' })).body).toMatchObject({ statusCode: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('subscribes once for repeats: the same subscription and checkout', async () => {
    const key = newKey();
    const subscribe = () => call(stack.baseUrl, 'POST', '/api/subscriptions', { cookie: account.cookie, 'idempotency-key': key }, { planId: 'starter' });
    const first = await subscribe();
    expect(first.status).toBe(202);
    const again = await subscribe();
    expect(again.status).toBe(202);
    expect(again.body.subscription.id).toBe(first.body.subscription.id);
    expect(again.body.payment).toEqual(first.body.payment);
    const rows = await sql(stack.databaseUrl, 'SELECT id FROM subscription WHERE "userId" = $1', [account.userId]);
    expect(rows).toHaveLength(1);
  });
});
