/**
 * `/api/subscriptions` (session cookie): plans, the current subscription, subscribe, change plan,
 * cancel at period end. A free plan starts at once; a paid plan starts when the payment of its
 * first period succeeds (the provider's webhook), like a pack; every later period is charged
 * before it is granted (lib/billing.ts).
 */
import { type Request, Router } from 'express';
import { AppError } from '../../lib/errors';
import type { PaymentProvider } from '../../lib/payments/provider';
import { createPayment, paymentRecord } from '../../lib/payments/service';
import { planIdAt } from '../../lib/billing';
import type { Plan } from '../../lib/config';
import { activateSubscription, cancelSubscription, changePlan, currentPeriod, findPlan, isPaidPlan, liveSubscription, subscriptionRecord } from '../../lib/subscriptions';
import type { AppDeps } from '../app';
import { authenticate } from '../middleware/auth';
import { subscribeSchema } from '../schemas/account-functions';
import { parseOrUnprocessable } from '../validate';
import { baseUrl, requireProvider } from './payments';

export function subscriptionRoutes(deps: AppDeps, provider: PaymentProvider | undefined): Router {
  const router = Router();
  const session = authenticate(deps, { apiKey: false, session: true });

  /** A pending subscription to a paid plan and the payment (checkout) of its first period; earlier pending ones are superseded. */
  async function startPaid(req: Request, userId: string, plan: Plan, now: Date) {
    // A pending subscription that was never paid for is superseded by a new one.
    await deps.db.subscription.updateMany({ where: { userId, status: 'pending' }, data: { status: 'ended', endedAt: now } });
    const pending = await deps.db.subscription.create({ data: { userId, planId: plan.id, periodSeconds: deps.config.SUBSCRIPTION_PERIOD_SECONDS } });
    const payment = await createPayment(
      { db: deps.db, config: deps.config, provider: requireProvider(provider) },
      { userId, purpose: 'subscription', plan, subscriptionId: pending.id, credits: plan.creditsPerPeriod, amountCents: plan.priceCents, currency: plan.currency, description: `${plan.name} plan` },
      baseUrl(deps, req),
    );
    return { subscription: subscriptionRecord(pending, now), payment: paymentRecord(payment) };
  }

  router.get('/api/subscriptions/plans', session, (_req, res) => {
    res.json({ periodSeconds: deps.config.SUBSCRIPTION_PERIOD_SECONDS, refillPolicy: 'add', plans: deps.config.SUBSCRIPTION_PLANS });
  });

  // Each answer reads the clock once (`now`) and describes that one instant.
  router.get('/api/subscriptions', session, async (req, res) => {
    const userId = req.auth!.userId;
    const now = new Date();
    const live = await liveSubscription(deps, userId, now);
    const history = await deps.db.subscription.findMany({ where: { userId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 20 });
    res.json({ subscription: live ? subscriptionRecord(live, now) : null, history: history.map((sub) => subscriptionRecord(sub, now)) });
  });

  router.post('/api/subscriptions', session, async (req, res) => {
    const userId = req.auth!.userId;
    const { planId } = parseOrUnprocessable(subscribeSchema, req.body);
    const plan = findPlan(deps.config, planId);
    const now = new Date();
    if (await liveSubscription(deps, userId, now)) throw new AppError('CONFLICT', 'The account already has a subscription: change its plan with PATCH /api/subscriptions/current, or cancel it');
    if (plan.priceCents === 0) {
      await deps.db.subscription.updateMany({ where: { userId, status: 'pending' }, data: { status: 'ended', endedAt: now } });
      const pending = await deps.db.subscription.create({ data: { userId, planId, periodSeconds: deps.config.SUBSCRIPTION_PERIOD_SECONDS } });
      const active = await activateSubscription(deps, pending.id, now);
      res.status(201).json({ subscription: subscriptionRecord(active, now), payment: null });
      return;
    }
    res.status(202).json(await startPaid(req, userId, plan, now));
  });

  /**
   * Change plan from the next period, without proration (docs/account.md): 200 with the pending
   * change. Leaving a free plan for a paid one starts the paid plan at once instead, like a new
   * subscription (202 with its checkout payment); the free one ends when that payment succeeds.
   */
  router.patch('/api/subscriptions/current', session, async (req, res) => {
    const userId = req.auth!.userId;
    const { planId } = parseOrUnprocessable(subscribeSchema, req.body);
    const plan = findPlan(deps.config, planId);
    const now = new Date();
    const live = await liveSubscription(deps, userId, now);
    if (!live) throw new AppError('NOT_FOUND', 'No subscription: subscribe with POST /api/subscriptions');
    if (live.status === 'cancelled' || !live.anchorAt) throw new AppError('CONFLICT', 'The subscription is cancelled; it cannot change plan');
    const current = planIdAt(live, currentPeriod({ anchorAt: live.anchorAt, periodSeconds: live.periodSeconds }, now).n);
    if (!isPaidPlan(deps.config, current) && plan.priceCents > 0) {
      res.status(202).json(await startPaid(req, userId, plan, now));
      return;
    }
    const { subscription, at } = await changePlan(deps, live.id, plan, provider);
    res.json({ subscription: subscriptionRecord(subscription, at), payment: null });
  });

  router.post('/api/subscriptions/current/cancel', session, async (req, res) => {
    const live = await liveSubscription(deps, req.auth!.userId, new Date());
    if (!live) throw new AppError('NOT_FOUND', 'No subscription to cancel');
    // Shown as of the instant the cancel took effect: the period it ends is the current one there.
    const cancelled = await cancelSubscription(deps, live.id, provider);
    res.json({ subscription: subscriptionRecord(cancelled, cancelled.cancelledAt!) });
  });

  return router;
}
