/**
 * The Temporal side of subscriptions (billing/subscriptions.ts `SubscriptionSchedules`), with the
 * API process's client.
 *
 * Schedule `subscription-<id>`: fires at anchorAt + n·period (an interval spec whose offset aligns
 * it with the anchor, starting at the anchor); period 0, at the anchor itself, already past when
 * the schedule is created, is taken by a backfill of that one instant at creation; overlap
 * ALLOW_ALL, so a refill waiting for a worker never makes the next one be skipped; search
 * attribute AccountId and memo {userId, planId} let an operator find it in the Temporal UI.
 */
import { type Client, ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import { subscriptionIds } from '../billing/keys';
import type { SubscriptionSchedules } from '../billing/subscriptions';
import type { TaskQueues } from '../workflows/definitions';
import { subscriptionEndWorkflow, subscriptionRefillWorkflow } from '../workflows/subscription.workflow';

const ACCOUNT_ID = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);

/** A schedule that is already gone is what deleting or pausing it wants. */
function unlessGone(error: unknown): void {
  if (!(error instanceof ScheduleNotFoundError)) throw error;
}

export function createSubscriptionSchedules(deps: { temporal: { get(): Promise<Client> }; queues: Pick<TaskQueues, 'main'> }): SubscriptionSchedules {
  return {
    async ensure(sub) {
      const client = await deps.temporal.get();
      const periodMs = sub.periodSeconds * 1000;
      const anchorAt = sub.anchorAt!;
      const anchorMs = anchorAt.getTime();
      try {
        await client.schedule.create({
          scheduleId: subscriptionIds.schedule(sub.id),
          spec: {
            intervals: [{ every: periodMs, offset: ((anchorMs % periodMs) + periodMs) % periodMs }],
            startAt: anchorAt,
          },
          action: {
            type: 'startWorkflow',
            workflowType: subscriptionRefillWorkflow,
            args: [{ subscriptionId: sub.id }],
            taskQueue: deps.queues.main,
            workflowId: subscriptionIds.refillWorkflow(sub.id),
            typedSearchAttributes: [{ key: ACCOUNT_ID, value: sub.userId }],
            workflowExecutionTimeout: '1 day',
          },
          policies: { overlap: ScheduleOverlapPolicy.ALLOW_ALL, catchupWindow: '365 days' },
          state: {
            // Period 0 as a backfill of the anchor instant: its scheduled time is exactly the anchor,
            // however late the schedule's first run is (an immediate trigger would be scheduled "now",
            // which a slow start can push into period 1, leaving period 0 without its run).
            backfill: [{ start: anchorAt, end: anchorAt, overlap: ScheduleOverlapPolicy.ALLOW_ALL }],
            note: `plan ${sub.planId}, every ${sub.periodSeconds}s`,
          },
          memo: { userId: sub.userId, planId: sub.planId, subscriptionId: sub.id },
          typedSearchAttributes: [{ key: ACCOUNT_ID, value: sub.userId }],
        });
      } catch (error) {
        if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      }
    },
    async pause(scheduleId, note) {
      const client = await deps.temporal.get();
      await client.schedule.getHandle(scheduleId).pause(note).catch(unlessGone);
    },
    async delete(scheduleId) {
      const client = await deps.temporal.get();
      await client.schedule.getHandle(scheduleId).delete().catch(unlessGone);
    },
    async startEnd(sub, endsAt) {
      const client = await deps.temporal.get();
      await client.workflow
        .start(subscriptionEndWorkflow, {
          taskQueue: deps.queues.main,
          workflowId: subscriptionIds.endWorkflow(sub.id),
          args: [{ subscriptionId: sub.id, endsAt: endsAt.toISOString() }],
          typedSearchAttributes: [{ key: ACCOUNT_ID, value: sub.userId }],
        })
        .catch((error: unknown) => {
          if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
        });
    },
  };
}
