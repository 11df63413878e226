/**
 * The scrape attempts running in this process, by run (docs/scraping.md "Cancelling a run").
 * A cancel must stop one run's fetch without touching the runs beside it, and a batch's first
 * attempts are ONE local activity (activities/scrape/batch.ts): cancelling that activity would
 * stop its neighbours too. So every attempt registers here with an abort controller of its own,
 * and a cancel aborts the run's controller in the process that runs it: at once when the
 * cancelling API process runs it, else when the run's lane hears the cancel Signal (its
 * `cancelScrapes` local activity runs in the lane's process, where the attempt runs).
 */
export interface RunningAttempt {
  /** Aborts when the activity is cancelled or the run is cancelled here. */
  signal: AbortSignal;
  /** Whether this attempt was stopped by a cancel of its run (not by its activity's own cancel). */
  cancelled(): boolean;
  /** The attempt ended: forget it. */
  end(): void;
}

export interface RunningAttempts {
  /** Registers an attempt of `runId`, whose activity's cancellation is `signal` (if any). */
  start(runId: string, signal?: AbortSignal): RunningAttempt;
  /** Aborts every attempt of `runId` running in this process; true when there was one. */
  abort(runId: string): boolean;
  /** Whether an attempt of `runId` is running in this process now. */
  has(runId: string): boolean;
}

export function createRunningAttempts(): RunningAttempts {
  const byRun = new Map<string, Set<AbortController>>();
  return {
    start(runId, signal) {
      const own = new AbortController();
      let set = byRun.get(runId);
      if (!set) byRun.set(runId, (set = new Set()));
      set.add(own);
      return {
        signal: signal ? AbortSignal.any([signal, own.signal]) : own.signal,
        cancelled: () => own.signal.aborted,
        end() {
          const current = byRun.get(runId);
          current?.delete(own);
          if (current?.size === 0) byRun.delete(runId);
        },
      };
    },
    abort(runId) {
      const set = byRun.get(runId);
      if (!set) return false;
      for (const controller of set) controller.abort(new Error(`the run ${runId} was cancelled`));
      return true;
    },
    has: (runId) => byRun.has(runId),
  };
}
