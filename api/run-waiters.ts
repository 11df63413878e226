/**
 * Synchronous requests waiting for their scrape run to finish. A run reaches its waiter by one of:
 * - in-process: the batch ran in this API process (eager start), and the activity that recorded
 *   the outcome hands over the finished run itself, with the balance after its debit: no query;
 * - a notification: the run finished in another process (a browser worker, a worker process that
 *   took over a batch); the `scrape_run_finished` notification names it and the row is read.
 *   A notification of a run whose attempt is still running in this process is not read: it
 *   raced the in-process hand-over (the notification often arrives before the attempt's own
 *   statement returns; measured at concurrency 1, a quarter of the runs were read back for
 *   nothing: docs/benchmarks.md "One client, one scrape at a time"); should that hand-over not
 *   come, the sweep below reads the run;
 * - a sweep: while the notification connection is down, and every `sweepMs` for waiters older
 *   than that, the rows of the waiting runs are read in one query, so a lost notification costs
 *   latency, never an answer.
 */
import type { FinishedRun, ScrapeRunStore } from '../scrape/runs';
import type { PgListener } from '../platform/pg-listener';

export interface FinishedAnswer {
  run: FinishedRun;
  /** The balance right after the run's debit, when the in-process activity knew it. */
  remaining?: number;
}

interface Waiter {
  resolve(answer: FinishedAnswer | null): void;
  since: number;
}

export interface RunWaiters {
  /**
   * Resolves with the finished run, or null when `deadline` (epoch ms) passes first. Register
   * before the run can start: an in-process run may finish before its starter looks again.
   */
  wait(runId: string, deadline: number): Promise<FinishedAnswer | null>;
  /** Gives up waiting for a run (it never started): its waiters resolve with null. */
  forget(runId: string): void;
  /** The in-process path: a run finished here. */
  finished(run: FinishedRun, remaining?: number): void;
  close(): void;
}

export function createRunWaiters(deps: {
  runs: ScrapeRunStore;
  listener: PgListener;
  sweepMs?: number;
  onError?: (error: unknown) => void;
  /** Whether an attempt of the run is running in this process (it hands its run over itself). */
  runningHere?: (runId: string) => boolean;
}): RunWaiters {
  const sweepMs = deps.sweepMs ?? 1000;
  const waiters = new Map<string, Waiter[]>();

  const deliver = (answer: FinishedAnswer) => {
    const list = waiters.get(answer.run.id);
    if (!list) return;
    waiters.delete(answer.run.id);
    for (const waiter of list) waiter.resolve(answer);
  };

  const readAndDeliver = async (runIds: string[]) => {
    if (runIds.length === 0) return;
    try {
      for (const run of await deps.runs.finished(runIds)) deliver({ run });
    } catch (error) {
      deps.onError?.(error);
    }
  };

  deps.listener.on('scrape_run_finished', (runId) => {
    if (waiters.has(runId) && !deps.runningHere?.(runId)) void readAndDeliver([runId]);
  });
  // Back from a gap: whatever finished meanwhile was not announced to us.
  deps.listener.onState((listening) => {
    if (listening) void readAndDeliver([...waiters.keys()]);
  });
  const sweep = setInterval(() => {
    const now = Date.now();
    const due = [...waiters].filter(([, list]) => !deps.listener.listening() || list.some((w) => now - w.since >= sweepMs)).map(([id]) => id);
    void readAndDeliver(due);
  }, sweepMs);
  sweep.unref();

  return {
    wait(runId, deadline) {
      return new Promise((resolve) => {
        const waiter: Waiter = {
          since: Date.now(),
          resolve: (answer) => {
            clearTimeout(timer);
            resolve(answer);
          },
        };
        waiters.set(runId, [...(waiters.get(runId) ?? []), waiter]);
        const timer = setTimeout(() => {
          const rest = (waiters.get(runId) ?? []).filter((w) => w !== waiter);
          if (rest.length) waiters.set(runId, rest);
          else waiters.delete(runId);
          resolve(null);
        }, Math.max(0, deadline - Date.now()));
      });
    },
    finished(run, remaining) {
      deliver({ run, remaining });
    },
    forget(runId) {
      const list = waiters.get(runId) ?? [];
      waiters.delete(runId);
      for (const waiter of list) waiter.resolve(null);
    },
    close() {
      clearInterval(sweep);
      for (const list of waiters.values()) for (const waiter of list) waiter.resolve(null);
      waiters.clear();
    },
  };
}
