/**
 * Subscriptions (API side): subscribe, activate (and create its schedule), change plan, cancel at
 * period end (and end on time), and the record the API shows. A period's refill and charge are
 * activities/subscriptions.ts; the billing rules both share are billing/recurring.ts.
 *
 * The Temporal side (the schedule `subscription-<id>` that refills each period, the workflow that
 * ends a cancelled subscription on time) is reached through `SubscriptionSchedules`, which the
 * callers implement with their Temporal client (api/subscription-schedules.ts; the end activity
 * deletes the schedule with its worker's client): the billing rules never import orchestration
 * (docs/architecture.md).
 */
import { LIVE_STATUSES, type SubscriptionRow, foldPlan, lockSubscription, periodStart, planIdAt } from './recurring';
import type { Config, Plan } from '../platform/config';
import { sqlState } from '../accounts/credit';
import type { Database } from '../platform/db';
import { AppError } from '../platform/errors';
import { notify } from '../notifications/notifications';
import type { PaymentProvider } from './payments/provider';
import { subscriptionIds } from './keys';

export type { SubscriptionRow } from './recurring';

/** What subscriptions need of Temporal: each one's schedule, and the workflow that ends it on time. */
export interface SubscriptionSchedules {
  /** Creates the schedule of an active subscription (anchored at its anchorAt); one already there is left as it is. */
  ensure(sub: SubscriptionRow): Promise<void>;
  /** Pauses a schedule with a note an operator reads (a cancel); a schedule already gone is fine. */
  pause(scheduleId: string, note: string): Promise<void>;
  /** Deletes a schedule (the subscription ended); a schedule already gone is fine. */
  delete(scheduleId: string): Promise<void>;
  /** Starts the workflow that ends the subscription at `endsAt`; started once, whatever the repeats. */
  startEnd(sub: SubscriptionRow, endsAt: Date): Promise<void>;
}

export interface SubscriptionDeps {
  db: Database;
  config: Config;
  schedules: SubscriptionSchedules;
}

/** What ending a subscription needs: the API passes its schedules, the end activity deletes with its worker's client. */
export interface SettleDeps {
  db: Database;
  schedules: Pick<SubscriptionSchedules, 'delete'>;
}

export function findPlan(config: Config, planId: string): Plan {
  const plan = config.SUBSCRIPTION_PLANS.find((p) => p.id === planId);
  if (!plan) throw new AppError('VALIDATION_FAILED', [`planId must be one of ${config.SUBSCRIPTION_PLANS.map((p) => JSON.stringify(p.id)).join(', ')}`]);
  return plan;
}

/** A plan that is charged. A plan no longer configured counts as paid: its provider billing may still run. */
export function isPaidPlan(config: Config, planId: string): boolean {
  return (config.SUBSCRIPTION_PLANS.find((p) => p.id === planId)?.priceCents ?? 1) > 0;
}

const isLive = (status: SubscriptionRow['status']) => (LIVE_STATUSES as readonly string[]).includes(status);

/**
 * The period containing `at`: its number and bounds. `at` is always the caller's one clock reading
 * for the answer it builds (never read again here), so an answer describes a single instant.
 */
export function currentPeriod(sub: { anchorAt: Date; periodSeconds: number }, at: Date) {
  const ms = sub.periodSeconds * 1000;
  const n = Math.max(0, Math.floor((at.getTime() - sub.anchorAt.getTime()) / ms));
  return { n, start: new Date(sub.anchorAt.getTime() + n * ms), end: new Date(sub.anchorAt.getTime() + (n + 1) * ms) };
}

/** The subscription as the API shows it at the instant `at` (the answer's one clock reading). */
export function subscriptionRecord(sub: SubscriptionRow, at: Date) {
  const anchored = sub.anchorAt ? { anchorAt: sub.anchorAt, periodSeconds: sub.periodSeconds } : null;
  const period = anchored && isLive(sub.status) ? currentPeriod(anchored, at) : null;
  // The plan of the period shown (an ended subscription: of its last period).
  const last = anchored && sub.status === 'ended' && sub.endedAt ? currentPeriod(anchored, new Date(Math.min(at.getTime(), sub.endedAt.getTime() - 1))).n : null;
  const shownPeriod = period?.n ?? last;
  const planId = shownPeriod === null ? sub.planId : planIdAt(sub, shownPeriod);
  const pendingPlanId = sub.pendingPlanId !== null && sub.pendingPlanId !== planId && sub.status !== 'ended' ? sub.pendingPlanId : null;
  return {
    id: sub.id,
    planId,
    pendingPlanId,
    /** When the pending plan takes over: the start of its first period. */
    pendingPlanFrom: pendingPlanId && anchored ? periodStart(anchored, sub.pendingPlanFrom ?? 1).toISOString() : null,
    status: sub.status,
    periodSeconds: sub.periodSeconds,
    startedAt: sub.anchorAt ? sub.anchorAt.toISOString() : null,
    currentPeriod: period ? { number: period.n, start: period.start.toISOString(), end: period.end.toISOString() } : null,
    cancelAt: sub.cancelAt ? sub.cancelAt.toISOString() : null,
    scheduleId: sub.scheduleId,
    createdAt: sub.createdAt.toISOString(),
    cancelledAt: sub.cancelledAt ? sub.cancelledAt.toISOString() : null,
    endedAt: sub.endedAt ? sub.endedAt.toISOString() : null,
  };
}

/**
 * Ends cancelled subscriptions whose period is over at `now` (and deletes their paused schedules):
 * the one place a running subscription ends. Called when the account reads its subscription and,
 * on time, by the end workflow that a cancel starts (workflows/subscription.workflow.ts).
 */
export async function settleEnded(deps: SettleDeps, userId: string, now: Date): Promise<void> {
  const due = await deps.db.subscription.findMany({ where: { userId, status: 'cancelled', cancelAt: { lte: now } } });
  for (const sub of due) {
    const ended = await deps.db.subscription.updateMany({ where: { id: sub.id, status: 'cancelled' }, data: { status: 'ended', endedAt: sub.cancelAt } });
    if (ended.count) await notify(deps.db, userId, { type: 'subscription.ended', subscriptionId: sub.id, planId: sub.planId }, { dedupeKey: `subscription:${sub.id}:ended` });
    if (sub.scheduleId) await deps.schedules.delete(sub.scheduleId);
  }
}

/** The account's running (active, past_due, or cancelled but not yet over) subscription at `now`, after settling ended ones. */
export async function liveSubscription(deps: SubscriptionDeps, userId: string, now: Date): Promise<SubscriptionRow | null> {
  await settleEnded(deps, userId, now);
  return deps.db.subscription.findFirst({ where: { userId, status: { in: [...LIVE_STATUSES] } } });
}

/**
 * Activates a pending subscription (a free plan at once; a paid plan when its payment succeeds)
 * and creates its schedule. Idempotent: an active one only gets its schedule ensured. A running
 * subscription on a free plan is replaced (it ends now: leaving a free plan owes nothing); any
 * other running subscription makes the activation a conflict.
 */
export async function activateSubscription(deps: SubscriptionDeps, subscriptionId: string, now: Date): Promise<SubscriptionRow> {
  const { db } = deps;
  // Whole seconds, so the interval offset is exact.
  const anchorAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const scheduleId = subscriptionIds.schedule(subscriptionId);
  const pending = await db.subscription.findUnique({ where: { id: subscriptionId } });
  if (pending?.status === 'pending') {
    const running = await db.subscription.findFirst({ where: { userId: pending.userId, id: { not: subscriptionId }, status: { in: [...LIVE_STATUSES] } } });
    if (running?.anchorAt && !isPaidPlan(deps.config, planIdAt(running, currentPeriod({ anchorAt: running.anchorAt, periodSeconds: running.periodSeconds }, now).n))) {
      await endFreeSubscriptionNow(deps, running.id, now);
    }
  }
  try {
    await db.subscription.updateMany({ where: { id: subscriptionId, status: 'pending' }, data: { status: 'active', anchorAt, scheduleId } });
  } catch (error) {
    // The one-live-subscription index: the account subscribed to something else meanwhile.
    if (sqlState(error) === '23505') await db.subscription.update({ where: { id: subscriptionId }, data: { status: 'ended', endedAt: now } });
    if (sqlState(error) !== '23505') throw error;
    throw new AppError('CONFLICT', 'The account already has a live subscription');
  }
  const sub = await db.subscription.findUnique({ where: { id: subscriptionId } });
  if (!sub) throw new AppError('NOT_FOUND', 'No subscription with that id');
  if (sub.status !== 'active' || !sub.anchorAt) return sub;
  await deps.schedules.ensure(sub);
  return sub;
}

/**
 * A free subscription replaced by a paid one: cancelled with cancelAt = now under its row lock (its
 * refills refuse every later period), then ended by settleEnded like any cancelled subscription.
 */
async function endFreeSubscriptionNow(deps: SubscriptionDeps, subscriptionId: string, now: Date): Promise<void> {
  const sub = await deps.db.$transaction(async (tx) => {
    const row = await lockSubscription(tx, subscriptionId);
    if (!row || !isLive(row.status) || !row.anchorAt) return row;
    const fold = foldPlan(row, currentPeriod({ anchorAt: row.anchorAt, periodSeconds: row.periodSeconds }, now).n);
    const cancelAt = row.cancelAt && row.cancelAt < now ? row.cancelAt : now;
    return tx.subscription.update({ where: { id: row.id }, data: { ...fold, status: 'cancelled', cancelAt, cancelledAt: row.cancelledAt ?? now } });
  });
  if (sub) await settleEnded(deps, sub.userId, now);
}

/**
 * Whether the provider bills this subscription itself at `now` (Stripe Billing on a paid plan): then
 * a cancel or a plan change must reach the provider before it is recorded here.
 */
function billedByProvider(deps: SubscriptionDeps, sub: SubscriptionRow, provider: PaymentProvider | undefined, now: Date): provider is PaymentProvider {
  if (!provider || provider.recurringCharges !== 'provider' || !sub.providerSubscriptionId || !sub.anchorAt) return false;
  return isPaidPlan(deps.config, planIdAt(sub, currentPeriod({ anchorAt: sub.anchorAt, periodSeconds: sub.periodSeconds }, now).n));
}

async function atProvider(call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (error) {
    throw new AppError('PAYMENT_PROVIDER_ERROR', `The payment provider refused the change: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'}`);
  }
}

/**
 * Cancel at period end: nothing is charged or granted from the end of the current period on. The
 * provider's own billing (Stripe) is stopped first, so a refused call changes nothing here. The
 * schedule is paused (it stays visible in the Temporal UI with the reason) and an end workflow
 * ends the subscription at cancelAt (settleEnded, which deletes the schedule).
 *
 * The period it ends is decided once: the row is locked, the clock read once, and `cancelAt` and
 * `cancelledAt` come from that reading (the route shows the record as of `cancelledAt`). The refill activity
 * locks the same row before it charges or grants (activities/subscriptions.ts), so a refill of the next
 * period either committed before this cancel (and the clock reading here is already in that
 * period) or sees `cancelAt` and refuses.
 */
export async function cancelSubscription(deps: SubscriptionDeps, subscriptionId: string, provider?: PaymentProvider): Promise<SubscriptionRow> {
  const before = await deps.db.subscription.findUnique({ where: { id: subscriptionId } });
  if (!before) throw new AppError('NOT_FOUND', 'No subscription to cancel');
  if ((before.status === 'active' || before.status === 'past_due') && billedByProvider(deps, before, provider, new Date())) {
    await atProvider(() => provider.cancelAtPeriodEnd({ providerSubscriptionId: before.providerSubscriptionId! }));
  }
  const outcome = await deps.db.$transaction(async (tx) => {
    const sub = await lockSubscription(tx, subscriptionId);
    if (!sub) throw new AppError('NOT_FOUND', 'No subscription to cancel');
    const now = new Date();
    if ((sub.status !== 'active' && sub.status !== 'past_due') || !sub.anchorAt) return { subscription: sub, changed: false };
    const { n, end } = currentPeriod({ anchorAt: sub.anchorAt, periodSeconds: sub.periodSeconds }, now);
    // A plan change already in force stays (it is this period's plan); one still to come is dropped.
    const cancelled = await tx.subscription.update({ where: { id: sub.id }, data: { ...foldPlan(sub, n), status: 'cancelled', cancelAt: end, cancelledAt: now } });
    return { subscription: cancelled, changed: true };
  });
  const sub = outcome.subscription;
  // A repeated cancel redoes what follows (each step is idempotent), so one that failed after its
  // commit (Temporal unreachable) is completed by the user's retry.
  if (!outcome.changed && (sub.status !== 'cancelled' || !sub.cancelAt)) return sub;
  const end = sub.cancelAt!;
  const at = sub.cancelledAt!;
  if (sub.scheduleId) await deps.schedules.pause(sub.scheduleId, `cancelled by the user at ${at.toISOString()}; ends ${end.toISOString()}`);
  // Ends it on time (a paused schedule fires nothing). Should this start be lost, the account's
  // next read of its subscription still ends it (settleEnded in liveSubscription).
  await deps.schedules.startEnd(sub, end);
  await notify(deps.db, sub.userId, { type: 'subscription.cancelled', subscriptionId: sub.id, planId: sub.planId, endsAt: end.toISOString() }, { dedupeKey: `subscription:${sub.id}:cancelled` });
  return sub;
}

/**
 * Changes the plan from the next period on, without proration (docs/billing.md): the period in
 * progress keeps its plan, its price and its credit; the next period is charged and granted at the
 * new plan. Where the provider bills the periods itself (Stripe), it is told first (the new price
 * from its next invoice, or no more invoices for a free plan), so a refused call changes nothing.
 *
 * Decided like a cancel: under the row lock, with one clock reading `at`, the change applies from
 * the period after the one containing `at`. A period's refill locks the same row, so it charges
 * either before the change (its period is then the current one here) or after it.
 */
export async function changePlan(deps: SubscriptionDeps, subscriptionId: string, plan: Plan, provider?: PaymentProvider): Promise<{ subscription: SubscriptionRow; at: Date }> {
  const before = await deps.db.subscription.findUnique({ where: { id: subscriptionId } });
  if (!before) throw new AppError('NOT_FOUND', 'No subscription: subscribe with POST /api/subscriptions');
  if (before.status !== 'active' && before.status !== 'past_due') throw new AppError('CONFLICT', 'The subscription is cancelled; it cannot change plan');
  if (billedByProvider(deps, before, provider, new Date())) {
    await atProvider(() => provider.changePlan({ providerSubscriptionId: before.providerSubscriptionId!, subscriptionId, plan, periodSeconds: before.periodSeconds }));
  }
  return deps.db.$transaction(async (tx) => {
    const sub = await lockSubscription(tx, subscriptionId);
    if (!sub) throw new AppError('NOT_FOUND', 'No subscription: subscribe with POST /api/subscriptions');
    if ((sub.status !== 'active' && sub.status !== 'past_due') || !sub.anchorAt) throw new AppError('CONFLICT', 'The subscription is cancelled; it cannot change plan');
    const at = new Date();
    const { n } = currentPeriod({ anchorAt: sub.anchorAt, periodSeconds: sub.periodSeconds }, at);
    const folded = foldPlan(sub, n);
    const data = plan.id === folded.planId ? folded : { ...folded, pendingPlanId: plan.id, pendingPlanFrom: n + 1 };
    return { subscription: await tx.subscription.update({ where: { id: sub.id }, data }), at };
  });
}
