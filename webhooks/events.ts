/**
 * Webhook events and their deliveries in PostgreSQL (docs/webhooks.md).
 *
 * `emitEvents` turns finished jobs into events (one per subject: the unique `subject` makes a
 * repeat find the first), and each event into deliveries: one per target (the request's own
 * `webhook`, each registered endpoint of the account that wants the type), unique by
 * `targetKey`, so asking twice creates nothing twice. The caller (a workflow) starts one
 * delivery workflow per returned id; the event's `id` and `body` never change afterwards, so a
 * retry or a redelivery sends the same bytes under a fresh signature timestamp.
 */
import { randomUUID } from 'node:crypto';
import { flowRunCreditsByNode } from '../accounts/credit';
import type { Database } from '../platform/db';
import { type FirecrawlPageDocument, firecrawlEventOf } from './firecrawl';
import { type WebhookSpec, wantsEvent } from './spec';
import type { WebhookEventSource } from './types';

export const newEventId = () => `evt_${randomUUID().replaceAll('-', '')}`;
export const newDeliveryId = () => `whd_${randomUUID().replaceAll('-', '')}`;

interface NewEvent {
  userId: string;
  type: string;
  subject: string;
  data: Record<string, unknown>;
  webhook?: WebhookSpec;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The event a finished scrape run makes; null while it runs (or cancelled: no event type). */
async function scrapeRunEvent(db: Database, id: string): Promise<NewEvent | null> {
  const run = await db.scrapeRun.findUnique({ where: { id } });
  if (!run || (run.status !== 'succeeded' && run.status !== 'failed')) return null;
  const request = (run.request ?? {}) as { webhook?: WebhookSpec };
  const stored = (run.result ?? {}) as { final_url?: string };
  const error = run.error as { code: string; message: string; refunded?: boolean } | null;
  const data: Record<string, unknown> = {
    object: 'scrape_run',
    id: run.id,
    url: run.url,
    mode: run.mode,
    status: run.status,
    http_status: run.httpStatus,
    final_url: run.status === 'succeeded' ? (stored.final_url ?? run.url) : null,
    attempts: run.attempts,
    cost: run.cost,
    elapsed_ms: run.elapsedMs,
    ...(error ? { error: { code: error.code, message: error.message, refunded: error.refunded ?? false } } : {}),
    created_at: iso(run.createdAt),
    finished_at: iso(run.finishedAt),
    links: { self: `/webhook/runs/${run.id}` },
    ...(request.webhook?.metadata ? { metadata: request.webhook.metadata } : {}),
  };
  return { userId: run.userId, type: run.status === 'succeeded' ? 'scrape.completed' : 'scrape.failed', subject: `scrape_run:${run.id}`, data, webhook: request.webhook };
}

async function flowRunEvent(db: Database, id: string, webhook: WebhookSpec | undefined): Promise<NewEvent | null> {
  const run = await db.flowRun.findUnique({ where: { id }, include: { flow: { select: { name: true } } } });
  if (!run || (run.status !== 'succeeded' && run.status !== 'failed')) return null;
  const credits = [...(await flowRunCreditsByNode(db, run.id)).values()].reduce((a, b) => a + b, 0);
  const error = run.error as { code: string; message: string } | null;
  const data: Record<string, unknown> = {
    object: 'flow_run',
    id: run.id,
    flow_id: run.flowId,
    flow_name: run.flow.name,
    flow_version: run.flowVersion,
    status: run.status,
    credits,
    ...(error ? { error: { code: error.code, message: error.message } } : {}),
    created_at: iso(run.createdAt),
    finished_at: iso(run.finishedAt),
    links: { self: `/flows/${run.flowId}/runs/${run.id}` },
    ...(webhook?.metadata ? { metadata: webhook.metadata } : {}),
  };
  return { userId: run.userId, type: run.status === 'succeeded' ? 'flow.run.completed' : 'flow.run.failed', subject: `flow_run:${run.id}`, data, webhook };
}

async function eventOf(db: Database, source: WebhookEventSource): Promise<NewEvent | null> {
  if (source.kind === 'scrape_run') return scrapeRunEvent(db, source.id);
  if (source.kind === 'flow_run') return flowRunEvent(db, source.id, source.webhook);
  return { userId: source.userId, type: source.type, subject: source.subject, data: source.data, webhook: source.webhook };
}

/** Without the compatible routes' mapper a page event carries only the page's URL and status. */
const noPageDocument: FirecrawlPageDocument = () => Promise.resolve(null);

/**
 * Records the events of `sources` and their deliveries (a Firecrawl-compatible job's page event
 * with the document `firecrawlPageDocument` makes); answers the ids of the deliveries to
 * start (those of an earlier call too: starting one twice is refused by its workflow id).
 */
export async function emitEvents(db: Database, sources: readonly WebhookEventSource[], firecrawlPageDocument: FirecrawlPageDocument = noPageDocument): Promise<string[]> {
  const deliveryIds: string[] = [];
  for (const source of sources) {
    const event = await eventOf(db, source);
    if (!event) continue;
    const endpoints = (await db.webhookEndpoint.findMany({ where: { userId: event.userId, deletedAt: null }, select: { id: true, url: true, events: true } })).filter((e) =>
      wantsEvent(e.events, event.type),
    );
    // A Firecrawl-compatible job's own webhook gets Firecrawl's event instead (webhooks/firecrawl.ts).
    if (event.webhook?.firecrawl) deliveryIds.push(...(await emitFirecrawlEvent(db, event, event.webhook, firecrawlPageDocument)));
    const targets = [
      ...(event.webhook && !event.webhook.firecrawl && wantsEvent(event.webhook.events, event.type) ? [{ key: 'request', endpointId: null, url: event.webhook.url }] : []),
      ...endpoints.map((e) => ({ key: e.id, endpointId: e.id, url: e.url })),
    ];
    if (targets.length === 0) continue;
    const id = newEventId();
    const body = JSON.stringify({ id, type: event.type, created_at: new Date().toISOString(), data: event.data });
    await db.webhookEvent.createMany({ data: [{ id, userId: event.userId, type: event.type, subject: event.subject, body }], skipDuplicates: true });
    const stored = await db.webhookEvent.findUniqueOrThrow({ where: { subject: event.subject }, select: { id: true } });
    const keyed = targets.map((t) => ({ ...t, targetKey: `${stored.id}|${t.key}` }));
    await db.webhookDelivery.createMany({
      data: keyed.map((t) => ({ id: newDeliveryId(), eventId: stored.id, userId: event.userId, endpointId: t.endpointId, url: t.url, targetKey: t.targetKey })),
      skipDuplicates: true,
    });
    const rows = await db.webhookDelivery.findMany({ where: { targetKey: { in: keyed.map((t) => t.targetKey) } }, select: { id: true } });
    deliveryIds.push(...rows.map((r) => r.id));
  }
  return deliveryIds;
}

/**
 * The Firecrawl event of `event` for a compatible job's webhook (subject `<ours>|firecrawl`, once),
 * and its one delivery, which carries the webhook's own headers; the delivery ids (none when the
 * webhook does not want this event).
 */
async function emitFirecrawlEvent(db: Database, event: NewEvent, webhook: WebhookSpec, pageDocument: FirecrawlPageDocument): Promise<string[]> {
  const target = webhook.firecrawl!;
  const made = await firecrawlEventOf(pageDocument, target, event.type, event.data);
  if (!made) return [];
  const subject = `${event.subject}|firecrawl`;
  const id = newEventId();
  const body = JSON.stringify({ ...made.body, webhookId: id });
  await db.webhookEvent.createMany({ data: [{ id, userId: event.userId, type: made.type, subject, body }], skipDuplicates: true });
  const stored = await db.webhookEvent.findUniqueOrThrow({ where: { subject }, select: { id: true } });
  const targetKey = `${stored.id}|request`;
  await db.webhookDelivery.createMany({
    data: [{ id: newDeliveryId(), eventId: stored.id, userId: event.userId, endpointId: null, url: webhook.url, targetKey, firecrawlHeaders: target.headers }],
    skipDuplicates: true,
  });
  const rows = await db.webhookDelivery.findMany({ where: { targetKey }, select: { id: true } });
  return rows.map((r) => r.id);
}

/**
 * `crawl.started` / `batch_scrape.started` of a compatible job (its route calls this once the job
 * is started; our own events have no such type, so only the Firecrawl webhook receives it).
 * Answers the deliveries to start.
 */
export async function emitFirecrawlStarted(db: Database, job: { userId: string; id: string; webhook: WebhookSpec }): Promise<string[]> {
  return emitFirecrawlEvent(db, { userId: job.userId, type: 'crawl.started', subject: `crawl:${job.id}:started`, data: { id: job.id } }, job.webhook, noPageDocument);
}

/** A new delivery of `deliveryId`'s event to the same target (the same event id and body). */
export async function createRedelivery(db: Database, deliveryId: string): Promise<{ id: string }> {
  const original = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
  return db.webhookDelivery.create({
    data: {
      id: newDeliveryId(),
      eventId: original.eventId,
      userId: original.userId,
      endpointId: original.endpointId,
      url: original.url,
      redeliveryOf: original.id,
      ...(original.firecrawlHeaders !== null ? { firecrawlHeaders: original.firecrawlHeaders } : {}),
    },
    select: { id: true },
  });
}
