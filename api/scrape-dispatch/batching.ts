/**
 * Group commit (api/scrape-dispatch.ts): requests of one key gather into batches, and the key's
 * batches go one at a time, each when the previous one is handed over.
 */
import type { Logger } from '../../platform/logger';
import type { ScrapeJob } from '../../workflows/definitions';
import type { HandOver } from './hand-over';
import { type LanePool, answeredOrCap } from './lanes';
import type { Batch, DispatchOptions, DispatcherSettings } from './types';

interface KeyState {
  /** Batches gathering requests, oldest first; the first starts when the key's start in flight is done. */
  open: Batch[];
  starting: boolean;
  /** Requests of this key between submit and answer, in this process. */
  inFlight: number;
  linger?: NodeJS.Timeout;
}

/** Requests that may share a workflow execution: one account, one mode, one target host. */
const batchKey = (job: ScrapeJob) => `${job.userId}|${job.request.mode}|${new URL(job.request.url).hostname}`;

/** A batch's input stays far below Temporal's 2 MB payload limit (a request alone may be up to 1 MiB). */
const MAX_BATCH_BYTES = 256 * 1024;

function newBatch(key: string, job: ScrapeJob, bytes: number, options: DispatchOptions): Batch {
  let resolveStarted!: () => void;
  let rejectStarted!: (error: unknown) => void;
  const started = new Promise<void>((resolve, reject) => {
    resolveStarted = resolve;
    rejectStarted = reject;
  });
  started.catch(() => undefined);
  let resolveAnswered!: () => void;
  const answered = new Promise<void>((resolve) => (resolveAnswered = resolve));
  // A template run's own id; a standalone batch's is its lane's, chosen when it goes (flush).
  return { key, openedAt: Date.now(), workflowId: options.workflowId ?? '', jobs: [job], bytes, options, started, resolveStarted, rejectStarted, waiting: 0, answered, resolveAnswered };
}

export interface Batcher {
  /** Puts the request in a batch of its key (the batch's `started` settles when it is handed over). */
  submit(job: ScrapeJob, options: DispatchOptions): Batch;
  /** The request has its answer (or gave up): one fewer of its key in flight. */
  release(job: ScrapeJob, options: DispatchOptions): void;
}

export function createBatcher(deps: { settings: DispatcherSettings; lanes: LanePool; handOver: HandOver; logger: Logger }): Batcher {
  const { settings } = deps;
  const states = new Map<string, KeyState>();

  function flush(state: KeyState): void {
    clearTimeout(state.linger);
    state.linger = undefined;
    const batch = state.open.shift();
    if (!batch) return;
    if (!batch.options.workflowId) deps.lanes.assign(batch);
    state.starting = true;
    const bySignal = batch.lane?.started === true;
    const started = deps.handOver(batch).then(() => batch.resolveStarted(), (error: unknown) => {
      deps.logger.error({ err: error instanceof Error ? error.message : String(error), workflowId: batch.workflowId, runs: batch.jobs.length }, 'scrape batch could not be started');
      batch.rejectStarted(error);
    });
    // The key's next batch goes when this one is started; after a Signal, also once this one's
    // answers are in, or LANE_SEND_CAP_MS has passed.
    const released = bySignal && !batch.options.async ? started.then(() => answeredOrCap(batch)) : started;
    void released.finally(() => {
      state.starting = false;
      // The requests that gathered meanwhile go together (schedule decides when).
      if (state.open.length) schedule(state);
      else if (state.inFlight === 0) states.delete(batch.key);
    });
  }

  /**
   * When the key's first open batch goes: never while a start of the key is in flight (it goes
   * when that start is done); at once when it is full, or when every request of the key in this
   * process is in it (nobody else could join); else when it has gathered for `lingerMs`.
   */
  function schedule(state: KeyState): void {
    const batch = state.open[0];
    if (!batch || state.starting) return;
    const waited = Date.now() - batch.openedAt;
    if (batch.jobs.length >= settings.maxBatch || state.inFlight <= batch.jobs.length || waited >= settings.lingerMs) {
      flush(state);
      return;
    }
    state.linger ??= setTimeout(() => flush(state), settings.lingerMs - waited);
  }

  return {
    submit(job, options) {
      const bytes = JSON.stringify(job.request).length;
      if (options.workflowId || settings.maxBatch <= 1) {
        // Alone: a template run (its own workflow id and attributes), or batching switched off.
        const batch = newBatch(`alone:${job.runId}`, job, bytes, options);
        const state: KeyState = { open: [batch], starting: false, inFlight: 1 };
        flush(state);
        return batch;
      }
      const key = batchKey(job);
      let state = states.get(key);
      if (!state) {
        state = { open: [], starting: false, inFlight: 0 };
        states.set(key, state);
      }
      state.inFlight++;
      const last = state.open[state.open.length - 1];
      let batch: Batch;
      // Sync and async requests do not share a batch: a lane counts a sync batch's requests until
      // they have their answers, and takes nothing more after an async one (see flush).
      if (last && last.jobs.length < settings.maxBatch && last.bytes + bytes <= MAX_BATCH_BYTES && Boolean(last.options.async) === Boolean(options.async)) {
        last.jobs.push(job);
        last.bytes += bytes;
        batch = last;
      } else {
        batch = newBatch(key, job, bytes, options);
        state.open.push(batch);
      }
      schedule(state);
      return batch;
    },
    release(job, options) {
      if (options.workflowId || settings.maxBatch <= 1) return;
      const key = batchKey(job);
      const state = states.get(key);
      if (!state) return;
      state.inFlight--;
      if (state.inFlight === 0 && !state.starting && state.open.length === 0) states.delete(key);
      // One fewer request that could still join: the open batch may not need to wait any more.
      else schedule(state);
    },
  };
}
