/**
 * Starts one of our own entry points (the API, a worker) as a supervised child process: under
 * tsx, in its own process group (Ctrl-C reaches the supervisor only, which stops the children in
 * order), with a stdin pipe whose closing tells it that the supervisor died (EXIT_WITH_PARENT).
 * Its output is passed on line by line and the last lines are kept.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import readline from 'node:readline';
import type { ChildHandle, ExitInfo, OutputTail } from './supervisor';

export interface NodeProcessOptions {
  /** Absolute path of the TypeScript entry point. */
  entry: string;
  cwd: string;
  env: Record<string, string | undefined>;
  output: OutputTail;
  /** Each line the process prints, as it prints it (the supervisor's own stdout/stderr). */
  forward: (line: string, stream: 'stdout' | 'stderr') => void;
  /**
   * Ready when a line matches, when `check(pid)` answers true (asked every 200 ms), or when the
   * URL answers 2xx.
   */
  ready: { line?: RegExp; check?: (pid: number) => Promise<boolean> } | { url: string };
  signal: AbortSignal;
  /** Start-up longer than this counts as a failed start (the process is killed). */
  startTimeoutMs: number;
  /** How long a graceful stop (SIGTERM) may take before SIGKILL. */
  stopTimeoutMs?: number;
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

export async function startNodeProcess(options: NodeProcessOptions): Promise<ChildHandle> {
  const child = spawn(process.execPath, ['--import', 'tsx', options.entry], {
    cwd: options.cwd,
    env: { ...options.env, EXIT_WITH_PARENT: 'true' },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  // A child that has died makes writes to its stdin fail: that is expected, not a supervisor crash.
  child.stdin?.on('error', () => undefined);

  let readyLine = false;
  const lineReady = 'url' in options.ready ? undefined : options.ready.line;
  const ready = async (): Promise<boolean> => {
    if ('url' in options.ready) return answers(options.ready.url);
    if (readyLine) return true;
    return options.ready.check && child.pid ? options.ready.check(child.pid).catch(() => false) : false;
  };
  const streamsClosed: Array<Promise<unknown>> = [];
  for (const [stream, name] of [
    [child.stdout, 'stdout'],
    [child.stderr, 'stderr'],
  ] as const) {
    if (!stream) continue;
    const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
    streamsClosed.push(once(lines, 'close'));
    lines.on('line', (line) => {
      options.output.push(line);
      options.forward(line, name);
      if (lineReady?.test(line)) readyLine = true;
    });
  }

  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('exit', (code, signal) => {
      // Let the last lines arrive (the give-up message quotes them), but never wait on a pipe
      // that a grandchild may still hold open.
      const done = () => resolve({ code, signal });
      const grace = setTimeout(done, 1000);
      void Promise.all(streamsClosed).then(() => {
        clearTimeout(grace);
        done();
      });
    });
  });
  let exitInfo: ExitInfo | undefined;
  void exited.then((info) => (exitInfo = info));
  const running = () => child.exitCode === null && child.signalCode === null;

  const stop = async () => {
    if (running()) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), options.stopTimeoutMs ?? 30_000);
      await exited;
      clearTimeout(timer);
    } else {
      await exited;
    }
  };

  const deadline = Date.now() + options.startTimeoutMs;
  try {
    for (;;) {
      if (exitInfo || !running()) {
        const info = exitInfo ?? (await exited);
        throw new Error(`exited during start-up (${info.signal ? `signal ${info.signal}` : `code ${info.code}`})`);
      }
      if (options.signal.aborted) throw new Error('start-up aborted');
      if (Date.now() > deadline) throw new Error(`not ready within ${options.startTimeoutMs} ms`);
      if (await ready()) break;
      await Promise.race([new Promise((r) => setTimeout(r, 200)), exited]);
    }
  } catch (error) {
    if (running()) killGroup(child.pid, 'SIGKILL');
    await exited;
    throw error;
  }
  return { pid: child.pid, exited, stop };
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}
