/**
 * `/api/subscriptions` (session cookie): plans, the current subscription, subscribe, change plan,
 * cancel at period end. A free plan starts at once; a paid plan starts when the payment of its
 * first period succeeds (the provider's webhook), like a pack.
 */
import { Router } from 'express';
import { AppError } from '../../lib/errors';
import type { PaymentProvider } from '../../lib/payments/provider';
import { createPayment, paymentRecord } from '../../lib/payments/service';
import { activateSubscription, cancelSubscription, findPlan, liveSubscription, subscriptionRecord } from '../../lib/subscriptions';
import type { AppDeps } from '../app';
import { authenticate } from '../middleware/auth';
import { subscribeSchema } from '../schemas/account-functions';
import { parseOrUnprocessable } from '../validate';
import { baseUrl, requireProvider } from './payments';

export function subscriptionRoutes(deps: AppDeps, provider: PaymentProvider | undefined): Router {
  const router = Router();
  const session = authenticate(deps, { apiKey: false, session: true });

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
    // A pending subscription that was never paid for is superseded by a new one.
    await deps.db.subscription.updateMany({ where: { userId, status: 'pending' }, data: { status: 'ended', endedAt: now } });
    const pending = await deps.db.subscription.create({ data: { userId, planId, periodSeconds: deps.config.SUBSCRIPTION_PERIOD_SECONDS } });
    if (plan.priceCents === 0) {
      const active = await activateSubscription(deps, pending.id, now);
      res.status(201).json({ subscription: subscriptionRecord(active, now), payment: null });
      return;
    }
    const payment = await createPayment(
      { db: deps.db, config: deps.config, provider: requireProvider(provider) },
      { userId, purpose: 'subscription', planId, subscriptionId: pending.id, credits: plan.creditsPerPeriod, amountCents: plan.priceCents, currency: plan.currency, description: `${plan.name} plan` },
      baseUrl(deps, req),
    );
    res.status(202).json({ subscription: subscriptionRecord(pending, now), payment: paymentRecord(payment) });
  });

  /** Change plan from the next period. A dearer plan is paid first (its payment's webhook schedules the change). */
  router.patch('/api/subscriptions/current', session, async (req, res) => {
    const userId = req.auth!.userId;
    const { planId } = parseOrUnprocessable(subscribeSchema, req.body);
    const plan = findPlan(deps.config, planId);
    const now = new Date();
    const live = await liveSubscription(deps, userId, now);
    if (!live) throw new AppError('NOT_FOUND', 'No subscription: subscribe with POST /api/subscriptions');
    if (live.status !== 'active') throw new AppError('CONFLICT', 'The subscription is cancelled; it cannot change plan');
    const current = findPlan(deps.config, live.planId);
    if (plan.priceCents > current.priceCents) {
      const payment = await createPayment(
        { db: deps.db, config: deps.config, provider: requireProvider(provider) },
        { userId, purpose: 'subscription', planId, subscriptionId: live.id, credits: plan.creditsPerPeriod, amountCents: plan.priceCents, currency: plan.currency, description: `${plan.name} plan` },
        baseUrl(deps, req),
      );
      res.status(202).json({ subscription: subscriptionRecord(live, now), payment: paymentRecord(payment) });
      return;
    }
    const updated = await deps.db.subscription.update({ where: { id: live.id }, data: { pendingPlanId: planId === live.planId ? null : planId } });
    res.json({ subscription: subscriptionRecord(updated, now), payment: null });
  });

  router.post('/api/subscriptions/current/cancel', session, async (req, res) => {
    const live = await liveSubscription(deps, req.auth!.userId, new Date());
    if (!live) throw new AppError('NOT_FOUND', 'No subscription to cancel');
    // Shown as of the instant the cancel took effect: the period it ends is the current one there.
    const cancelled = await cancelSubscription(deps, live.id);
    res.json({ subscription: subscriptionRecord(cancelled, cancelled.cancelledAt!) });
  });

  return router;
}
