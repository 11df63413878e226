/**
 * Event webhooks (docs/webhooks.md).
 *
 * `emitWebhookEvents(sources)` is the hook any job's workflow calls when it reaches a terminal
 * state (scrape batches, flow runs; crawls later): one local activity records the events and
 * their deliveries in PostgreSQL, then each delivery starts as a `webhookDeliveryWorkflow` of its
 * own (abandoned by the caller: it outlives a batch that ends at once). A job that emits nothing
 * never calls it, so it adds no step to a scrape without webhooks.
 *
 * `webhookDeliveryWorkflow` is one delivery: one activity, retried by Temporal's policy (the
 * backoff), for at most the retry window (24 h); durable across restarts of every process.
 * A receiver that never answers 2xx fails the delivery, never the job that emitted it.
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, proxyActivities, proxyLocalActivities, startChild } from '@temporalio/workflow';
import type { Activities } from './activities';
import { NON_RETRYABLE_CODES } from '../platform/errors';
import { type WebhookDeliveryWorkflowInput, workflowIds } from './definitions';
import type { WebhookEventSource } from '../webhooks/types';

const bookkeeping = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds', nonRetryableErrorTypes: [...NON_RETRYABLE_CODES] },
});

const remoteBookkeeping = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '5 seconds' },
});

/**
 * Records the events of `sources` and starts their deliveries. Retried while PostgreSQL does not
 * answer (an event is not lost); otherwise never throws for a webhook's sake: the job's outcome
 * and billing are recorded before, and a failure here changes neither.
 */
export async function emitWebhookEvents(sources: WebhookEventSource[]): Promise<void> {
  if (sources.length === 0) return;
  let emitted;
  try {
    emitted = await bookkeeping.emitWebhookEvents({ sources });
  } catch {
    return;
  }
  await Promise.all(
    emitted.deliveryIds.map(async (deliveryId) => {
      try {
        await startChild(webhookDeliveryWorkflow, {
          workflowId: workflowIds.webhookDelivery(deliveryId),
          taskQueue: emitted.taskQueue,
          parentClosePolicy: ParentClosePolicy.ABANDON,
          args: [{ deliveryId, retry: emitted.retry }],
        });
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    }),
  );
}

export async function webhookDeliveryWorkflow(input: WebhookDeliveryWorkflowInput): Promise<{ status: 'succeeded' | 'failed' }> {
  const { retry } = input;
  const deliver = proxyActivities<Activities>({
    startToCloseTimeout: retry.attemptTimeoutMs + 10_000,
    scheduleToCloseTimeout: retry.windowMs,
    retry: {
      initialInterval: retry.initialIntervalMs,
      backoffCoefficient: 2,
      maximumInterval: retry.maximumIntervalMs,
      nonRetryableErrorTypes: [...NON_RETRYABLE_CODES],
    },
  });
  try {
    await deliver.deliverWebhook({ deliveryId: input.deliveryId });
    return { status: 'succeeded' };
  } catch {
    await remoteBookkeeping.failWebhookDelivery({ deliveryId: input.deliveryId });
    return { status: 'failed' };
  }
}
