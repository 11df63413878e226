/**
 * The process manager behind `npm start` (docs/operations.md): it starts each process once its
 * dependencies run, restarts any that exits without being asked to, with exponential backoff,
 * and gives up — naming the process and quoting its last lines — when one keeps failing at
 * start-up. It knows nothing of PostgreSQL or Temporal: each process is a `start()` that
 * resolves once the process is ready and a handle to stop it or learn that it exited.
 *
 * It also watches the processes that run (the watchdog): one whose health check has not passed
 * for `hangMs` (alive but not answering), or whose resident memory stays over `memoryLimitBytes`,
 * is stopped — its own graceful stop, then SIGKILL after `killGraceMs` — and restarted like a
 * process that exited, with that cause.
 */
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A started, ready process. */
export interface ChildHandle {
  pid: number | undefined;
  /** Resolves once the process has exited, whatever the reason. */
  exited: Promise<ExitInfo>;
  /** Stops the process gracefully (forcibly after its own grace period); resolves once it has exited. */
  stop(): Promise<void>;
}

/** The last lines a process printed, for the message that names a process which keeps failing. */
export class OutputTail {
  private readonly kept: string[] = [];
  constructor(private readonly limit = 20) {}

  push(text: string): void {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      this.kept.push(line.trimEnd());
      if (this.kept.length > this.limit) this.kept.shift();
    }
  }

  lines(): string[] {
    return [...this.kept];
  }
}

export interface StartContext {
  /** Where the process's output goes (and stays, for the give-up message). */
  output: OutputTail;
  /** Aborted when the supervisor stops while this start is under way: stop what was started, then reject. */
  signal: AbortSignal;
}

export interface ProcessSpec {
  name: string;
  /** Processes that must be running before this one is started or restarted. */
  dependsOn?: string[];
  /** Starts the process; resolves once it is ready, rejects (having stopped what it started) when it cannot start. */
  start(context: StartContext): Promise<ChildHandle>;
  /**
   * Asks the running process whether it answers (e.g. GET /healthz); resolves when it does,
   * rejects saying why not. Aborted after `healthTimeoutMs`. Without it, the process is never
   * judged hung (only its exits and memory are watched).
   */
  health?: (signal: AbortSignal) => Promise<void>;
}

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

export type ProcessState =
  | 'pending' // not started yet
  | 'starting'
  | 'running'
  | 'backoff' // waiting out its restart delay
  | 'waiting' // waiting for a process it depends on
  | 'stopping'
  | 'stopped'
  | 'failed'; // gave up: kept failing at start-up

export interface ProcessStatus {
  name: string;
  state: ProcessState;
  pid?: number;
  /** Launches after the first one (each restart after an exit or a failed start-up). */
  restarts: number;
  /** When the current state began (ISO 8601). */
  since: string;
  /** How the last unexpected exit or failed start-up went. */
  lastFailure?: { at: string; cause: string };
  /** The delay before the pending restart, while in `backoff`. */
  restartDelayMs?: number;
}

export type ServiceState = 'starting' | 'ready' | 'degraded' | 'stopping' | 'failed';

export interface SupervisorStatus {
  status: ServiceState;
  /** One line per process that is not running, once the service has been up: why it is degraded. */
  reasons: string[];
  processes: ProcessStatus[];
}

export type SupervisorEvent =
  | { type: 'exited'; name: string; exit: ExitInfo; expected: boolean; uptimeMs: number }
  | { type: 'restart-scheduled'; name: string; delayMs: number; restart: number; cause: string; reason: RestartReason }
  /** The watchdog is stopping a process that runs but is hung or over the memory ceiling (a restart follows its exit). */
  | { type: 'ending'; name: string; pid: number | undefined; reason: 'hung' | 'memory'; cause: string; killGraceMs: number }
  | { type: 'start-failed'; name: string; error: Error; failuresInWindow: number }
  | { type: 'waiting'; name: string; on: string[] }
  | { type: 'running'; name: string; pid: number | undefined; restarted: boolean; downMs?: number }
  | { type: 'gave-up'; name: string; error: CrashLoopError };

/** A process failed at start-up too often: the service cannot run. */
export class CrashLoopError extends Error {
  constructor(
    readonly processName: string,
    readonly failures: number,
    readonly windowMs: number,
    readonly lastError: Error,
    readonly lastLines: string[],
  ) {
    super(
      `${processName} failed to start ${failures} times within ${formatDuration(windowMs)}; giving up. Last error: ${lastError.message.split('\n')[0]}` +
        (lastLines.length ? `\nIts last lines:\n${lastLines.map((l) => `  | ${l}`).join('\n')}` : '\nIt printed nothing.'),
    );
    this.name = 'CrashLoopError';
  }
}

/** Thrown inside the supervisor when a start is abandoned because everything is stopping. */
class Stopped extends Error {}

/** "signal SIGKILL" / "code 1": how a process ended. */
export function describeExit(exit: ExitInfo): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code ?? '?'}`;
}

interface Managed {
  spec: ProcessSpec;
  state: ProcessState;
  since: number;
  output: OutputTail;
  handle?: ChildHandle;
  /** The start under way (first launch or restart loop), so stop() can wait for it. */
  launching?: Promise<void>;
  abort?: AbortController;
  /** Number of consecutive restarts, for the delay; reset after a long enough run. */
  attempt: number;
  restarts: number;
  startFailures: number[];
  upSince?: number;
  downSince?: number;
  everRan: boolean;
  lastFailure?: { at: number; cause: string };
  restartDelayMs?: number;
  /** Ends a backoff or a wait early (stop). */
  wake?: () => void;
  /** Watchdog: when the health check last passed (or the process became ready), failures since. */
  healthyAt: number;
  failedChecks: number;
  checking: boolean;
  /** Consecutive memory readings over the ceiling. */
  overMemory: number;
  /** Set while the watchdog stops the process: the cause its restart reports. */
  ending?: { reason: 'hung' | 'memory'; cause: string };
}

export class Supervisor {
  private readonly processes = new Map<string, Managed>();
  private readonly changes = new EventEmitter();
  private readonly policy: RestartPolicy;
  private readonly watchdog: WatchdogPolicy;
  private watchdogTimer?: NodeJS.Timeout;
  private readonly onEvent: (event: SupervisorEvent) => void;
  /** Lines kept per process for the give-up message. */
  private readonly outputLines: number;
  private readonly giveUpListeners: Array<(error: CrashLoopError) => void> = [];
  private stopping = false;
  private gaveUp?: CrashLoopError;

  constructor(options: { policy?: Partial<RestartPolicy>; watchdog?: Partial<WatchdogPolicy>; onEvent?: (event: SupervisorEvent) => void; outputLines?: number } = {}) {
    this.policy = { ...DEFAULT_RESTART_POLICY, ...options.policy };
    this.watchdog = { ...DEFAULT_WATCHDOG_POLICY, ...options.watchdog };
    this.onEvent = options.onEvent ?? (() => undefined);
    this.outputLines = options.outputLines ?? 20;
    // Every waiting process listens for state changes; a handful at most, but never warn.
    this.changes.setMaxListeners(100);
  }

  add(spec: ProcessSpec): void {
    if (this.processes.has(spec.name)) throw new Error(`${spec.name} is already supervised`);
    for (const dependency of spec.dependsOn ?? []) {
      if (!this.processes.has(dependency)) throw new Error(`${spec.name} depends on ${dependency}, which is not supervised (add it first)`);
    }
    this.processes.set(spec.name, {
      spec,
      state: 'pending',
      since: Date.now(),
      output: new OutputTail(this.outputLines),
      attempt: 0,
      restarts: 0,
      startFailures: [],
      everRan: false,
      healthyAt: 0,
      failedChecks: 0,
      checking: false,
      overMemory: 0,
    });
  }

  /** The last lines the named process printed. */
  output(name: string): string[] {
    return this.get(name).output.lines();
  }

  /** Called once, when a process keeps failing at start-up after the service was started. */
  onGiveUp(listener: (error: CrashLoopError) => void): void {
    this.giveUpListeners.push(listener);
  }

  /**
   * Starts a process (first launch), retrying failed start-ups as restarts are retried, and
   * resolves once it runs. Rejects with CrashLoopError when it keeps failing, or when stopping.
   */
  start(name: string): Promise<void> {
    const managed = this.get(name);
    if (managed.launching) return managed.launching;
    // Started before: from here on the supervisor restarts it by itself.
    if (managed.state !== 'pending') return Promise.resolve();
    const launching = this.launch(managed).finally(() => {
      if (managed.launching === launching) managed.launching = undefined;
    });
    managed.launching = launching;
    return launching;
  }

  /** Stops every process, in the given order (default: the reverse of the order they were added). */
  async stop(order: string[] = [...this.processes.keys()].reverse()): Promise<void> {
    this.stopping = true;
    clearInterval(this.watchdogTimer);
    this.watchdogTimer = undefined;
    for (const managed of this.processes.values()) {
      managed.wake?.();
      managed.abort?.abort();
    }
    this.changes.emit('change');
    for (const name of order) {
      const managed = this.processes.get(name);
      if (!managed) continue;
      // A start under way was aborted above: wait until it has stopped what it began.
      await managed.launching?.catch(() => undefined);
      const handle = managed.handle;
      if (handle) {
        this.setState(managed, 'stopping');
        await handle.stop();
      }
      this.setState(managed, managed.state === 'failed' ? 'failed' : 'stopped');
    }
  }

  status(): SupervisorStatus {
    const processes = [...this.processes.values()].map((m): ProcessStatus => ({
      name: m.spec.name,
      state: m.state,
      ...(m.handle?.pid !== undefined && m.state === 'running' ? { pid: m.handle.pid } : {}),
      restarts: m.restarts,
      since: new Date(m.since).toISOString(),
      ...(m.lastFailure ? { lastFailure: { at: new Date(m.lastFailure.at).toISOString(), cause: m.lastFailure.cause } } : {}),
      ...(m.state === 'backoff' && m.restartDelayMs !== undefined ? { restartDelayMs: m.restartDelayMs } : {}),
    }));
    const all = [...this.processes.values()];
    let status: ServiceState;
    if (this.gaveUp) status = 'failed';
    else if (this.stopping) status = 'stopping';
    else if (all.some((m) => !m.everRan)) status = 'starting';
    else status = all.every((m) => m.state === 'running') ? 'ready' : 'degraded';
    const reasons = status === 'degraded' ? all.filter((m) => m.state !== 'running').map((m) => this.reason(m)) : [];
    return { status, reasons, processes };
  }

  private reason(m: Managed): string {
    const cause = m.lastFailure ? ` (${m.lastFailure.cause})` : '';
    const doing = m.state === 'backoff' ? `restarting in ${Math.round((m.restartDelayMs ?? 0) / 100) / 10} s` : m.state === 'waiting' ? 'waiting for what it depends on' : m.state;
    return `${m.spec.name} is down${cause}: ${doing}`;
  }

  private get(name: string): Managed {
    const managed = this.processes.get(name);
    if (!managed) throw new Error(`${name} is not supervised`);
    return managed;
  }

  private setState(m: Managed, state: ProcessState): void {
    m.state = state;
    m.since = Date.now();
    this.changes.emit('change');
  }

  /** Starts `m` until it runs: each failed start-up waits out the backoff, and too many give up. */
  private async launch(m: Managed): Promise<void> {
    for (;;) {
      if (this.stopping) throw new Stopped(`${m.spec.name}: stopping`);
      await this.dependenciesRunning(m);
      if (this.stopping) throw new Stopped(`${m.spec.name}: stopping`);
      this.setState(m, 'starting');
      const abort = new AbortController();
      m.abort = abort;
      let handle: ChildHandle;
      try {
        handle = await m.spec.start({ output: m.output, signal: abort.signal });
      } catch (error) {
        m.abort = undefined;
        if (this.stopping) throw new Stopped(`${m.spec.name}: stopping`);
        const failure = error instanceof Error ? error : new Error(String(error));
        const now = Date.now();
        m.startFailures = [...m.startFailures.filter((at) => now - at < this.policy.startFailureWindowMs), now];
        m.lastFailure = { at: now, cause: `failed to start: ${failure.message.split('\n')[0]}` };
        this.onEvent({ type: 'start-failed', name: m.spec.name, error: failure, failuresInWindow: m.startFailures.length });
        if (m.startFailures.length >= this.policy.maxStartFailures) {
          const crash = new CrashLoopError(m.spec.name, m.startFailures.length, this.policy.startFailureWindowMs, failure, m.output.lines());
          this.setState(m, 'failed');
          this.giveUp(crash);
          throw crash;
        }
        await this.backoff(m, m.lastFailure.cause, 'start_failed');
        continue;
      }
      m.abort = undefined;
      if (this.stopping) {
        await handle.stop();
        throw new Stopped(`${m.spec.name}: stopping`);
      }
      const restarted = m.everRan;
      const downMs = m.downSince !== undefined ? Date.now() - m.downSince : undefined;
      m.handle = handle;
      m.everRan = true;
      m.upSince = Date.now();
      m.downSince = undefined;
      m.healthyAt = Date.now();
      m.failedChecks = 0;
      m.overMemory = 0;
      m.ending = undefined;
      this.setState(m, 'running');
      this.watch();
      this.onEvent({ type: 'running', name: m.spec.name, pid: handle.pid, restarted, ...(downMs !== undefined ? { downMs } : {}) });
      void handle.exited.then((exit) => this.exited(m, handle, exit));
      return;
    }
  }

  private exited(m: Managed, handle: ChildHandle, exit: ExitInfo): void {
    if (m.handle !== handle) return;
    const expected = this.stopping || m.state === 'stopping';
    const uptimeMs = Date.now() - (m.upSince ?? Date.now());
    this.onEvent({ type: 'exited', name: m.spec.name, exit, expected, uptimeMs });
    if (expected) return;
    m.handle = undefined;
    m.downSince = Date.now();
    // A process that ran a good while before it died is not crash-looping: start over at 1 s.
    if (uptimeMs >= this.policy.resetAfterMs) m.attempt = 0;
    const ending = m.ending;
    m.ending = undefined;
    const cause = ending ? `${ending.cause}; ended with ${describeExit(exit)}` : `exited (${describeExit(exit)}) after ${formatDuration(uptimeMs)} up`;
    m.lastFailure = { at: Date.now(), cause };
    const restart = (async () => {
      await this.backoff(m, cause, ending?.reason ?? 'exited');
      await this.launch(m);
    })();
    m.launching = restart;
    restart
      .catch((error: unknown) => {
        // Stopped: the service is stopping. CrashLoopError: already reported through giveUp().
        if (!(error instanceof Stopped) && !(error instanceof CrashLoopError)) throw error;
      })
      .finally(() => {
        if (m.launching === restart) m.launching = undefined;
      });
  }

  private async backoff(m: Managed, cause: string, reason: RestartReason): Promise<void> {
    const delayMs = Math.min(this.policy.initialDelayMs * 2 ** m.attempt, this.policy.maxDelayMs);
    m.attempt += 1;
    m.restarts += 1;
    m.restartDelayMs = delayMs;
    m.downSince ??= Date.now();
    this.setState(m, 'backoff');
    this.onEvent({ type: 'restart-scheduled', name: m.spec.name, delayMs, restart: m.restarts, cause, reason });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delayMs);
      m.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    m.wake = undefined;
    m.restartDelayMs = undefined;
  }

  /** Resolves once every process `m` depends on runs (or the supervisor stops). */
  private async dependenciesRunning(m: Managed): Promise<void> {
    const missing = () => (m.spec.dependsOn ?? []).filter((name) => this.get(name).state !== 'running');
    if (missing().length === 0) return;
    this.setState(m, 'waiting');
    this.onEvent({ type: 'waiting', name: m.spec.name, on: missing() });
    await new Promise<void>((resolve) => {
      const check = () => {
        if (this.stopping || missing().length === 0) {
          this.changes.off('change', check);
          m.wake = undefined;
          resolve();
        }
      };
      m.wake = () => {
        this.changes.off('change', check);
        resolve();
      };
      this.changes.on('change', check);
    });
  }

  /** Starts the watchdog's checks (once a process runs) unless both are off. */
  private watch(): void {
    if (this.watchdogTimer || this.stopping) return;
    if (this.watchdog.hangMs <= 0 && this.watchdog.memoryLimitBytes <= 0) return;
    this.watchdogTimer = setInterval(() => {
      for (const m of this.processes.values()) if (m.state === 'running' && m.handle && !m.ending) void this.check(m, m.handle);
    }, this.watchdog.checkIntervalMs);
  }

  /** One watchdog round for a running process: its health, then its memory. */
  private async check(m: Managed, handle: ChildHandle): Promise<void> {
    if (m.checking) return;
    m.checking = true;
    try {
      const hung = await this.hung(m);
      if (m.handle !== handle || m.ending || this.stopping) return;
      if (hung) return this.end(m, handle, 'hung', hung);
      const oversized = await this.oversized(m, handle);
      if (m.handle !== handle || m.ending || this.stopping) return;
      if (oversized) return this.end(m, handle, 'memory', oversized);
    } finally {
      m.checking = false;
    }
  }

  /** Why `m` counts as hung (its health check has not passed for hangMs), or undefined. */
  private async hung(m: Managed): Promise<string | undefined> {
    const { health } = m.spec;
    if (!health || this.watchdog.hangMs <= 0) return undefined;
    let failure: string;
    try {
      await health(AbortSignal.timeout(this.watchdog.healthTimeoutMs));
      m.healthyAt = Date.now();
      m.failedChecks = 0;
      return undefined;
    } catch (error) {
      failure = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    }
    m.failedChecks += 1;
    const silentMs = Date.now() - m.healthyAt;
    // Two failures at least: a supervisor that was itself starved for hangMs does not condemn a process on one late check.
    if (silentMs < this.watchdog.hangMs || m.failedChecks < 2) return undefined;
    return `hung: no health answer for ${formatDuration(silentMs)} (${m.failedChecks} checks failed, the last: ${failure})`;
  }

  /** Why `m` is over the memory ceiling (two readings in a row), or undefined. */
  private async oversized(m: Managed, handle: ChildHandle): Promise<string | undefined> {
    if (this.watchdog.memoryLimitBytes <= 0 || handle.pid === undefined) return undefined;
    const rss = await residentBytes(handle.pid);
    if (rss === null || rss <= this.watchdog.memoryLimitBytes) {
      m.overMemory = 0;
      return undefined;
    }
    m.overMemory += 1;
    if (m.overMemory < 2) return undefined;
    return `over the memory ceiling: ${mib(rss)} MiB resident, the ceiling is ${mib(this.watchdog.memoryLimitBytes)} MiB`;
  }

  /** Stops a running process the way it stops, SIGKILL after killGraceMs; its exit then restarts it (exited()). */
  private end(m: Managed, handle: ChildHandle, reason: 'hung' | 'memory', cause: string): void {
    m.ending = { reason, cause };
    this.onEvent({ type: 'ending', name: m.spec.name, pid: handle.pid, reason, cause, killGraceMs: this.watchdog.killGraceMs });
    const kill = setTimeout(() => {
      if (handle.pid === undefined) return;
      try {
        process.kill(handle.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, this.watchdog.killGraceMs);
    void handle.exited.then(() => clearTimeout(kill));
    handle.stop().catch(() => undefined);
  }

  private giveUp(error: CrashLoopError): void {
    if (this.gaveUp) return;
    this.gaveUp = error;
    this.onEvent({ type: 'gave-up', name: error.processName, error });
    for (const listener of this.giveUpListeners) listener(error);
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

/** 1.2 s, 3 min 4 s, 2 h 5 min: for log lines. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  if (minutes < 60) return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
