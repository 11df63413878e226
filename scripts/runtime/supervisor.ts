/**
 * The process manager behind `npm start` (docs/operations.md): it starts each process once its
 * dependencies run, restarts any that exits without being asked to, with exponential backoff,
 * and gives up — naming the process and quoting its last lines — when one keeps failing at
 * start-up. It knows nothing of PostgreSQL or Temporal: each process is a `start()` that
 * resolves once the process is ready and a handle to stop it or learn that it exited.
 *
 * It also watches the processes that run (the watchdog, watchdog.ts): one whose health check has
 * not passed for `hangMs` (alive but not answering), or whose resident memory stays over
 * `memoryLimitBytes`, is stopped — its own graceful stop, then SIGKILL after `killGraceMs` — and
 * restarted like a process that exited, with that cause.
 *
 * Its policies are in supervisor-policy.ts, the shapes it manages and reports in
 * supervisor-types.ts; this module re-exports both, so callers import the supervisor from here.
 */
import { EventEmitter } from 'node:events';
import { DEFAULT_RESTART_POLICY, DEFAULT_WATCHDOG_POLICY, type RestartPolicy, type RestartReason, type WatchdogPolicy, formatDuration } from './supervisor-policy';
import { type ChildHandle, CrashLoopError, type ExitInfo, OutputTail, type ProcessSpec, type ProcessState, type ProcessStatus, type ServiceState, type SupervisorEvent, type SupervisorStatus, describeExit } from './supervisor-types';
import { Watchdog, type WatchedProcess } from './watchdog';

export * from './supervisor-policy';
export * from './supervisor-types';
export { residentBytes } from './watchdog';

/** Thrown inside the supervisor when a start is abandoned because everything is stopping. */
class Stopped extends Error {}

/** A supervised process and its bookkeeping (the watchdog's fields: WatchedProcess). */
interface Managed extends WatchedProcess {
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
}

export class Supervisor {
  private readonly processes = new Map<string, Managed>();
  private readonly changes = new EventEmitter();
  private readonly policy: RestartPolicy;
  private readonly watchdog: Watchdog;
  private readonly onEvent: (event: SupervisorEvent) => void;
  /** Lines kept per process for the give-up message. */
  private readonly outputLines: number;
  private readonly giveUpListeners: Array<(error: CrashLoopError) => void> = [];
  private stopping = false;
  private gaveUp?: CrashLoopError;

  constructor(options: { policy?: Partial<RestartPolicy>; watchdog?: Partial<WatchdogPolicy>; onEvent?: (event: SupervisorEvent) => void; outputLines?: number } = {}) {
    this.policy = { ...DEFAULT_RESTART_POLICY, ...options.policy };
    this.watchdog = new Watchdog(
      { ...DEFAULT_WATCHDOG_POLICY, ...options.watchdog },
      { processes: () => this.processes.values(), stopping: () => this.stopping, onEvent: (event) => this.onEvent(event) },
    );
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
    this.watchdog.stop();
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
      this.watchdog.start();
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

  private giveUp(error: CrashLoopError): void {
    if (this.gaveUp) return;
    this.gaveUp = error;
    this.onEvent({ type: 'gave-up', name: error.processName, error });
    for (const listener of this.giveUpListeners) listener(error);
  }
}
