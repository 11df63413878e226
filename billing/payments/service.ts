/**
 * Payments: create (pending, with the provider's checkout), and apply verified provider events.
 *
 * State machine: pending → succeeded | failed; failed → succeeded (a later attempt in the same
 * checkout paid, or a retried charge of a subscription period); succeeded → refunded. Anything
 * else (a replay, an out-of-order `failed` after `succeeded`, anything after `refunded`) changes
 * nothing.
 *
 * One transaction per event: the event row (unique per provider and event id), the payment row
 * (locked FOR UPDATE, so concurrent deliveries of the same payment's events serialise), the
 * ledger grant (a pack: idempotency key `payment:<provider>:<providerPaymentId>`; a subscription
 * period: `subscription:<id>:period:<n>`, billing/recurring.ts), the subscription's state (past_due,
 * recovered) and the payment's new state commit together or not at all. Notifications follow the
 * commit, keyed by payment and state.
 */
import { createHmac } from 'node:crypto';
import { resolveAuthSecret } from '../../accounts/auth-config';
import { type PaymentRow, type PeriodEffect, applyPeriodPayment, notifyPeriodPayment, paymentForInvoice } from '../recurring';
import type { Config, Plan } from '../../platform/config';
import { getBalance, grantCredit } from '../../accounts/credit';
import type { Database } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { notify } from '../../notifications/notifications';
import { type PaymentProvider, type ProviderEvent, createLocalProvider } from './provider';
import { createStripeProvider } from './stripe';

export type { PaymentRow } from '../recurring';

export function paymentProviderFromConfig(config: Config): PaymentProvider | undefined {
  if (config.PAYMENT_PROVIDER === 'stripe') {
    return createStripeProvider({ secretKey: config.STRIPE_SECRET_KEY!, webhookSecret: config.STRIPE_WEBHOOK_SECRET!, apiUrl: config.STRIPE_API_URL });
  }
  if (config.PAYMENT_PROVIDER === 'local') return createLocalProvider({ secret: localPaymentSecret(config) });
  return undefined;
}

/** LOCAL_PAYMENT_SECRET, else a key derived from the auth secret (so every API replica agrees). */
export function localPaymentSecret(config: Config): string {
  return config.LOCAL_PAYMENT_SECRET ?? createHmac('sha256', resolveAuthSecret(config)).update('local-payment-webhook').digest('hex');
}

export const paymentCreditKey = (p: { provider: string; providerPaymentId: string | null; id: string }) => `payment:${p.provider}:${p.providerPaymentId ?? p.id}`;

export function paymentRecord(p: PaymentRow) {
  return {
    id: p.id,
    provider: p.provider,
    providerPaymentId: p.providerPaymentId,
    purpose: p.purpose,
    packId: p.packId,
    planId: p.planId,
    subscriptionId: p.subscriptionId,
    period: p.period,
    credits: p.credits,
    amountCents: p.amountCents,
    currency: p.currency,
    status: p.status,
    checkoutUrl: p.status === 'pending' ? p.checkoutUrl : null,
    failureReason: p.failureReason,
    createdAt: p.createdAt.toISOString(),
    completedAt: p.completedAt ? p.completedAt.toISOString() : null,
  };
}

export interface NewPayment {
  /** The payment's id, chosen before (an Idempotency-Key claim names it); else a new one. */
  id?: string;
  userId: string;
  purpose: 'pack' | 'subscription';
  packId?: string;
  /** A plan's first period: the checkout also sets up the provider's recurring billing (Stripe Billing). */
  plan?: Plan;
  subscriptionId?: string;
  credits: number;
  amountCents: number;
  currency: string;
  description: string;
}

/** Creates a pending payment and its checkout. A provider failure marks it failed and answers 502. */
export async function createPayment(deps: { db: Database; config: Config; provider: PaymentProvider }, input: NewPayment, baseUrl: string): Promise<PaymentRow> {
  const { db, config, provider } = deps;
  const user = await db.user.findUnique({ where: { id: input.userId }, select: { email: true } });
  if (!user) throw new AppError('UNAUTHORIZED', 'No valid session: sign in at POST /api/auth/sign-in/email');
  const payment = await db.payment.create({
    data: {
      ...(input.id ? { id: input.id } : {}),
      userId: input.userId,
      provider: provider.name,
      purpose: input.purpose,
      packId: input.packId ?? null,
      planId: input.plan?.id ?? null,
      subscriptionId: input.subscriptionId ?? null,
      // A subscription's checkout pays its period 0; later periods are charged one by one (billing/recurring.ts).
      period: input.plan ? 0 : null,
      credits: input.credits,
      amountCents: input.amountCents,
      currency: input.currency,
    },
  });
  const fill = (url: string | undefined, fallback: string) => (url ?? fallback).replace('{PAYMENT_ID}', payment.id);
  try {
    const request = {
      paymentId: payment.id,
      amountCents: input.amountCents,
      currency: input.currency,
      description: input.description,
      customerEmail: user.email,
      successUrl: fill(config.PAYMENT_SUCCESS_URL, `${baseUrl}/api/payments/{PAYMENT_ID}`),
      cancelUrl: fill(config.PAYMENT_CANCEL_URL, `${baseUrl}/api/payments/{PAYMENT_ID}`),
    };
    const checkout =
      input.plan && input.subscriptionId
        ? await provider.createSubscriptionCheckout({ ...request, subscriptionId: input.subscriptionId, plan: input.plan, periodSeconds: config.SUBSCRIPTION_PERIOD_SECONDS })
        : await provider.createCheckout(request);
    return await db.payment.update({ where: { id: payment.id }, data: { providerPaymentId: checkout.providerPaymentId, checkoutUrl: checkout.checkoutUrl } });
  } catch (error) {
    await db.payment.update({ where: { id: payment.id }, data: { status: 'failed', failureReason: 'checkout could not be created', completedAt: new Date() } });
    throw new AppError('PAYMENT_PROVIDER_ERROR', `The payment provider refused the checkout: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'}`);
  }
}

const ALLOWED: Record<string, ReadonlyArray<string>> = {
  succeeded: ['pending', 'failed'],
  failed: ['pending'],
  refunded: ['succeeded'],
};

export type EventOutcome = 'applied' | 'replayed' | 'ignored' | 'unknown-payment';

export interface ApplyHooks {
  /** SUBSCRIPTION_PLANS: the plan of a period a provider billed before its refill created the payment. */
  plans?: Plan[];
  /** A subscription payment succeeded (after commit; must be idempotent). */
  subscriptionPaid?(payment: PaymentRow): Promise<void>;
}

/** Applies one verified provider event; safe to call any number of times, concurrently. */
export async function applyProviderEvent(db: Database, provider: string, received: ProviderEvent, hooks: ApplyHooks = {}): Promise<{ outcome: EventOutcome; payment?: PaymentRow }> {
  // A period the provider billed on its own (a Stripe invoice) is matched to its period's payment,
  // which is created if the period's refill has not run yet.
  const invoicePaymentId = received.invoice
    ? await paymentForInvoice(db, { provider, invoice: received.invoice, subscriptionId: received.subscriptionId, providerSubscriptionId: received.providerSubscriptionId, plans: hooks.plans ?? [] })
    : undefined;
  const event = invoicePaymentId ? { ...received, paymentId: invoicePaymentId } : received;
  let periodEffect: PeriodEffect = {};
  const result = await db.$transaction(async (tx) => {
    const inserted = await tx.$executeRaw`
      INSERT INTO payment_event (id, provider, "eventId", type, "paymentId", outcome)
      VALUES (gen_random_uuid()::text, ${provider}, ${event.eventId}, ${event.type}, ${event.paymentId ?? null}, 'received')
      ON CONFLICT (provider, "eventId") DO NOTHING`;
    const found = await tx.payment.findFirst({
      where: {
        provider,
        OR: [
          ...(event.paymentId ? [{ id: event.paymentId }] : []),
          ...(event.providerPaymentId ? [{ providerPaymentId: event.providerPaymentId }] : []),
          ...(event.providerIntentId ? [{ providerIntentId: event.providerIntentId }] : []),
        ],
      },
      select: { id: true },
    });
    const record = async (outcome: EventOutcome, paymentId?: string) => {
      if (inserted) await tx.paymentEvent.update({ where: { provider_eventId: { provider, eventId: event.eventId } }, data: { outcome, paymentId: paymentId ?? event.paymentId ?? null } });
      return outcome;
    };
    if (!found || (!event.paymentId && !event.providerPaymentId && !event.providerIntentId)) return { outcome: await record(event.outcome === 'ignored' ? 'ignored' : 'unknown-payment') };
    // Lock the payment: concurrent events of one payment apply one after the other.
    await tx.$queryRaw`SELECT id FROM payment WHERE id = ${found.id} FOR UPDATE`;
    const payment = (await tx.payment.findUnique({ where: { id: found.id } }))!;
    if (!inserted) return { outcome: 'replayed' as const, payment };
    if (event.outcome === 'ignored' || !ALLOWED[event.outcome]!.includes(payment.status)) return { outcome: await record(event.outcome === 'ignored' ? 'ignored' : 'replayed', payment.id), payment };

    if (event.outcome === 'succeeded' && payment.purpose === 'pack') {
      await grantCredit(tx, { userId: payment.userId, amount: payment.credits, idempotencyKey: paymentCreditKey(payment), reason: 'topup', runId: payment.id });
    }
    if (event.outcome === 'refunded' && payment.purpose === 'pack') {
      // Take back what is still there of the pack (never below 0); once per payment.
      const take = Math.min(payment.credits, await getBalance(tx, payment.userId));
      if (take > 0) await grantCredit(tx, { userId: payment.userId, amount: -take, idempotencyKey: `${paymentCreditKey(payment)}:refund`, reason: 'adjustment', runId: payment.id });
    }
    const updated = await tx.payment.update({
      where: { id: payment.id },
      data: {
        status: event.outcome,
        providerIntentId: event.providerIntentId ?? payment.providerIntentId,
        failureReason: event.outcome === 'failed' ? (event.reason ?? 'payment failed').slice(0, 300) : null,
        completedAt: new Date(),
      },
    });
    // The checkout of a plan created the provider's subscription (Stripe): remember it.
    if (event.providerSubscriptionId && payment.subscriptionId) {
      await tx.subscription.updateMany({ where: { id: payment.subscriptionId, providerSubscriptionId: null }, data: { providerSubscriptionId: event.providerSubscriptionId } });
    }
    periodEffect = await applyPeriodPayment(tx, updated);
    return { outcome: await record('applied', payment.id), payment: updated };
  });

  // After the commit, from the payment's state (so a replay also repairs a notification lost to a crash).
  const payment = result.payment;
  if (payment && result.outcome !== 'unknown-payment') {
    const dedupeKey = `payment:${payment.id}:${payment.status}`;
    if (payment.status === 'succeeded') {
      await notify(db, payment.userId, { type: 'payment.succeeded', paymentId: payment.id, credits: payment.credits, amountCents: payment.amountCents, currency: payment.currency }, { dedupeKey });
      if (payment.purpose === 'subscription') await hooks.subscriptionPaid?.(payment);
    } else if (payment.status === 'failed') {
      await notify(db, payment.userId, { type: 'payment.failed', paymentId: payment.id, reason: payment.failureReason ?? undefined }, { dedupeKey });
    } else if (payment.status === 'refunded') {
      await notify(db, payment.userId, { type: 'payment.refunded', paymentId: payment.id, credits: payment.credits }, { dedupeKey });
    }
  }
  if (payment && result.outcome !== 'unknown-payment') await notifyPeriodPayment(db, payment, periodEffect);
  return result;
}
