/**
 * Recurring billing with Stripe Billing, end to end (real API and worker processes, Temporal,
 * PostgreSQL). Stripe itself is out of reach here: the service's outbound calls go to a stand-in
 * on loopback (STRIPE_API_URL, test/helpers/fake-stripe.ts), which records them, and the test
 * plays Stripe's side with webhooks signed by the Stripe SDK's own test helper.
 *
 * Stripe bills whole days, so the period is one day: period 0 is granted by the schedule's first
 * run; later periods are granted by their `invoice.paid` (which Stripe sends when a period starts;
 * the test sends them at once, and the service does not read the clock to apply them).
 */
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { type TestAccount, createAccount, sql } from '../../test/helpers/accounts';
import { type FakeStripe, startFakeStripe } from '../../test/helpers/fake-stripe';
import { call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';

// Every step waits for a condition, each within its own bound (90 s for a process to start, as in
// test/helpers/stack.ts); a test that restarts a worker or waits on several schedule runs needs more
// than jest's 120 s on a machine loaded far beyond its two cores.
jest.setTimeout(300_000);

const PERIOD_S = 86_400;
const WEBHOOK_SECRET = 'whsec_test_recurring_0123456789';
const PLANS = [
  { id: 'free', name: 'Free', creditsPerPeriod: 0, priceCents: 0, currency: 'usd' },
  { id: 'paid', name: 'Paid', creditsPerPeriod: 50, priceCents: 500, currency: 'usd' },
  { id: 'plus', name: 'Plus', creditsPerPeriod: 120, priceCents: 900, currency: 'usd' },
];

let stack: Stack;
let fake: FakeStripe;
const stripe = new Stripe('sk_test_fake_key_for_signatures');

beforeAll(async () => {
  fake = await startFakeStripe();
  stack = await startStack({
    env: {
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_fake_key_for_signatures',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: fake.url,
      SUBSCRIPTION_PERIOD_SECONDS: String(PERIOD_S),
      SUBSCRIPTION_PLANS: JSON.stringify(PLANS),
    },
  });
});

afterAll(async () => {
  await stack?.stop();
  await fake?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const api = (method: string, path: string, headers: Record<string, string>, body?: unknown) => call(stack.baseUrl, method, path, headers, body);
const session = (a: TestAccount) => ({ cookie: a.cookie });

const evtId = () => `evt_${randomUUID().replace(/-/g, '')}`;
const event = (type: string, object: Json, id = evtId()) => JSON.stringify({ id, object: 'event', type, api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000), data: { object } });

function webhook(payload: string) {
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  return api('POST', '/api/payments/webhook/stripe', { 'content-type': 'application/json', 'stripe-signature': signature }, payload);
}

interface Billed {
  account: TestAccount;
  subscriptionId: string;
  paymentId: string;
  stripeSubscription: string;
  /** Our anchor, ms: period n starts at anchor + n·period. */
  anchor: number;
}

/** An invoice of the Stripe subscription for period n (the first one: billing_reason subscription_create). */
function invoice(b: Billed, n: number, options: { id?: string; amount?: number; paid?: boolean; attempt?: number } = {}): Json {
  const start = Math.floor((b.anchor + n * PERIOD_S * 1000) / 1000);
  const amount = options.amount ?? 500;
  return {
    id: options.id ?? `in_${b.subscriptionId.slice(0, 8)}_${n}`,
    object: 'invoice',
    billing_reason: n === 0 ? 'subscription_create' : 'subscription_cycle',
    amount_due: amount,
    amount_paid: options.paid === false ? 0 : amount,
    currency: 'usd',
    attempt_count: options.attempt ?? 1,
    parent: { type: 'subscription_details', subscription_details: { subscription: b.stripeSubscription, metadata: { subscriptionId: b.subscriptionId } } },
    lines: { object: 'list', has_more: false, data: [{ id: `il_${n}`, object: 'line_item', period: { start, end: start + PERIOD_S }, parent: { type: 'subscription_item_details' } }] },
  };
}


async function periodGrants(subscriptionId: string): Promise<Array<{ period: number; amount: number }>> {
  const rows = await sql<{ idempotencyKey: string; amount: number }>(stack.databaseUrl, `SELECT "idempotencyKey", amount FROM credit_ledger WHERE "runId" = $1 AND reason = 'grant' ORDER BY "createdAt", id`, [subscriptionId]);
  return rows.map((r) => ({ period: Number(r.idempotencyKey.split(':').pop()), amount: r.amount }));
}

async function subscriptionRow(id: string) {
  return (await sql<{ status: string; providerSubscriptionId: string | null; planId: string; cancelAt: Date | null }>(stack.databaseUrl, `SELECT status::text AS status, "providerSubscriptionId", "planId", "cancelAt" FROM subscription WHERE id = $1`, [id]))[0]!;
}

async function notes(userId: string, type: string) {
  return sql<{ data: Json }>(stack.databaseUrl, `SELECT data FROM notification WHERE "userId" = $1 AND type = $2 ORDER BY "createdAt"`, [userId, type]);
}

/** Subscribes to `paid` and completes its Checkout as Stripe would; waits for period 0's grant. */
async function subscribeAndPay(stripeSubscription: string): Promise<Billed> {
  const account = await createAccount(stack.baseUrl);
  const created = await api('POST', '/api/subscriptions', session(account), { planId: 'paid' });
  expect(created.status).toBe(202);
  const { subscription, payment } = created.body as { subscription: Json; payment: Json };
  const completed = event('checkout.session.completed', {
    id: payment.providerPaymentId,
    object: 'checkout.session',
    mode: 'subscription',
    payment_status: 'paid',
    subscription: stripeSubscription,
    payment_intent: null,
    metadata: { paymentId: payment.id, subscriptionId: subscription.id },
  });
  expect((await webhook(completed)).body).toMatchObject({ outcome: 'applied', paymentId: payment.id, status: 'succeeded' });
  const current = (await api('GET', '/api/subscriptions', session(account))).body.subscription as Json;
  expect(current).toMatchObject({ id: subscription.id, status: 'active', planId: 'paid' });
  await waitFor('period 0 granted', async () => (await periodGrants(subscription.id)).length > 0);
  return { account, subscriptionId: subscription.id, paymentId: payment.id, stripeSubscription, anchor: Date.parse(current.startedAt) };
}

describe('Stripe Billing', () => {
  it('subscribing opens a Checkout in subscription mode on the plan’s Price; each invoice.paid grants its period once', async () => {
    const b = await subscribeAndPay('sub_fake_one');

    // What the service asked Stripe for: the plan's Price (one day, $5), then the Checkout Session.
    const [createdPrice] = fake.callsTo('POST', '/v1/prices');
    expect(createdPrice?.params).toMatchObject({ lookup_key: `plan:paid:500usd:${PERIOD_S}s`, unit_amount: '500', currency: 'usd', 'recurring[interval]': 'day', 'recurring[interval_count]': '1' });
    const checkout = fake.callsTo('POST', '/v1/checkout/sessions').at(-1)!;
    expect(checkout.params).toMatchObject({ mode: 'subscription', 'line_items[0][quantity]': '1', 'metadata[paymentId]': b.paymentId, 'subscription_data[metadata][subscriptionId]': b.subscriptionId });
    expect(checkout.params['line_items[0][price]']).toMatch(/^price_fake/);
    expect(await subscriptionRow(b.subscriptionId)).toMatchObject({ status: 'active', providerSubscriptionId: 'sub_fake_one' });
    expect(await periodGrants(b.subscriptionId)).toEqual([{ period: 0, amount: 50 }]);

    // The first invoice is period 0, which the Checkout already paid: nothing more.
    expect((await webhook(event('invoice.paid', invoice(b, 0)))).body).toMatchObject({ outcome: 'replayed', paymentId: b.paymentId });

    // Period 1's invoice grants it, once, however often and however concurrently it is delivered.
    const paid1 = event('invoice.paid', invoice(b, 1));
    const first = await webhook(paid1);
    expect(first.body).toMatchObject({ received: true, outcome: 'applied', status: 'succeeded' });
    const replays = await Promise.all([webhook(paid1), webhook(paid1), webhook(paid1), webhook(event('invoice.paid', invoice(b, 1)))]);
    expect(replays.map((r) => r.body.outcome)).toEqual(['replayed', 'replayed', 'replayed', 'replayed']);
    expect(await periodGrants(b.subscriptionId)).toEqual([
      { period: 0, amount: 50 },
      { period: 1, amount: 50 },
    ]);
    const payments = (await api('GET', '/api/payments', session(b.account))).body.payments as Json[];
    expect(payments.find((p) => p.period === 1)).toMatchObject({ id: first.body.paymentId, providerPaymentId: invoice(b, 1).id, purpose: 'subscription', planId: 'paid', status: 'succeeded', amountCents: 500 });
    expect((await notes(b.account.userId, 'subscription.renewed')).map((n) => n.data)).toEqual([{ subscriptionId: b.subscriptionId, planId: 'paid', period: 1, credits: 50 }]);
    // Stripe bills each period itself: the service never charged it.
    expect(fake.calls.filter((c) => c.path.startsWith('/v1/payment_intents') || c.path.startsWith('/v1/invoices'))).toEqual([]);
  });

  it('invoice.payment_failed → past_due, no credit, a notification; Stripe’s retry paying the invoice grants the period once and recovers it', async () => {
    const b = await subscribeAndPay('sub_fake_two');
    const id = `in_retry_${b.subscriptionId.slice(0, 8)}`;
    const failed = await webhook(event('invoice.payment_failed', invoice(b, 1, { id, paid: false })));
    expect(failed.body).toMatchObject({ outcome: 'applied', status: 'failed' });
    expect(await subscriptionRow(b.subscriptionId)).toMatchObject({ status: 'past_due' });
    expect((await api('GET', '/api/subscriptions', session(b.account))).body.subscription).toMatchObject({ id: b.subscriptionId, status: 'past_due' });
    expect(await notes(b.account.userId, 'subscription.past_due')).toEqual([{ data: expect.objectContaining({ subscriptionId: b.subscriptionId, period: 1, paymentId: failed.body.paymentId }) }]);
    // Stripe's second attempt fails too: nothing more.
    expect((await webhook(event('invoice.payment_failed', invoice(b, 1, { id, paid: false, attempt: 2 })))).body.outcome).toBe('replayed');
    expect((await periodGrants(b.subscriptionId)).map((g) => g.period)).toEqual([0]);

    // The third attempt pays: the period is granted once, and the subscription is active again.
    const paid = event('invoice.paid', invoice(b, 1, { id, attempt: 3 }));
    expect((await webhook(paid)).body).toMatchObject({ outcome: 'applied', paymentId: failed.body.paymentId, status: 'succeeded' });
    expect((await webhook(paid)).body.outcome).toBe('replayed');
    expect((await periodGrants(b.subscriptionId)).map((g) => g.period)).toEqual([0, 1]);
    expect(await subscriptionRow(b.subscriptionId)).toMatchObject({ status: 'active' });
    expect(await notes(b.account.userId, 'subscription.recovered')).toHaveLength(1);
  });

  it('a plan change switches the Stripe price without proration; the next period’s invoice grants the new plan; a free plan stops Stripe’s billing', async () => {
    const b = await subscribeAndPay('sub_fake_three');
    const changed = await api('PATCH', '/api/subscriptions/current', session(b.account), { planId: 'plus' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ subscription: { planId: 'paid', pendingPlanId: 'plus', pendingPlanFrom: new Date(b.anchor + PERIOD_S * 1000).toISOString() }, payment: null });
    const update = fake.callsTo('POST', '/v1/subscriptions/sub_fake_three').at(-1)!;
    expect(update.params).toMatchObject({ 'items[0][id]': 'si_sub_fake_three', proration_behavior: 'none', cancel_at_period_end: 'false' });
    const plusPrice = fake.callsTo('POST', '/v1/prices').find((c) => c.params.lookup_key === `plan:plus:900usd:${PERIOD_S}s`);
    expect(plusPrice).toBeDefined();
    expect(update.params['items[0][price]']).toMatch(/^price_fake/);
    // Nothing was charged for the change: the only payment is period 0's.
    expect(((await api('GET', '/api/payments', session(b.account))).body.payments as Json[]).map((p) => p.period)).toEqual([0]);

    await webhook(event('invoice.paid', invoice(b, 1, { amount: 900 })));
    expect(await periodGrants(b.subscriptionId)).toEqual([
      { period: 0, amount: 50 },
      { period: 1, amount: 120 },
    ]);

    const toFree = await api('PATCH', '/api/subscriptions/current', session(b.account), { planId: 'free' });
    expect(toFree.body.subscription).toMatchObject({ pendingPlanId: 'free' });
    expect(fake.callsTo('POST', '/v1/subscriptions/sub_fake_three').at(-1)!.params).toEqual({ cancel_at_period_end: 'true' });
  });

  it('cancel stops Stripe’s billing at the period end (a refused call changes nothing); an invoice from cancelAt on grants nothing', async () => {
    const b = await subscribeAndPay('sub_fake_four');
    fake.refuseSubscription('sub_fake_four');
    const refused = await api('POST', '/api/subscriptions/current/cancel', session(b.account));
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ statusCode: 502, error: 'Bad Gateway', message: expect.stringContaining('payment provider refused') });
    expect(await subscriptionRow(b.subscriptionId)).toMatchObject({ status: 'active', cancelAt: null });

    const other = await subscribeAndPay('sub_fake_five');
    const cancelled = await api('POST', '/api/subscriptions/current/cancel', session(other.account));
    expect(cancelled.status).toBe(200);
    const sub = cancelled.body.subscription as Json;
    expect(sub).toMatchObject({ status: 'cancelled', cancelAt: new Date(other.anchor + PERIOD_S * 1000).toISOString() });
    expect(fake.callsTo('POST', '/v1/subscriptions/sub_fake_five').at(-1)!.params).toEqual({ cancel_at_period_end: 'true' });

    // Should Stripe bill period 1 all the same, the money is recorded but no credit is granted.
    const late = await webhook(event('invoice.paid', invoice(other, 1)));
    expect(late.body).toMatchObject({ outcome: 'applied', status: 'succeeded' });
    expect(await periodGrants(other.subscriptionId)).toEqual([{ period: 0, amount: 50 }]);
    const payment = (await sql<{ credits: number; period: number }>(stack.databaseUrl, 'SELECT credits, period FROM payment WHERE id = $1', [late.body.paymentId]))[0];
    expect(payment).toEqual({ credits: 0, period: 1 });
  });

  it('the first invoice may arrive before checkout.session.completed: it activates the subscription, the session is then a replay; other invoices are ignored', async () => {
    const account = await createAccount(stack.baseUrl);
    const created = await api('POST', '/api/subscriptions', session(account), { planId: 'paid' });
    const { subscription, payment } = created.body as { subscription: Json; payment: Json };
    const b: Billed = { account, subscriptionId: subscription.id, paymentId: payment.id, stripeSubscription: 'sub_fake_six', anchor: Date.now() };
    expect((await webhook(event('invoice.paid', invoice(b, 0)))).body).toMatchObject({ outcome: 'applied', paymentId: payment.id, status: 'succeeded' });
    expect(await subscriptionRow(subscription.id)).toMatchObject({ status: 'active', providerSubscriptionId: 'sub_fake_six' });
    await waitFor('period 0 granted', async () => (await periodGrants(subscription.id)).length > 0);
    const completed = event('checkout.session.completed', {
      id: payment.providerPaymentId,
      object: 'checkout.session',
      mode: 'subscription',
      payment_status: 'paid',
      subscription: 'sub_fake_six',
      payment_intent: null,
      metadata: { paymentId: payment.id, subscriptionId: subscription.id },
    });
    expect((await webhook(completed)).body).toMatchObject({ outcome: 'replayed', paymentId: payment.id });
    // A proration or manual invoice bills no period of ours.
    expect((await webhook(event('invoice.paid', { ...invoice(b, 1, { id: 'in_manual' }), billing_reason: 'manual' }))).body).toMatchObject({ outcome: 'ignored', paymentId: null });
    expect(await periodGrants(subscription.id)).toEqual([{ period: 0, amount: 50 }]);
  });
});
