/**
 * /api/notifications end to end (real API and worker processes, Temporal, PostgreSQL, the local
 * fixture site): credit.low once per crossing under concurrent debits, key.revoked, the list
 * (newest first, cursor pages, unread count), mark one / all read, ownership and credentials.
 */
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestAccount, balanceOf, createAccount, setBalance, sql } from '../../test/helpers/accounts';
import { call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';

let stack: Stack;
let fixtures: FixtureServer;
let owner: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  stack = await startStack({ env: { LOW_CREDIT_THRESHOLD: '10' } });
  [owner, other] = await Promise.all([createAccount(stack.baseUrl), createAccount(stack.baseUrl)]);
});

afterAll(async () => {
  await stack?.stop();
  await fixtures?.close();
});

type Json = Record<string, unknown>;

const api = (method: string, path: string, headers: Record<string, string>, body?: unknown) => call(stack.baseUrl, method, path, headers, body);


const session = (a: TestAccount) => ({ cookie: a.cookie });
const notificationsOf = (userId: string, type: string) =>
  sql<{ type: string; data: Json; dedupeKey: string | null }>(stack.databaseUrl, 'SELECT type, data, "dedupeKey" FROM notification WHERE "userId" = $1 AND type = $2', [userId, type]);

async function scrape(account: TestAccount, page: number) {
  const res = await fetch(`${stack.baseUrl}/webhook/unblocker`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
    body: JSON.stringify({ url: `${fixtures.url}/page/${page}`, selectors: ['h1'] }),
  });
  return res.status;
}

describe('credit.low', () => {
  it('fires once when 12 concurrent debits take the balance from 15 across 10, and again on the next crossing', async () => {
    const account = await createAccount(stack.baseUrl);
    await setBalance(stack.databaseUrl, account.userId, 15);
    const statuses = await Promise.all(Array.from({ length: 12 }, (_, i) => scrape(account, i)));
    expect(statuses).toEqual(Array(12).fill(200));
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(3);
    const low = await notificationsOf(account.userId, 'credit.low');
    expect(low).toHaveLength(1);
    expect(low[0]!.data).toEqual({ balance: 9, threshold: 10 });
    // The notification names the debit whose ledger row crossed the threshold.
    const crossing = await sql<{ idempotencyKey: string }>(stack.databaseUrl, `SELECT "idempotencyKey" FROM credit_ledger WHERE "userId" = $1 AND reason = 'debit' AND "balanceAfter" = 9`, [account.userId]);
    expect(low[0]!.dedupeKey).toBe(`credit.low:${crossing[0]!.idempotencyKey}`);

    // Debits that stay below the threshold do not notify again.
    expect(await scrape(account, 100)).toBe(200);
    expect(await notificationsOf(account.userId, 'credit.low')).toHaveLength(1);

    // Back above the threshold (a top-up), then below again: a second crossing, a second notification.
    await setBalance(stack.databaseUrl, account.userId, 11);
    await Promise.all([scrape(account, 101), scrape(account, 102)]);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(9);
    expect(await notificationsOf(account.userId, 'credit.low')).toHaveLength(2);
  });
});

describe('key.revoked', () => {
  it('revoking a key notifies once, however often it is revoked', async () => {
    const account = await createAccount(stack.baseUrl);
    expect((await api('DELETE', `/api/users/api-keys/${account.apiKeyId}`, session(account))).status).toBe(200);
    expect((await api('DELETE', `/api/users/api-keys/${account.apiKeyId}`, session(account))).status).toBe(200);
    const revoked = await notificationsOf(account.userId, 'key.revoked');
    expect(revoked).toEqual([{ type: 'key.revoked', data: { apiKeyId: account.apiKeyId, name: 'tests' }, dedupeKey: `key.revoked:${account.apiKeyId}` }]);
  });
});

describe('list and read state', () => {
  const insert = async (userId: string, n: number) => {
    for (let i = 0; i < n; i++) {
      await sql(
        stack.databaseUrl,
        `INSERT INTO notification (id, "userId", type, title, data, "createdAt") VALUES (gen_random_uuid()::text, $1, 'payment.failed', $2, $3, now() - make_interval(secs => $4))`,
        [userId, `n${i}`, JSON.stringify({ paymentId: `p${i}` }), 100 - i],
      );
    }
  };

  it('lists newest first in cursor pages with the unread count; marks one, then all, read', async () => {
    const account = await createAccount(stack.baseUrl);
    await insert(account.userId, 5);
    const first = await api('GET', '/api/notifications?limit=2', session(account));
    expect(first.status).toBe(200);
    expect(first.body.unreadCount).toBe(5);
    const titles = (r: { body: Json }) => (r.body.notifications as Json[]).map((n) => n.title);
    expect(titles(first)).toEqual(['n4', 'n3']);
    expect(first.body.notifications).toEqual([
      { id: expect.any(String), type: 'payment.failed', title: 'n4', data: { paymentId: 'p4' }, read: false, readAt: null, createdAt: expect.any(String) },
      expect.objectContaining({ title: 'n3' }),
    ]);
    const second = await api('GET', `/api/notifications?limit=2&cursor=${String(first.body.nextCursor)}`, session(account));
    expect(titles(second)).toEqual(['n2', 'n1']);
    const third = await api('GET', `/api/notifications?limit=2&cursor=${String(second.body.nextCursor)}`, session(account));
    expect(titles(third)).toEqual(['n0']);
    expect(third.body.nextCursor).toBeNull();

    const target = (first.body.notifications as Json[])[0]!.id as string;
    const read = await api('POST', `/api/notifications/${target}/read`, session(account));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: target, read: true, readAt: expect.any(String), unreadCount: 4 });
    const unread = await api('GET', '/api/notifications?unread=true', session(account));
    expect(titles(unread)).toEqual(['n3', 'n2', 'n1', 'n0']);

    const all = await api('POST', '/api/notifications/read-all', session(account));
    expect(all.body).toEqual({ updated: 4, unreadCount: 0 });
    expect((await api('GET', '/api/notifications', session(account))).body.unreadCount).toBe(0);
  });

  it('another account’s notification → 403, unknown → 404, bad query → 400, API key → 401', async () => {
    await insert(owner.userId, 1);
    const id = ((await api('GET', '/api/notifications', session(owner))).body.notifications as Json[])[0]!.id as string;
    expect(await api('POST', `/api/notifications/${id}/read`, session(other))).toEqual({
      status: 403,
      body: { statusCode: 403, message: 'That notification belongs to another account', error: 'Forbidden', code: 'FORBIDDEN' },
    });
    expect((await api('POST', '/api/notifications/nope/read', session(owner))).status).toBe(404);
    expect((await api('GET', '/api/notifications?limit=1000', session(owner))).body).toEqual({ statusCode: 400, message: 'limit must be at most 100', error: 'Bad Request', code: 'BAD_REQUEST' });
    expect((await api('GET', '/api/notifications?cursor=xyz', session(owner))).status).toBe(400);
    for (const [method, path] of [['GET', '/api/notifications'], ['POST', '/api/notifications/read-all'], ['POST', `/api/notifications/${id}/read`]] as const) {
      expect((await api(method, path, { 'x-api-key': owner.apiKey })).status).toBe(401);
    }
  });
});
