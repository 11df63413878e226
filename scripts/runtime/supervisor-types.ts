/**
 * What the supervisor manages and what it reports: a supervised process (its spec, its started
 * handle, its last lines), the states it passes through, the service's status and the events
 * `npm start` prints and counts.
 */
import { type RestartReason, formatDuration } from './supervisor-policy';

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

/** "signal SIGKILL" / "code 1": how a process ended. */
export function describeExit(exit: ExitInfo): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code ?? '?'}`;
}
