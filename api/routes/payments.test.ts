/**
 * /api/payments end to end (real API process, PostgreSQL): the local provider's signed webhook
 * adds credit once however often (and however concurrently) it is delivered; a forged signature
 * → 400 and nothing changes; out-of-order events change nothing. The Stripe provider (a second
 * API process with PAYMENT_PROVIDER=stripe and a fake key: verifying a webhook needs no network)
 * accepts an event signed with the SDK's test-header helper and rejects a tampered body.
 * Creating a Stripe Checkout Session needs the network and is not tested here. On the default
 * configuration (no PAYMENT_PROVIDER, NODE_ENV unset, as `npm start` runs) payments are off and a
 * signed-in user has no way to confirm a payment of their own.
 */
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { parseConfig } from '../../platform/config';
import { LOCAL_SIGNATURE_HEADER, localEvent, signLocalEvent } from '../../billing/payments/provider';
import { localPaymentSecret } from '../../billing/payments/service';
import { type TestAccount, balanceOf, createAccount, ledgerOf, sql } from '../../test/helpers/accounts';
import { call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';

const LOCAL_SECRET = 'local-test-secret-0123456789';
const STRIPE_WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';

let stack: Stack;
let account: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  stack = await startStack({ worker: false, env: { PAYMENT_PROVIDER: 'local', LOCAL_PAYMENT_SECRET: LOCAL_SECRET } });
  [account, other] = await Promise.all([createAccount(stack.baseUrl), createAccount(stack.baseUrl)]);
});

afterAll(async () => {
  await stack?.stop();
});

type Json = Record<string, unknown>;

const api = (method: string, path: string, headers: Record<string, string>, body?: unknown) => call(stack.baseUrl, method, path, headers, body);
const session = (a: TestAccount) => ({ cookie: a.cookie });

async function buyPack(a: TestAccount, packId = 'pack-1k') {
  const created = await api('POST', '/api/payments', session(a), { packId });
  expect(created.status).toBe(201);
  return created.body as Json & { id: string };
}

function webhook(body: string, signature: string) {
  return api('POST', '/api/payments/webhook/local', { 'content-type': 'application/json', [LOCAL_SIGNATURE_HEADER]: signature }, body);
}

const topups = async (userId: string) => (await ledgerOf(stack.databaseUrl, userId)).filter((l) => l.reason === 'topup');

describe('local provider', () => {
  it('lists packs; create → pending; the signed "succeeded" webhook adds the pack once; replays (5 sequential, 5 concurrent) change nothing', async () => {
    const packs = await api('GET', '/api/payments/packs', session(account));
    expect(packs.body).toMatchObject({ provider: 'local', packs: expect.arrayContaining([{ id: 'pack-1k', name: '1,000 credits', credits: 1000, priceCents: 1000, currency: 'usd' }]) });

    const before = await balanceOf(stack.databaseUrl, account.userId);
    const payment = await buyPack(account);
    expect(payment).toMatchObject({ provider: 'local', providerPaymentId: `local_${payment.id}`, purpose: 'pack', packId: 'pack-1k', credits: 1000, amountCents: 1000, currency: 'usd', status: 'pending' });

    // The developer helper hands out the signed request the provider would send.
    const helper = await api('POST', `/api/payments/${payment.id}/local-webhook`, session(account), { outcome: 'succeeded' });
    expect(helper.body).toMatchObject({ method: 'POST', url: '/api/payments/webhook/local', headers: { [LOCAL_SIGNATURE_HEADER]: expect.stringMatching(/^t=\d+,v1=[0-9a-f]{64}$/) } });
    const { body, headers } = helper.body as { body: string; headers: Record<string, string> };

    const first = await webhook(body, headers[LOCAL_SIGNATURE_HEADER]!);
    expect(first).toEqual({ status: 200, body: { received: true, outcome: 'applied', paymentId: payment.id, status: 'succeeded' } });
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before + 1000);

    for (let i = 0; i < 5; i++) expect((await webhook(body, headers[LOCAL_SIGNATURE_HEADER]!)).body.outcome).toBe('replayed');
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => webhook(body, headers[LOCAL_SIGNATURE_HEADER]!)));
    expect(concurrent.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // A different event id for the same payment (the provider sending a second success) changes nothing either.
    const second = signLocalEvent(LOCAL_SECRET, localEvent('succeeded', payment.id));
    expect((await webhook(second.body, second.signature)).body.outcome).toBe('replayed');

    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before + 1000);
    expect(await topups(account.userId)).toEqual([{ amount: 1000, reason: 'topup', idempotencyKey: `payment:local:local_${payment.id}`, runId: payment.id }]);
    const got = await api('GET', `/api/payments/${payment.id}`, session(account));
    expect(got.body).toMatchObject({ status: 'succeeded', completedAt: expect.any(String), checkoutUrl: null });
    const notes = await sql(stack.databaseUrl, `SELECT type FROM notification WHERE "userId" = $1 AND type LIKE 'payment.%'`, [account.userId]);
    expect(notes).toEqual([{ type: 'payment.succeeded' }]);
  });

  it('the same webhook delivered 8 times at once on a fresh payment adds the pack exactly once', async () => {
    const a = await createAccount(stack.baseUrl);
    const before = await balanceOf(stack.databaseUrl, a.userId);
    const payment = await buyPack(a, 'pack-5k');
    const signed = signLocalEvent(LOCAL_SECRET, localEvent('succeeded', payment.id));
    const results = await Promise.all(Array.from({ length: 8 }, () => webhook(signed.body, signed.signature)));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(results.filter((r) => r.body.outcome === 'applied')).toHaveLength(1);
    expect(await balanceOf(stack.databaseUrl, a.userId)).toBe(before + 5000);
    expect(await topups(a.userId)).toHaveLength(1);
  });

  it('a forged or missing signature → 400 and nothing changes', async () => {
    const payment = await buyPack(account);
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const forged = signLocalEvent('not-the-secret-0123456789', localEvent('succeeded', payment.id));
    expect(await webhook(forged.body, forged.signature)).toEqual({ status: 400, body: { statusCode: 400, message: 'Invalid webhook signature', error: 'Bad Request', code: 'BAD_REQUEST' } });
    const good = signLocalEvent(LOCAL_SECRET, localEvent('succeeded', payment.id));
    const tampered = good.body.replace(payment.id, randomUUID());
    expect((await webhook(tampered, good.signature)).status).toBe(400);
    expect((await webhook(good.body, '')).status).toBe(400);
    const stale = signLocalEvent(LOCAL_SECRET, localEvent('succeeded', payment.id), Math.floor(Date.now() / 1000) - 3600);
    expect((await webhook(stale.body, stale.signature)).status).toBe(400);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before);
    expect((await api('GET', `/api/payments/${payment.id}`, session(account))).body.status).toBe('pending');
    expect(await sql(stack.databaseUrl, 'SELECT 1 FROM payment_event WHERE "paymentId" = $1', [payment.id])).toEqual([]);
  });

  it('failed → no credit; a later success still applies; failed after succeeded and anything after refunded change nothing', async () => {
    const a = await createAccount(stack.baseUrl);
    const start = await balanceOf(stack.databaseUrl, a.userId);
    const payment = await buyPack(a);
    const send = async (outcome: 'succeeded' | 'failed' | 'refunded') => {
      const e = signLocalEvent(LOCAL_SECRET, localEvent(outcome, payment.id));
      return (await webhook(e.body, e.signature)).body;
    };
    expect(await send('failed')).toMatchObject({ outcome: 'applied', status: 'failed' });
    expect(await balanceOf(stack.databaseUrl, a.userId)).toBe(start);
    expect(await send('succeeded')).toMatchObject({ outcome: 'applied', status: 'succeeded' });
    expect(await send('failed')).toMatchObject({ outcome: 'replayed', status: 'succeeded' });
    expect(await balanceOf(stack.databaseUrl, a.userId)).toBe(start + 1000);
    expect(await send('refunded')).toMatchObject({ outcome: 'applied', status: 'refunded' });
    expect(await balanceOf(stack.databaseUrl, a.userId)).toBe(start);
    expect(await send('succeeded')).toMatchObject({ outcome: 'replayed', status: 'refunded' });
    expect(await send('refunded')).toMatchObject({ outcome: 'replayed', status: 'refunded' });
    expect(await balanceOf(stack.databaseUrl, a.userId)).toBe(start);
  });

  it('lists own payments newest first; another account’s → 403; unknown → 404; bad pack → 422; API key → 401', async () => {
    // The account has two payments (tests above): pages of one.
    const listed = await api('GET', '/api/payments?limit=1', session(account));
    expect((listed.body.payments as Json[]).length).toBe(1);
    expect(listed.body.nextCursor).toEqual(expect.any(String));
    const rest = await api('GET', `/api/payments?cursor=${String(listed.body.nextCursor)}`, session(account));
    const ids = [...(listed.body.payments as Json[]), ...(rest.body.payments as Json[])].map((p) => p.id);
    expect(new Set(ids).size).toBe(2);
    expect(rest.body.nextCursor).toBeNull();

    const mine = (listed.body.payments as Json[])[0]!.id as string;
    expect(await api('GET', `/api/payments/${mine}`, session(other))).toEqual({ status: 403, body: { statusCode: 403, message: 'That payment belongs to another account', error: 'Forbidden', code: 'FORBIDDEN' } });
    expect((await api('POST', `/api/payments/${mine}/local-webhook`, session(other), { outcome: 'succeeded' })).status).toBe(403);
    expect((await api('GET', '/api/payments/nope', session(account))).status).toBe(404);
    expect((await api('POST', '/api/payments', session(account), { packId: 'gold' })).body).toEqual({
      statusCode: 422,
      message: ['packId must be one of "pack-1k", "pack-5k", "pack-25k"'],
      error: 'Unprocessable Entity',
      code: 'VALIDATION_FAILED',
    });
    expect((await api('POST', '/api/payments', session(account), {})).status).toBe(422);
    for (const [method, path] of [['GET', '/api/payments/packs'], ['GET', '/api/payments'], ['POST', '/api/payments'], ['GET', `/api/payments/${mine}`]] as const) {
      expect((await api(method, path, { 'x-api-key': account.apiKey }, method === 'POST' ? { packId: 'pack-1k' } : undefined)).status).toBe(401);
    }
    expect((await api('POST', '/api/payments/webhook/stripe', {}, '{}')).status).toBe(404);
  });
});

describe('stripe provider (webhook verification only; no network)', () => {
  let stripeStack: Stack;
  let buyer: TestAccount;
  const stripe = new Stripe('sk_test_fake_key_for_signatures');

  beforeAll(async () => {
    stripeStack = await startStack({
      worker: false,
      env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_fake_key_for_signatures', STRIPE_WEBHOOK_SECRET },
    });
    buyer = await createAccount(stripeStack.baseUrl);
  });

  afterAll(async () => {
    await stripeStack?.stop();
  });

  const sessionCompleted = (paymentId: string, sessionId: string) =>
    JSON.stringify({
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { id: sessionId, object: 'checkout.session', payment_status: 'paid', payment_intent: 'pi_123', metadata: { paymentId } } },
    });

  it('an event signed with the SDK’s test header is accepted and adds the pack once; a tampered body is rejected', async () => {
    // A payment as the Checkout Session would have left it (creating the session needs the network).
    const paymentId = randomUUID();
    const sessionId = `cs_test_${randomUUID().replace(/-/g, '')}`;
    await sql(
      stripeStack.databaseUrl,
      `INSERT INTO payment (id, "userId", provider, "providerPaymentId", purpose, "packId", credits, "amountCents", currency) VALUES ($1, $2, 'stripe', $3, 'pack', 'pack-1k', 1000, 1000, 'usd')`,
      [paymentId, buyer.userId, sessionId],
    );
    const before = await balanceOf(stripeStack.databaseUrl, buyer.userId);
    const payload = sessionCompleted(paymentId, sessionId);
    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_WEBHOOK_SECRET });
    const send = (body: string, sig: string) => call(stripeStack.baseUrl, 'POST', '/api/payments/webhook/stripe', { 'content-type': 'application/json', 'stripe-signature': sig }, body);

    const tampered = payload.replace('"payment_status":"paid"', '"payment_status":"paid","x":1');
    expect(await send(tampered, signature)).toEqual({ status: 400, body: { statusCode: 400, message: 'Invalid webhook signature', error: 'Bad Request', code: 'BAD_REQUEST' } });
    expect((await send(payload, stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' }))).status).toBe(400);
    expect(await balanceOf(stripeStack.databaseUrl, buyer.userId)).toBe(before);

    expect(await send(payload, signature)).toEqual({ status: 200, body: { received: true, outcome: 'applied', paymentId, status: 'succeeded' } });
    expect((await send(payload, signature)).body.outcome).toBe('replayed');
    // payment_intent.succeeded for the same payment (Stripe sends both) changes nothing twice.
    const intent = JSON.stringify({ id: 'evt_pi_1', object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_123', object: 'payment_intent', metadata: { paymentId } } } });
    expect((await send(intent, stripe.webhooks.generateTestHeaderString({ payload: intent, secret: STRIPE_WEBHOOK_SECRET }))).body.outcome).toBe('replayed');
    expect(await balanceOf(stripeStack.databaseUrl, buyer.userId)).toBe(before + 1000);
    const ledger = (await ledgerOf(stripeStack.databaseUrl, buyer.userId)).filter((l) => l.reason === 'topup');
    expect(ledger).toEqual([{ amount: 1000, reason: 'topup', idempotencyKey: `payment:stripe:${sessionId}`, runId: paymentId }]);
    // The local provider's test helper does not exist here.
    expect((await call(stripeStack.baseUrl, 'POST', `/api/payments/${paymentId}/local-webhook`, session(buyer), { outcome: 'succeeded' })).status).toBe(404);
  });
});

describe('the default configuration (no PAYMENT_PROVIDER, NODE_ENV unset: what `npm start` runs)', () => {
  let defaultStack: Stack;
  let user: TestAccount;

  beforeAll(async () => {
    // NODE_ENV empty counts as unset (platform/config.ts): development, as `npm start` without it.
    defaultStack = await startStack({ worker: false, env: { NODE_ENV: '' } });
    user = await createAccount(defaultStack.baseUrl);
  });

  afterAll(async () => {
    await defaultStack?.stop();
  });

  const as = (method: string, path: string, headers: Record<string, string>, body?: unknown) => call(defaultStack.baseUrl, method, path, headers, body);

  it('a signed-in user cannot confirm a payment of their own: payments are off, the local helper and webhook do not exist', async () => {
    expect(defaultStack.env.PAYMENT_PROVIDER).toBeUndefined();
    expect((await as('GET', '/api/payments/packs', session(user))).body).toMatchObject({ provider: 'none' });
    const before = await balanceOf(defaultStack.databaseUrl, user.userId);

    // No checkout can be opened.
    expect(await as('POST', '/api/payments', session(user), { packId: 'pack-1k' })).toEqual({
      status: 503,
      body: { statusCode: 503, message: 'Payments are not enabled on this service (PAYMENT_PROVIDER=none)', error: 'Service Unavailable', code: 'PAYMENTS_UNAVAILABLE' },
    });
    expect(await sql(defaultStack.databaseUrl, 'SELECT id FROM payment WHERE "userId" = $1', [user.userId])).toEqual([]);

    // A pending local payment of the user's own (as one left from a development run would be):
    // the helper that signed its "succeeded" event is gone...
    const paymentId = randomUUID();
    await sql(
      defaultStack.databaseUrl,
      `INSERT INTO payment (id, "userId", provider, "providerPaymentId", purpose, "packId", credits, "amountCents", currency) VALUES ($1, $2, 'local', $3, 'pack', 'pack-1k', 1000, 1000, 'usd')`,
      [paymentId, user.userId, `local_${paymentId}`],
    );
    const helper = await as('POST', `/api/payments/${paymentId}/local-webhook`, session(user), { outcome: 'succeeded' });
    expect(helper).toMatchObject({ status: 404, body: { statusCode: 404, code: 'NOT_FOUND' } });

    // ...and the local webhook refuses even an event signed with the very secret the local provider would use.
    const signed = signLocalEvent(localPaymentSecret(parseConfig({ ...defaultStack.env, PAYMENT_PROVIDER: 'local' })), localEvent('succeeded', paymentId));
    const forged = await as('POST', '/api/payments/webhook/local', { 'content-type': 'application/json', [LOCAL_SIGNATURE_HEADER]: signed.signature }, signed.body);
    expect(forged).toMatchObject({ status: 404, body: { statusCode: 404, code: 'NOT_FOUND' } });

    expect(await balanceOf(defaultStack.databaseUrl, user.userId)).toBe(before);
    expect(await sql(defaultStack.databaseUrl, 'SELECT status::text AS status FROM payment WHERE id = $1', [paymentId])).toEqual([{ status: 'pending' }]);
    expect((await ledgerOf(defaultStack.databaseUrl, user.userId)).filter((l) => l.reason === 'topup')).toEqual([]);
  });
});
