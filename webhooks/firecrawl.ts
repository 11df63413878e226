/**
 * Firecrawl-shaped events of a compatible crawl or batch job (docs/firecrawl.md "Webhooks").
 *
 * A job started by the Firecrawl-compatible routes carries `webhook.firecrawl` (webhooks/spec.ts).
 * Its crawl workflow emits our events as for any crawl (`crawl.page`, `crawl.completed`,
 * `crawl.failed`: activities/crawl.ts); `emitEvents` hands the request's own target to this module,
 * which records the Firecrawl event instead (one per subject, as ours) and one delivery carrying the
 * caller's headers. Registered endpoints still receive our events.
 *
 * Body: `{success, type, id: <job id>, webhookId: <event id, the same on every retry>, data:
 * [document] | [], metadata: <webhook.metadata>, error?}`; types `crawl.started|page|completed|failed`
 * and `batch_scrape.started|page|completed|failed`. The delivery is signed as ours are
 * (`x-signature`, with the account's webhook secret) and also with Firecrawl's header
 * (`X-Firecrawl-Signature: sha256=<hex HMAC-SHA256 of the raw body>`, the same secret), so a
 * receiver written for Firecrawl verifies it unchanged.
 */
import type { FirecrawlWebhookTarget } from './spec';

/** `crawl.page` → `page`: the name a webhook's `events` lists. */
export function firecrawlEventType(kind: FirecrawlWebhookTarget['kind'], event: 'started' | 'page' | 'completed' | 'failed'): string {
  return `${kind === 'batch' ? 'batch_scrape' : 'crawl'}.${event}`;
}

/**
 * A succeeded page's document, as the job's status route answers it: the caller (the emitting
 * activity) hands in the compatible routes' mapper (scrape/firecrawl-document.ts
 * `firecrawlDocumentOfRun`), which this domain cannot import (the scrape domain imports this one).
 * Null when the run is not found.
 */
export type FirecrawlPageDocument = (runId: string, wanted: FirecrawlWebhookTarget['wanted']) => Promise<Record<string, unknown> | null>;

export interface FirecrawlEvent {
  type: string;
  body: Record<string, unknown>;
}

/**
 * The Firecrawl event for one of our crawl events (`type`, its `data`), or null when the webhook
 * does not want it. The body's `webhookId` is filled in when the event is recorded.
 */
export async function firecrawlEventOf(pageDocument: FirecrawlPageDocument, target: FirecrawlWebhookTarget, type: string, data: Record<string, unknown>): Promise<FirecrawlEvent | null> {
  const metadata = target.metadata;
  if (type === 'crawl.page') {
    if (!target.events.includes('page')) return null;
    const jobId = String(data.crawl_id);
    const fcType = firecrawlEventType(target.kind, 'page');
    if (data.status !== 'succeeded') {
      const error = (data.error ?? {}) as { message?: string };
      return { type: fcType, body: { success: false, type: fcType, id: jobId, data: [], metadata, error: error.message ?? 'the page could not be scraped' } };
    }
    const document = (await pageDocument(String(data.run_id), target.wanted)) ?? { metadata: { sourceURL: data.url, url: data.url, statusCode: data.http_status ?? 0 } };
    return { type: fcType, body: { success: true, type: fcType, id: jobId, data: [document], metadata } };
  }
  if (type === 'crawl.completed' || type === 'crawl.failed') {
    const event = type === 'crawl.completed' ? 'completed' : 'failed';
    if (!target.events.includes(event)) return null;
    const fcType = firecrawlEventType(target.kind, event);
    const error = (data.error ?? {}) as { message?: string };
    return { type: fcType, body: { success: event === 'completed', type: fcType, id: String(data.id), data: [], metadata, ...(event === 'failed' ? { error: error.message ?? 'the job failed' } : {}) } };
  }
  if (type === 'crawl.started') {
    if (!target.events.includes('started')) return null;
    const fcType = firecrawlEventType(target.kind, 'started');
    return { type: fcType, body: { success: true, type: fcType, id: String(data.id), data: [], metadata } };
  }
  return null;
}
