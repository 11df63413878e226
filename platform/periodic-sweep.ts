/**
 * A pass that runs every `intervalMs` in the background (the API's sweeps: api/orphan-runs.ts,
 * api/closed-workflow-runs.ts): one pass at a time (a call while one runs joins it), a failed pass
 * logged and tried again at the next tick, the timer never keeping the process alive.
 */
import type { Logger } from './logger';

export interface PeriodicSweep {
  /** One pass now (or the one under way); resolves with what the pass returns. */
  sweep(): Promise<number>;
  close(): void;
}

export function periodicSweep(pass: () => Promise<number>, options: { intervalMs: number; logger: Logger; failure: string }): PeriodicSweep {
  let running: Promise<number> | undefined;
  const sweep = () => (running ??= pass().finally(() => (running = undefined)));
  const timer = setInterval(() => {
    sweep().catch((error: unknown) => options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, options.failure));
  }, options.intervalMs);
  timer.unref();
  return { sweep, close: () => clearInterval(timer) };
}
