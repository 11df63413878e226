/**
 * Types of event webhooks that workflows carry (type-only: read inside Temporal's sandbox).
 */
import type { WebhookSpec } from './spec';

/** The retry schedule of a webhook delivery (WEBHOOK_RETRY_*, WEBHOOK_TIMEOUT_MS; docs/webhooks.md). */
export interface WebhookRetry {
  initialIntervalMs: number;
  maximumIntervalMs: number;
  /** Retries stop this long after the first attempt (24 h by default). */
  windowMs: number;
  attemptTimeoutMs: number;
}

/**
 * What a job asks to emit (workflows/webhook.workflow.ts `emitWebhookEvents`): a finished scrape
 * or flow run (its event is built from its row), or any event a later kind of job (a crawl)
 * builds itself. Each subject gets one event, however often this is asked.
 */
export type WebhookEventSource =
  | { kind: 'scrape_run'; id: string }
  | { kind: 'flow_run'; id: string; webhook?: WebhookSpec }
  | { kind: 'custom'; userId: string; type: string; subject: string; data: Record<string, unknown>; webhook?: WebhookSpec };
