/**
 * The refill activity of subscriptions. Period n of a subscription covers
 * [anchorAt + n·period, anchorAt + (n+1)·period); n is derived from the schedule's scheduled time.
 * Refill policy: ADD the plan's allowance at the start of every period (credit carries over).
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Plan } from '../lib/config';
import { grantCredit } from '../lib/credit';
import type { Database } from '../lib/db';
import { AppError } from '../lib/errors';
import { notify } from '../lib/notifications';
import { type RefillActivityInput, type RefillOutcome, subscriptionPeriodKey } from '../workflows/definitions';

/**
 * The period a scheduled time falls in. The schedule's actions are scheduled exactly at period
 * starts (its interval is aligned with the anchor), so the quotient is exact; period 0 is not
 * derived at all (started explicitly at activation, whenever that action runs).
 */
export function periodAt(anchorAt: Date, periodSeconds: number, at: Date): number {
  return Math.floor((at.getTime() - anchorAt.getTime()) / (periodSeconds * 1000));
}

export function createSubscriptionActivities(deps: { db: Database; plans: Plan[] }) {
  const { db } = deps;
  return {
    async refillSubscription(input: RefillActivityInput): Promise<RefillOutcome> {
      const scheduledAt = new Date(input.scheduledAt);
      // The decision and the grant are one transaction holding the subscription's row lock, the
      // same lock a cancel takes (lib/subscriptions.ts cancelSubscription): a cancel either
      // committed first (its cancelAt is seen here) or waits until this period is granted.
      let decided: { outcome: RefillOutcome; notice?: { userId: string; planId: string; period: number; credits: number } };
      try {
        decided = await db.$transaction(async (tx) => {
          await tx.$queryRaw`SELECT 1 FROM subscription WHERE id = ${input.subscriptionId} FOR UPDATE`;
          const sub = await tx.subscription.findUnique({ where: { id: input.subscriptionId } });
          if (!sub) throw ApplicationFailure.nonRetryable(`No subscription ${input.subscriptionId}`, 'NOT_FOUND');
          if (!sub.anchorAt || (sub.status !== 'active' && sub.status !== 'cancelled')) return { outcome: { status: 'inactive' as const } };
          const period = input.period ?? periodAt(sub.anchorAt, sub.periodSeconds, scheduledAt);
          if (period < 0) return { outcome: { status: 'before-start' as const } };
          // From cancelAt on nothing is granted. Ending the subscription is left to settleEnded
          // (lib/subscriptions.ts), the one place that ends it, deletes its schedule and notifies.
          const periodStart = sub.anchorAt.getTime() + period * sub.periodSeconds * 1000;
          if (sub.cancelAt && periodStart >= sub.cancelAt.getTime()) return { outcome: { status: 'ended' as const } };
          // A plan change applies from the first period after it was made.
          let planId = sub.planId;
          if (sub.pendingPlanId && period > 0) {
            planId = sub.pendingPlanId;
            await tx.subscription.update({ where: { id: sub.id }, data: { planId, pendingPlanId: null } });
          }
          const plan = deps.plans.find((p) => p.id === planId);
          if (!plan) throw ApplicationFailure.nonRetryable(`Plan ${planId} is not configured (SUBSCRIPTION_PLANS)`, 'NOT_FOUND');
          if (plan.creditsPerPeriod <= 0) return { outcome: { status: 'no-allowance' as const, period } };
          const { applied } = await grantCredit(tx, {
            userId: sub.userId,
            amount: plan.creditsPerPeriod,
            idempotencyKey: subscriptionPeriodKey(sub.id, period),
            reason: 'grant',
            runId: sub.id,
          });
          return {
            outcome: { status: applied ? ('granted' as const) : ('already-granted' as const), period, credits: plan.creditsPerPeriod },
            notice: { userId: sub.userId, planId, period, credits: plan.creditsPerPeriod },
          };
        });
      } catch (error) {
        if (error instanceof AppError && error.status < 500) throw ApplicationFailure.nonRetryable(error.message, error.code);
        throw error;
      }
      // Notifications after the commit, each once by its dedupe key (a retried activity repeats none).
      const { notice } = decided;
      const subscriptionId = input.subscriptionId;
      if (notice) {
        const key = subscriptionPeriodKey(subscriptionId, notice.period);
        if (notice.period === 0) await notify(db, notice.userId, { type: 'subscription.activated', subscriptionId, planId: notice.planId }, { dedupeKey: key });
        else await notify(db, notice.userId, { type: 'subscription.renewed', subscriptionId, planId: notice.planId, period: notice.period, credits: notice.credits }, { dedupeKey: key });
      }
      return decided.outcome;
    },
  };
}
