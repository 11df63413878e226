/**
 * Event webhooks of the account (docs/webhooks.md), session only:
 *   POST   /api/webhooks                      register an endpoint; its signing secret is in this answer only
 *   GET    /api/webhooks                      the account's endpoints (no secrets)
 *   DELETE /api/webhooks/:id                  delete one (it receives nothing more; its deliveries stay listed)
 *   GET    /api/webhooks/:id/deliveries       its deliveries, newest first, each with every attempt
 *   POST   /api/webhooks/:id/deliveries/:deliveryId/redeliver   the same event again (a new delivery)
 *   GET    /api/webhook-secret                the account's secret for per-request `webhook`s
 *   POST   /api/webhook-secret/rotate         a new one (the old stops signing at once)
 *   GET    /api/webhook-deliveries            every delivery of the account (per-request ones too)
 *   POST   /api/webhook-deliveries/:id/redeliver  redeliver any of them
 * Another account's endpoint or delivery → 403; unknown → 404 (the ownership rule, docs/api.md).
 */
import { z } from 'zod';
import type { Database } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { createRedelivery } from '../../webhooks/events';
import { accountSecret } from '../../webhooks/deliver';
import { encryptSecret, generateSigningSecret } from '../../webhooks/signing';
import { WEBHOOK_EVENT_TYPES, webhookEventsSchema, webhookUrlSchema } from '../../webhooks/spec';
import { type WebhookDeliveryWorkflowInput, workflowIds } from '../../workflows/definitions';
import { webhookDeliveryWorkflow } from '../../workflows/webhook.workflow';
import { ownedBy } from '../ownership';
import { type Route, badRequest, reply, route, unprocessable } from '../route-table';
import { listQuery } from '../schemas/account-functions';
import { NEWEST_FIRST, afterCursor, decodeCursor, page } from './pagination';
import { apiWebhooks } from '../webhooks';
import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../deps';

/** Most endpoints an account may register. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

const createEndpointSchema = z.strictObject({
  url: webhookUrlSchema,
  events: webhookEventsSchema.optional(),
  description: z.string().trim().max(500).optional(),
});

const endpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).meta({ description: 'Event types it receives; empty = every type.' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookEndpoint' });

const attemptSchema = z
  .object({
    attempt: z.int(),
    statusCode: z.int().nullable(),
    error: z.string().nullable(),
    durationMs: z.int(),
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookAttempt' });

const deliverySchema = z
  .object({
    id: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    endpointId: z.string().nullable(),
    url: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    redeliveryOf: z.string().nullable(),
    createdAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
    attempts: z.array(attemptSchema),
  })
  .meta({ id: 'WebhookDelivery' });

const deliveriesPage = z.object({ deliveries: z.array(deliverySchema), nextCursor: z.string().nullable() });

type EndpointRow = { id: string; url: string; description: string | null; events: string[]; createdAt: Date };
const endpointBody = (e: EndpointRow) => ({ id: e.id, url: e.url, description: e.description, events: e.events, createdAt: e.createdAt.toISOString() });

async function deliveryBodies(db: Database, rows: Array<{ id: string; eventId: string; endpointId: string | null; url: string; status: string; redeliveryOf: string | null; createdAt: Date; finishedAt: Date | null }>) {
  const ids = rows.map((r) => r.id);
  const [attempts, events] = await Promise.all([
    db.webhookAttempt.findMany({ where: { deliveryId: { in: ids } }, orderBy: [{ deliveryId: 'asc' }, { attempt: 'asc' }] }),
    db.webhookEvent.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.eventId))] } }, select: { id: true, type: true } }),
  ]);
  const typeOf = new Map(events.map((e) => [e.id, e.type]));
  return rows.map((r) => ({
    id: r.id,
    eventId: r.eventId,
    eventType: typeOf.get(r.eventId) ?? 'unknown',
    endpointId: r.endpointId,
    url: r.url,
    status: r.status,
    redeliveryOf: r.redeliveryOf,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    attempts: attempts
      .filter((a) => a.deliveryId === r.id)
      .map((a) => ({ attempt: a.attempt, statusCode: a.statusCode, error: a.error, durationMs: a.durationMs, startedAt: a.startedAt.toISOString(), finishedAt: a.finishedAt.toISOString() })),
  }));
}

export function webhookRouteTable(deps: AppDeps): Route[] {
  const context = webhookRouteContext(deps);
  return [...endpointRoutes(context), ...accountDeliveryRoutes(context), ...accountSecretRoutes(context)];
}

/** What the webhook routes share: the API's webhook settings, ownership, listing and redelivery. */
function webhookRouteContext(deps: AppDeps) {
  const { db } = deps;
  // Built on first use (a routes-only app for the document has no database or secret).
  const webhooks = {
    get settings() {
      return apiWebhooks(deps).settings;
    },
    get guard() {
      return apiWebhooks(deps).guard;
    },
    changed: (userId: string) => apiWebhooks(deps).changed(userId),
  };

  const ownEndpoint = async (id: string, userId: string) => ownedBy(await db.webhookEndpoint.findFirst({ where: { id, deletedAt: null } }), userId, 'webhook endpoint');

  async function listDeliveries(where: { userId: string; endpointId?: string }, query: { limit: number; cursor?: string }) {
    const cursor = decodeCursor(query.cursor);
    const rows = await db.webhookDelivery.findMany({ where: { ...where, ...afterCursor(cursor) }, orderBy: NEWEST_FIRST, take: query.limit + 1 });
    const { items, nextCursor } = page(rows, query.limit);
    return { deliveries: await deliveryBodies(db, items), nextCursor };
  }

  /** A new delivery of the same event to the same target, started at once (202). */
  async function redeliver(deliveryId: string) {
    const { id } = await createRedelivery(db, deliveryId);
    const client = await deps.temporal.get();
    const input: WebhookDeliveryWorkflowInput = { deliveryId: id, retry: webhooks.settings.retry };
    await client.workflow.start(webhookDeliveryWorkflow, { taskQueue: deps.queues.main, workflowId: workflowIds.webhookDelivery(id), args: [input] });
    const [body] = await deliveryBodies(db, [await db.webhookDelivery.findUniqueOrThrow({ where: { id } })]);
    return reply(202, body);
  }

  return { db, webhooks, ownEndpoint, listDeliveries, redeliver };
}

type WebhookRouteContext = ReturnType<typeof webhookRouteContext>;

/** The account's endpoints: register, list, delete; an endpoint's deliveries and their redelivery. */
function endpointRoutes({ db, webhooks, ownEndpoint, listDeliveries, redeliver }: WebhookRouteContext): Route[] {
  return [
    route({
      method: 'post',
      path: '/api/webhooks',
      credential: 'session',
      tag: 'webhooks',
      summary: 'Register a webhook endpoint; the answer shows its signing secret, the only time it is shown',
      body: unprocessable(createEndpointSchema, { url: 'https://example.com/hooks/scrape', events: ['scrape.completed', 'scrape.failed'], description: 'our ingest' }),
      responses: { 201: endpointSchema.extend({ secret: z.string().meta({ description: 'HMAC-SHA256 signing secret (`whsec_…`): shown once.' }) }) },
      errors: ['VALIDATION_FAILED', 'BAD_REQUEST', 'INVALID_URL', 'PRIVATE_TARGET', 'BLACKLISTED', 'CONFLICT'],
      handler: async ({ auth: { userId }, body }) => {
        await webhooks.guard.check(body.url);
        if ((await db.webhookEndpoint.count({ where: { userId, deletedAt: null } })) >= MAX_WEBHOOK_ENDPOINTS) {
          throw new AppError('CONFLICT', `An account may have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first`);
        }
        const secret = generateSigningSecret();
        const created = await db.webhookEndpoint.create({
          data: {
            id: `we_${randomUUID().replaceAll('-', '')}`,
            userId,
            url: body.url,
            description: body.description ?? null,
            events: body.events ?? [],
            secretCiphertext: encryptSecret(webhooks.settings.secretKey, secret),
          },
        });
        webhooks.changed(userId);
        return reply(201, { ...endpointBody(created), secret });
      },
    }),
    route({
      method: 'get',
      path: '/api/webhooks',
      credential: 'session',
      tag: 'webhooks',
      summary: "The account's webhook endpoints (without their secrets)",
      responses: { 200: z.object({ endpoints: z.array(endpointSchema) }) },
      errors: [],
      handler: async ({ auth: { userId } }) => {
        const rows = await db.webhookEndpoint.findMany({ where: { userId, deletedAt: null }, orderBy: NEWEST_FIRST });
        return reply(200, { endpoints: rows.map(endpointBody) });
      },
    }),
    route({
      method: 'delete',
      path: '/api/webhooks/:id',
      params: ['id'],
      credential: 'session',
      tag: 'webhooks',
      summary: 'Delete an endpoint: it receives nothing more (pending retries stop); its deliveries stay listed',
      responses: { 204: null },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth: { userId }, params }) => {
        await ownEndpoint(params.id, userId);
        await db.webhookEndpoint.updateMany({ where: { id: params.id, deletedAt: null }, data: { deletedAt: new Date() } });
        webhooks.changed(userId);
        return reply(204);
      },
    }),
    route({
      method: 'get',
      path: '/api/webhooks/:id/deliveries',
      params: ['id'],
      credential: 'session',
      tag: 'webhooks',
      summary: "An endpoint's deliveries, newest first, each with every attempt (status code, error, duration, times)",
      query: badRequest(listQuery),
      responses: { 200: deliveriesPage },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'BAD_REQUEST'],
      handler: async ({ auth: { userId }, params, query }) => {
        // A deleted endpoint's deliveries stay readable by its owner.
        ownedBy(await db.webhookEndpoint.findUnique({ where: { id: params.id } }), userId, 'webhook endpoint');
        return reply(200, await listDeliveries({ userId, endpointId: params.id }, query));
      },
    }),
    route({
      method: 'post',
      path: '/api/webhooks/:id/deliveries/:deliveryId/redeliver',
      params: ['id', 'deliveryId'],
      credential: 'session',
      tag: 'webhooks',
      summary: 'Deliver the same event (same id and body) to the endpoint again: a new delivery, retried as any other (202)',
      responses: { 202: deliverySchema },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth: { userId }, params }) => {
        await ownEndpoint(params.id, userId);
        const delivery = await db.webhookDelivery.findUnique({ where: { id: params.deliveryId } });
        if (!delivery || delivery.endpointId !== params.id) {
          if (delivery && delivery.userId !== userId) throw new AppError('FORBIDDEN', 'That delivery belongs to another account');
          throw new AppError('NOT_FOUND', 'No delivery with that id for this endpoint');
        }
        return redeliver(delivery.id);
      },
    }),
  ];
}

/** Every delivery of the account (per-request `webhook`s too), and their redelivery. */
function accountDeliveryRoutes({ db, listDeliveries, redeliver }: WebhookRouteContext): Route[] {
  return [
    route({
      method: 'get',
      path: '/api/webhook-deliveries',
      credential: 'session',
      tag: 'webhooks',
      summary: "Every delivery of the account's events, newest first (those to a request's own `webhook` too)",
      query: badRequest(listQuery),
      responses: { 200: deliveriesPage },
      errors: ['BAD_REQUEST'],
      handler: async ({ auth: { userId }, query }) => reply(200, await listDeliveries({ userId }, query)),
    }),
    route({
      method: 'post',
      path: '/api/webhook-deliveries/:id/redeliver',
      params: ['id'],
      credential: 'session',
      tag: 'webhooks',
      summary: 'Deliver the same event to the same URL again (any delivery of the account; 202)',
      responses: { 202: deliverySchema },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'CONFLICT'],
      handler: async ({ auth: { userId }, params }) => {
        const delivery = ownedBy(await db.webhookDelivery.findUnique({ where: { id: params.id } }), userId, 'delivery');
        if (delivery.endpointId !== null) {
          const endpoint = await db.webhookEndpoint.findUnique({ where: { id: delivery.endpointId } });
          if (!endpoint || endpoint.deletedAt) throw new AppError('CONFLICT', 'The endpoint of that delivery was deleted');
        }
        return redeliver(delivery.id);
      },
    }),
  ];
}

/** The account's signing secret of per-request `webhook` deliveries. */
function accountSecretRoutes({ db, webhooks }: WebhookRouteContext): Route[] {
  return [
    route({
      method: 'get',
      path: '/api/webhook-secret',
      credential: 'session',
      tag: 'webhooks',
      summary: "The account's signing secret of per-request `webhook` deliveries (created on first use)",
      responses: { 200: z.object({ secret: z.string() }) },
      errors: [],
      handler: async ({ auth: { userId } }) => reply(200, { secret: await accountSecret(db, webhooks.settings.secretKey, userId) }),
    }),
    route({
      method: 'post',
      path: '/api/webhook-secret/rotate',
      credential: 'session',
      tag: 'webhooks',
      summary: "Replace the account's per-request signing secret (deliveries from now on are signed with the new one)",
      responses: { 200: z.object({ secret: z.string() }) },
      errors: [],
      handler: async ({ auth: { userId } }) => {
        const secret = generateSigningSecret();
        const secretCiphertext = encryptSecret(webhooks.settings.secretKey, secret);
        await db.webhookAccountSecret.upsert({ where: { userId }, create: { userId, secretCiphertext }, update: { secretCiphertext, createdAt: new Date() } });
        return reply(200, { secret });
      },
    }),
  ];
}
