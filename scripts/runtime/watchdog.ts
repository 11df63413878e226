/**
 * The supervisor's watchdog: it watches the processes that run, and stops one whose health check
 * has not passed for `hangMs` (alive but not answering), or whose resident memory stays over
 * `memoryLimitBytes` — its own graceful stop, then SIGKILL after `killGraceMs`. The supervisor
 * then restarts it like a process that exited, with that cause (supervisor.ts `exited`).
 */
import { readFile } from 'node:fs/promises';
import { type WatchdogPolicy, formatDuration } from './supervisor-policy';
import type { ChildHandle, ProcessSpec, ProcessState, SupervisorEvent } from './supervisor-types';

/** What the watchdog reads and keeps of a supervised process. */
export interface WatchedProcess {
  spec: Pick<ProcessSpec, 'name' | 'health'>;
  state: ProcessState;
  handle?: ChildHandle;
  /** When the health check last passed (or the process became ready), failures since. */
  healthyAt: number;
  failedChecks: number;
  checking: boolean;
  /** Consecutive memory readings over the ceiling. */
  overMemory: number;
  /** Set while the watchdog stops the process: the cause its restart reports. */
  ending?: { reason: 'hung' | 'memory'; cause: string };
}

/** The supervisor, as the watchdog sees it. */
export interface WatchdogHost {
  processes(): Iterable<WatchedProcess>;
  stopping(): boolean;
  onEvent(event: SupervisorEvent): void;
}

export class Watchdog {
  private timer?: NodeJS.Timeout;

  constructor(
    readonly policy: WatchdogPolicy,
    private readonly host: WatchdogHost,
  ) {}

  /** Starts the watchdog's checks (once a process runs) unless both are off. */
  start(): void {
    if (this.timer || this.host.stopping()) return;
    if (this.policy.hangMs <= 0 && this.policy.memoryLimitBytes <= 0) return;
    this.timer = setInterval(() => {
      for (const m of this.host.processes()) if (m.state === 'running' && m.handle && !m.ending) void this.check(m, m.handle);
    }, this.policy.checkIntervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One watchdog round for a running process: its health, then its memory. */
  private async check(m: WatchedProcess, handle: ChildHandle): Promise<void> {
    if (m.checking) return;
    m.checking = true;
    try {
      const hung = await this.hung(m);
      if (m.handle !== handle || m.ending || this.host.stopping()) return;
      if (hung) return this.end(m, handle, 'hung', hung);
      const oversized = await this.oversized(m, handle);
      if (m.handle !== handle || m.ending || this.host.stopping()) return;
      if (oversized) return this.end(m, handle, 'memory', oversized);
    } finally {
      m.checking = false;
    }
  }

  /** Why `m` counts as hung (its health check has not passed for hangMs), or undefined. */
  private async hung(m: WatchedProcess): Promise<string | undefined> {
    const { health } = m.spec;
    if (!health || this.policy.hangMs <= 0) return undefined;
    let failure: string;
    try {
      await health(AbortSignal.timeout(this.policy.healthTimeoutMs));
      m.healthyAt = Date.now();
      m.failedChecks = 0;
      return undefined;
    } catch (error) {
      failure = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    }
    m.failedChecks += 1;
    const silentMs = Date.now() - m.healthyAt;
    // Two failures at least: a supervisor that was itself starved for hangMs does not condemn a process on one late check.
    if (silentMs < this.policy.hangMs || m.failedChecks < 2) return undefined;
    return `hung: no health answer for ${formatDuration(silentMs)} (${m.failedChecks} checks failed, the last: ${failure})`;
  }

  /** Why `m` is over the memory ceiling (two readings in a row), or undefined. */
  private async oversized(m: WatchedProcess, handle: ChildHandle): Promise<string | undefined> {
    if (this.policy.memoryLimitBytes <= 0 || handle.pid === undefined) return undefined;
    const rss = await residentBytes(handle.pid);
    if (rss === null || rss <= this.policy.memoryLimitBytes) {
      m.overMemory = 0;
      return undefined;
    }
    m.overMemory += 1;
    if (m.overMemory < 2) return undefined;
    return `over the memory ceiling: ${mib(rss)} MiB resident, the ceiling is ${mib(this.policy.memoryLimitBytes)} MiB`;
  }

  /** Stops a running process the way it stops, SIGKILL after killGraceMs; its exit then restarts it (supervisor.ts `exited`). */
  private end(m: WatchedProcess, handle: ChildHandle, reason: 'hung' | 'memory', cause: string): void {
    m.ending = { reason, cause };
    this.host.onEvent({ type: 'ending', name: m.spec.name, pid: handle.pid, reason, cause, killGraceMs: this.policy.killGraceMs });
    const kill = setTimeout(() => {
      if (handle.pid === undefined) return;
      try {
        process.kill(handle.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, this.policy.killGraceMs);
    void handle.exited.then(() => clearTimeout(kill));
    handle.stop().catch(() => undefined);
  }
}

/** A process's resident memory (VmRSS of /proc/<pid>/status), in bytes; null when it cannot be read (gone, not Linux). */
export async function residentBytes(pid: number): Promise<number | null> {
  try {
    const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? null : Number(kib) * 1024;
  } catch {
    return null;
  }
}

const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
