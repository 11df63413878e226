import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import { proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from './activities';
import { NON_RETRYABLE_CODES } from '../platform/errors';
import type { RefillOutcome, SubscriptionEndInput, SubscriptionRefillInput } from './definitions';

const { refillSubscription, chargeSubscriptionPeriod, endSubscription } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: [...NON_RETRYABLE_CODES] },
});

/** Set by the server on every workflow a Schedule starts: the time the action was scheduled for. */
const SCHEDULED_START = defineSearchAttributeKey('TemporalScheduledStartTime', SearchAttributeType.DATETIME);

/**
 * The action of a subscription's Schedule: the period the action was SCHEDULED for. A late start
 * (a worker was down, a catch-up) or a retried activity handles the same period, never the next
 * one, and never twice (one ledger key and one payment per period).
 *
 * A free plan's period is granted at once. A paid plan's period is charged first: when the
 * service starts the charges (the local provider), the refill records the period's payment and
 * this asks the provider to charge it; the payment's webhook then grants the period. Waiting for
 * that webhook here would gain nothing: a failed charge may be retried days later (Stripe's
 * retries), longer than this run should last, and the webhook grants under the same row lock.
 */
export async function subscriptionRefillWorkflow(input: SubscriptionRefillInput): Promise<RefillOutcome> {
  const info = workflowInfo();
  const scheduled = info.typedSearchAttributes.get(SCHEDULED_START) ?? info.startTime;
  const outcome = await refillSubscription({ subscriptionId: input.subscriptionId, scheduledAt: scheduled.toISOString() });
  if (outcome.status !== 'charge-due') return outcome;
  await chargeSubscriptionPeriod({ paymentId: outcome.paymentId });
  return { status: 'awaiting-payment', period: outcome.period, paymentId: outcome.paymentId };
}

/**
 * Started by a cancel: ends the subscription at cancelAt, since its paused schedule fires nothing
 * then. A durable timer, so a worker or server restart in between changes nothing; ending itself
 * is settleEnded's (the activity), which also deletes the schedule and notifies.
 */
export async function subscriptionEndWorkflow(input: SubscriptionEndInput): Promise<{ status: string }> {
  const wait = Date.parse(input.endsAt) - Date.now();
  if (wait > 0) await sleep(wait);
  return endSubscription(input);
}
