/**
 * `/api/payments` (session cookie): credit packs, create a payment (a checkout at the provider),
 * list and get own payments; with the local provider, `POST /api/payments/:id/local-webhook`
 * hands a developer the signed webhook request the provider would send.
 * `POST /api/payments/webhook/:provider` (no session: the provider's signature) is in
 * `paymentWebhookRoutes`, mounted before the JSON parser: the signature covers the raw bytes.
 */
import express, { type Request, Router } from 'express';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { LOCAL_SIGNATURE_HEADER, type PaymentProvider, WebhookSignatureError, localEvent, signLocalEvent } from '../../billing/payments/provider';
import { type PaymentRow, applyProviderEvent, createPayment, localPaymentSecret, paymentRecord } from '../../billing/payments/service';
import { type SubscriptionDeps, activateSubscription, currentPeriod } from '../../billing/subscriptions';
import { createSubscriptionSchedules } from '../subscription-schedules';
import { createIdempotencyStore, idempotentRequest, runIdempotent } from '../idempotency';
import { ownedBy } from '../ownership';
import { type Route, badRequest, customRoute, mountRoutes, parsedBy, reply, route, unprocessable } from '../route-table';
import { createPaymentSchema, listQuery, localEventSchema } from '../schemas/account-functions';
import { pageOf, paymentSchema } from '../schemas/responses';
import { parseOrUnprocessable } from '../../platform/validate';
import { NEWEST_FIRST, afterCursor, decodeCursor, page } from './pagination';
import type { AppDeps } from '../deps';

export function requireProvider(provider: PaymentProvider | undefined): PaymentProvider {
  if (!provider) throw new AppError('PAYMENTS_UNAVAILABLE', 'Payments are not enabled on this service (PAYMENT_PROVIDER=none)');
  return provider;
}

/** The service's own base URL for checkout return links. */
export function baseUrl(deps: AppDeps, req: Request): string {
  return deps.config.BETTER_AUTH_URL?.replace(/\/$/, '') ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** What the subscription rules need from the API process: its database, configuration and Temporal client. */
export function subscriptionDeps(deps: AppDeps): SubscriptionDeps {
  return { db: deps.db, config: deps.config, schedules: createSubscriptionSchedules(deps) };
}

/**
 * After commit: the payment of a plan's first period activates its subscription. (Later periods
 * were applied inside the event's transaction, billing/recurring.ts.) A payment of no period is the
 * up-front payment of a dearer plan, as plan changes were paid before recurring billing: it still
 * schedules that change from the next period, so no such payment is left without its effect.
 */
export function subscriptionPaidHook(deps: AppDeps) {
  const subscriptions = subscriptionDeps(deps);
  return async (payment: PaymentRow) => {
    if (!payment.subscriptionId) return;
    const sub = await deps.db.subscription.findUnique({ where: { id: payment.subscriptionId } });
    if (!sub) return;
    if (sub.status === 'pending' && payment.period === 0) await activateSubscription(subscriptions, sub.id, new Date());
    else if (payment.period === null && sub.status === 'active' && sub.anchorAt && payment.planId && payment.planId !== sub.planId && !sub.pendingPlanId) {
      const next = currentPeriod({ anchorAt: sub.anchorAt, periodSeconds: sub.periodSeconds }, new Date()).n + 1;
      await deps.db.subscription.updateMany({ where: { id: sub.id, status: 'active', pendingPlanId: null }, data: { pendingPlanId: payment.planId, pendingPlanFrom: next } });
    }
  };
}

const webhookResponse = z.object({ received: z.literal(true), outcome: z.string(), paymentId: z.string().nullable(), status: z.string().nullable() });

/** The provider's webhook: its signature covers the raw body, so it keeps its own handlers (express.raw). */
export function paymentWebhookRouteTable(deps: AppDeps, provider: PaymentProvider | undefined): Route[] {
  return [
    customRoute({
      method: 'post',
      path: '/api/payments/webhook/:provider',
      credential: 'signature',
      tag: 'payments',
      summary: "The payment provider's webhook (signed; the raw body is verified)",
      body: parsedBy(z.unknown(), (body) => body),
      bodyContentType: 'application/octet-stream',
      responses: { 200: webhookResponse },
      errors: ['NOT_FOUND', 'BAD_REQUEST'],
      mount: (router) =>
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
        }),
    }),
  ];
}

export function paymentWebhookRoutes(deps: AppDeps, provider: PaymentProvider | undefined): Router {
  return mountRoutes(Router(), deps, paymentWebhookRouteTable(deps, provider));
}

/** A payment whose checkout the provider never created: nothing can be paid on it; an Idempotency-Key repeat starts afresh. */
export function checkoutNeverCreated(payment: PaymentRow): boolean {
  return payment.status === 'failed' && payment.providerPaymentId === null;
}

export function paymentRouteTable(deps: AppDeps, provider: PaymentProvider | undefined): Route[] {
  const idempotency = createIdempotencyStore(deps.sql);
  const ownPayment = async (id: string, userId: string): Promise<PaymentRow> => ownedBy(await deps.db.payment.findUnique({ where: { id } }), userId, 'payment');
  return [
    route({
      method: 'get',
      path: '/api/payments/packs',
      credential: 'session',
      tag: 'payments',
      summary: 'The credit packs on sale and the payment provider',
      responses: { 200: z.object({ provider: z.string(), packs: z.array(z.looseObject({ id: z.string(), credits: z.int(), priceCents: z.int(), currency: z.string() })) }) },
      errors: [],
      handler: () => reply(200, { provider: deps.config.PAYMENT_PROVIDER, packs: deps.config.CREDIT_PACKS }),
    }),
    route({
      method: 'post',
      path: '/api/payments',
      credential: 'session',
      tag: 'payments',
      summary: 'Buy a credit pack: a payment and its checkout at the provider',
      body: unprocessable(createPaymentSchema, { packId: 'starter' }),
      responses: { 201: paymentSchema },
      errors: ['VALIDATION_FAILED', 'PAYMENTS_UNAVAILABLE', 'PAYMENT_PROVIDER_ERROR'],
      idempotent: true,
      handler: async ({ auth, body, req }) => {
        const start = async (id?: string) => {
          const pack = deps.config.CREDIT_PACKS.find((p) => p.id === body.packId);
          if (!pack) throw new AppError('VALIDATION_FAILED', [`packId must be one of ${deps.config.CREDIT_PACKS.map((p) => JSON.stringify(p.id)).join(', ')}`]);
          const payment = await createPayment(
            { db: deps.db, config: deps.config, provider: requireProvider(provider) },
            { id, userId: auth.userId, purpose: 'pack', packId: pack.id, credits: pack.credits, amountCents: pack.priceCents, currency: pack.currency, description: pack.name },
            baseUrl(deps, req),
          );
          return reply(201, paymentRecord(payment));
        };
        const keyed = idempotentRequest(req, auth.userId, Date.now() + deps.config.SYNC_TIMEOUT_MS);
        if (!keyed) return start();
        return runIdempotent({ store: idempotency, logger: deps.logger }, keyed, {
          start,
          // Answered once its checkout exists (or failed): the first request creates both.
          find: async (id) => {
            const payment = await deps.db.payment.findUnique({ where: { id } });
            return payment && (payment.providerPaymentId !== null || payment.status !== 'pending') ? payment : null;
          },
          neverStarted: checkoutNeverCreated,
          replay: (payment) => Promise.resolve(reply(201, paymentRecord(payment))),
        });
      },
    }),
    route({
      method: 'get',
      path: '/api/payments',
      credential: 'session',
      tag: 'payments',
      summary: "The account's payments, newest first",
      query: badRequest(listQuery),
      responses: { 200: pageOf('payments', paymentSchema) },
      errors: ['BAD_REQUEST'],
      handler: async ({ auth, query }) => {
        const rows = await deps.db.payment.findMany({ where: { userId: auth.userId, ...afterCursor(decodeCursor(query.cursor)) }, orderBy: NEWEST_FIRST, take: query.limit + 1 });
        const { items, nextCursor } = page(rows, query.limit);
        return reply(200, { payments: items.map(paymentRecord), nextCursor });
      },
    }),
    route({
      method: 'get',
      path: '/api/payments/:id',
      params: ['id'],
      credential: 'session',
      tag: 'payments',
      summary: 'One payment',
      responses: { 200: paymentSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => reply(200, paymentRecord(await ownPayment(params.id, auth.userId))),
    }),
    /** Local provider only: the signed webhook request for this payment, to POST to the webhook URL. */
    route({
      method: 'post',
      path: '/api/payments/:id/local-webhook',
      params: ['id'],
      credential: 'session',
      tag: 'payments',
      summary: 'Local provider only: the signed webhook request the provider would send for this payment',
      // Parsed in the handler: the provider check comes first (404 on any other provider).
      body: parsedBy(localEventSchema, (body) => body, { outcome: 'succeeded' }),
      responses: { 200: z.object({ method: z.literal('POST'), url: z.string(), headers: z.record(z.string(), z.string()), body: z.string() }) },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'VALIDATION_FAILED'],
      handler: async ({ auth, params, body: raw }) => {
        if (provider?.name !== 'local') throw new AppError('NOT_FOUND', 'Only the local payment provider produces test webhooks');
        const body = parseOrUnprocessable(localEventSchema, raw);
        const payment = await ownPayment(params.id, auth.userId);
        const signed = signLocalEvent(localPaymentSecret(deps.config), localEvent(body.outcome, payment.id));
        return reply(200, { method: 'POST', url: '/api/payments/webhook/local', headers: { 'content-type': 'application/json', [LOCAL_SIGNATURE_HEADER]: signed.signature }, body: signed.body });
      },
    }),
  ];
}

export function paymentRoutes(deps: AppDeps, provider: PaymentProvider | undefined): Router {
  return mountRoutes(Router(), deps, paymentRouteTable(deps, provider));
}
