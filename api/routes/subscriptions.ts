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

  router.get('/api/subscriptions', session, async (req, res) => {
    const userId = req.auth!.userId;
    const live = await liveSubscription(deps, userId);
    const history = await deps.db.subscription.findMany({ where: { userId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 20 });
    res.json({ subscription: live ? subscriptionRecord(live) : null, history: history.map(subscriptionRecord) });
  });

  router.post('/api/subscriptions', session, async (req, res) => {
    const userId = req.auth!.userId;
    const { planId } = parseOrUnprocessable(subscribeSchema, req.body);
    const plan = findPlan(deps.config, planId);
    if (await liveSubscription(deps, userId)) throw new AppError('CONFLICT', 'The account already has a subscription: change its plan with PATCH /api/subscriptions/current, or cancel it');
    // A pending subscription that was never paid for is superseded by a new one.
    await deps.db.subscription.updateMany({ where: { userId, status: 'pending' }, data: { status: 'ended', endedAt: new Date() } });
    const pending = await deps.db.subscription.create({ data: { userId, planId, periodSeconds: deps.config.SUBSCRIPTION_PERIOD_SECONDS } });
    if (plan.priceCents === 0) {
      const active = await activateSubscription(deps, pending.id);
      res.status(201).json({ subscription: subscriptionRecord(active), payment: null });
      return;
    }
    const payment = await createPayment(
      { db: deps.db, config: deps.config, provider: requireProvider(provider) },
      { userId, purpose: 'subscription', planId, subscriptionId: pending.id, credits: plan.creditsPerPeriod, amountCents: plan.priceCents, currency: plan.currency, description: `${plan.name} plan` },
      baseUrl(deps, req),
    );
    res.status(202).json({ subscription: subscriptionRecord(pending), payment: paymentRecord(payment) });
  });

  /** Change plan from the next period. A dearer plan is paid first (its payment's webhook schedules the change). */
  router.patch('/api/subscriptions/current', session, async (req, res) => {
    const userId = req.auth!.userId;
    const { planId } = parseOrUnprocessable(subscribeSchema, req.body);
    const plan = findPlan(deps.config, planId);
    const live = await liveSubscription(deps, userId);
    if (!live) throw new AppError('NOT_FOUND', 'No subscription: subscribe with POST /api/subscriptions');
    if (live.status !== 'active') throw new AppError('CONFLICT', 'The subscription is cancelled; it cannot change plan');
    const current = findPlan(deps.config, live.planId);
    if (plan.priceCents > current.priceCents) {
      const payment = await createPayment(
        { db: deps.db, config: deps.config, provider: requireProvider(provider) },
        { userId, purpose: 'subscription', planId, subscriptionId: live.id, credits: plan.creditsPerPeriod, amountCents: plan.priceCents, currency: plan.currency, description: `${plan.name} plan` },
        baseUrl(deps, req),
      );
      res.status(202).json({ subscription: subscriptionRecord(live), payment: paymentRecord(payment) });
      return;
    }
    const updated = await deps.db.subscription.update({ where: { id: live.id }, data: { pendingPlanId: planId === live.planId ? null : planId } });
    res.json({ subscription: subscriptionRecord(updated), payment: null });
  });

  router.post('/api/subscriptions/current/cancel', session, async (req, res) => {
    const live = await liveSubscription(deps, req.auth!.userId);
    if (!live) throw new AppError('NOT_FOUND', 'No subscription to cancel');
    res.json({ subscription: subscriptionRecord(await cancelSubscription(deps, live)) });
  });

  return router;
}
