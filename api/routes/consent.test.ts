/**
 * /api/consent and GET /api/users/export end to end (real API process and PostgreSQL): sign-up
 * records terms consent, grant/withdraw append records, the current state is the latest record,
 * records cannot be updated; the export holds the account's own data and no secret.
 */
import { type TestAccount, createAccount, sql } from '../../test/helpers/accounts';
import { request } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';

let stack: Stack;
let account: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  stack = await startStack({ worker: false, env: { TERMS_VERSION: 'tos-7', PRIVACY_VERSION: 'pp-3' } });
  [account, other] = await Promise.all([createAccount(stack.baseUrl), createAccount(stack.baseUrl)]);
});

afterAll(async () => {
  await stack?.stop();
});

type Json = Record<string, unknown>;

const api = (method: string, path: string, headers: Record<string, string>, body?: unknown) => request(stack.baseUrl, method, path, { 'user-agent': 'consent-test/1', ...headers }, body);


const session = (a: TestAccount) => ({ cookie: a.cookie });

describe('consent', () => {
  it('sign-up recorded consent to the terms in force', async () => {
    const state = await api('GET', '/api/consent', session(account));
    expect(state.status).toBe(200);
    expect(state.body).toEqual({
      versions: { terms: 'tos-7', privacy: 'pp-3', marketing: '1' },
      current: { terms: { granted: true, version: 'tos-7', at: expect.any(String) }, privacy: null, marketing: null },
      history: [{ id: expect.any(String), kind: 'terms', version: 'tos-7', granted: true, at: expect.any(String), ip: '127.0.0.1', userAgent: expect.any(String), source: 'signup' }],
    });
  });

  it('grant and withdraw append records; the current state is the latest; history is newest first', async () => {
    const granted = await api('POST', '/api/consent', session(account), { kind: 'marketing', granted: true });
    expect(granted.status).toBe(201);
    expect(granted.body.record).toMatchObject({ kind: 'marketing', granted: true, version: '1', userAgent: 'consent-test/1', ip: '127.0.0.1', source: 'api' });
    expect((granted.body.current as Json).marketing).toMatchObject({ granted: true });
    await api('POST', '/api/consent', session(account), { kind: 'privacy', granted: true });
    const withdrawn = await api('POST', '/api/consent', session(account), { kind: 'marketing', granted: false });
    expect((withdrawn.body.current as Json).marketing).toMatchObject({ granted: false, version: '1' });

    const state = await api('GET', '/api/consent', session(account));
    expect((state.body.history as Json[]).map((r) => `${String(r.kind)}:${String(r.granted)}`)).toEqual(['marketing:false', 'privacy:true', 'marketing:true', 'terms:true']);
    expect(state.body.current).toMatchObject({ terms: { granted: true }, privacy: { granted: true, version: 'pp-3' }, marketing: { granted: false } });
    // Another account sees only its own records.
    expect(((await api('GET', '/api/consent', session(other))).body.history as Json[]).length).toBe(1);
  });

  it('records are append-only in the database', async () => {
    await expect(sql(stack.databaseUrl, 'UPDATE consent SET granted = false WHERE "userId" = $1', [account.userId])).rejects.toThrow(/append-only/);
  });

  it('validates the body (422 listing each problem) and refuses API keys (401)', async () => {
    expect((await api('POST', '/api/consent', session(account), { kind: 'cookies', granted: 'yes' })).body).toEqual({
      statusCode: 422,
      message: ['kind must be one of "terms", "privacy", "marketing"', 'granted must be a boolean'],
      error: 'Unprocessable Entity',
      code: 'VALIDATION_FAILED',
    });
    expect((await api('POST', '/api/consent', session(account), { kind: 'terms', granted: true, extra: 1 })).status).toBe(422);
    for (const [method, path] of [['GET', '/api/consent'], ['POST', '/api/consent'], ['GET', '/api/users/export']] as const) {
      expect((await api(method, path, { 'x-api-key': account.apiKey }, method === 'POST' ? { kind: 'marketing', granted: true } : undefined)).status).toBe(401);
    }
  });
});

describe('data export', () => {
  it('holds the account, keys, runs, payments, consents and notifications, and no secret', async () => {
    await sql(
      stack.databaseUrl,
      `INSERT INTO scrape_run (id, "userId", "apiKeyId", "workflowId", mode, url, request, status, cost) VALUES ('run-x', $1, $2, 'scrape-run-x', 'http', 'https://example.com/', '{}', 'succeeded', 1)`,
      [account.userId, account.apiKeyId],
    );
    await sql(stack.databaseUrl, `INSERT INTO payment (id, "userId", provider, "providerPaymentId", purpose, "packId", credits, "amountCents", currency, status) VALUES ('pay-x', $1, 'local', 'local_pay-x', 'pack', 'pack-1k', 1000, 1000, 'usd', 'succeeded')`, [account.userId]);
    await sql(stack.databaseUrl, `INSERT INTO payment (id, "userId", provider, "providerPaymentId", purpose, "packId", credits, "amountCents", currency) VALUES ('pay-other', $1, 'local', 'local_pay-other', 'pack', 'pack-1k', 1000, 1000, 'usd')`, [other.userId]);
    const flow = await api('POST', '/flows', session(account), { name: 'exported flow', nodes: [{ id: 'p', type: 'delay', config: { ms: 5 } }] });
    expect(flow.status).toBe(201);
    await api('DELETE', `/api/users/api-keys/${account.apiKeyId}`, session(account)); // a key.revoked notification

    const exported = await api('GET', '/api/users/export', session(account));
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toBe(`attachment; filename="account-${account.userId}.json"`);
    const body = exported.body;
    expect(body.account).toMatchObject({ id: account.userId, email: account.email, name: 'Test User' });
    expect(body.apiKeys).toEqual([expect.objectContaining({ id: account.apiKeyId, name: 'tests', enabled: false })]);
    expect((body.scrapeRuns as Json[]).map((r) => r.id)).toEqual(['run-x']);
    expect((body.payments as Json[]).map((p) => p.id)).toEqual(['pay-x']);
    expect((body.flows as Json[]).map((f) => f.name)).toEqual(['exported flow']);
    expect(body.flowRuns).toEqual([]);
    expect((body.consent as Json[]).map((c) => c.kind)).toContain('terms');
    expect((body.notifications as Json[]).map((n) => n.type)).toEqual(['key.revoked']);
    expect((body.creditLedger as Json[]).map((l) => l.reason)).toEqual(['grant']);

    // No secret of any kind: the key, its hash, session tokens, the password hash.
    const [{ key: keyHash } = { key: undefined }] = await sql<{ key: string | undefined }>(stack.databaseUrl, 'SELECT key FROM apikey WHERE id = $1', [account.apiKeyId]);
    const tokens = await sql<{ token: string }>(stack.databaseUrl, 'SELECT token FROM session WHERE "userId" = $1', [account.userId]);
    const [{ password } = { password: undefined }] = await sql<{ password: string | undefined }>(stack.databaseUrl, `SELECT password FROM account WHERE "userId" = $1 AND "providerId" = 'credential'`, [account.userId]);
    const secrets: string[] = [account.apiKey, keyHash!, password!, account.password, ...tokens.map((t) => t.token)];
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(exported.text).not.toContain(secret);
    }
    expect(exported.text).not.toMatch(/"(key|token|password|accessToken|refreshToken)"/);
  });
});
