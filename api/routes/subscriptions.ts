/**
 * `/api/subscriptions` (session cookie): plans, the current subscription, subscribe, change plan,
 * cancel at period end. A free plan starts at once; a paid plan starts when the payment of its
 * first period succeeds (the provider's webhook), like a pack; every later period is charged
 * before it is granted (billing/recurring.ts).
 */
import { type Request, Router } from 'express';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import type { PaymentProvider } from '../../billing/payments/provider';
import { type PaymentRow, createPayment, paymentRecord } from '../../billing/payments/service';
import { planIdAt } from '../../billing/recurring';
import type { Plan } from '../../platform/config';
import { type SubscriptionRow, activateSubscription, cancelSubscription, changePlan, currentPeriod, findPlan, isPaidPlan, liveSubscription, subscriptionRecord } from '../../billing/subscriptions';
import { type Route, mountRoutes, reply, route, unprocessable } from '../route-table';
import { subscribeSchema } from '../schemas/account-functions';
import { paymentSchema, subscriptionSchema } from '../schemas/responses';
import { createIdempotencyStore, idempotentRequest, runIdempotent } from '../idempotency';
import { baseUrl, checkoutNeverCreated, requireProvider, subscriptionDeps } from './payments';
import type { AppDeps } from '../deps';

const withPayment = z.object({ subscription: subscriptionSchema, payment: paymentSchema.nullable() });

/**
 * What an Idempotency-Key names once a plan change under it is applied (api/idempotency.ts): a
 * change makes no row of its own, so the key is moved from the id chosen for it to this name of
 * the subscription it changed, and a repeat answers from that subscription (200, payment null).
 */
const PLAN_CHANGE = 'plan-change:';

export function subscriptionRoutes(deps: AppDeps, provider: PaymentProvider | undefined): Router {
  return mountRoutes(Router(), deps, subscriptionRouteTable(deps, provider));
}

/** What the subscribe and change-plan routes do (each under an optional Idempotency-Key). */
function subscriptionActions(deps: AppDeps, provider: PaymentProvider | undefined) {
  const idempotency = createIdempotencyStore(deps.sql);
  const subscriptions = subscriptionDeps(deps);
  /** A pending subscription to a paid plan and the payment (checkout) of its first period; earlier pending ones are superseded. */
  async function startPaid(req: Request, userId: string, plan: Plan, now: Date, id?: string) {
    // A pending subscription that was never paid for is superseded by a new one.
    await deps.db.subscription.updateMany({ where: { userId, status: 'pending' }, data: { status: 'ended', endedAt: now } });
    const pending = await deps.db.subscription.create({ data: { ...(id ? { id } : {}), userId, planId: plan.id, periodSeconds: deps.config.SUBSCRIPTION_PERIOD_SECONDS } });
    const payment = await createPayment(
      { db: deps.db, config: deps.config, provider: requireProvider(provider) },
      { userId, purpose: 'subscription', plan, subscriptionId: pending.id, credits: plan.creditsPerPeriod, amountCents: plan.priceCents, currency: plan.currency, description: `${plan.name} plan` },
      baseUrl(deps, req),
    );
    return { subscription: subscriptionRecord(pending, now), payment: paymentRecord(payment) };
  }

  /**
   * A subscription started under an Idempotency-Key, once its first request is through: a free
   * plan active, a paid one with its checkout (or the checkout's failure); else null.
   */
  async function startedSubscription(id: string, userId: string) {
    const subscription = await deps.db.subscription.findUnique({ where: { id } });
    if (!subscription || subscription.userId !== userId) return null;
    if (!isPaidPlan(deps.config, subscription.planId)) return subscription.status === 'pending' ? null : { subscription, payment: null };
    const payment = await deps.db.payment.findFirst({ where: { subscriptionId: id, period: 0 } });
    return payment && (payment.providerPaymentId !== null || payment.status !== 'pending') ? { subscription, payment } : null;
  }

  /** A repeat's answer: a checkout → 202 (as the first answer), none → `status`; the records as they are now. */
  function replaySubscription<S extends 200 | 201>({ subscription, payment }: { subscription: SubscriptionRow; payment: PaymentRow | null }, status: S) {
    const now = new Date();
    const body = { subscription: subscriptionRecord(subscription, now), payment: payment ? paymentRecord(payment) : null };
    return Promise.resolve(payment ? reply(202, body) : reply(status, body));
  }

  /** Subscribe: a free plan starts at once (201); a paid one when its first payment succeeds (202 with the checkout). */
  async function subscribe(req: Request, userId: string, planId: string) {
    const start = async (id?: string) => {
      const plan = findPlan(deps.config, planId);
      const now = new Date();
      if (await liveSubscription(subscriptions, userId, now)) throw new AppError('CONFLICT', 'The account already has a subscription: change its plan with PATCH /api/subscriptions/current, or cancel it');
      if (plan.priceCents === 0) {
        await deps.db.subscription.updateMany({ where: { userId, status: 'pending' }, data: { status: 'ended', endedAt: now } });
        const pending = await deps.db.subscription.create({ data: { ...(id ? { id } : {}), userId, planId, periodSeconds: deps.config.SUBSCRIPTION_PERIOD_SECONDS } });
        const active = await activateSubscription(subscriptions, pending.id, now);
        return reply(201, { subscription: subscriptionRecord(active, now), payment: null });
      }
      return reply(202, await startPaid(req, userId, plan, now, id));
    };
    const keyed = idempotentRequest(req, userId, Date.now() + deps.config.SYNC_TIMEOUT_MS);
    if (!keyed) return start();
    return runIdempotent({ store: idempotency, logger: deps.logger }, keyed, {
      start,
      find: (id) => startedSubscription(id, userId),
      neverStarted: ({ payment }) => payment !== null && checkoutNeverCreated(payment),
      replay: (started) => replaySubscription(started, 201),
    });
  }

  /** Change plan from the next period; leaving a free plan for a paid one starts the paid plan (202 with its checkout). */
  async function changeCurrentPlan(req: Request, userId: string, planId: string) {
    const keyed = idempotentRequest(req, userId, Date.now() + deps.config.SYNC_TIMEOUT_MS);
    const start = async (id?: string) => {
      const plan = findPlan(deps.config, planId);
      const now = new Date();
      const live = await liveSubscription(subscriptions, userId, now);
      if (!live) throw new AppError('NOT_FOUND', 'No subscription: subscribe with POST /api/subscriptions');
      if (live.status === 'cancelled' || !live.anchorAt) throw new AppError('CONFLICT', 'The subscription is cancelled; it cannot change plan');
      const current = planIdAt(live, currentPeriod({ anchorAt: live.anchorAt, periodSeconds: live.periodSeconds }, now).n);
      // A new paid subscription under `id`, as POST /api/subscriptions would make it.
      if (!isPaidPlan(deps.config, current) && plan.priceCents > 0) return reply(202, await startPaid(req, userId, plan, now, id));
      const { subscription, at } = await changePlan(subscriptions, live.id, plan, provider);
      if (keyed && id) await idempotency.takeOver(userId, keyed.key, id, `${PLAN_CHANGE}${live.id}`);
      return reply(200, { subscription: subscriptionRecord(subscription, at), payment: null });
    };
    if (!keyed) return start();
    return runIdempotent({ store: idempotency, logger: deps.logger }, keyed, {
      start,
      find: async (id) => {
        if (!id.startsWith(PLAN_CHANGE)) return startedSubscription(id, userId);
        const subscription = await deps.db.subscription.findUnique({ where: { id: id.slice(PLAN_CHANGE.length) } });
        return subscription && subscription.userId === userId ? { subscription, payment: null } : null;
      },
      neverStarted: ({ payment }) => payment !== null && checkoutNeverCreated(payment),
      replay: (changed) => replaySubscription(changed, 200),
    });
  }

  return { subscriptions, subscribe, changeCurrentPlan };
}

export function subscriptionRouteTable(deps: AppDeps, provider: PaymentProvider | undefined): Route[] {
  const actions = subscriptionActions(deps, provider);
  const { subscriptions } = actions;
  return [
    route({
      method: 'get',
      path: '/api/subscriptions/plans',
      credential: 'session',
      tag: 'subscriptions',
      summary: 'The subscription plans, the period and the refill policy',
      responses: { 200: z.object({ periodSeconds: z.int(), refillPolicy: z.literal('add'), plans: z.array(z.looseObject({ id: z.string() })) }) },
      errors: [],
      handler: () => reply(200, { periodSeconds: deps.config.SUBSCRIPTION_PERIOD_SECONDS, refillPolicy: 'add', plans: deps.config.SUBSCRIPTION_PLANS }),
    }),
    // Each answer reads the clock once (`now`) and describes that one instant.
    route({
      method: 'get',
      path: '/api/subscriptions',
      credential: 'session',
      tag: 'subscriptions',
      summary: 'The live subscription (or null) and the last 20',
      responses: { 200: z.object({ subscription: subscriptionSchema.nullable(), history: z.array(subscriptionSchema) }) },
      errors: [],
      handler: async ({ auth: { userId } }) => {
        const now = new Date();
        const live = await liveSubscription(subscriptions, userId, now);
        const history = await deps.db.subscription.findMany({ where: { userId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 20 });
        return reply(200, { subscription: live ? subscriptionRecord(live, now) : null, history: history.map((sub) => subscriptionRecord(sub, now)) });
      },
    }),
    route({
      method: 'post',
      path: '/api/subscriptions',
      credential: 'session',
      tag: 'subscriptions',
      summary: 'Subscribe: a free plan starts at once (201); a paid one when its first payment succeeds (202 with the checkout)',
      body: unprocessable(subscribeSchema, { planId: 'pro' }),
      responses: { 201: withPayment, 202: withPayment },
      errors: ['VALIDATION_FAILED', 'CONFLICT', 'PAYMENTS_UNAVAILABLE', 'PAYMENT_PROVIDER_ERROR'],
      idempotent: true,
      handler: ({ auth: { userId }, body: { planId }, req }) => actions.subscribe(req, userId, planId),
    }),
    /**
     * Change plan from the next period, without proration (docs/billing.md): 200 with the pending
     * change. Leaving a free plan for a paid one starts the paid plan at once instead, like a new
     * subscription (202 with its checkout payment); the free one ends when that payment succeeds.
     */
    route({
      method: 'patch',
      path: '/api/subscriptions/current',
      credential: 'session',
      tag: 'subscriptions',
      summary: 'Change plan from the next period (202 with a checkout when leaving a free plan for a paid one)',
      body: unprocessable(subscribeSchema, { planId: 'pro' }),
      responses: { 200: withPayment, 202: withPayment },
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT', 'PAYMENTS_UNAVAILABLE', 'PAYMENT_PROVIDER_ERROR'],
      idempotent: true,
      handler: ({ auth: { userId }, body: { planId }, req }) => actions.changeCurrentPlan(req, userId, planId),
    }),
    route({
      method: 'post',
      path: '/api/subscriptions/current/cancel',
      credential: 'session',
      tag: 'subscriptions',
      summary: 'Cancel at the end of the current period',
      responses: { 200: z.object({ subscription: subscriptionSchema }) },
      errors: ['NOT_FOUND', 'PAYMENT_PROVIDER_ERROR'],
      handler: async ({ auth }) => {
        const live = await liveSubscription(subscriptions, auth.userId, new Date());
        if (!live) throw new AppError('NOT_FOUND', 'No subscription to cancel');
        // Shown as of the instant the cancel took effect: the period it ends is the current one there.
        const cancelled = await cancelSubscription(subscriptions, live.id, provider);
        return reply(200, { subscription: subscriptionRecord(cancelled, cancelled.cancelledAt!) });
      },
    }),
  ];
}
