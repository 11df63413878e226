/**
 * Recurring billing of subscription periods (docs/billing.md): the rules that the period's refill
 * (activities/subscriptions.ts) and the payment webhook (billing/payments/service.ts) share.
 *
 * A paid period is granted once its payment has succeeded, by whichever of the two comes second:
 * the refill of the period (the schedule reached it) finds the payment succeeded, or the payment's
 * webhook finds the subscription running. Both decide under the subscription's row lock
 * (`lockSubscription`), the lock that cancel and plan changes take too (billing/subscriptions.ts), and
 * grant with the ledger key of the period, so a period is granted at most once whatever the order,
 * the replays and the retries.
 *
 * Lock order, kept by every path: payment row, then subscription row, then the account row (the
 * ledger). The refill never locks a payment row; the webhook locks its payment first.
 */
import type { Plan } from '../platform/config';
import { grantCredit } from '../accounts/credit';
import type { Database, Prisma } from '../platform/db';
import { notify } from '../notifications/notifications';
import type { ProviderInvoice } from './payments/provider';
import { subscriptionPeriodKey } from './keys';

export type Tx = Prisma.TransactionClient;
export type SubscriptionRow = NonNullable<Awaited<ReturnType<Database['subscription']['findUnique']>>>;
export type PaymentRow = NonNullable<Awaited<ReturnType<Database['payment']['findUnique']>>>;

/** A subscription that is running: it has periods, its periods are charged and granted. */
export const LIVE_STATUSES = ['active', 'past_due', 'cancelled'] as const;

type Anchored = { anchorAt: Date; periodSeconds: number };
type PlanFields = Pick<SubscriptionRow, 'planId' | 'pendingPlanId' | 'pendingPlanFrom'>;

/**
 * The period containing `at` (a schedule action's scheduled time: exactly a period start for the
 * schedule's own actions; an operator's manual trigger falls in the current period, never the next).
 */
export function periodAt(anchorAt: Date, periodSeconds: number, at: Date): number {
  return Math.floor((at.getTime() - anchorAt.getTime()) / (periodSeconds * 1000));
}

/**
 * The period whose start is nearest to `start`: a provider's period start (Stripe's cycle began
 * at the checkout, ours when its webhook arrived, seconds later), rounded onto our grid.
 */
export function nearestPeriod(anchorAt: Date, periodSeconds: number, start: Date): number {
  return Math.round((start.getTime() - anchorAt.getTime()) / (periodSeconds * 1000));
}

export function periodStart(sub: Anchored, period: number): Date {
  return new Date(sub.anchorAt.getTime() + period * sub.periodSeconds * 1000);
}

/**
 * The plan in force in period n: a pending change from its first period on. A change recorded
 * before periods were dated (pendingPlanFrom null) applies from period 1, as it always did.
 */
export function planIdAt(sub: PlanFields, period: number): string {
  return sub.pendingPlanId !== null && period >= (sub.pendingPlanFrom ?? 1) ? sub.pendingPlanId : sub.planId;
}

/**
 * The plan fields with a change that has taken effect by period n folded in (planId is then the
 * plan of period n), for writers that replace or drop the pending change.
 */
export function foldPlan(sub: PlanFields, period: number): PlanFields {
  return { planId: planIdAt(sub, period), pendingPlanId: null, pendingPlanFrom: null };
}

/** Whether period n is in the subscription's life: it started, and the period begins before cancelAt. */
export function inLife(sub: Pick<SubscriptionRow, 'anchorAt' | 'periodSeconds' | 'status' | 'cancelAt'>, period: number): boolean {
  if (!sub.anchorAt || period < 0 || sub.status === 'pending') return false;
  if (sub.cancelAt) return periodStart({ anchorAt: sub.anchorAt, periodSeconds: sub.periodSeconds }, period).getTime() < sub.cancelAt.getTime();
  return sub.status !== 'ended';
}

/** Locks the subscription's row for the rest of the transaction and reads it. */
export async function lockSubscription(tx: Tx, subscriptionId: string): Promise<SubscriptionRow | null> {
  await tx.$queryRaw`SELECT 1 FROM subscription WHERE id = ${subscriptionId} FOR UPDATE`;
  return tx.subscription.findUnique({ where: { id: subscriptionId } });
}

export interface PeriodGrant {
  userId: string;
  subscriptionId: string;
  planId: string;
  period: number;
  credits: number;
  /** false when the period had been granted before (nothing changed). */
  applied: boolean;
}

/** Grants period n's credit, once (ledger key `subscription:<id>:period:<n>`). Under the row lock, for a period in life. */
export async function grantPeriod(tx: Tx, sub: SubscriptionRow, period: number, planId: string, credits: number): Promise<PeriodGrant> {
  const { applied } = await grantCredit(tx, { userId: sub.userId, amount: credits, idempotencyKey: subscriptionPeriodKey(sub.id, period), reason: 'grant', runId: sub.id });
  return { userId: sub.userId, subscriptionId: sub.id, planId, period, credits, applied };
}

/** After the commit: period 0 notifies `subscription.activated`, later ones `subscription.renewed`; once per period whichever path granted it. */
export async function notifyPeriodGranted(db: Database, grant: PeriodGrant): Promise<void> {
  const { userId, subscriptionId, planId, period, credits } = grant;
  const dedupeKey = subscriptionPeriodKey(subscriptionId, period);
  if (period === 0) await notify(db, userId, { type: 'subscription.activated', subscriptionId, planId }, { dedupeKey });
  else await notify(db, userId, { type: 'subscription.renewed', subscriptionId, planId, period, credits }, { dedupeKey });
}

/** What a period payment's outcome did to its subscription that its state alone does not tell. */
export interface PeriodEffect {
  recovered?: { userId: string; subscriptionId: string; planId: string; period: number };
}

/**
 * Applies the new state of a period payment (already written, in the same transaction) to its
 * subscription, under the subscription's row lock:
 * - succeeded: the period is granted if it is in the subscription's life; a past_due subscription
 *   with no failed period payment left is active again;
 * - failed: an active subscription becomes past_due (nothing is granted for the period).
 */
export async function applyPeriodPayment(tx: Tx, payment: PaymentRow): Promise<PeriodEffect> {
  if (payment.purpose !== 'subscription' || payment.period === null || !payment.subscriptionId) return {};
  const sub = await lockSubscription(tx, payment.subscriptionId);
  if (!sub) return {};
  const period = payment.period;
  const planId = payment.planId ?? planIdAt(sub, period);
  if (payment.status === 'succeeded') {
    if (inLife(sub, period) && payment.credits > 0) await grantPeriod(tx, sub, period, planId, payment.credits);
    if (sub.status === 'past_due') {
      const unpaid = await tx.payment.count({ where: { subscriptionId: sub.id, period: { not: null }, status: 'failed' } });
      if (unpaid === 0) {
        await tx.subscription.update({ where: { id: sub.id }, data: { status: 'active' } });
        return { recovered: { userId: sub.userId, subscriptionId: sub.id, planId, period } };
      }
    }
  } else if (payment.status === 'failed' && sub.status === 'active') {
    await tx.subscription.update({ where: { id: sub.id }, data: { status: 'past_due' } });
  }
  return {};
}

/**
 * After the commit of a period payment's event, applied or replayed: the notifications its state
 * calls for, each once by its dedupe key, so a replay also sends one lost to a crash after the
 * commit (the provider retries a webhook it got no answer to). A granted period notifies
 * activated/renewed; a failed one of a past_due subscription notifies past_due; a recovery
 * (known only to the event that caused it) notifies recovered.
 */
export async function notifyPeriodPayment(db: Database, payment: PaymentRow, effect: PeriodEffect): Promise<void> {
  if (payment.purpose !== 'subscription' || payment.period === null || !payment.subscriptionId) return;
  const subscriptionId = payment.subscriptionId;
  const period = payment.period;
  const key = subscriptionPeriodKey(subscriptionId, period);
  if (payment.status === 'succeeded') {
    const granted = await db.creditLedger.findUnique({ where: { idempotencyKey: key }, select: { amount: true } });
    // Every period payment records its plan (the refill, the invoice and the checkout all set it).
    if (granted) await notifyPeriodGranted(db, { userId: payment.userId, subscriptionId, planId: payment.planId!, period, credits: granted.amount, applied: true });
  } else if (payment.status === 'failed' && period > 0) {
    const sub = await db.subscription.findUnique({ where: { id: subscriptionId }, select: { status: true, planId: true } });
    if (sub?.status === 'past_due') {
      await notify(db, payment.userId, { type: 'subscription.past_due', subscriptionId, planId: payment.planId ?? sub.planId, period, paymentId: payment.id, reason: payment.failureReason ?? undefined }, { dedupeKey: `${key}:past_due` });
    }
  }
  if (effect.recovered) {
    const { userId, planId } = effect.recovered;
    await notify(db, userId, { type: 'subscription.recovered', subscriptionId, planId, period }, { dedupeKey: `${key}:recovered` });
  }
}

/**
 * The payment row of the period a provider-billed invoice pays (Stripe Billing), created when the
 * invoice comes before the period's refill. Its own short transaction under the subscription's row
 * lock, run before the event's transaction (which then locks the payment, then the subscription).
 * The first invoice pays period 0, the checkout's payment; a later one the period its line starts.
 * Answers the payment id, or undefined when the invoice names no subscription of ours.
 */
export async function paymentForInvoice(
  db: Database,
  input: { provider: string; invoice: ProviderInvoice; subscriptionId?: string; providerSubscriptionId?: string; plans: Plan[] },
): Promise<string | undefined> {
  const { invoice, providerSubscriptionId } = input;
  const byProvider = providerSubscriptionId ? await db.subscription.findUnique({ where: { providerSubscriptionId }, select: { id: true } }) : null;
  const targetId = byProvider?.id ?? input.subscriptionId;
  if (!targetId) return undefined;
  return db.$transaction(async (tx) => {
    const sub = await lockSubscription(tx, targetId);
    if (!sub) return undefined;
    // Found by our metadata: the invoice must belong to this subscription's provider subscription.
    if (providerSubscriptionId && sub.providerSubscriptionId && sub.providerSubscriptionId !== providerSubscriptionId) return undefined;
    if (providerSubscriptionId && !sub.providerSubscriptionId) await tx.subscription.update({ where: { id: sub.id }, data: { providerSubscriptionId } });
    const period = invoice.first ? 0 : sub.anchorAt ? nearestPeriod(sub.anchorAt, sub.periodSeconds, invoice.periodStart) : undefined;
    if (period === undefined || period < 0) return undefined;
    const existing = await tx.payment.findFirst({ where: { subscriptionId: sub.id, period }, select: { id: true, providerPaymentId: true } });
    if (existing) {
      if (!existing.providerPaymentId) await tx.payment.update({ where: { id: existing.id }, data: { providerPaymentId: invoice.id } });
      return existing.id;
    }
    const planId = planIdAt(sub, period);
    const plan = input.plans.find((p) => p.id === planId);
    // A period outside the subscription's life is recorded (the money moved) but carries no credit.
    const created = await tx.payment.create({
      data: {
        userId: sub.userId,
        provider: input.provider,
        providerPaymentId: invoice.id,
        purpose: 'subscription',
        planId,
        subscriptionId: sub.id,
        period,
        credits: plan && inLife(sub, period) ? plan.creditsPerPeriod : 0,
        amountCents: invoice.amountCents,
        currency: invoice.currency,
      },
    });
    return created.id;
  });
}
