/**
 * Activities of event webhooks (docs/webhooks.md). `emitWebhookEvents` records the events of
 * finished jobs and their deliveries (idempotent: one event per subject, one delivery per
 * target) and answers what to start; it runs wherever the job's workflow runs (a local
 * activity). `deliverWebhook` is one attempt, retried by the delivery workflow's Temporal
 * policy; `failWebhookDelivery` records a delivery whose retries are over.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Database } from '../platform/db';
import type { Logger } from '../platform/logger';
import { emitEvents } from '../webhooks/events';
import { SCRAPE_RUN_RECORD_SELECT, firecrawlDocumentOfRun } from '../scrape/firecrawl-document';
import type { WebhookSender } from '../webhooks/deliver';
import type { WebhookSettings } from '../webhooks/settings';
import type { EmittedWebhookEvents } from '../workflows/definitions';
import type { WebhookEventSource } from '../webhooks/types';

export interface WebhookEmitDeps {
  db: Database;
  logger: Logger;
  webhooks: Pick<WebhookSettings, 'retry'>;
  /** Task queue of delivery workflows (the main queue: worker processes run them). */
  webhookDeliveryQueue: string;
}

/** Registered beside every workflow that may emit (the batch workers, the main queue). */
export function createWebhookEmitActivities(deps: WebhookEmitDeps) {
  return {
    async emitWebhookEvents(input: { sources: WebhookEventSource[] }): Promise<EmittedWebhookEvents> {
      const deliveryIds = await emitEvents(deps.db, input.sources, async (runId, wanted) => {
        const run = await deps.db.scrapeRun.findUnique({ where: { id: runId }, select: SCRAPE_RUN_RECORD_SELECT });
        return run ? ((await firecrawlDocumentOfRun(deps.db, run, wanted)) as unknown as Record<string, unknown>) : null;
      });
      return { deliveryIds, taskQueue: deps.webhookDeliveryQueue, retry: deps.webhooks.retry };
    },
  };
}

/** The delivery activities: on the main queue (worker processes). */
export function createWebhookDeliveryActivities(deps: { sender: WebhookSender; logger: Logger }) {
  return {
    async deliverWebhook(input: { deliveryId: string }): Promise<{ statusCode: number }> {
      const ctx = Context.current();
      const outcome = await deps.sender.attempt(input.deliveryId, ctx.info.attempt, ctx.cancellationSignal);
      if (outcome.ok) return { statusCode: outcome.statusCode };
      // The URL is logged by host only elsewhere; never the secret or the signature.
      throw ApplicationFailure.create({ type: outcome.code, message: outcome.message, nonRetryable: outcome.final });
    },
    async failWebhookDelivery(input: { deliveryId: string }): Promise<void> {
      await deps.sender.fail(input.deliveryId);
    },
  };
}
