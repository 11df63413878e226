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

/** The period a scheduled time falls in (rounded: a scheduled action is at a period start). */
export function periodAt(anchorAt: Date, periodSeconds: number, at: Date): number {
  return Math.round((at.getTime() - anchorAt.getTime()) / (periodSeconds * 1000));
}

export function createSubscriptionActivities(deps: { db: Database; plans: Plan[] }) {
  const { db } = deps;
  return {
    async refillSubscription(input: RefillActivityInput): Promise<RefillOutcome> {
      const scheduledAt = new Date(input.scheduledAt);
      const sub = await db.subscription.findUnique({ where: { id: input.subscriptionId } });
      if (!sub) throw ApplicationFailure.nonRetryable(`No subscription ${input.subscriptionId}`, 'NOT_FOUND');
      if (!sub.anchorAt || (sub.status !== 'active' && sub.status !== 'cancelled')) return { status: 'inactive' };
      if (sub.cancelAt && scheduledAt.getTime() >= sub.cancelAt.getTime()) {
        const ended = await db.subscription.updateMany({ where: { id: sub.id, status: 'cancelled' }, data: { status: 'ended', endedAt: sub.cancelAt } });
        if (ended.count) await notify(db, sub.userId, { type: 'subscription.ended', subscriptionId: sub.id, planId: sub.planId }, { dedupeKey: `subscription:${sub.id}:ended` });
        return { status: 'ended' };
      }
      const period = periodAt(sub.anchorAt, sub.periodSeconds, scheduledAt);
      if (period < 0) return { status: 'before-start' };
      // A plan change applies from the first period after it was made.
      let planId = sub.planId;
      if (sub.pendingPlanId && period > 0) {
        planId = sub.pendingPlanId;
        await db.subscription.update({ where: { id: sub.id }, data: { planId, pendingPlanId: null } });
      }
      const plan = deps.plans.find((p) => p.id === planId);
      if (!plan) throw ApplicationFailure.nonRetryable(`Plan ${planId} is not configured (SUBSCRIPTION_PLANS)`, 'NOT_FOUND');
      if (plan.creditsPerPeriod <= 0) return { status: 'no-allowance', period };
      let applied: boolean;
      try {
        ({ applied } = await grantCredit(db, {
          userId: sub.userId,
          amount: plan.creditsPerPeriod,
          idempotencyKey: subscriptionPeriodKey(sub.id, period),
          reason: 'grant',
          runId: sub.id,
        }));
      } catch (error) {
        if (error instanceof AppError && error.status < 500) throw ApplicationFailure.nonRetryable(error.message, error.code);
        throw error;
      }
      const key = subscriptionPeriodKey(sub.id, period);
      if (period === 0) await notify(db, sub.userId, { type: 'subscription.activated', subscriptionId: sub.id, planId }, { dedupeKey: key });
      else await notify(db, sub.userId, { type: 'subscription.renewed', subscriptionId: sub.id, planId, period, credits: plan.creditsPerPeriod }, { dedupeKey: key });
      return { status: applied ? 'granted' : 'already-granted', period, credits: plan.creditsPerPeriod };
    },
  };
}
