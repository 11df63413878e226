import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { RefillOutcome, SubscriptionRefillInput } from './definitions';

const { refillSubscription } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: ['NOT_FOUND', 'IDEMPOTENCY_CONFLICT'] },
});

/** Set by the server on every workflow a Schedule starts: the time the action was scheduled for. */
const SCHEDULED_START = defineSearchAttributeKey('TemporalScheduledStartTime', SearchAttributeType.DATETIME);

/**
 * The action of a subscription's Schedule: refill the credit of the period the action was
 * SCHEDULED for. A late start (a worker was down, a catch-up) or a retried activity refills the
 * same period, never the next one, and never twice (the ledger key is per period).
 */
export async function subscriptionRefillWorkflow(input: SubscriptionRefillInput): Promise<RefillOutcome> {
  const info = workflowInfo();
  const scheduled = info.typedSearchAttributes.get(SCHEDULED_START) ?? info.startTime;
  return refillSubscription({ subscriptionId: input.subscriptionId, scheduledAt: scheduled.toISOString(), period: input.period });
}
