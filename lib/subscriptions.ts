/**
 * Subscriptions (API side): subscribe, activate (create the Temporal Schedule), cancel at period
 * end, change plan, and the record the API shows. The refill itself is activities/subscriptions.ts.
 *
 * Schedule `subscription-<id>`: fires at anchorAt + n·period (n ≥ 1; an interval spec whose offset
 * aligns it with the anchor); period 0 is a refill workflow started at activation
 * (`subscription-<id>-refill-period-0`); overlap ALLOW_ALL, so a refill
 * waiting for a worker never makes the next one be skipped; search attribute AccountId and memo
 * {userId, planId} let an operator find it in the Temporal UI.
 */
import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import type { Config, Plan } from './config';
import { sqlState } from './credit';
import type { Database } from './db';
import { AppError } from './errors';
import { notify } from './notifications';
import type { LazyTemporalClient } from './temporal-client';
import { type TaskQueues, subscriptionIds } from '../workflows/definitions';

export type SubscriptionRow = NonNullable<Awaited<ReturnType<Database['subscription']['findUnique']>>>;

export interface SubscriptionDeps {
  db: Database;
  config: Config;
  temporal: LazyTemporalClient;
  queues: TaskQueues;
}

const ACCOUNT_ID = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);

export function findPlan(config: Config, planId: string): Plan {
  const plan = config.SUBSCRIPTION_PLANS.find((p) => p.id === planId);
  if (!plan) throw new AppError('VALIDATION_FAILED', [`planId must be one of ${config.SUBSCRIPTION_PLANS.map((p) => JSON.stringify(p.id)).join(', ')}`]);
  return plan;
}

/**
 * The period containing `at`: its number and bounds. `at` is always the caller's one clock reading
 * for the answer it builds (never read again here), so an answer describes a single instant.
 */
export function currentPeriod(sub: { anchorAt: Date; periodSeconds: number }, at: Date) {
  const ms = sub.periodSeconds * 1000;
  const n = Math.max(0, Math.floor((at.getTime() - sub.anchorAt.getTime()) / ms));
  return { n, start: new Date(sub.anchorAt.getTime() + n * ms), end: new Date(sub.anchorAt.getTime() + (n + 1) * ms) };
}

/** The subscription as the API shows it at the instant `at` (the answer's one clock reading). */
export function subscriptionRecord(sub: SubscriptionRow, at: Date) {
  const period = sub.anchorAt && (sub.status === 'active' || sub.status === 'cancelled') ? currentPeriod({ anchorAt: sub.anchorAt, periodSeconds: sub.periodSeconds }, at) : null;
  return {
    id: sub.id,
    planId: sub.planId,
    pendingPlanId: sub.pendingPlanId,
    status: sub.status,
    periodSeconds: sub.periodSeconds,
    startedAt: sub.anchorAt ? sub.anchorAt.toISOString() : null,
    currentPeriod: period ? { number: period.n, start: period.start.toISOString(), end: period.end.toISOString() } : null,
    cancelAt: sub.cancelAt ? sub.cancelAt.toISOString() : null,
    scheduleId: sub.scheduleId,
    createdAt: sub.createdAt.toISOString(),
    cancelledAt: sub.cancelledAt ? sub.cancelledAt.toISOString() : null,
    endedAt: sub.endedAt ? sub.endedAt.toISOString() : null,
  };
}

/** Ends cancelled subscriptions whose period is over at `now` (and deletes their paused schedules). */
export async function settleEnded(deps: SubscriptionDeps, userId: string, now: Date): Promise<void> {
  const due = await deps.db.subscription.findMany({ where: { userId, status: 'cancelled', cancelAt: { lte: now } } });
  for (const sub of due) {
    const ended = await deps.db.subscription.updateMany({ where: { id: sub.id, status: 'cancelled' }, data: { status: 'ended', endedAt: sub.cancelAt } });
    if (ended.count) await notify(deps.db, userId, { type: 'subscription.ended', subscriptionId: sub.id, planId: sub.planId }, { dedupeKey: `subscription:${sub.id}:ended` });
    if (sub.scheduleId) {
      const client = await deps.temporal.get();
      await client.schedule
        .getHandle(sub.scheduleId)
        .delete()
        .catch((error: unknown) => {
          if (!(error instanceof ScheduleNotFoundError)) throw error;
        });
    }
  }
}

/** The account's active or cancelled-but-running subscription at `now`, after settling ended ones. */
export async function liveSubscription(deps: SubscriptionDeps, userId: string, now: Date): Promise<SubscriptionRow | null> {
  await settleEnded(deps, userId, now);
  return deps.db.subscription.findFirst({ where: { userId, status: { in: ['active', 'cancelled'] } } });
}

/**
 * Activates a pending subscription (a free plan at once; a paid plan when its payment succeeds)
 * and creates its schedule. Idempotent: an active one only gets its schedule ensured.
 */
export async function activateSubscription(deps: SubscriptionDeps, subscriptionId: string, now: Date): Promise<SubscriptionRow> {
  const { db } = deps;
  // Whole seconds, so the interval offset is exact.
  const anchorAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const scheduleId = subscriptionIds.schedule(subscriptionId);
  try {
    await db.subscription.updateMany({ where: { id: subscriptionId, status: 'pending' }, data: { status: 'active', anchorAt, scheduleId } });
  } catch (error) {
    // The one-live-subscription index: the account subscribed to something else meanwhile.
    if (sqlState(error) === '23505') await db.subscription.update({ where: { id: subscriptionId }, data: { status: 'ended', endedAt: now } });
    if (sqlState(error) !== '23505') throw error;
    throw new AppError('CONFLICT', 'The account already has a live subscription');
  }
  const sub = await db.subscription.findUnique({ where: { id: subscriptionId } });
  if (!sub) throw new AppError('NOT_FOUND', 'No subscription with that id');
  if (sub.status !== 'active' || !sub.anchorAt) return sub;
  await ensureSchedule(deps, sub);
  return sub;
}

async function ensureSchedule(deps: SubscriptionDeps, sub: SubscriptionRow): Promise<void> {
  const client = await deps.temporal.get();
  const periodMs = sub.periodSeconds * 1000;
  const anchorMs = sub.anchorAt!.getTime();
  try {
    await client.schedule.create({
      scheduleId: subscriptionIds.schedule(sub.id),
      spec: {
        intervals: [{ every: periodMs, offset: ((anchorMs % periodMs) + periodMs) % periodMs }],
        // Period 0 is started below; the interval takes over from period 1.
        startAt: new Date(anchorMs + 1),
      },
      action: {
        type: 'startWorkflow',
        workflowType: 'subscriptionRefillWorkflow',
        args: [{ subscriptionId: sub.id }],
        taskQueue: deps.queues.main,
        workflowId: subscriptionIds.refillWorkflow(sub.id),
        typedSearchAttributes: [{ key: ACCOUNT_ID, value: sub.userId }],
        workflowExecutionTimeout: '1 day',
      },
      policies: { overlap: ScheduleOverlapPolicy.ALLOW_ALL, catchupWindow: '365 days' },
      state: { note: `plan ${sub.planId}, every ${sub.periodSeconds}s` },
      memo: { userId: sub.userId, planId: sub.planId, subscriptionId: sub.id },
      typedSearchAttributes: [{ key: ACCOUNT_ID, value: sub.userId }],
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
  // Period 0, named explicitly: deriving it from when an immediate trigger happened to run would
  // count it as period 1 whenever the trigger ran late (a loaded machine, short test periods).
  try {
    await client.workflow.start('subscriptionRefillWorkflow', {
      taskQueue: deps.queues.main,
      workflowId: subscriptionIds.firstRefillWorkflow(sub.id),
      args: [{ subscriptionId: sub.id, period: 0 }],
      typedSearchAttributes: [{ key: ACCOUNT_ID, value: sub.userId }],
      workflowExecutionTimeout: '1 day',
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

/**
 * Cancel at period end: no refill from the end of the current period on. The schedule is paused
 * (it stays visible in the Temporal UI with the reason) and deleted when the subscription ends.
 *
 * The period it ends is decided once: the row is locked, the clock read once, and `cancelAt` and
 * `cancelledAt` come from that reading (the route shows the record as of `cancelledAt`). The refill activity
 * locks the same row before it grants (activities/subscriptions.ts), so a refill of the next
 * period either committed before this cancel (and the clock reading here is already in that
 * period) or sees `cancelAt` and refuses.
 */
export async function cancelSubscription(deps: SubscriptionDeps, subscriptionId: string): Promise<SubscriptionRow> {
  const outcome = await deps.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM subscription WHERE id = ${subscriptionId} FOR UPDATE`;
    const sub = await tx.subscription.findUnique({ where: { id: subscriptionId } });
    if (!sub) throw new AppError('NOT_FOUND', 'No subscription to cancel');
    const now = new Date();
    if (sub.status !== 'active' || !sub.anchorAt) return { subscription: sub, changed: false };
    const { end } = currentPeriod({ anchorAt: sub.anchorAt, periodSeconds: sub.periodSeconds }, now);
    const cancelled = await tx.subscription.update({ where: { id: sub.id }, data: { status: 'cancelled', cancelAt: end, cancelledAt: now, pendingPlanId: null } });
    return { subscription: cancelled, changed: true };
  });
  const sub = outcome.subscription;
  if (!outcome.changed) return sub;
  const end = sub.cancelAt!;
  const at = sub.cancelledAt!;
  if (sub.scheduleId) {
    const client = await deps.temporal.get();
    await client.schedule
      .getHandle(sub.scheduleId)
      .pause(`cancelled by the user at ${at.toISOString()}; ends ${end.toISOString()}`)
      .catch((error: unknown) => {
        if (!(error instanceof ScheduleNotFoundError)) throw error;
      });
  }
  await notify(deps.db, sub.userId, { type: 'subscription.cancelled', subscriptionId: sub.id, planId: sub.planId, endsAt: end.toISOString() }, { dedupeKey: `subscription:${sub.id}:cancelled` });
  return sub;
}
