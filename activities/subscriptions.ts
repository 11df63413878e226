/**
 * The activities of subscriptions. Period n of a subscription covers
 * [anchorAt + n·period, anchorAt + (n+1)·period); n is derived from the schedule's scheduled time.
 * Refill policy: ADD the plan's allowance at the start of every period (credit carries over).
 * A paid plan's period is granted only once its payment has succeeded (billing/recurring.ts).
 */
import { ScheduleNotFoundError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { Context } from '@temporalio/activity';
import { type PeriodGrant, grantPeriod, inLife, lockSubscription, notifyPeriodGranted, periodAt, planIdAt } from '../billing/recurring';
import type { Plan } from '../platform/config';
import type { Database } from '../platform/db';
import { AppError } from '../platform/errors';
import type { PeriodCharger } from '../billing/payments/provider';
import { settleEnded } from '../billing/subscriptions';
import type { ChargePeriodInput, RefillActivityInput, RefillOutcome, SubscriptionEndInput } from '../workflows/definitions';

export function createSubscriptionActivities(deps: { db: Database; plans: Plan[]; provider?: PeriodCharger }) {
  const { db, provider } = deps;
  return {
    /**
     * Decides the period the schedule reached: a free plan's period is granted; a paid plan's is
     * granted if its payment succeeded, else its payment is created (`charge-due`: the workflow
     * asks the provider next) or awaited (its webhook grants it, billing/payments/service.ts).
     */
    async refillSubscription(input: RefillActivityInput): Promise<RefillOutcome> {
      const scheduledAt = new Date(input.scheduledAt);
      // The decision, the charge's record and the grant are one transaction holding the
      // subscription's row lock, the lock a cancel takes (billing/subscriptions.ts cancelSubscription):
      // a cancel either committed first (its cancelAt is seen here) or waits until this is decided.
      let decided: { outcome: RefillOutcome; grant?: PeriodGrant };
      try {
        decided = await db.$transaction(async (tx) => {
          const sub = await lockSubscription(tx, input.subscriptionId);
          if (!sub) throw ApplicationFailure.nonRetryable(`No subscription ${input.subscriptionId}`, 'NOT_FOUND');
          if (!sub.anchorAt || sub.status === 'pending') return { outcome: { status: 'inactive' as const } };
          // From cancelAt on nothing is charged or granted. Ending the subscription is left to
          // settleEnded (billing/subscriptions.ts), the one place that ends it, deletes its schedule and notifies.
          if (sub.cancelAt && scheduledAt.getTime() >= sub.cancelAt.getTime()) return { outcome: { status: 'ended' as const } };
          const period = periodAt(sub.anchorAt, sub.periodSeconds, scheduledAt);
          if (period < 0) return { outcome: { status: 'before-start' as const } };
          if (!inLife(sub, period)) return { outcome: { status: 'inactive' as const } };
          // A plan change applies from its dated period on (billing/recurring.ts planIdAt).
          const planId = planIdAt(sub, period);
          const plan = deps.plans.find((p) => p.id === planId);
          if (!plan) throw ApplicationFailure.nonRetryable(`Plan ${planId} is not configured (SUBSCRIPTION_PLANS)`, 'NOT_FOUND');

          if (plan.priceCents === 0) {
            if (plan.creditsPerPeriod <= 0) return { outcome: { status: 'no-allowance' as const, period } };
            const grant = await grantPeriod(tx, sub, period, planId, plan.creditsPerPeriod);
            return { outcome: { status: grant.applied ? ('granted' as const) : ('already-granted' as const), period, credits: plan.creditsPerPeriod }, grant };
          }

          // A paid period: one payment per period (unique), created here when the schedule
          // reaches it first, or by the provider's invoice when that came first (Stripe).
          let payment = await tx.payment.findFirst({ where: { subscriptionId: sub.id, period } });
          if (!payment) {
            if (!provider) throw ApplicationFailure.nonRetryable(`Period ${period} of subscription ${sub.id} cannot be charged: PAYMENT_PROVIDER=none`, 'PAYMENTS_UNAVAILABLE');
            payment = await tx.payment.create({
              data: {
                userId: sub.userId,
                provider: provider.name,
                purpose: 'subscription',
                planId,
                subscriptionId: sub.id,
                period,
                credits: plan.creditsPerPeriod,
                amountCents: plan.priceCents,
                currency: plan.currency,
              },
            });
          }
          const paymentId = payment.id;
          switch (payment.status) {
            case 'succeeded': {
              if (payment.credits <= 0) return { outcome: { status: 'no-allowance' as const, period } };
              const grant = await grantPeriod(tx, sub, period, payment.planId ?? planId, payment.credits);
              return { outcome: { status: grant.applied ? ('granted' as const) : ('already-granted' as const), period, credits: payment.credits }, grant };
            }
            case 'failed':
              return { outcome: { status: 'past-due' as const, period, paymentId } };
            case 'refunded':
              return { outcome: { status: 'refunded' as const, period, paymentId } };
            case 'pending': {
              // The service starts the charge where the provider does not bill on its own (local).
              const chargeDue = !payment.providerPaymentId && provider?.recurringCharges === 'service' && payment.provider === provider.name;
              return { outcome: { status: chargeDue ? ('charge-due' as const) : ('awaiting-payment' as const), period, paymentId } };
            }
          }
        });
      } catch (error) {
        if (error instanceof AppError && error.status < 500) throw ApplicationFailure.nonRetryable(error.message, error.code);
        throw error;
      }
      // Notifications after the commit, each once by its dedupe key (a retried activity repeats none).
      if (decided.grant) await notifyPeriodGranted(db, decided.grant);
      return decided.outcome;
    },

    /**
     * Asks the provider to charge a period's payment and records the provider's id. Idempotent: a
     * payment that already has its provider id, or is no longer pending, is left alone, and the
     * provider call is idempotent by payment id.
     */
    async chargeSubscriptionPeriod(input: ChargePeriodInput): Promise<{ providerPaymentId: string | null }> {
      const payment = await db.payment.findUnique({ where: { id: input.paymentId } });
      if (!payment || payment.period === null || !payment.subscriptionId) throw ApplicationFailure.nonRetryable(`No period payment ${input.paymentId}`, 'NOT_FOUND');
      if (payment.providerPaymentId || payment.status !== 'pending') return { providerPaymentId: payment.providerPaymentId };
      if (!provider || provider.name !== payment.provider || provider.recurringCharges !== 'service') {
        throw ApplicationFailure.nonRetryable(`Payment ${payment.id} is for provider ${payment.provider}, which does not take period charges here`, 'PAYMENTS_UNAVAILABLE');
      }
      const { providerPaymentId } = await provider.chargePeriod({
        paymentId: payment.id,
        subscriptionId: payment.subscriptionId,
        period: payment.period,
        amountCents: payment.amountCents,
        currency: payment.currency,
        description: `${payment.planId ?? 'plan'}, period ${payment.period}`,
      });
      await db.payment.updateMany({ where: { id: payment.id, providerPaymentId: null }, data: { providerPaymentId } });
      return { providerPaymentId };
    },

    /**
     * Ends a cancelled subscription at its cancelAt (the end workflow's timer fired then, by the
     * Temporal server's clock): settleEnded as of that instant, with the worker's own client to
     * delete the schedule. Anything else (not cancelled, already ended) is left alone.
     */
    async endSubscription(input: SubscriptionEndInput): Promise<{ status: string }> {
      const sub = await db.subscription.findUnique({ where: { id: input.subscriptionId } });
      if (!sub) return { status: 'missing' };
      if (sub.status !== 'cancelled' || !sub.cancelAt) return { status: sub.status };
      const schedules = {
        delete: (scheduleId: string) =>
          Context.current()
            .client.schedule.getHandle(scheduleId)
            .delete()
            .catch((error: unknown) => {
              if (!(error instanceof ScheduleNotFoundError)) throw error;
            }),
      };
      await settleEnded({ db, schedules }, sub.userId, sub.cancelAt);
      const after = await db.subscription.findUnique({ where: { id: sub.id }, select: { status: true } });
      return { status: after?.status ?? 'missing' };
    },
  };
}
