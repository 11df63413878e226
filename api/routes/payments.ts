/**
 * `/api/payments` (session cookie): credit packs, create a payment (a checkout at the provider),
 * list and get own payments; with the local provider, `POST /api/payments/:id/local-webhook`
 * hands a developer the signed webhook request the provider would send.
 * `POST /api/payments/webhook/:provider` (no session: the provider's signature) is in
 * `paymentWebhookRoutes`, mounted before the JSON parser: the signature covers the raw bytes.
 */
import express, { type Request, Router } from 'express';
import { AppError } from '../../lib/errors';
import { LOCAL_SIGNATURE_HEADER, type PaymentProvider, WebhookSignatureError, localEvent, signLocalEvent } from '../../lib/payments/provider';
import { type PaymentRow, applyProviderEvent, createPayment, localPaymentSecret, paymentRecord } from '../../lib/payments/service';
import { activateSubscription, currentPeriod } from '../../lib/subscriptions';
import type { AppDeps } from '../app';
import { authenticate } from '../middleware/auth';
import { ownedBy } from '../ownership';
import { createPaymentSchema, listQuery, localEventSchema } from '../schemas/account-functions';
import { parseBody, parseOrUnprocessable } from '../validate';
import { NEWEST_FIRST, afterCursor, decodeCursor, page } from './pagination';
import { rejectMalformedIds } from '../params';

export function requireProvider(provider: PaymentProvider | undefined): PaymentProvider {
  if (!provider) throw new AppError('PAYMENTS_UNAVAILABLE', 'Payments are not enabled on this service (PAYMENT_PROVIDER=none)');
  return provider;
}

/** The service's own base URL for checkout return links. */
export function baseUrl(deps: AppDeps, req: Request): string {
  return deps.config.BETTER_AUTH_URL?.replace(/\/$/, '') ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/**
 * After commit: the payment of a plan's first period activates its subscription. (Later periods
 * were applied inside the event's transaction, lib/billing.ts.) A payment of no period is the
 * up-front payment of a dearer plan, as plan changes were paid before recurring billing: it still
 * schedules that change from the next period, so no such payment is left without its effect.
 */
export function subscriptionPaidHook(deps: AppDeps) {
  return async (payment: PaymentRow) => {
    if (!payment.subscriptionId) return;
    const sub = await deps.db.subscription.findUnique({ where: { id: payment.subscriptionId } });
    if (!sub) return;
    if (sub.status === 'pending' && payment.period === 0) await activateSubscription(deps, sub.id, new Date());
    else if (payment.period === null && sub.status === 'active' && sub.anchorAt && payment.planId && payment.planId !== sub.planId && !sub.pendingPlanId) {
      const next = currentPeriod({ anchorAt: sub.anchorAt, periodSeconds: sub.periodSeconds }, new Date()).n + 1;
      await deps.db.subscription.updateMany({ where: { id: sub.id, status: 'active', pendingPlanId: null }, data: { pendingPlanId: payment.planId, pendingPlanFrom: next } });
    }
  };
}

export function paymentWebhookRoutes(deps: AppDeps, provider: PaymentProvider | undefined): Router {
  const router = Router();
  router.post('/api/payments/webhook/:provider', express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    if (!provider || req.params.provider !== provider.name) throw new AppError('NOT_FOUND', `No payment provider ${String(req.params.provider)} on this service`);
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    let event;
    try {
      event = provider.verifyWebhook(raw, req.headers);
    } catch (error) {
      if (error instanceof WebhookSignatureError) throw new AppError('BAD_REQUEST', error.message);
      throw error;
    }
    const result = await applyProviderEvent(deps.db, provider.name, event, { plans: deps.config.SUBSCRIPTION_PLANS, subscriptionPaid: subscriptionPaidHook(deps) });
    res.json({ received: true, outcome: result.outcome, paymentId: result.payment?.id ?? null, status: result.payment?.status ?? null });
  });
  return router;
}

export function paymentRoutes(deps: AppDeps, provider: PaymentProvider | undefined): Router {
  const router = Router();
  rejectMalformedIds(router, 'id');
  const session = authenticate(deps, { apiKey: false, session: true });

  async function ownPayment(req: Request): Promise<PaymentRow> {
    return ownedBy(await deps.db.payment.findUnique({ where: { id: String(req.params.id) } }), req.auth!.userId, 'payment');
  }

  router.get('/api/payments/packs', session, (_req, res) => {
    res.json({ provider: deps.config.PAYMENT_PROVIDER, packs: deps.config.CREDIT_PACKS });
  });

  router.post('/api/payments', session, async (req, res) => {
    const body = parseOrUnprocessable(createPaymentSchema, req.body);
    const pack = deps.config.CREDIT_PACKS.find((p) => p.id === body.packId);
    if (!pack) throw new AppError('VALIDATION_FAILED', [`packId must be one of ${deps.config.CREDIT_PACKS.map((p) => JSON.stringify(p.id)).join(', ')}`]);
    const payment = await createPayment(
      { db: deps.db, config: deps.config, provider: requireProvider(provider) },
      { userId: req.auth!.userId, purpose: 'pack', packId: pack.id, credits: pack.credits, amountCents: pack.priceCents, currency: pack.currency, description: pack.name },
      baseUrl(deps, req),
    );
    res.status(201).json(paymentRecord(payment));
  });

  router.get('/api/payments', session, async (req, res) => {
    const query = parseBody(listQuery, req.query);
    const rows = await deps.db.payment.findMany({ where: { userId: req.auth!.userId, ...afterCursor(decodeCursor(query.cursor)) }, orderBy: NEWEST_FIRST, take: query.limit + 1 });
    const { items, nextCursor } = page(rows, query.limit);
    res.json({ payments: items.map(paymentRecord), nextCursor });
  });

  router.get('/api/payments/:id', session, async (req, res) => {
    res.json(paymentRecord(await ownPayment(req)));
  });

  /** Local provider only: the signed webhook request for this payment, to POST to the webhook URL. */
  router.post('/api/payments/:id/local-webhook', session, async (req, res) => {
    if (provider?.name !== 'local') throw new AppError('NOT_FOUND', 'Only the local payment provider produces test webhooks');
    const body = parseOrUnprocessable(localEventSchema, req.body);
    const payment = await ownPayment(req);
    const signed = signLocalEvent(localPaymentSecret(deps.config), localEvent(body.outcome, payment.id));
    res.json({ method: 'POST', url: '/api/payments/webhook/local', headers: { 'content-type': 'application/json', [LOCAL_SIGNATURE_HEADER]: signed.signature }, body: signed.body });
  });

  return router;
}
