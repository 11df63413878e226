/**
 * /api/subscriptions end to end (real API and worker processes, Temporal, PostgreSQL) with a
 * period of 4 seconds: the schedule refills once per period (keys subscription:<id>:period:<n>),
 * a worker killed across a period boundary neither skips nor doubles a refill, cancel stops the
 * refills after the current period and the subscription ends on time; a paid plan starts when its
 * payment's webhook succeeds, and each later period is charged through the local provider and
 * granted only when its signed webhook confirms the charge (recurring billing; the Stripe Billing
 * path is subscriptions-stripe.test.ts).
 */
import { Client, Connection, ScheduleNotFoundError } from '@temporalio/client';
import { LOCAL_SIGNATURE_HEADER, localEvent, signLocalEvent } from '../../billing/payments/provider';
import { type TestAccount, createAccount, sql } from '../../test/helpers/accounts';
import { call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';
import { testDataConverter } from '../../test/helpers/temporal-codec';

// Every step waits for a condition, each within its own bound (90 s for a process to start, as in
// test/helpers/stack.ts); a test that restarts a worker or waits on several schedule runs needs more
// than jest's 120 s on a machine loaded far beyond its two cores.
jest.setTimeout(300_000);

const PERIOD_S = 4;
/** This file's waits allow 90 s (a schedule run after a worker restart). */
const WAIT_MS = 90_000;
const LOCAL_SECRET = 'local-test-secret-recurring-0123';
const PLANS = [
  { id: 'free', name: 'Free', creditsPerPeriod: 0, priceCents: 0, currency: 'usd' },
  { id: 'basic', name: 'Basic', creditsPerPeriod: 7, priceCents: 0, currency: 'usd' },
  { id: 'paid', name: 'Paid', creditsPerPeriod: 50, priceCents: 500, currency: 'usd' },
  { id: 'plus', name: 'Plus', creditsPerPeriod: 120, priceCents: 900, currency: 'usd' },
];

let stack: Stack;
let temporal: Client;
let connection: Connection;

beforeAll(async () => {
  stack = await startStack({
    env: { SUBSCRIPTION_PERIOD_SECONDS: String(PERIOD_S), SUBSCRIPTION_PLANS: JSON.stringify(PLANS), PAYMENT_PROVIDER: 'local', LOCAL_PAYMENT_SECRET: LOCAL_SECRET },
  });
  connection = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS! });
  temporal = new Client({ connection, dataConverter: testDataConverter() });
});

afterAll(async () => {
  await connection?.close();
  await stack?.stop();
});

type Json = Record<string, unknown>;

const api = (method: string, path: string, headers: Record<string, string>, body?: unknown) => call(stack.baseUrl, method, path, headers, body);

const session = (a: TestAccount) => ({ cookie: a.cookie });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const sorted = (periods: number[]) => [...periods].sort((a, b) => a - b);
const upTo = (last: number) => Array.from({ length: last + 1 }, (_, i) => i);

/** Refill periods granted to a subscription, in ledger order (duplicates would show). */
async function refills(subscriptionId: string): Promise<number[]> {
  const rows = await sql<{ idempotencyKey: string; amount: number }>(stack.databaseUrl, `SELECT "idempotencyKey", amount FROM credit_ledger WHERE "runId" = $1 AND reason = 'grant' ORDER BY "createdAt", id`, [subscriptionId]);
  return rows.map((r) => Number(r.idempotencyKey.split(':').pop()));
}

/** Waits until periods 0..last are all refilled (late ones may land out of order); returns every refill so far. */
async function waitForRefills(subscriptionId: string, last: number): Promise<number[]> {
  for (let i = 0; i < 200; i++) {
    const got = await refills(subscriptionId);
    if (upTo(last).every((p) => got.includes(p))) return got;
    await sleep(200);
  }
  throw new Error(`subscription ${subscriptionId}: periods 0..${last} not all refilled: ${JSON.stringify(await refills(subscriptionId))}`);
}

/** No period refilled twice (the periods still running may land later, in any order). */
function expectNoPeriodTwice(periods: number[]): void {
  expect(sorted(periods)).toEqual([...new Set(sorted(periods))]);
}

/** The period that contains the instant `at` (ms), for a subscription anchored at `anchor`. */
const periodOf = (anchor: string, at: number) => Math.floor((at - new Date(anchor).getTime()) / (PERIOD_S * 1000));
const periodStart = (anchor: string, n: number) => new Date(anchor).getTime() + n * PERIOD_S * 1000;

/** Waits until the schedule has triggered its action for period n (whether or not a worker ran it). */
async function waitForScheduledAction(subscriptionId: string, anchor: string, n: number): Promise<void> {
  const handle = temporal.schedule.getHandle(`subscription-${subscriptionId}`);
  for (let i = 0; i < 400; i++) {
    const { info } = await handle.describe();
    if (info.recentActions.some((a) => a.scheduledAt.getTime() >= periodStart(anchor, n))) return;
    await sleep(100);
  }
  throw new Error(`subscription ${subscriptionId}: no action for period ${n} was triggered`);
}

/** Polls `probe` until it answers something truthy (a condition, never a fixed wait). */
async function subscriptionRow(id: string) {
  return (await sql<{ status: string; endedAt: Date | null; planId: string }>(stack.databaseUrl, `SELECT status::text AS status, "endedAt", "planId" FROM subscription WHERE id = $1`, [id]))[0]!;
}

/** The subscription's row once it has ended (its end workflow runs at cancelAt). */
function endedRow(id: string) {
  return waitFor(
    'the subscription ended',
    async () => {
      const row = await subscriptionRow(id);
      return row.status === 'ended' ? row : undefined;
    },
    WAIT_MS,
  );
}

/**
 * Waits until no refill workflow started by the schedule is still running. A cancelled
 * subscription's schedule is deleted when it ends (at cancelAt, by its end workflow), possibly
 * while this waits: then the refill runs are found by their id in Temporal's visibility instead.
 */
async function waitForNoRunningRefill(subscriptionId: string): Promise<void> {
  const handle = temporal.schedule.getHandle(`subscription-${subscriptionId}`);
  const running = async () => {
    try {
      return (await handle.describe()).info.runningActions.length;
    } catch (error) {
      if (!(error instanceof ScheduleNotFoundError)) throw error;
      return temporal.workflow.count(`WorkflowId STARTS_WITH "subscription-${subscriptionId}-refill" AND ExecutionStatus = "Running"`).then((c) => c.count);
    }
  };
  await waitFor(`subscription ${subscriptionId}: no refill still running`, async () => (await running()) === 0, WAIT_MS);
}

/** The schedule's state: paused (cancelled), running, or deleted (the subscription ended). */
async function scheduleState(subscriptionId: string): Promise<'paused' | 'running' | 'deleted'> {
  try {
    return (await temporal.schedule.getHandle(`subscription-${subscriptionId}`).describe()).state.paused ? 'paused' : 'running';
  } catch (error) {
    if (error instanceof ScheduleNotFoundError) return 'deleted';
    throw error;
  }
}


describe('refills by the Temporal Schedule', () => {
  // Nothing here needs the machine to reach a period boundary in time: each step waits for what it
  // checks (a refill row, a schedule action, no running action), and the periods it asserts about
  // are derived from when the step happened, not assumed.
  it('refills once per period, survives a worker restart across a boundary, and stops after cancel', async () => {
    const account = await createAccount(stack.baseUrl);
    const created = await api('POST', '/api/subscriptions', session(account), { planId: 'basic' });
    expect(created.status).toBe(201);
    const sub = (created.body as { subscription: Json & { id: string; startedAt: string } }).subscription;
    expect(sub).toMatchObject({ planId: 'basic', status: 'active', periodSeconds: PERIOD_S, scheduleId: `subscription-${sub.id}`, currentPeriod: { number: 0 } });
    expect(created.body.payment).toBeNull();

    // The operator's view: the schedule, its account search attribute and memo.
    const described = await temporal.schedule.getHandle(`subscription-${sub.id}`).describe();
    expect(described.memo).toMatchObject({ userId: account.userId, planId: 'basic', subscriptionId: sub.id });
    expect(described.searchAttributes).toMatchObject({ AccountId: [account.userId] });

    expectNoPeriodTwice(await waitForRefills(sub.id, 1));

    // Kill the worker, then let the schedule trigger the first period that starts after the kill
    // while no worker runs: that refill is done late, when the worker is back, for its own period, once.
    await stack.killWorker();
    const gap = periodOf(sub.startedAt, Date.now()) + 1;
    await waitForScheduledAction(sub.id, sub.startedAt, gap);
    expect((await refills(sub.id)).every((p) => p < gap)).toBe(true);
    await stack.startWorker();
    expectNoPeriodTwice(await waitForRefills(sub.id, gap));

    // Cancel: the answer describes the instant of the cancel, so the period it ends is the current one.
    const cancelled = await api('POST', '/api/subscriptions/current/cancel', session(account));
    expect(cancelled.status).toBe(200);
    const after = (cancelled.body as { subscription: Json & { cancelAt: string; cancelledAt: string; currentPeriod: { number: number; end: string } } }).subscription;
    expect(after).toMatchObject({ status: 'cancelled', cancelAt: after.currentPeriod.end });
    const lastPeriod = after.currentPeriod.number;
    expect(lastPeriod).toBe(periodOf(sub.startedAt, new Date(after.cancelledAt).getTime()));
    // Paused; or already deleted, when cancelAt was so near that the subscription has ended since.
    const state = await scheduleState(sub.id);
    if (state === 'deleted') expect((await subscriptionRow(sub.id)).status).toBe('ended');
    else expect(state).toBe('paused');
    // Every period up to the cancelled one is refilled exactly once (late ones may land out of order)…
    await waitForRefills(sub.id, lastPeriod);
    // …and none after it: once every action the schedule triggered has finished, the ledger is final.
    await waitForNoRunningRefill(sub.id);
    expect(sorted(await refills(sub.id))).toEqual(upTo(lastPeriod));
    const amounts = await sql<{ amount: number }>(stack.databaseUrl, `SELECT amount FROM credit_ledger WHERE "runId" = $1`, [sub.id]);
    expect(amounts.every((a) => a.amount === 7)).toBe(true);
    // The subscription ends at cancelAt by itself (the end workflow a cancel starts), before anyone
    // reads it: wait for the row, not for the clock.
    const ended = await endedRow(sub.id);
    expect(ended.endedAt).toEqual(new Date(after.cancelAt));
    expect(await temporal.workflow.getHandle(`subscription-${sub.id}-end`).result()).toEqual({ status: 'ended' });
    const current = await api('GET', '/api/subscriptions', session(account));
    expect(current.body.subscription).toBeNull();
    expect((current.body.history as Json[])[0]).toMatchObject({ id: sub.id, status: 'ended', endedAt: after.cancelAt });
    const types = await sql<{ type: string }>(stack.databaseUrl, `SELECT type FROM notification WHERE "userId" = $1 ORDER BY "createdAt"`, [account.userId]);
    const count = (type: string) => types.filter((t) => t.type === type).length;
    expect([count('subscription.activated'), count('subscription.renewed'), count('subscription.cancelled'), count('subscription.ended')]).toEqual([1, lastPeriod, 1, 1]);
    // The ended subscription's schedule is gone.
    expect(await scheduleState(sub.id)).toBe('deleted');
  });
});

describe('paid plan and rules', () => {
  it('a paid plan waits for its payment; the signed webhook activates it and period 0 is granted', async () => {
    const account = await createAccount(stack.baseUrl);
    const created = await api('POST', '/api/subscriptions', session(account), { planId: 'paid' });
    expect(created.status).toBe(202);
    const { subscription, payment } = created.body as { subscription: Json & { id: string }; payment: Json & { id: string } };
    expect(subscription).toMatchObject({ status: 'pending', scheduleId: null });
    expect(payment).toMatchObject({ purpose: 'subscription', planId: 'paid', subscriptionId: subscription.id, amountCents: 500, status: 'pending' });

    const helper = (await api('POST', `/api/payments/${payment.id}/local-webhook`, session(account), { outcome: 'succeeded' })).body as { headers: Record<string, string>; body: string };
    const hook = await api('POST', '/api/payments/webhook/local', helper.headers, helper.body);
    expect(hook.body).toMatchObject({ outcome: 'applied', status: 'succeeded' });
    const current = await api('GET', '/api/subscriptions', session(account));
    expect(current.body.subscription).toMatchObject({ id: subscription.id, status: 'active', scheduleId: `subscription-${subscription.id}` });
    expect(await waitForRefills(subscription.id, 0)).toEqual([0]);
    // The payment bought the plan, not a pack: no top-up row.
    expect(await sql(stack.databaseUrl, `SELECT 1 FROM credit_ledger WHERE "userId" = $1 AND reason = 'topup'`, [account.userId])).toEqual([]);

    // Rules: one live subscription; a cheaper plan applies from the next period; unknown plan → 422.
    expect((await api('POST', '/api/subscriptions', session(account), { planId: 'basic' })).status).toBe(409);
    const changed = await api('PATCH', '/api/subscriptions/current', session(account), { planId: 'basic' });
    expect(changed.body).toMatchObject({ subscription: { planId: 'paid', pendingPlanId: 'basic' }, payment: null });
    expect((await api('PATCH', '/api/subscriptions/current', session(account), { planId: 'gold' })).body).toEqual({
      statusCode: 422,
      message: ['planId must be one of "free", "basic", "paid", "plus"'],
      error: 'Unprocessable Entity',
      code: 'VALIDATION_FAILED',
    });
    expect((await api('POST', '/api/subscriptions/current/cancel', session(account))).status).toBe(200);
  });

  it('plans are listed; API keys → 401', async () => {
    const account = await createAccount(stack.baseUrl);
    expect((await api('GET', '/api/subscriptions/plans', session(account))).body).toEqual({ periodSeconds: PERIOD_S, refillPolicy: 'add', plans: PLANS });
    for (const [method, path] of [['GET', '/api/subscriptions/plans'], ['GET', '/api/subscriptions'], ['POST', '/api/subscriptions'], ['PATCH', '/api/subscriptions/current'], ['POST', '/api/subscriptions/current/cancel']] as const) {
      expect((await api(method, path, { 'x-api-key': account.apiKey }, method === 'GET' ? undefined : { planId: 'basic' })).status).toBe(401);
    }
    expect((await api('POST', '/api/subscriptions/current/cancel', session(account))).status).toBe(404);
  });
});

interface PeriodPayment {
  id: string;
  status: string;
  providerPaymentId: string | null;
  planId: string;
  credits: number;
  amountCents: number;
}

/** The payment of period n of a subscription (one per period), if it exists yet. */
async function periodPayment(subscriptionId: string, n: number): Promise<PeriodPayment | undefined> {
  const rows = await sql<PeriodPayment>(
    stack.databaseUrl,
    `SELECT id, status::text AS status, "providerPaymentId", "planId", credits, "amountCents" FROM payment WHERE "subscriptionId" = $1 AND period = $2`,
    [subscriptionId, n],
  );
  return rows[0];
}

/** Waits until the refill of period n has asked the local provider to charge it (its payment carries the provider's id). */
function waitForCharge(subscriptionId: string, n: number): Promise<PeriodPayment> {
  return waitFor(`the charge of period ${n}`, async () => {
    const payment = await periodPayment(subscriptionId, n);
    return payment?.providerPaymentId ? payment : undefined;
  }, WAIT_MS);
}

/** The local provider's signed webhook for a payment, as the provider would send it. */
function signedEvent(paymentId: string, outcome: 'succeeded' | 'failed') {
  const signed = signLocalEvent(LOCAL_SECRET, localEvent(outcome, paymentId));
  return () => api('POST', '/api/payments/webhook/local', { 'content-type': 'application/json', [LOCAL_SIGNATURE_HEADER]: signed.signature }, signed.body);
}

/** Subscribes to a paid plan and pays its first period; answers once period 0 is granted. */
async function subscribePaid(account: TestAccount, planId = 'paid'): Promise<Json & { id: string; startedAt: string }> {
  const created = await api('POST', '/api/subscriptions', session(account), { planId });
  expect(created.status).toBe(202);
  const { subscription, payment } = created.body as { subscription: Json & { id: string }; payment: Json & { id: string } };
  expect(payment).toMatchObject({ period: 0, planId, status: 'pending' });
  expect((await signedEvent(payment.id, 'succeeded')()).body).toMatchObject({ outcome: 'applied', status: 'succeeded' });
  expect(await waitForRefills(subscription.id, 0)).toEqual([0]);
  return (await api('GET', '/api/subscriptions', session(account))).body.subscription as Json & { id: string; startedAt: string };
}

const notificationsOf = (userId: string, type: string) => sql<{ data: Json }>(stack.databaseUrl, `SELECT data FROM notification WHERE "userId" = $1 AND type = $2 ORDER BY "createdAt"`, [userId, type]);

describe('recurring billing through the local provider', () => {
  it('each later period is charged first and granted only when the charge is confirmed; replayed webhooks apply once', async () => {
    const account = await createAccount(stack.baseUrl);
    const sub = await subscribePaid(account);

    // The schedule reaches period 1: its refill records the charge and asks the provider for it.
    const charge = await waitForCharge(sub.id, 1);
    expect(charge).toMatchObject({ status: 'pending', providerPaymentId: `local_${charge.id}`, planId: 'paid', credits: 50, amountCents: 500 });
    // Nothing is granted while the charge is unconfirmed (only its webhook can grant it now).
    expect(await refills(sub.id)).toEqual([0]);

    const confirm = signedEvent(charge.id, 'succeeded');
    expect((await confirm()).body).toEqual({ received: true, outcome: 'applied', paymentId: charge.id, status: 'succeeded' });
    expect(await refills(sub.id)).toEqual([0, 1]);

    // The same delivery again, five at once, and a second success event for the same charge.
    for (let i = 0; i < 2; i++) expect((await confirm()).body.outcome).toBe('replayed');
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => confirm()));
    expect(concurrent.map((r) => [r.status, r.body.outcome])).toEqual(Array(5).fill([200, 'replayed']));
    expect((await signedEvent(charge.id, 'succeeded')()).body.outcome).toBe('replayed');
    expect(await refills(sub.id)).toEqual([0, 1]);
    const grants = await sql<{ amount: number }>(stack.databaseUrl, `SELECT amount FROM credit_ledger WHERE "idempotencyKey" = $1`, [`subscription:${sub.id}:period:1`]);
    expect(grants).toEqual([{ amount: 50 }]);
    expect((await notificationsOf(account.userId, 'subscription.renewed')).map((n) => n.data)).toEqual([{ subscriptionId: sub.id, planId: 'paid', period: 1, credits: 50 }]);
    expect((await api('POST', '/api/subscriptions/current/cancel', session(account))).status).toBe(200);
  });

  it('a failed charge → past_due, no credit, a notification; the charge paid later grants its period once and recovers the subscription', async () => {
    const account = await createAccount(stack.baseUrl);
    const sub = await subscribePaid(account);
    const charge = await waitForCharge(sub.id, 1);
    expect((await signedEvent(charge.id, 'failed')()).body).toMatchObject({ outcome: 'applied', paymentId: charge.id, status: 'failed' });
    expect((await api('GET', '/api/subscriptions', session(account))).body.subscription).toMatchObject({ id: sub.id, status: 'past_due' });
    expect((await notificationsOf(account.userId, 'subscription.past_due')).map((n) => n.data)).toEqual([
      expect.objectContaining({ subscriptionId: sub.id, planId: 'paid', period: 1, paymentId: charge.id }),
    ]);

    // Time goes on: period 2 is charged in turn; period 1 stays without credit.
    await waitForCharge(sub.id, 2);
    expect(await refills(sub.id)).toEqual([0]);

    // The retried charge succeeds: period 1 is granted once, and nothing else has failed, so the subscription is active again.
    const paid = signedEvent(charge.id, 'succeeded');
    expect((await paid()).body).toMatchObject({ outcome: 'applied', status: 'succeeded' });
    const replays = await Promise.all([paid(), paid(), paid()]);
    expect(replays.map((r) => r.body.outcome)).toEqual(['replayed', 'replayed', 'replayed']);
    expect(await refills(sub.id)).toEqual([0, 1]);
    expect((await api('GET', '/api/subscriptions', session(account))).body.subscription).toMatchObject({ id: sub.id, status: 'active' });
    expect(await notificationsOf(account.userId, 'subscription.recovered')).toEqual([{ data: { subscriptionId: sub.id, planId: 'paid', period: 1 } }]);
    expect((await api('POST', '/api/subscriptions/current/cancel', session(account))).status).toBe(200);
  });

  it('a plan change applies from the next period without proration: nothing is charged now, the next period is charged and granted at the new plan', async () => {
    const account = await createAccount(stack.baseUrl);
    const sub = await subscribePaid(account);
    const changed = await api('PATCH', '/api/subscriptions/current', session(account), { planId: 'plus' });
    expect(changed.status).toBe(200);
    const shown = changed.body.subscription as Json & { pendingPlanFrom: string };
    expect(changed.body).toMatchObject({ subscription: { planId: 'paid', pendingPlanId: 'plus', pendingPlanFrom: expect.any(String) }, payment: null });
    // The first period of the new plan: the one after the period in which the change was made.
    const from = periodOf(sub.startedAt, Date.parse(shown.pendingPlanFrom));
    expect(from).toBeGreaterThanOrEqual(1);

    const first = await waitForCharge(sub.id, from);
    expect(first).toMatchObject({ planId: 'plus', amountCents: 900, credits: 120 });
    // Periods before it (if the change came after period 1 began) were charged at the old plan.
    for (let n = 1; n < from; n++) expect(await waitForCharge(sub.id, n)).toMatchObject({ planId: 'paid', amountCents: 500 });
    // No other payment than one per period (no up-front or prorated charge).
    const extra = await sql(stack.databaseUrl, `SELECT id FROM payment WHERE "subscriptionId" = $1 AND period IS NULL`, [sub.id]);
    expect(extra).toEqual([]);
    await signedEvent(first.id, 'succeeded')();
    const grant = await sql<{ amount: number }>(stack.databaseUrl, `SELECT amount FROM credit_ledger WHERE "idempotencyKey" = $1`, [`subscription:${sub.id}:period:${from}`]);
    expect(grant).toEqual([{ amount: 120 }]);
    expect((await api('GET', '/api/subscriptions', session(account))).body.subscription).toMatchObject({ planId: 'plus', pendingPlanId: null });
    expect((await api('POST', '/api/subscriptions/current/cancel', session(account))).status).toBe(200);
  });

  it('leaving a free plan for a paid one starts the paid plan once its first period is paid; the free one ends', async () => {
    const account = await createAccount(stack.baseUrl);
    const free = (await api('POST', '/api/subscriptions', session(account), { planId: 'basic' })).body.subscription as Json & { id: string };
    await waitForRefills(free.id, 0);
    const changed = await api('PATCH', '/api/subscriptions/current', session(account), { planId: 'paid' });
    expect(changed.status).toBe(202);
    const { subscription, payment } = changed.body as { subscription: Json & { id: string }; payment: Json & { id: string } };
    expect(subscription).toMatchObject({ planId: 'paid', status: 'pending' });
    expect(payment).toMatchObject({ subscriptionId: subscription.id, period: 0, amountCents: 500, status: 'pending' });
    // Until it is paid, the free plan runs on.
    expect((await api('GET', '/api/subscriptions', session(account))).body.subscription).toMatchObject({ id: free.id, planId: 'basic', status: 'active' });

    await signedEvent(payment.id, 'succeeded')();
    const current = await api('GET', '/api/subscriptions', session(account));
    expect(current.body.subscription).toMatchObject({ id: subscription.id, planId: 'paid', status: 'active' });
    expect((current.body.history as Json[]).find((h) => h.id === free.id)).toMatchObject({ status: 'ended' });
    expect(await waitForRefills(subscription.id, 0)).toEqual([0]);
    expect(await scheduleState(free.id)).toBe('deleted');
    expect(await notificationsOf(account.userId, 'subscription.ended')).toEqual([{ data: { subscriptionId: free.id, planId: 'basic' } }]);
    expect((await api('POST', '/api/subscriptions/current/cancel', session(account))).status).toBe(200);
  });

  it('after a cancel nothing is charged from cancelAt on, and the subscription ends at cancelAt by itself', async () => {
    const account = await createAccount(stack.baseUrl);
    const sub = await subscribePaid(account);
    const cancelled = await api('POST', '/api/subscriptions/current/cancel', session(account));
    const after = cancelled.body.subscription as Json & { cancelAt: string; currentPeriod: { number: number } };
    const lastPeriod = after.currentPeriod.number;
    await waitForNoRunningRefill(sub.id);

    // Ended by the end workflow at cancelAt, without anyone reading the subscription.
    const ended = await endedRow(sub.id);
    expect(ended.endedAt).toEqual(new Date(after.cancelAt));
    expect(await temporal.workflow.getHandle(`subscription-${sub.id}-end`).result()).toEqual({ status: 'ended' });
    expect(await scheduleState(sub.id)).toBe('deleted');

    // A refill run from cancelAt on (a stray or late one: here started by hand, so its period is
    // the one of its start) charges nothing.
    const stray = await temporal.workflow.execute('subscriptionRefillWorkflow', {
      taskQueue: `${stack.env.TASK_QUEUE_PREFIX}scrape-main`,
      workflowId: `subscription-${sub.id}-refill-stray`,
      args: [{ subscriptionId: sub.id }],
    });
    expect(stray).toEqual({ status: 'ended' });
    const periods = await sql<{ period: number }>(stack.databaseUrl, `SELECT period FROM payment WHERE "subscriptionId" = $1 ORDER BY period`, [sub.id]);
    expect(periods.every((p) => p.period <= lastPeriod)).toBe(true);
    expect(periods[0]).toEqual({ period: 0 });
  });
});

describe('Idempotency-Key on a plan change (PATCH /api/subscriptions/current)', () => {
  const patch = (account: TestAccount, key: string, planId: string) => api('PATCH', '/api/subscriptions/current', { ...session(account), 'idempotency-key': key }, { planId });
  const rowsOf = async (userId: string) => ({
    subscriptions: await sql<{ id: string; planId: string; status: string }>(stack.databaseUrl, `SELECT id, "planId", status::text AS status FROM subscription WHERE "userId" = $1 ORDER BY "createdAt"`, [userId]),
    payments: await sql<{ id: string }>(stack.databaseUrl, `SELECT id FROM payment WHERE "userId" = $1`, [userId]),
  });

  it('leaving a free plan: repeats and concurrent duplicates open one paid subscription and one checkout; another plan under the key → 422', async () => {
    const account = await createAccount(stack.baseUrl);
    expect((await api('POST', '/api/subscriptions', session(account), { planId: 'basic' })).status).toBe(201);
    const key = `upgrade-${account.userId}`;
    const answers = await Promise.all([patch(account, key, 'paid'), patch(account, key, 'paid'), patch(account, key, 'paid')]);
    answers.push(await patch(account, key, 'paid'));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202]);
    const first = answers[0]?.body as { subscription: Json & { id: string }; payment: Json & { id: string } };
    expect(first.subscription).toMatchObject({ planId: 'paid', status: 'pending' });
    for (const answer of answers) expect(answer.body).toMatchObject({ subscription: { id: first.subscription.id }, payment: { id: first.payment.id, status: 'pending' } });
    const rows = await rowsOf(account.userId);
    expect(rows.subscriptions.map((s) => [s.planId, s.status])).toEqual([['basic', 'active'], ['paid', 'pending']]);
    expect(rows.payments).toEqual([{ id: first.payment.id }]);
    expect((await patch(account, key, 'plus')).body).toMatchObject({ statusCode: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect((await rowsOf(account.userId)).payments).toHaveLength(1);
  });

  it('a paid plan: repeats answer from the first change and never apply it again, even after a later change', async () => {
    const account = await createAccount(stack.baseUrl);
    const sub = await subscribePaid(account);
    const key = `change-${account.userId}`;
    // The plan from the next period on (a period of 4 s may end between two answers: then the
    // change is in force, `planId`, rather than pending).
    const nextPlan = (shown: Json) => (shown.pendingPlanId as string | null) ?? (shown.planId as string);
    const storedNextPlan = async () => {
      const [row] = await sql<{ planId: string; pendingPlanId: string | null }>(stack.databaseUrl, `SELECT "planId", "pendingPlanId" FROM subscription WHERE id = $1`, [sub.id]);
      return row!.pendingPlanId ?? row!.planId;
    };
    const answers = await Promise.all([patch(account, key, 'plus'), patch(account, key, 'plus'), patch(account, key, 'plus')]);
    expect(answers.map((a) => [a.status, a.body.payment])).toEqual([[200, null], [200, null], [200, null]]);
    for (const answer of answers) expect([answer.body.subscription.id, nextPlan(answer.body.subscription)]).toEqual([sub.id, 'plus']);
    expect(await storedNextPlan()).toBe('plus');

    // A later change without the key, then the key's repeat: answered from the first change's
    // subscription as it is now, the later change kept (the first one is not applied again).
    const later = await api('PATCH', '/api/subscriptions/current', session(account), { planId: 'basic' });
    expect([later.status, nextPlan(later.body.subscription)]).toEqual([200, 'basic']);
    const repeat = await patch(account, key, 'plus');
    expect([repeat.status, repeat.body.subscription.id, nextPlan(repeat.body.subscription), repeat.body.payment]).toEqual([200, sub.id, 'basic', null]);
    expect(await storedNextPlan()).toBe('basic');
    expect((await patch(account, key, 'basic')).body).toMatchObject({ statusCode: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    // A refused first request (no subscription to change) frees its key: nothing was done.
    const none = await createAccount(stack.baseUrl);
    expect((await patch(none, 'refused-once', 'plus')).status).toBe(404);
    expect((await api('POST', '/api/subscriptions', session(none), { planId: 'basic' })).status).toBe(201);
    expect((await patch(none, 'refused-once', 'plus')).status).toBe(202);
    expect((await api('POST', '/api/subscriptions/current/cancel', session(account))).status).toBe(200);
  });
});
