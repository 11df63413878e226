/**
 * The `webhook` of a Firecrawl-compatible crawl or batch job (docs/firecrawl.md "Webhooks"): kept
 * as the native job's `webhook` (so the native checks apply to its URL: the webhook target guard,
 * private targets refused unless WEBHOOK_PRIVATE_ALLOWLIST names them) with the Firecrawl part
 * beside it (`firecrawl`), which makes the worker send Firecrawl's events there instead of ours
 * (webhooks/firecrawl.ts). `crawl.started` is sent from here, once the job is started: the crawl
 * workflow has no such event of its own.
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { CrawlRow } from '../../crawl/store';
import { emitFirecrawlStarted } from '../../webhooks/events';
import type { FirecrawlWebhookTarget, WebhookSpec } from '../../webhooks/spec';
import { type WebhookDeliveryWorkflowInput, workflowIds } from '../../workflows/definitions';
import { apiWebhooks } from '../webhooks';
import type { AppDeps } from '../deps';
import type { FirecrawlWebhook } from './crawl-request';

/** The native `webhook` of a compatible job. */
export function firecrawlJobWebhook(webhook: FirecrawlWebhook, kind: FirecrawlWebhookTarget['kind'], wanted: unknown): WebhookSpec {
  const { formats, fullPage, changeTrackingDiff, keepBase64Images } = (wanted ?? {}) as { formats?: unknown; fullPage?: unknown; changeTrackingDiff?: unknown; keepBase64Images?: unknown };
  return {
    url: webhook.url,
    firecrawl: {
      kind,
      headers: webhook.headers,
      metadata: webhook.metadata,
      events: webhook.events,
      wanted: {
        formats: Array.isArray(formats) ? formats.map(String) : ['markdown'],
        ...(fullPage === true ? { fullPage: true } : {}),
        ...(changeTrackingDiff === true ? { changeTrackingDiff: true } : {}),
        ...(keepBase64Images === true ? { keepBase64Images: true } : {}),
      },
    },
  };
}

export interface FirecrawlJobEvents {
  /** Records the job's started event (when its webhook wants it) and starts its delivery. */
  started(crawl: CrawlRow): Promise<void>;
}

export function firecrawlJobEvents(deps: AppDeps): FirecrawlJobEvents {
  return {
    async started(crawl) {
      const webhook = (crawl.request as { webhook?: WebhookSpec }).webhook;
      if (!webhook?.firecrawl) return;
      const deliveryIds = await emitFirecrawlStarted(deps.db, { userId: crawl.userId, id: crawl.id, webhook });
      if (deliveryIds.length === 0) return;
      const client = await deps.temporal.get();
      const retry = apiWebhooks(deps).settings.retry;
      for (const deliveryId of deliveryIds) {
        const input: WebhookDeliveryWorkflowInput = { deliveryId, retry };
        await client.workflow
          .start('webhookDeliveryWorkflow', { taskQueue: deps.queues.main, workflowId: workflowIds.webhookDelivery(deliveryId), args: [input] })
          .catch((error: unknown) => {
            if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
          });
      }
    },
  };
}
