/**
 * One attempt of one webhook delivery (docs/webhooks.md): the SSRF guard and blacklist on the
 * URL (again at connect time), the signed POST of the event's stored body, the attempt recorded
 * whatever happened. Redirects are not followed (a 3xx is a failed attempt, as with Stripe):
 * a receiver's URL is configured, not discovered.
 */
import { Agent, request } from 'undici';
import type { Database } from '../platform/db';
import { AppError, type ErrorCode } from '../platform/errors';
import { FIRECRAWL_SIGNATURE_HEADER, decryptSecret, encryptSecret, firecrawlSignature, generateSigningSecret, signatureHeader, SIGNATURE_HEADER } from './signing';
import type { WebhookGuard, WebhookSettings } from './settings';

export const WEBHOOK_USER_AGENT = 'scrape-api-webhooks/1';
/** A receiver's answer is read (and dropped) up to this many bytes; the rest is not waited for. */
const MAX_ANSWER_BYTES = 64 * 1024;

export type AttemptOutcome =
  | { ok: true; statusCode: number }
  /** `final`: no retry can help (the URL is refused by the guard, the endpoint was deleted). */
  | { ok: false; final: boolean; code: ErrorCode; message: string; statusCode?: number };

/** The account's secret for per-request webhooks, created on first use. */
export async function accountSecret(db: Database, key: Buffer, userId: string): Promise<string> {
  await db.webhookAccountSecret.createMany({ data: [{ userId, secretCiphertext: encryptSecret(key, generateSigningSecret()) }], skipDuplicates: true });
  const row = await db.webhookAccountSecret.findUniqueOrThrow({ where: { userId } });
  return decryptSecret(key, row.secretCiphertext);
}

/**
 * Opens a Firecrawl webhook's own header values, sealed at rest (sessions/request-secrets.ts
 * `unsealHeaderValues`, given by the worker: this folder stays below sessions/).
 */
export type OpenWebhookHeaders = (userId: string, headers: Record<string, unknown>) => Record<string, string>;

export function createWebhookSender(deps: { db: Database; settings: WebhookSettings; guard: WebhookGuard; openHeaders: OpenWebhookHeaders }) {
  const { db, settings, guard, openHeaders } = deps;
  const agent = new Agent({
    connections: 16,
    keepAliveTimeout: 5_000,
    connect: { timeout: settings.retry.attemptTimeoutMs, lookup: guard.lookup },
  });

  async function secretFor(delivery: { userId: string; endpointId: string | null }): Promise<string | AttemptOutcome> {
    if (delivery.endpointId === null) return accountSecret(db, settings.secretKey, delivery.userId);
    const endpoint = await db.webhookEndpoint.findUnique({ where: { id: delivery.endpointId } });
    if (!endpoint || endpoint.deletedAt) return { ok: false, final: true, code: 'NOT_FOUND', message: 'the endpoint was deleted' };
    return decryptSecret(settings.secretKey, endpoint.secretCiphertext);
  }

  /** A Firecrawl webhook's own headers, opened; one that does not open fails the delivery for good (it never will). */
  function openFirecrawlHeaders(delivery: { userId: string; firecrawlHeaders: unknown }): { headers: Record<string, string> | undefined } | AttemptOutcome {
    const stored = delivery.firecrawlHeaders;
    if (stored === null || typeof stored !== 'object') return { headers: undefined };
    try {
      return { headers: openHeaders(delivery.userId, stored as Record<string, unknown>) };
    } catch (error) {
      if (error instanceof AppError) return { ok: false, final: true, code: error.code, message: error.message };
      throw error;
    }
  }

  async function post(url: string, body: string, secret: string, headers: Record<string, string>, signal?: AbortSignal, firecrawlHeaders?: Record<string, string>): Promise<AttemptOutcome> {
    try {
      await guard.check(url);
    } catch (error) {
      // A name that does not resolve (today) may resolve later: retried; a refused URL is final.
      if (error instanceof AppError) return error.code === 'BAD_REQUEST' ? { ok: false, final: false, code: 'WEBHOOK_DELIVERY_FAILED', message: error.message } : { ok: false, final: true, code: error.code, message: error.message };
      throw error;
    }
    const timeout = AbortSignal.timeout(settings.retry.attemptTimeoutMs);
    try {
      const answer = await request(url, {
        method: 'POST',
        dispatcher: agent,
        body,
        headers: {
          // A Firecrawl webhook's own headers first: ours (content type, signatures) are never replaced by them.
          ...(firecrawlHeaders ?? {}),
          'content-type': 'application/json',
          'user-agent': WEBHOOK_USER_AGENT,
          ...headers,
          [SIGNATURE_HEADER]: signatureHeader(secret, body, Math.floor(Date.now() / 1000)),
          ...(firecrawlHeaders ? { [FIRECRAWL_SIGNATURE_HEADER]: firecrawlSignature(secret, body) } : {}),
        },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        headersTimeout: settings.retry.attemptTimeoutMs,
        bodyTimeout: settings.retry.attemptTimeoutMs,
      });
      await answer.body.dump({ limit: MAX_ANSWER_BYTES }).catch(() => undefined);
      if (answer.statusCode >= 200 && answer.statusCode < 300) return { ok: true, statusCode: answer.statusCode };
      return { ok: false, final: false, code: 'WEBHOOK_DELIVERY_FAILED', message: `the receiver answered HTTP ${answer.statusCode}`, statusCode: answer.statusCode };
    } catch (error) {
      if (error instanceof AppError) return { ok: false, final: error.code === 'PRIVATE_TARGET' || error.code === 'BLACKLISTED', code: error.code, message: error.message };
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof AppError) return { ok: false, final: cause.code === 'PRIVATE_TARGET', code: cause.code, message: cause.message };
      const message = timeout.aborted ? `no answer within ${settings.retry.attemptTimeoutMs} ms` : error instanceof Error ? `${(error as { code?: string }).code ?? error.name}: ${error.message}` : String(error);
      return { ok: false, final: false, code: 'WEBHOOK_DELIVERY_FAILED', message };
    }
  }

  return {
    /** Attempt `attempt` of a delivery, recorded; a finished delivery is not sent again. */
    async attempt(deliveryId: string, attempt: number, signal?: AbortSignal): Promise<AttemptOutcome> {
      const delivery = await db.webhookDelivery.findUnique({ where: { id: deliveryId } });
      if (!delivery) return { ok: false, final: true, code: 'NOT_FOUND', message: 'no such delivery' };
      if (delivery.status === 'succeeded') return { ok: true, statusCode: 200 };
      const event = await db.webhookEvent.findUniqueOrThrow({ where: { id: delivery.eventId } });
      const startedAt = new Date();
      const started = performance.now();
      const opened = openFirecrawlHeaders(delivery);
      const secret = 'headers' in opened ? await secretFor(delivery) : opened;
      const outcome =
        typeof secret === 'string'
          ? await post(
              delivery.url,
              event.body,
              secret,
              { 'x-webhook-event-id': event.id, 'x-webhook-delivery-id': delivery.id, 'x-webhook-attempt': String(attempt) },
              signal,
              'headers' in opened ? opened.headers : undefined,
            )
          : secret;
      const finishedAt = new Date();
      const row = {
        statusCode: outcome.statusCode ?? null,
        error: outcome.ok ? null : `${outcome.code}: ${outcome.message}`.slice(0, 1000),
        durationMs: Math.round(performance.now() - started),
        startedAt,
        finishedAt,
      };
      await db.webhookAttempt.upsert({ where: { deliveryId_attempt: { deliveryId, attempt } }, create: { deliveryId, attempt, ...row }, update: row });
      await db.$executeRaw`UPDATE webhook_delivery SET attempts = GREATEST(attempts, ${attempt}),
        status = CASE WHEN ${outcome.ok} THEN 'succeeded' ELSE status END,
        "finishedAt" = CASE WHEN ${outcome.ok} THEN now() ELSE "finishedAt" END
        WHERE id = ${deliveryId} AND status = 'pending'`;
      return outcome;
    },

    /** Every attempt failed (or the last was final): the delivery is recorded failed. */
    async fail(deliveryId: string): Promise<void> {
      await db.webhookDelivery.updateMany({ where: { id: deliveryId, status: 'pending' }, data: { status: 'failed', finishedAt: new Date() } });
    },

    close: () => agent.close(),
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
