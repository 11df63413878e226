/**
 * Accounts, sessions and API keys through the real API process (HTTP), PostgreSQL underneath.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { debitCredit, refundCredit } from '../../accounts/credit';
import { createDatabase, type Database } from '../../platform/db';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';
import { createSqlPool } from '../../platform/sql';
import { MESSAGES, UNAUTHORIZED_BODY } from '../middleware/auth';
import { apiKeyUsable } from '../middleware/dependencies';

const DASHBOARD = 'https://dashboard.example.test';
const PASSWORD = 'correct-horse-battery';

describe('accounts, sessions and API keys (real API process, PostgreSQL)', () => {
  let stack: Stack;
  let db: Database;
  /** Secrets that must never appear in the API's logs. */
  const secrets: string[] = [PASSWORD];

  beforeAll(async () => {
    stack = await startStack({ worker: false, env: { TRUSTED_ORIGINS: DASHBOARD, FREE_CREDITS: '100' } });
    db = createDatabase(stack.databaseUrl);
  });

  afterAll(async () => {
    await db?.$disconnect();
    await stack?.stop();
  });

  const url = (p: string) => `${stack.baseUrl}${p}`;

  function sessionCookie(res: Response): string {
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('better-auth.session_token='));
    if (!cookie) throw new Error(`no session cookie in ${res.status} response`);
    const pair = cookie.split(';')[0]!;
    secrets.push(decodeURIComponent(pair.split('=')[1]!).split('.')[0]!);
    return pair;
  }

  function post(p: string, body: unknown, headers: Record<string, string> = {}) {
    return fetch(url(p), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  }

  async function signUp(email = `${randomUUID()}@example.test`, password = PASSWORD) {
    const res = await post('/api/auth/sign-up/email', { email, password, name: 'Ada' });
    expect(res.status).toBe(200);
    return { email, cookie: sessionCookie(res) };
  }

  async function createKey(cookie: string, body: Record<string, unknown> = { name: 'default' }) {
    const res = await post('/api/users/create-api-keys', body, { cookie });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; key: string; remaining: number };
    secrets.push(created.key);
    return created;
  }

  const whoami = (key: string) => fetch(url('/webhook/whoami'), { headers: { 'x-api-key': key } });

  /** A request as curl sends it: no Sec-Fetch-* headers, no Origin (Node's fetch adds Sec-Fetch-Mode). */
  function rawRequest(method: string, p: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(url(p), { method, headers: body ? { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : headers }, (res) => {
        let data = '';
        res.on('data', (c: Buffer) => (data += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('sign-up → sign-in → session → create key with prefix → list → stats → revoke → the revoked key gets 401', async () => {
    const email = `${randomUUID()}@example.test`;
    await signUp(email);

    const signIn = await post('/api/auth/sign-in/email', { email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    const setCookie = signIn.headers.getSetCookie().find((c) => c.startsWith('better-auth.session_token='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
    const cookie = sessionCookie(signIn);

    const session = await fetch(url('/api/users/session'), { headers: { cookie } });
    expect(session.status).toBe(200);
    const me = (await session.json()) as { user: { id: string; email: string; name: string }; session: { id: string; expiresAt: string } };
    expect(me.user).toEqual({ id: expect.any(String), email, name: 'Ada' });
    expect(new Date(me.session.expiresAt).getTime()).toBeGreaterThan(Date.now());
    const userId = me.user.id;

    // The sign-up grant: one ledger row, balance 100.
    const grants = await db.creditLedger.findMany({ where: { userId } });
    expect(grants).toMatchObject([{ reason: 'grant', amount: 100, balanceAfter: 100, idempotencyKey: `grant:signup:${userId}` }]);

    const createRes = await post('/api/users/create-api-keys', { name: 'production', prefix: 'acme_' }, { cookie });
    expect(createRes.status).toBe(201);
    const created = (await createRes.json()) as Record<string, unknown> & { id: string; key: string };
    secrets.push(created.key);
    expect(created).toMatchObject({ id: expect.any(String), name: 'production', remaining: 100, expiresAt: null, enabled: true });
    expect(created.key).toMatch(/^acme_[A-Za-z]{64}$/);
    expect(new Date(created.createdAt as string).toISOString()).toBe(created.createdAt);

    const second = await createKey(cookie, { name: 'staging' });
    expect(second.key).toMatch(/^sk_/);

    const list = await fetch(url('/api/users/api-keys'), { headers: { cookie } });
    expect(list.status).toBe(200);
    const listed = (await list.json()) as { keys: Record<string, unknown>[] };
    expect(listed.keys.map((k) => k.name).sort()).toEqual(['production', 'staging']);
    const prod = listed.keys.find((k) => k.id === created.id)!;
    expect(prod).toEqual({
      id: created.id,
      name: 'production',
      start: created.key.slice(0, 20),
      prefix: 'acme_',
      remaining: 100,
      createdAt: created.createdAt,
      expiresAt: null,
      enabled: true,
      lastUsedAt: null,
    });
    expect(JSON.stringify(listed)).not.toContain(created.key);

    // Use the key: whoami, then usage recorded as the scrape workflow would (a run and its debit).
    const who = await whoami(created.key);
    expect(who.status).toBe(200);
    expect(await who.json()).toEqual({ userId, apiKeyId: created.id, remaining: 100 });
    await db.scrapeRun.createMany({
      data: [
        { id: 'r1', userId, apiKeyId: created.id, workflowId: 'scrape-r1', mode: 'http', url: 'https://example.test/', request: {}, status: 'succeeded', cost: 1 },
        { id: 'r2', userId, apiKeyId: created.id, workflowId: 'scrape-r2', mode: 'browser', url: 'https://example.test/', request: {}, status: 'failed', cost: 5 },
        { id: 'r3', userId, apiKeyId: second.id, workflowId: 'scrape-r3', mode: 'http', url: 'https://example.test/', request: {}, status: 'succeeded', cost: 1 },
      ],
    });
    await debitCredit(db, { userId, apiKeyId: created.id, amount: 1, idempotencyKey: 'scrape-r1:debit', runId: 'r1', mode: 'http' });
    await debitCredit(db, { userId, apiKeyId: created.id, amount: 5, idempotencyKey: 'scrape-r2:debit', runId: 'r2', mode: 'browser' });
    await refundCredit(db, { debitKey: 'scrape-r2:debit' });
    await debitCredit(db, { userId, apiKeyId: second.id, amount: 1, idempotencyKey: 'scrape-r3:debit', runId: 'r3', mode: 'http' });

    const statsRes = await fetch(url('/api/users/api-keys/stats?days=7'), { headers: { cookie } });
    expect(statsRes.status).toBe(200);
    const stats = (await statsRes.json()) as {
      remaining: number;
      totals: Record<string, unknown>;
      keys: (Record<string, unknown> & { id: string })[];
      withoutKey: { requests: number };
      days: { date: string; requests: number; creditsSpent: number }[];
      window: { days: number };
    };
    expect(stats.remaining).toBe(98);
    expect(stats.window.days).toBe(7);
    expect(stats.totals).toEqual({
      requests: 3,
      creditsDebited: 7,
      creditsRefunded: 5,
      creditsSpent: 2,
      byMode: { http: { requests: 2, creditsSpent: 2 }, browser: { requests: 1, creditsSpent: 0 } },
      byOutcome: { succeeded: 2, failed: 1 },
    });
    expect(stats.keys.find((k) => k.id === created.id)).toMatchObject({ name: 'production', requests: 2, creditsSpent: 1, byOutcome: { succeeded: 1, failed: 1 } });
    expect(stats.keys.find((k) => k.id === second.id)).toMatchObject({ name: 'staging', requests: 1, creditsSpent: 1 });
    expect(stats.withoutKey.requests).toBe(0);
    expect(stats.days).toHaveLength(7);
    const today = new Date().toISOString().slice(0, 10);
    expect(stats.days.at(-1)).toMatchObject({ date: today, requests: 3, creditsSpent: 2 });
    expect(stats.days.slice(0, -1).every((d) => d.requests === 0 && d.creditsSpent === 0)).toBe(true);

    // Every key reports the account's balance.
    const after = (await (await fetch(url('/api/users/api-keys'), { headers: { cookie } })).json()) as { keys: { remaining: number; lastUsedAt: string | null; id: string }[] };
    expect(after.keys.map((k) => k.remaining)).toEqual([98, 98]);
    expect(after.keys.find((k) => k.id === created.id)!.lastUsedAt).not.toBeNull();

    const revoke = await fetch(url(`/api/users/api-keys/${created.id}`), { method: 'DELETE', headers: { cookie } });
    expect(revoke.status).toBe(200);
    expect(await revoke.json()).toMatchObject({ id: created.id, enabled: false, remaining: 98 });

    const denied = await whoami(created.key);
    expect(denied.status).toBe(401);
    expect(await denied.json()).toEqual(UNAUTHORIZED_BODY);
    // The other key of the account is untouched; revoking again answers the same record.
    expect((await whoami(second.key)).status).toBe(200);
    const again = await fetch(url(`/api/users/api-keys/${created.id}`), { method: 'DELETE', headers: { cookie } });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ enabled: false });
    // The plugin's own endpoints (which could re-enable a key) are not reachable.
    const reenable = await post('/api/auth/api-key/update', { keyId: created.id, enabled: true }, { cookie });
    expect(reenable.status).toBe(404);
    expect((await whoami(created.key)).status).toBe(401);
  });

  describe('every 401 cause, with its body shape', () => {
    let key: string;
    let keyId: string;
    let cookie: string;

    beforeAll(async () => {
      ({ cookie } = await signUp());
      ({ key, id: keyId } = await createKey(cookie));
    });

    it('API-key route without any credential: standard shape saying where the key goes', async () => {
      const res = await fetch(url('/webhook/whoami'));
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ statusCode: 401, message: MESSAGES.keyMissing, error: 'Unauthorized', code: 'UNAUTHORIZED' });
    });

    it('a key in Authorization (valid or not, bearer or bare): standard shape naming x-api-key', async () => {
      for (const authorization of [`Bearer ${key}`, key, 'Bearer sk_unknown']) {
        const res = await fetch(url('/webhook/whoami'), { headers: { authorization } });
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({ statusCode: 401, message: MESSAGES.keyInAuthorization, error: 'Unauthorized', code: 'UNAUTHORIZED' });
      }
    });

    it('unknown, malformed, revoked and expired keys: the identical alternative shape', async () => {
      const bodies: unknown[] = [];
      const check = async (res: Response) => {
        expect(res.status).toBe(401);
        bodies.push(await res.json());
      };
      await check(await whoami(`sk_${'A'.repeat(64)}`));
      await check(await whoami('x'.repeat(500)));
      await check(await fetch(url('/webhook/whoami'), { headers: { 'x-api-key': ' ' } }));
      await check(await fetch(url(`/webhook/whoami?apiKey=${'sk_nope'}`)));
      await check(await fetch(url(`/webhook/whoami?apiKey=a&apiKey=b`)));

      const expiring = await createKey(cookie, { name: 'expiring' });
      await db.apikey.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      await check(await whoami(expiring.key));

      const revoked = await createKey(cookie, { name: 'revoked' });
      expect((await fetch(url(`/api/users/api-keys/${revoked.id}`), { method: 'DELETE', headers: { cookie } })).status).toBe(200);
      await check(await whoami(revoked.key));

      for (const body of bodies) expect(body).toEqual({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized', code: 'UNAUTHORIZED' });
    });

    it('the SQL lookup that confirms a refusal during an outage (apiKeyUsable) reads the keys the plugin stores: a good one usable, a revoked or expired one not', async () => {
      // Were its hash not the plugin's, every key would look unknown to it and a good key refused
      // while PostgreSQL restarts would get 401 again (api/middleware/dependencies.ts).
      const pool = createSqlPool(stack.databaseUrl);
      try {
        expect(await apiKeyUsable(pool, key)).toBe(true);
        const expiring = await createKey(cookie, { name: 'expiring later' });
        expect(await apiKeyUsable(pool, expiring.key)).toBe(true);
        await db.apikey.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
        expect(await apiKeyUsable(pool, expiring.key)).toBe(false);
        const revoked = await createKey(cookie, { name: 'revoked later' });
        expect((await fetch(url(`/api/users/api-keys/${revoked.id}`), { method: 'DELETE', headers: { cookie } })).status).toBe(200);
        expect(await apiKeyUsable(pool, revoked.key)).toBe(false);
        expect(await apiKeyUsable(pool, `sk_${'A'.repeat(64)}`)).toBe(false);
      } finally {
        await pool.close();
      }
    });

    it('the key works from the apiKey query parameter too', async () => {
      const res = await fetch(url(`/webhook/whoami?apiKey=${encodeURIComponent(key)}`));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ apiKeyId: keyId });
    });

    it('a session cookie does not open an API-key-only route, nor an API key a session route', async () => {
      const withCookie = await fetch(url('/webhook/whoami'), { headers: { cookie } });
      expect(withCookie.status).toBe(401);
      expect(await withCookie.json()).toEqual({ statusCode: 401, message: MESSAGES.keyMissing, error: 'Unauthorized', code: 'UNAUTHORIZED' });
      const withKey = await fetch(url('/api/users/api-keys'), { headers: { 'x-api-key': key } });
      expect(withKey.status).toBe(401);
      expect(await withKey.json()).toEqual({ statusCode: 401, message: MESSAGES.noSession, error: 'Unauthorized', code: 'UNAUTHORIZED' });
    });

    it('session routes: no cookie, a forged cookie, an expired session, a signed-out session', async () => {
      const expect401 = async (headers: Record<string, string>) => {
        const res = await fetch(url('/api/users/session'), { headers });
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({ statusCode: 401, message: MESSAGES.noSession, error: 'Unauthorized', code: 'UNAUTHORIZED' });
      };
      await expect401({});
      await expect401({ cookie: 'better-auth.session_token=forged.value' });

      const expiring = await signUp();
      const me = (await (await fetch(url('/api/users/session'), { headers: { cookie: expiring.cookie } })).json()) as { session: { id: string } };
      await db.session.update({ where: { id: me.session.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      await expect401({ cookie: expiring.cookie });
      // Signing in again fixes it.
      const again = await post('/api/auth/sign-in/email', { email: expiring.email, password: PASSWORD });
      expect(again.status).toBe(200);
      const fresh = sessionCookie(again);
      expect((await fetch(url('/api/users/session'), { headers: { cookie: fresh } })).status).toBe(200);

      const out = await post('/api/auth/sign-out', {}, { cookie: fresh });
      expect(out.status).toBe(200);
      await expect401({ cookie: fresh });
    });

    it('wrong password and unknown email: the same 401 from the auth layer', async () => {
      const { email } = await signUp();
      const wrong = await post('/api/auth/sign-in/email', { email, password: 'not-the-password' });
      expect(wrong.status).toBe(401);
      const wrongBody = await wrong.json();
      expect(wrongBody).toEqual({ code: 'INVALID_EMAIL_OR_PASSWORD', message: expect.any(String) });
      const unknown = await post('/api/auth/sign-in/email', { email: `${randomUUID()}@example.test`, password: 'not-the-password' });
      expect(unknown.status).toBe(401);
      expect(await unknown.json()).toEqual(wrongBody);
    });
  });

  describe('validation', () => {
    it('sign-in: 422 listing every failed item, before the auth library sees the body', async () => {
      const both = await post('/api/auth/sign-in/email', { email: 'not-an-email', password: 'short' });
      expect(both.status).toBe(422);
      expect(await both.json()).toEqual({
        statusCode: 422,
        message: ['email must be an email', 'password must be longer than 8 characters'],
        error: 'Unprocessable Entity',
        code: 'VALIDATION_FAILED',
      });
      const missing = await post('/api/auth/sign-in/email', {});
      expect(missing.status).toBe(422);
      expect(await missing.json()).toMatchObject({ message: ['email is required', 'password is required'] });
      // Exactly 8 characters is not "longer than 8".
      const eight = await post('/api/auth/sign-in/email', { email: 'a@example.test', password: '12345678' });
      expect(eight.status).toBe(422);
      expect(await eight.json()).toMatchObject({ message: ['password must be longer than 8 characters'] });
      // 9 characters passes validation and reaches the library (unknown account → 401).
      expect((await post('/api/auth/sign-in/email', { email: 'a@example.test', password: '123456789' })).status).toBe(401);
    });

    it('sign-up: the same rules (an 8-character password cannot be registered)', async () => {
      const res = await post('/api/auth/sign-up/email', { email: 'bad', password: '12345678', name: '' });
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({
        message: ['name must not be empty', 'email must be an email', 'password must be longer than 8 characters'],
      });
    });

    it('create-api-keys: 400 naming a missing field, 422 listing broken rules, prefix default sk_', async () => {
      const { cookie } = await signUp();
      const missing = await post('/api/users/create-api-keys', { prefix: 'abc' }, { cookie });
      expect(missing.status).toBe(400);
      expect(await missing.json()).toEqual({ statusCode: 400, message: 'name is required', error: 'Bad Request', code: 'BAD_REQUEST' });

      const broken = await post('/api/users/create-api-keys', { name: 'x'.repeat(65), prefix: 'bad prefix!' }, { cookie });
      expect(broken.status).toBe(422);
      expect(await broken.json()).toEqual({
        statusCode: 422,
        message: ['name must be at most 64 characters', 'prefix must contain only letters, digits, _ and -'],
        error: 'Unprocessable Entity',
        code: 'VALIDATION_FAILED',
      });
      const long = await post('/api/users/create-api-keys', { name: 'ok', prefix: 'p'.repeat(17) }, { cookie });
      expect(long.status).toBe(422);
      expect(await long.json()).toMatchObject({ message: ['prefix must be at most 16 characters'] });
      const extra = await post('/api/users/create-api-keys', { name: 'ok', remaining: 1_000_000 }, { cookie });
      expect(extra.status).toBe(422);
      expect(await extra.json()).toMatchObject({ message: ['remaining is not allowed'] });
      const empty = await post('/api/users/create-api-keys', { name: '  ' }, { cookie });
      expect(empty.status).toBe(422);
      expect(await empty.json()).toMatchObject({ message: ['name must not be empty'] });

      const ok = await createKey(cookie, { name: 'x'.repeat(64), prefix: 'A-b_1'.padEnd(16, 'z') });
      expect(ok.key.startsWith('A-b_1zzzzzzzzzzz')).toBe(true);
      expect((await createKey(cookie, { name: 'default prefix' })).key).toMatch(/^sk_[A-Za-z]{64}$/);
    });

    it('stats: days must be 1 to 365', async () => {
      const { cookie } = await signUp();
      const res = await fetch(url('/api/users/api-keys/stats?days=366'), { headers: { cookie } });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ statusCode: 400, message: 'days must be at most 365', error: 'Bad Request', code: 'BAD_REQUEST' });
      const def = (await (await fetch(url('/api/users/api-keys/stats'), { headers: { cookie } })).json()) as { days: unknown[] };
      expect(def.days).toHaveLength(30);
    });
  });

  it('TRACE, which the auth library cannot take, answers 404 NOT_FOUND under /api/auth, not a 500 (schema fuzz)', async () => {
    // (TRACK and CONNECT never reach Express: Node's parser refuses the one, routes the other elsewhere.)
    for (const method of ['TRACE']) {
      for (const p of ['/api/auth/sign-in/email', '/api/auth/get-session']) {
        const answer = await rawRequest(method, p, {});
        expect({ method, p, status: answer.status, body: JSON.parse(answer.body) as unknown }).toEqual({
          method,
          p,
          status: 404,
          body: { statusCode: 404, message: `Cannot ${method} ${p}`, error: 'Not Found', code: 'NOT_FOUND' },
        });
      }
    }
  });

  it('ownership: another account\'s key → 403, an unknown id → 404, lists and stats stay separate', async () => {
    const a = await signUp();
    const b = await signUp();
    const aKey = await createKey(a.cookie, { name: 'a-key' });
    const other = await fetch(url(`/api/users/api-keys/${aKey.id}`), { method: 'DELETE', headers: { cookie: b.cookie } });
    expect(other.status).toBe(403);
    expect(await other.json()).toEqual({ statusCode: 403, message: 'That API key belongs to another account', error: 'Forbidden', code: 'FORBIDDEN' });
    expect((await whoami(aKey.key)).status).toBe(200);

    const unknown = await fetch(url(`/api/users/api-keys/${randomUUID()}`), { method: 'DELETE', headers: { cookie: b.cookie } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ statusCode: 404, message: 'No API key with that id', error: 'Not Found', code: 'NOT_FOUND' });

    const bList = (await (await fetch(url('/api/users/api-keys'), { headers: { cookie: b.cookie } })).json()) as { keys: unknown[] };
    expect(bList.keys).toEqual([]);
    const bStats = (await (await fetch(url('/api/users/api-keys/stats'), { headers: { cookie: b.cookie } })).json()) as { keys: unknown[] };
    expect(bStats.keys).toEqual([]);
  });

  it('the API-key plugin never changes the balance, never throttles and never deletes a key', async () => {
    const { cookie } = await signUp();
    const { key, id } = await createKey(cookie);
    for (let i = 0; i < 20; i++) {
      const res = await whoami(key);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { remaining: number }).remaining).toBe(100);
    }
    const row = await db.apikey.findUniqueOrThrow({ where: { id } });
    expect(row.remaining).toBeNull();
    expect(row.rateLimitEnabled).toBe(false);
    expect(row.enabled).toBe(true);
    const listed = (await (await fetch(url('/api/users/api-keys'), { headers: { cookie } })).json()) as { keys: { remaining: number }[] };
    expect(listed.keys[0]!.remaining).toBe(100);
  });

  describe('cross-site requests (CSRF) and scripts', () => {
    it('scripts: Node fetch (Sec-Fetch-Mode, no Origin) and curl-like requests sign in and use the session', async () => {
      const { email } = await signUp();
      // Node's fetch: sends Sec-Fetch-Mode: cors and no Origin.
      const signIn = await post('/api/auth/sign-in/email', { email, password: PASSWORD });
      expect(signIn.status).toBe(200);
      const cookie = sessionCookie(signIn);
      // curl: no Sec-Fetch-* at all, the cookie as a header.
      const curlSignIn = await rawRequest('POST', '/api/auth/sign-in/email', {}, JSON.stringify({ email, password: PASSWORD }));
      expect(curlSignIn.status).toBe(200);
      const created = await rawRequest('POST', '/api/users/create-api-keys', { cookie }, JSON.stringify({ name: 'from-curl' }));
      expect(created.status).toBe(201);
      secrets.push((JSON.parse(created.body) as { key: string }).key);
      const session = await rawRequest('GET', '/api/users/session', { cookie });
      expect(session.status).toBe(200);
      const out = await rawRequest('POST', '/api/auth/sign-out', { cookie }, '{}');
      expect(out.status).toBe(200);
      expect((await rawRequest('GET', '/api/users/session', { cookie })).status).toBe(401);
    });

    it('a browser page of another site is refused: Origin of another site, or Sec-Fetch-Site: cross-site', async () => {
      const { email, cookie } = await signUp();
      const { id } = await createKey(cookie);
      const crossSite: Record<string, string>[] = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' }, { origin: 'null' }, { referer: 'https://evil.example/page' }];
      for (const headers of crossSite) {
        const signIn = await post('/api/auth/sign-in/email', { email, password: PASSWORD }, headers);
        expect(signIn.status).toBe(403);
        expect(await signIn.json()).toEqual({ code: 'INVALID_ORIGIN', message: MESSAGES.crossSite });
        const create = await post('/api/users/create-api-keys', { name: 'evil' }, { cookie, ...headers });
        expect(create.status).toBe(403);
        expect(await create.json()).toEqual({ statusCode: 403, message: MESSAGES.crossSite, error: 'Forbidden', code: 'INVALID_ORIGIN' });
        const revoke = await fetch(url(`/api/users/api-keys/${id}`), { method: 'DELETE', headers: { cookie, ...headers } });
        expect(revoke.status).toBe(403);
        const signOut = await post('/api/auth/sign-out', {}, { cookie, ...headers });
        expect(signOut.status).toBe(403);
      }
      const keys = (await (await fetch(url('/api/users/api-keys'), { headers: { cookie } })).json()) as { keys: { name: string; enabled: boolean }[] };
      expect(keys.keys).toEqual([expect.objectContaining({ name: 'default', enabled: true })]);
      expect((await fetch(url('/api/users/session'), { headers: { cookie } })).status).toBe(200);
    });

    it('a browser on the service\'s own origin or a TRUSTED_ORIGINS origin is accepted', async () => {
      const { email } = await signUp();
      for (const origin of [stack.baseUrl, DASHBOARD]) {
        const res = await post('/api/auth/sign-in/email', { email, password: PASSWORD }, { origin, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' });
        expect(res.status).toBe(200);
        const cookie = sessionCookie(res);
        const create = await post('/api/users/create-api-keys', { name: 'browser' }, { cookie, origin });
        expect(create.status).toBe(201);
        secrets.push(((await create.json()) as { key: string }).key);
      }
    });
  });

  it('metrics carry route patterns, never raw paths or ids', async () => {
    const text = await (await fetch(url('/metrics'))).text();
    expect(text).toContain('route="/api/auth/sign-in/email"');
    expect(text).toContain('route="/api/users/api-keys/:id"');
    expect(text).toContain('route="/api/auth/*"');
    expect(text).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}/);
    expect(text).not.toMatch(/route="\/api\/auth\/api-key\/update"/);
  });

  it('logs never contain passwords, API keys or session tokens', async () => {
    // The API writes its log lines in order: once a marker request's line is in its output, every
    // line of the requests before it is too.
    const marker = `logs-flushed-${randomUUID()}`;
    expect((await fetch(url('/healthz'), { headers: { 'x-request-id': marker } })).status).toBe(200);
    await waitFor('the marker request\'s access-log line', () => Promise.resolve(stack.output.api.join('').includes(`"requestId":"${marker}"`)));
    const logs = stack.output.api.join('');
    expect(logs).toContain('"msg":"request"');
    expect(secrets.length).toBeGreaterThan(10);
    for (const secret of secrets) expect(logs).not.toContain(secret);
  });
});

describe('session cookie behind HTTPS (BETTER_AUTH_URL https)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ worker: false, env: { BETTER_AUTH_URL: 'https://api.example.test' } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('marks the cookie Secure (with the browser-enforced __Secure- prefix), HttpOnly, SameSite=Lax', async () => {
    const res = await fetch(`${stack.baseUrl}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `${randomUUID()}@example.test`, password: PASSWORD, name: 'S' }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('__Secure-better-auth.session_token='));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const session = await fetch(`${stack.baseUrl}/api/users/session`, { headers: { cookie: cookie!.split(';')[0]! } });
    expect(session.status).toBe(200);
  });
});
