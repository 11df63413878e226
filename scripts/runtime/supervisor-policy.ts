/**
 * The supervisor's policies (docs/operations.md): how soon and how often a process that exited or
 * failed to start is restarted, and when the watchdog judges a running process hung or oversized.
 */

export interface WatchdogPolicy {
  /** A process whose health check has not passed for this long (and failed twice or more) is restarted; 0 = never. */
  hangMs: number;
  /** How often health and memory are checked. */
  checkIntervalMs: number;
  /** A health check not answered within this long has failed. */
  healthTimeoutMs: number;
  /** A process whose resident memory (VmRSS) is over this at two readings in a row is restarted; 0 = never. */
  memoryLimitBytes: number;
  /** After the graceful stop of a hung or oversized process began, SIGKILL once this has passed. */
  killGraceMs: number;
}

/** docs/operations.md, "Hung processes and memory": 30 s without a health answer, 2 GiB of RSS. */
export const DEFAULT_WATCHDOG_POLICY: WatchdogPolicy = {
  hangMs: 30_000,
  checkIntervalMs: 5_000,
  healthTimeoutMs: 5_000,
  memoryLimitBytes: 2048 * 2 ** 20,
  killGraceMs: 10_000,
};

/**
 * The watchdog's policy from `npm start`'s settings (SUPERVISOR_HANG_MS, SUPERVISOR_MEMORY_LIMIT_MB):
 * a check every quarter of the hang time (at most 5 s, at least 250 ms), each allowed as long.
 */
export function watchdogPolicy(settings: { hangMs: number; memoryLimitMb: number }): WatchdogPolicy {
  const step = settings.hangMs > 0 ? Math.min(DEFAULT_WATCHDOG_POLICY.checkIntervalMs, Math.max(250, Math.floor(settings.hangMs / 4))) : DEFAULT_WATCHDOG_POLICY.checkIntervalMs;
  return { ...DEFAULT_WATCHDOG_POLICY, hangMs: settings.hangMs, checkIntervalMs: step, healthTimeoutMs: step, memoryLimitBytes: settings.memoryLimitMb * 2 ** 20 };
}

/** Why a process is restarted: it exited, it failed to start, it stopped answering, it outgrew the memory ceiling. */
export type RestartReason = 'exited' | 'start_failed' | 'hung' | 'memory';

export interface RestartPolicy {
  /** Delay before the first restart; each further restart doubles it... */
  initialDelayMs: number;
  /** ...up to this. */
  maxDelayMs: number;
  /** A process that ran this long before it exited starts over at the initial delay. */
  resetAfterMs: number;
  /** This many failed start-ups within `startFailureWindowMs` and the supervisor gives up. */
  maxStartFailures: number;
  startFailureWindowMs: number;
}

/** The policy of docs/operations.md: 1 s doubling to 30 s, reset after a minute up; 5 failed start-ups in 2 minutes stop the service. */
export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  resetAfterMs: 60_000,
  maxStartFailures: 5,
  startFailureWindowMs: 120_000,
};

/** 1.2 s, 3 min 4 s, 2 h 5 min: for log lines. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  if (minutes < 60) return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
