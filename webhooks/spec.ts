/**
 * Event webhooks, the client-safe part (docs/webhooks.md): event types and the `webhook` field a
 * request may carry (`{url, events?, metadata?}`), validated by the request's own schema. No
 * Node built-ins: the scrape request schema (scrape/request.ts) and workflows import it.
 */
import { z } from 'zod';
import { absoluteHttpUrl } from '../platform/zod-messages';

export const WEBHOOK_EVENT_TYPES = [
  'scrape.completed',
  'scrape.failed',
  'flow.run.completed',
  'flow.run.failed',
  'flow.input_required',
  'crawl.page',
  'crawl.completed',
  'crawl.failed',
  // Monitors (docs/monitors.md): to the account's endpoints only.
  'monitor.changed',
  'monitor.removed',
  'monitor.failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** A request's `metadata` is echoed in every event of the request: small on purpose. */
export const WEBHOOK_METADATA_MAX_BYTES = 4096;

export const webhookUrlSchema = absoluteHttpUrl(2048);

export const webhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }))
  .min(1, { error: 'must name at least one event type (leave it out for every type)' })
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((events) => [...new Set(events)]);

/** A request's own webhook: where its events go, which of them, and what they echo back. */
export const webhookSpecSchema = z.strictObject({
  url: webhookUrlSchema,
  events: webhookEventsSchema.optional(),
  metadata: z
    .record(z.string(), z.unknown())
    .refine((m) => JSON.stringify(m).length <= WEBHOOK_METADATA_MAX_BYTES, { error: `must be at most ${WEBHOOK_METADATA_MAX_BYTES} bytes as JSON` })
    .optional(),
});

/**
 * A Firecrawl-compatible job's webhook (api/firecrawl/, webhooks/firecrawl.ts): its events go to
 * `url` in Firecrawl's shape, with the caller's `headers`, instead of ours. Set by the compatible
 * routes only, never accepted from a request body (the schema above does not know it).
 */
export interface FirecrawlWebhookTarget {
  kind: 'crawl' | 'batch';
  headers: Record<string, string>;
  metadata: Record<string, unknown>;
  /** Firecrawl's event names wanted: `started`, `page`, `completed`, `failed`. */
  events: string[];
  /** The formats each page's document shows (the compatible scrape mapper's `WantedFormats`). */
  wanted: { formats: string[]; fullPage?: boolean; changeTrackingDiff?: boolean; keepBase64Images?: boolean };
}

export type WebhookSpec = z.output<typeof webhookSpecSchema> & { firecrawl?: FirecrawlWebhookTarget };

/** Whether an endpoint or request webhook listening to `events` (none = every type) wants `type`. */
export function wantsEvent(events: readonly string[] | undefined | null, type: string): boolean {
  return !events || events.length === 0 || events.includes(type);
}
