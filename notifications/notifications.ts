/**
 * Notifications: created by events, listed in the dashboard (/api/notifications), optionally
 * delivered beyond the in-app list (e-mail) through one `NotificationDelivery` interface.
 *
 * `notify` is idempotent by `dedupeKey` (a unique column): an activity or webhook that is
 * replayed calls it again with the same key and nothing new is stored or delivered. Delivery is
 * best effort: it runs only for a newly stored notification, and its failure is logged, never
 * thrown (the event that caused the notification has already happened).
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../platform/db';
import type { Logger } from '../platform/logger';

/** Every event that notifies a user. A discriminated union on `type`. */
export type NotificationEvent =
  | { type: 'credit.low'; balance: number; threshold: number }
  | { type: 'payment.succeeded'; paymentId: string; credits: number; amountCents: number; currency: string }
  | { type: 'payment.failed'; paymentId: string; reason?: string }
  | { type: 'payment.refunded'; paymentId: string; credits: number }
  | { type: 'subscription.activated'; subscriptionId: string; planId: string }
  | { type: 'subscription.renewed'; subscriptionId: string; planId: string; period: number; credits: number }
  | { type: 'subscription.past_due'; subscriptionId: string; planId: string; period: number; paymentId: string; reason?: string }
  | { type: 'subscription.recovered'; subscriptionId: string; planId: string; period: number }
  | { type: 'subscription.cancelled'; subscriptionId: string; planId: string; endsAt: string }
  | { type: 'subscription.ended'; subscriptionId: string; planId: string }
  | { type: 'flow.run.succeeded'; flowId: string; runId: string; flowName?: string; credits?: number }
  | { type: 'flow.run.failed'; flowId: string; runId: string; flowName?: string; error?: string }
  | { type: 'flow.input_required'; flowId: string; runId: string; flowName?: string; node: string; prompt: string; expiresAt: string; answer: string; dashboard: string }
  | { type: 'key.revoked'; apiKeyId: string; name: string | null };

export type NotificationType = NotificationEvent['type'];

export const NOTIFICATION_TYPES: readonly NotificationType[] = [
  'credit.low',
  'payment.succeeded',
  'payment.failed',
  'payment.refunded',
  'subscription.activated',
  'subscription.renewed',
  'subscription.past_due',
  'subscription.recovered',
  'subscription.cancelled',
  'subscription.ended',
  'flow.run.succeeded',
  'flow.run.failed',
  'flow.input_required',
  'key.revoked',
];

/** One line for the list and the e-mail subject. */
export function notificationTitle(event: NotificationEvent): string {
  switch (event.type) {
    case 'credit.low':
      return `Your credit is low: ${event.balance} left`;
    case 'payment.succeeded':
      return `Payment received: ${event.credits} credits added`;
    case 'payment.failed':
      return 'A payment failed';
    case 'payment.refunded':
      return 'A payment was refunded';
    case 'subscription.activated':
      return `Subscription to ${event.planId} started`;
    case 'subscription.renewed':
      return `Subscription renewed: ${event.credits} credits added`;
    case 'subscription.past_due':
      return `Payment for your ${event.planId} plan failed: no credit for this period until it is paid`;
    case 'subscription.recovered':
      return `Subscription payment received: your ${event.planId} plan is active again`;
    case 'subscription.cancelled':
      return `Subscription cancelled; it ends on ${event.endsAt}`;
    case 'subscription.ended':
      return 'Your subscription has ended';
    case 'flow.run.succeeded':
      return `Flow run finished${event.flowName ? `: ${event.flowName}` : ''}`;
    case 'flow.run.failed':
      return `Flow run failed${event.flowName ? `: ${event.flowName}` : ''}`;
    case 'flow.input_required':
      return `A flow run is waiting for your answer${event.flowName ? `: ${event.flowName}` : ''}: ${event.prompt.length > 120 ? `${event.prompt.slice(0, 117)}...` : event.prompt}`;
    case 'key.revoked':
      return `API key revoked${event.name ? `: ${event.name}` : ''}`;
  }
}

/** A stored notification as the API shows it. */
export interface NotificationRecord {
  id: string;
  type: NotificationType;
  title: string;
  data: Record<string, unknown>;
  read: boolean;
  readAt: string | null;
  createdAt: string;
}

/** A channel beyond the in-app list. */
export interface NotificationDelivery {
  readonly name: string;
  deliver(recipient: { userId: string; email: string; name: string }, notification: NotificationRecord): Promise<void>;
}

let processDelivery: { delivery: NotificationDelivery; logger: Logger } | undefined;

/**
 * Sets the delivery channel of this process (composition roots: api/server.ts, workers/deps.ts),
 * so that every `notify` call, wherever it happens, delivers the same way. Unset → in-app only.
 */
export function setNotificationDelivery(delivery: NotificationDelivery | undefined, logger: Logger): void {
  processDelivery = delivery ? { delivery, logger } : undefined;
}

interface StoredRow {
  id: string;
  type: string;
  title: string;
  data: unknown;
  readAt: Date | null;
  createdAt: Date;
}

export function toRecord(row: StoredRow): NotificationRecord {
  return {
    id: row.id,
    type: row.type as NotificationType,
    title: row.title,
    data: (row.data ?? {}) as Record<string, unknown>,
    read: row.readAt !== null,
    readAt: row.readAt ? row.readAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Stores a notification for `userId` (once per `dedupeKey`) and delivers it through the process's
 * channel when one is set. Resolves without storing when the key was used before.
 */
export async function notify(db: Database, userId: string, event: NotificationEvent, options: { dedupeKey?: string } = {}): Promise<void> {
  const { type, ...data } = event;
  const title = notificationTitle(event);
  const rows = await db.$queryRaw<StoredRow[]>`
    INSERT INTO notification (id, "userId", type, title, data, "dedupeKey")
    VALUES (${randomUUID()}, ${userId}, ${type}, ${title}, ${JSON.stringify(data)}::jsonb, ${options.dedupeKey ?? null})
    ON CONFLICT ("dedupeKey") DO NOTHING
    RETURNING id, type, title, data, "readAt", "createdAt"`;
  const stored = rows[0];
  if (!stored || !processDelivery) return;
  const { delivery, logger } = processDelivery;
  try {
    const user = await db.user.findUnique({ where: { id: userId }, select: { email: true, name: true } });
    if (user) await delivery.deliver({ userId, email: user.email, name: user.name }, toRecord(stored));
  } catch (error) {
    logger.warn({ channel: delivery.name, type, err: error instanceof Error ? error.message : String(error) }, 'notification delivery failed');
  }
}

/**
 * `credit.low` for a debit: notifies when THIS debit took the balance across the threshold
 * (balance before ≥ threshold > balance after). The decision uses the debit's own ledger row,
 * whose `balanceAfter` was computed under the account row's lock, so among concurrent debits
 * exactly one crosses; the notification is keyed by that row, so a replayed debit (a retried
 * activity) notifies at most once. Call it after every debit, applied or replayed. A debit just
 * applied passes its own row's figures (`amount` negative), which spares reading the ledger on
 * the scrape's hot path; a replay reads them back.
 */
export async function notifyLowCreditIfCrossed(
  db: Database,
  debitKey: string,
  threshold: number,
  applied?: { userId: string; amount: number; balanceAfter: number },
): Promise<boolean> {
  if (threshold <= 0) return false;
  const row =
    applied ??
    (
      await db.$queryRaw<{ userId: string; amount: number; balanceAfter: number }[]>`
        SELECT "userId", amount, "balanceAfter" FROM credit_ledger WHERE "idempotencyKey" = ${debitKey} AND reason = 'debit'::"LedgerReason"`
    )[0];
  if (!row) return false;
  const before = row.balanceAfter - row.amount; // amount is negative for a debit
  if (!(before >= threshold && row.balanceAfter < threshold)) return false;
  await notify(db, row.userId, { type: 'credit.low', balance: row.balanceAfter, threshold }, { dedupeKey: `credit.low:${debitKey}` });
  return true;
}
