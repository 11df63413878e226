/**
 * Request contracts of /api/notifications, /api/consent, /api/payments and /api/subscriptions.
 * Query strings → 400 on a broken rule (parseBody); JSON bodies → 422 listing every failed item.
 */
import { z } from 'zod';

/** GET /api/notifications?limit=&cursor=&unread= */
export const listNotificationsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
  unread: z.enum(['true', 'false']).optional(),
});

/** GET /api/payments?limit=&cursor= and other plain lists. */
export const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});

export const CONSENT_KINDS = ['terms', 'privacy', 'marketing'] as const;

/** POST /api/consent: grant or withdraw one kind. `version` defaults to the current document version. */
export const consentSchema = z.strictObject({
  kind: z.enum(CONSENT_KINDS),
  granted: z.boolean(),
  version: z.string().trim().min(1).max(40).optional(),
});

/** POST /api/payments */
export const createPaymentSchema = z.strictObject({
  packId: z.string().min(1).max(40),
});

/** POST /api/subscriptions, PATCH /api/subscriptions/current */
export const subscribeSchema = z.strictObject({
  planId: z.string().min(1).max(40),
});

/** POST /api/payments/:id/local-event (local provider only). */
export const localEventSchema = z.strictObject({
  outcome: z.enum(['succeeded', 'failed', 'refunded']),
});
