/**
 * /api/subscriptions end to end (real API and worker processes, Temporal, PostgreSQL) with a
 * period of 4 seconds: the schedule refills once per period (keys subscription:<id>:period:<n>),
 * a worker killed across a period boundary neither skips nor doubles a refill, cancel stops the
 * refills after the current period; a paid plan starts when its payment's webhook succeeds.
 */
import { Client, Connection } from '@temporalio/client';
import { type TestAccount, createAccount, sql } from '../../test/helpers/accounts';
import { call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';

const PERIOD_S = 4;
const PLANS = [
  { id: 'free', name: 'Free', creditsPerPeriod: 0, priceCents: 0, currency: 'usd' },
  { id: 'basic', name: 'Basic', creditsPerPeriod: 7, priceCents: 0, currency: 'usd' },
  { id: 'paid', name: 'Paid', creditsPerPeriod: 50, priceCents: 500, currency: 'usd' },
];

let stack: Stack;
let temporal: Client;
let connection: Connection;

beforeAll(async () => {
  stack = await startStack({ env: { SUBSCRIPTION_PERIOD_SECONDS: String(PERIOD_S), SUBSCRIPTION_PLANS: JSON.stringify(PLANS), PAYMENT_PROVIDER: 'local' } });
  connection = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS! });
  temporal = new Client({ connection });
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

/** Waits until no refill workflow started by the schedule is still running. */
async function waitForNoRunningRefill(subscriptionId: string): Promise<void> {
  const handle = temporal.schedule.getHandle(`subscription-${subscriptionId}`);
  for (let i = 0; i < 400; i++) {
    if ((await handle.describe()).info.runningActions.length === 0) return;
    await sleep(100);
  }
  throw new Error(`subscription ${subscriptionId}: a refill is still running`);
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
    const paused = await temporal.schedule.getHandle(`subscription-${sub.id}`).describe();
    expect(paused.state.paused).toBe(true);
    // Every period up to the cancelled one is refilled exactly once (late ones may land out of order)…
    await waitForRefills(sub.id, lastPeriod);
    // …and none after it: once every action the schedule triggered has finished, the ledger is final.
    await waitForNoRunningRefill(sub.id);
    expect(sorted(await refills(sub.id))).toEqual(upTo(lastPeriod));
    const amounts = await sql<{ amount: number }>(stack.databaseUrl, `SELECT amount FROM credit_ledger WHERE "runId" = $1`, [sub.id]);
    expect(amounts.every((a) => a.amount === 7)).toBe(true);
    // The subscription ends at cancelAt: the one wait on the clock, for the instant under test.
    await sleep(Math.max(0, new Date(after.cancelAt).getTime() - Date.now() + 50));
    const current = await api('GET', '/api/subscriptions', session(account));
    expect(current.body.subscription).toBeNull();
    expect((current.body.history as Json[])[0]).toMatchObject({ id: sub.id, status: 'ended', endedAt: after.cancelAt });
    const types = await sql<{ type: string }>(stack.databaseUrl, `SELECT type FROM notification WHERE "userId" = $1 ORDER BY "createdAt"`, [account.userId]);
    const count = (type: string) => types.filter((t) => t.type === type).length;
    expect([count('subscription.activated'), count('subscription.renewed'), count('subscription.cancelled'), count('subscription.ended')]).toEqual([1, lastPeriod, 1, 1]);
    // The ended subscription's schedule is gone.
    await expect(temporal.schedule.getHandle(`subscription-${sub.id}`).describe()).rejects.toThrow();
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
      message: ['planId must be one of "free", "basic", "paid"'],
      error: 'Unprocessable Entity',
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
