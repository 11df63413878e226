/**
 * The Temporal side of monitors (monitors/schedules.ts `MonitorSchedules`), with the API
 * process's client (docs/monitors.md "Schedules").
 *
 * Schedule `monitor-<id>`: an interval spec (`every`) or a cron spec in a time zone; action: one
 * `monitorCheckWorkflow` per tick on the main queue (workflow id `monitor-check-<id>-<time>`).
 * Overlap SKIP: a tick that comes while the previous check still runs is skipped (a slow target
 * never piles checks up; the next tick checks again). Catch-up window: one interval, at least a
 * minute and at most a day (a cron schedule: one hour): after downtime of the server or every
 * worker, the ticks missed within that window run once the schedule runs again (SKIP keeps it to
 * one at a time), older ones are dropped; a monitor reports the page's state now, not a replay of
 * every tick it missed. "Check now" starts the same workflow directly, under an id of its own
 * (`monitor-check-<id>-now-<uuid>`), beside any check running: a trigger of the schedule would name
 * it by the second it was asked and the server drops a start whose id is still open (a check still
 * sending its webhooks), after the route had answered 202.
 * Search attribute AccountId (the schedule and each check) and memo {userId, monitorId}.
 */
import { randomUUID } from 'node:crypto';
import { type Client, type ScheduleSpec, ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import { type MonitorScheduleSpec, type MonitorSchedules, monitorIds } from '../monitors/schedules';
import { everyMs } from '../monitors/request';
import type { TaskQueues } from '../workflows/definitions';
import { monitorCheckWorkflow } from '../workflows/monitor.workflow';
import { AppError } from '../platform/errors';

const ACCOUNT_ID = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

function timing(spec: MonitorScheduleSpec): { spec: ScheduleSpec; catchupWindowMs: number } {
  if ('every' in spec.schedule) {
    const every = everyMs(spec.schedule.every)!;
    return { spec: { intervals: [{ every }] }, catchupWindowMs: Math.min(Math.max(every, MINUTE_MS), DAY_MS) };
  }
  return { spec: { cronExpressions: [spec.schedule.cron], timezone: spec.schedule.timezone }, catchupWindowMs: 60 * MINUTE_MS };
}

function note(spec: MonitorScheduleSpec): string {
  return `monitor "${spec.name}": ${'every' in spec.schedule ? `every ${spec.schedule.every}` : `cron "${spec.schedule.cron}" (${spec.schedule.timezone})`}`;
}

/** A cron the server refuses is the client's mistake (400), not ours. */
function asBadSchedule(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  if (/invalid|cron|parse/i.test(message) && !(error instanceof ScheduleAlreadyRunning)) throw new AppError('VALIDATION_FAILED', [`schedule is not valid: ${message.split('\n')[0]}`]);
  throw error;
}

/** A schedule that is already gone is what deleting it wants. */
function unlessGone(error: unknown): void {
  if (!(error instanceof ScheduleNotFoundError)) throw error;
}

export function createMonitorSchedules(deps: { temporal: { get(): Promise<Client> }; queues: Pick<TaskQueues, 'main' | 'browser'> }): MonitorSchedules {
  async function handle(monitorId: string) {
    return (await deps.temporal.get()).schedule.getHandle(monitorIds.schedule(monitorId));
  }
  return {
    async create(spec) {
      const client = await deps.temporal.get();
      const { spec: scheduleSpec, catchupWindowMs } = timing(spec);
      try {
        await client.schedule.create({
          scheduleId: monitorIds.schedule(spec.monitorId),
          spec: scheduleSpec,
          action: {
            type: 'startWorkflow',
            workflowType: monitorCheckWorkflow,
            args: [{ monitorId: spec.monitorId, browserQueue: deps.queues.browser }],
            taskQueue: deps.queues.main,
            workflowId: monitorIds.checkWorkflow(spec.monitorId),
            typedSearchAttributes: [{ key: ACCOUNT_ID, value: spec.userId }],
            workflowExecutionTimeout: '1 hour',
          },
          policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: catchupWindowMs },
          state: { paused: spec.paused, note: note(spec) },
          memo: { userId: spec.userId, monitorId: spec.monitorId },
          typedSearchAttributes: [{ key: ACCOUNT_ID, value: spec.userId }],
        });
      } catch (error) {
        if (error instanceof ScheduleAlreadyRunning) return this.update(spec);
        asBadSchedule(error);
      }
    },
    async update(spec) {
      const { spec: scheduleSpec, catchupWindowMs } = timing(spec);
      await (await handle(spec.monitorId))
        .update((previous) => ({ ...previous, spec: scheduleSpec, policies: { ...previous.policies, catchupWindow: catchupWindowMs } }))
        .catch(asBadSchedule);
    },
    async nextTimes(monitorId) {
      return (await (await handle(monitorId)).describe()).info.nextActionTimes;
    },
    async pause(monitorId, text) {
      await (await handle(monitorId)).pause(text);
    },
    async resume(monitorId, text) {
      await (await handle(monitorId)).unpause(text);
    },
    async trigger(monitorId, userId) {
      await (await deps.temporal.get()).workflow.start(monitorCheckWorkflow, {
        args: [{ monitorId, browserQueue: deps.queues.browser }],
        taskQueue: deps.queues.main,
        workflowId: `${monitorIds.checkWorkflow(monitorId)}-now-${randomUUID()}`,
        typedSearchAttributes: [{ key: ACCOUNT_ID, value: userId }],
        workflowExecutionTimeout: '1 hour',
        memo: { userId, monitorId },
      });
    },
    async delete(monitorId) {
      await (await handle(monitorId)).delete().catch(unlessGone);
    },
  };
}
