/**
 * What monitors need of Temporal (docs/monitors.md "Schedules"): one Schedule per monitor,
 * `monitor-<id>`, whose action starts one check workflow per tick. The callers implement it with
 * their Temporal client (api/monitor-schedules.ts); the domain never imports orchestration.
 */
import type { MonitorSchedule } from './request';

export const monitorIds = {
  schedule: (monitorId: string) => `monitor-${monitorId}`,
  /** Workflow id of the schedule's action (Temporal appends the scheduled time). */
  checkWorkflow: (monitorId: string) => `monitor-check-${monitorId}`,
} as const;

export interface MonitorScheduleSpec {
  monitorId: string;
  userId: string;
  name: string;
  schedule: MonitorSchedule;
  paused: boolean;
}

export interface MonitorSchedules {
  /** Creates the monitor's schedule; one already there is updated to the spec instead. */
  create(spec: MonitorScheduleSpec): Promise<void>;
  /** Changes the schedule's timing (a PATCH of `schedule`). */
  update(spec: MonitorScheduleSpec): Promise<void>;
  /** The next times the schedule fires (to hold a cron schedule to the minimum interval). */
  nextTimes(monitorId: string): Promise<Date[]>;
  pause(monitorId: string, note: string): Promise<void>;
  resume(monitorId: string, note: string): Promise<void>;
  /** Starts a check now ("check now"), beside any check already running, under an id of its own. */
  trigger(monitorId: string, userId: string): Promise<void>;
  /** Deletes the schedule; one already gone is fine. */
  delete(monitorId: string): Promise<void>;
}
