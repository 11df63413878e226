/**
 * Standalone scrapes from this API process (POST /webhook/unblocker, template runs): records each
 * run, hands it to a workflow execution, and waits for its outcome.
 *
 * Group commit. Requests of one account, mode and target host are gathered into one batch: while
 * that key's previous batch is still being handed over, and while other requests of the key are in
 * flight here and could join, for at most `lingerMs`. A lone request goes at once; under load, a
 * batch gathers what arrives meanwhile. Each scrape keeps its own run row, debit, retries, refund
 * and outcome, and the search attribute ScrapeRunIds of its execution lists it, so each run is
 * found in the Temporal UI by its id (and by its account, AccountId).
 *
 * Lanes. What a scrape costs Temporal is mostly per workflow execution (docs/benchmarks.md), so a
 * batch does not get one of its own: it goes to a lane, a long-lived `scrapeLaneWorkflow` of its
 * key started by this process. The lane's first batch starts it; later batches are Signals to it.
 * A lane takes a batch only when nothing of it is in flight (see Lane), at most LANE_MAX_RUNS runs,
 * and is left after LANE_REUSE_MS unused. Template runs keep an execution of their own
 * (`scrapeBatchWorkflow` under their business id).
 *
 * An http lane is started eagerly when this process's worker runs: the server hands the first
 * workflow task straight back, so the lane runs here (its later tasks come to this worker's sticky
 * queue), and its activities tell the waiting requests in-process (api/run-waiters.ts). A browser
 * lane starts on the browser queue: the browser worker runs it and renders its pages as local
 * activities.
 */
import { randomUUID } from 'node:crypto';
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { type SearchAttributePair, SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import type { Logger } from '../platform/logger';
import type { FinishedRun, ScrapeRunStore } from '../scrape/runs';
import { LANE_MAX_RUNS, type ScrapeBatchWorkflowInput, type ScrapeJob, type TaskQueues, scrapeLaneSignalName, workflowIds } from '../workflows/definitions';
import type { FinishedAnswer, RunWaiters } from './run-waiters';
import { SCRAPE_ENGINES, engineQueueBeside } from '../scrape/engines';

export const SEARCH_ATTRIBUTE_KEYS = {
  accountId: defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD),
  scrapeMode: defineSearchAttributeKey('ScrapeMode', SearchAttributeType.KEYWORD),
  targetHost: defineSearchAttributeKey('TargetHost', SearchAttributeType.KEYWORD),
  scrapeRunIds: defineSearchAttributeKey('ScrapeRunIds', SearchAttributeType.KEYWORD_LIST),
  templateId: defineSearchAttributeKey('TemplateId', SearchAttributeType.KEYWORD),
} as const;

/** What the dispatcher needs of the process's Temporal connection. */
export interface TemporalStarter {
  get(): Promise<Client>;
  /** true when a worker of this process polls the sync queue on the client's connection (eager start possible). */
  eagerStartAvailable(): boolean;
}

export interface DispatchOptions {
  async: boolean;
  /** Epoch ms after which a synchronous request stops waiting (504 with the run id). */
  deadline: number;
  /** A workflow of its own under this id (template runs): not batched. */
  workflowId?: string;
  templateId?: string;
  memo?: Record<string, unknown>;
}

export type DispatchOutcome = { status: 'queued'; workflowId: string } | { status: 'finished'; workflowId: string; answer: FinishedAnswer } | { status: 'timeout'; workflowId: string };

export interface ScrapeDispatcher {
  run(job: ScrapeJob, options: DispatchOptions): Promise<DispatchOutcome>;
  /** A recorded run (any status), or null (an Idempotency-Key repeat looks for its first request's run). */
  find(runId: string): Promise<FinishedRun | null>;
  /** Waits for a run started by another request (here or on another replica) to finish; null when `deadline` passes first. */
  awaitRun(runId: string, deadline: number): Promise<FinishedAnswer | null>;
}

export interface DispatcherSettings {
  /** Most scrapes in one workflow execution; 1 turns batching off. */
  maxBatch: number;
  /** With other requests of the key in flight, how long a new batch waits for company. */
  lingerMs: number;
}

interface Batch {
  key: string;
  /** The lane it goes to (standalone batches; template runs have their own execution). */
  lane?: Lane;
  /** Its requests still waiting for their answers here (see `answered`). */
  waiting: number;
  /** Resolved when every request of it that waits here has its answer (or gave up). */
  answered: Promise<void>;
  resolveAnswered: () => void;
  /** When its first request arrived (it gathers for at most `lingerMs` from then). */
  openedAt: number;
  workflowId: string;
  jobs: ScrapeJob[];
  bytes: number;
  options: DispatchOptions;
  started: Promise<void>;
  resolveStarted(): void;
  rejectStarted(error: unknown): void;
}

interface KeyState {
  /** Batches gathering requests, oldest first; the first starts when the key's start in flight is done. */
  open: Batch[];
  starting: boolean;
  /** Requests of this key between submit and answer, in this process. */
  inFlight: number;
  linger?: NodeJS.Timeout;
}

/**
 * A running scrapeLaneWorkflow of one key, started by this process. It takes a batch only when
 * none of its earlier scrapes is in flight: its workflow task stays open while a local activity
 * runs, and a batch handed over meanwhile waits for that task, so a busy lane would hold the next
 * batch behind a slow page (measured: 5.9 s behind a 6 s page; docs/benchmarks.md "A lane
 * prototype").
 */
interface Lane {
  workflowId: string;
  /** Runs sent to it. */
  runs: number;
  /** Its scrapes whose requests are still waiting here. */
  busy: number;
  usedAt: number;
  started: boolean;
  /**
   * It takes no further batch: a start or Signal to it failed, it took an async batch (whose end
   * is not seen here), or a request of it gave up (see run).
   */
  retired?: boolean;
}

/**
 * A lane unused for this long is not used again (it ends by itself 60 s after its last batch:
 * workflows/scrape.workflow.ts LANE_IDLE_END), so a Signal never races its end.
 */
const LANE_REUSE_MS = 45_000;

/**
 * How long the key's next batch waits, after this one's Signal, for this one's answers. Waiting
 * lets the next batch gather more requests (fewer hand-overs under load); the cap keeps a slow
 * page from holding it (docs/benchmarks.md "A lane prototype", measured with Updates, whose
 * acceptance came about when the answers did: no wait 70–79 req/s at c=32, 50 ms 86–93, 200 ms 105).
 */
const LANE_SEND_CAP_MS = 200;

/**
 * The same for an `own-queue` engine (browser): its pages take seconds under load, and each
 * batch costs the Temporal server and the API about the same whatever its size, so waiting
 * longer gathers more pages per batch.
 */
const LANE_SEND_CAP_OWN_QUEUE_MS = 1000;

/** The batch's answers, or its cap, whichever comes first. */
function answeredOrCap(batch: Batch): Promise<void> {
  const ms = SCRAPE_ENGINES[batch.jobs[0]!.request.mode].placement === 'own-queue' ? LANE_SEND_CAP_OWN_QUEUE_MS : LANE_SEND_CAP_MS;
  let cap: NodeJS.Timeout | undefined;
  return Promise.race([batch.answered, new Promise<void>((resolve) => (cap = setTimeout(resolve, ms)))]).finally(() => clearTimeout(cap));
}

/** Requests that may share a workflow execution: one account, one mode, one target host. */
const batchKey = (job: ScrapeJob) => `${job.userId}|${job.request.mode}|${new URL(job.request.url).hostname}`;

/** A batch's input stays far below Temporal's 2 MB payload limit (a request alone may be up to 1 MiB). */
const MAX_BATCH_BYTES = 256 * 1024;

export function createScrapeDispatcher(deps: {
  temporal: TemporalStarter;
  runs: ScrapeRunStore;
  waiters: RunWaiters;
  queues: TaskQueues;
  logger: Logger;
  settings: DispatcherSettings;
}): ScrapeDispatcher {
  const { settings } = deps;
  const states = new Map<string, KeyState>();
  // Lanes by key; they outlive the key's requests (LANE_REUSE_MS).
  const lanes = new Map<string, Lane[]>();
  const instance = randomUUID().slice(0, 8);
  let laneCount = 0;
  const pruneLanes = setInterval(() => {
    const now = Date.now();
    for (const [key, list] of lanes) {
      const live = list.filter((lane) => worthKeeping(lane, now));
      if (live.length) lanes.set(key, live);
      else lanes.delete(key);
    }
  }, LANE_REUSE_MS);
  pruneLanes.unref();

  const usable = (lane: Lane, now: number, runs: number) =>
    !lane.retired && lane.busy === 0 && lane.runs + runs <= LANE_MAX_RUNS && now - lane.usedAt <= LANE_REUSE_MS;

  /** A lane that may take a batch again, or whose requests are still waiting here. */
  const worthKeeping = (lane: Lane, now: number) => usable(lane, now, 0) || lane.busy > 0;

  /** An idle lane of the key with room for `runs`, or a new one. */
  function laneFor(key: string, runs: number): Lane {
    const now = Date.now();
    const list = (lanes.get(key) ?? []).filter((lane) => worthKeeping(lane, now));
    lanes.set(key, list);
    let lane = list.find((candidate) => usable(candidate, now, runs));
    if (!lane) {
      lane = { workflowId: workflowIds.scrapeLane(instance, laneCount++), runs: 0, busy: 0, usedAt: now, started: false };
      list.push(lane);
    }
    return lane;
  }

  /** Gives a standalone batch to a lane of its key (moving it off the one it had, if any). */
  function assignLane(batch: Batch): void {
    const sync = !batch.options.async;
    if (batch.lane && sync) batch.lane.busy -= batch.jobs.length;
    const lane = laneFor(batch.key, batch.jobs.length);
    lane.usedAt = Date.now();
    lane.runs += batch.jobs.length;
    if (sync) lane.busy += batch.jobs.length;
    else lane.retired = true;
    batch.lane = lane;
    batch.workflowId = lane.workflowId;
  }

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

  async function start(batch: Batch): Promise<void> {
    const [first] = batch.jobs;
    const { request, userId } = first!;
    await deps.runs.insert(
      batch.jobs.map((job) => ({ id: job.runId, userId: job.userId, apiKeyId: job.apiKeyId, workflowId: batch.workflowId, mode: job.request.mode, url: job.request.url, request: job.request, cost: job.cost })),
    );
    try {
      const client = await deps.temporal.get();
      const attributes: SearchAttributePair[] = [
        { key: SEARCH_ATTRIBUTE_KEYS.accountId, value: userId },
        { key: SEARCH_ATTRIBUTE_KEYS.scrapeMode, value: request.mode },
        { key: SEARCH_ATTRIBUTE_KEYS.targetHost, value: new URL(request.url).hostname },
        { key: SEARCH_ATTRIBUTE_KEYS.scrapeRunIds, value: batch.jobs.map((job) => job.runId) },
      ];
      if (batch.options.templateId) attributes.push({ key: SEARCH_ATTRIBUTE_KEYS.templateId, value: batch.options.templateId });
      // A batch of an `own-queue` engine (browser) runs where its pages are done (each a local
      // activity there); of a `with-workflow` engine (http) on the sync queue, eagerly in this
      // process when its worker runs (scrape/engines.ts).
      const ownQueue = SCRAPE_ENGINES[request.mode].placement === 'own-queue';
      const input: ScrapeBatchWorkflowInput = { scrapes: batch.jobs, browserQueue: deps.queues.browser, ...(ownQueue ? { renderLocally: true } : {}) };
      const taskQueue = ownQueue ? engineQueueBeside(deps.queues.browser, request.mode) : deps.queues.sync;
      const memo = { accountId: userId, ...batch.options.memo };
      const eager = !ownQueue && deps.temporal.eagerStartAvailable();
      const { lane } = batch;
      if (!lane) {
        // A template run: an execution of its own, under its business id.
        await client.workflow.start('scrapeBatchWorkflow', {
          taskQueue,
          workflowId: batch.workflowId,
          args: [input],
          memo: { ...memo, runs: batch.jobs.map((job) => ({ id: job.runId, url: job.request.url })) },
          typedSearchAttributes: attributes,
          requestEagerStart: eager,
        });
        return;
      }
      const toLane = async (target: Lane) => {
        if (!target.started) {
          // A lane's first batch starts it (eagerly: it then runs in this process).
          target.started = true;
          await client.workflow.start('scrapeLaneWorkflow', { taskQueue, workflowId: target.workflowId, args: [input], memo, typedSearchAttributes: attributes, requestEagerStart: eager });
          return;
        }
        // Later batches are Signals to it: written to its history before this returns, so durable
        // before any of their scrapes starts (workflows/scrape.workflow.ts scrapeLaneSignal).
        await client.workflow.getHandle(target.workflowId).signal(scrapeLaneSignalName, input);
      };
      try {
        await toLane(lane);
      } catch (error) {
        // The lane has ended (an operator cancelled or terminated it, or this process stalled
        // past LANE_REUSE_MS): the Signal was not written, so the batch goes to another lane.
        if (!(error instanceof WorkflowNotFoundError)) throw error;
        lane.retired = true;
        assignLane(batch);
        await deps.runs.reassign(batch.jobs.map((job) => job.runId), batch.workflowId);
        await toLane(batch.lane!);
      }
    } catch (error) {
      // A lane that failed a start or a Signal is not used again (the next batch starts a new one).
      if (batch.lane) batch.lane.retired = true;
      // Never leave a run half-recorded: it did not start, nothing was debited.
      await deps.runs.failUnstarted(
        batch.jobs.map((job) => job.runId),
        { code: 'INTERNAL', message: 'the run could not be started' },
      );
      throw error;
    }
  }

  function flush(state: KeyState): void {
    clearTimeout(state.linger);
    state.linger = undefined;
    const batch = state.open.shift();
    if (!batch) return;
    if (!batch.options.workflowId) assignLane(batch);
    state.starting = true;
    const bySignal = batch.lane?.started === true;
    const started = start(batch).then(() => batch.resolveStarted(), (error: unknown) => {
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

  function submit(job: ScrapeJob, options: DispatchOptions): Batch {
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

  function release(job: ScrapeJob, options: DispatchOptions): void {
    if (options.workflowId || settings.maxBatch <= 1) return;
    const key = batchKey(job);
    const state = states.get(key);
    if (!state) return;
    state.inFlight--;
    if (state.inFlight === 0 && !state.starting && state.open.length === 0) states.delete(key);
    // One fewer request that could still join: the open batch may not need to wait any more.
    else schedule(state);
  }

  return {
    find: (runId) => deps.runs.byId(runId),
    async awaitRun(runId, deadline) {
      // Registered before the read: a run finishing in between is not missed. When the read finds
      // it finished, the waiter is left to the sweep (api/run-waiters.ts), which delivers it within sweepMs.
      const answer = deps.waiters.wait(runId, deadline);
      const [done] = await deps.runs.finished([runId]);
      return done ? { run: done } : answer;
    },
    async run(job, options) {
      // Registered before the start: an in-process run may finish before we look again.
      const answer = options.async ? undefined : deps.waiters.wait(job.runId, options.deadline);
      const batch = submit(job, options);
      if (answer) batch.waiting++;
      let ended = false;
      try {
        try {
          // An answer can come before the start's or Signal's reply does (the lane ran it meanwhile).
          await (answer ? Promise.race([batch.started, answer]) : batch.started);
        } catch (error) {
          deps.waiters.forget(job.runId);
          throw error;
        }
        if (!answer) return { status: 'queued', workflowId: batch.workflowId };
        const finished = await answer;
        // A run cancelled by its owner is answered before its attempt has stopped (that waits for
        // its lane to hear the cancel), so the lane is treated as one whose request gave up.
        ended = finished !== null && finished.run.status !== 'cancelled';
        return finished ? { status: 'finished', workflowId: batch.workflowId, answer: finished } : { status: 'timeout', workflowId: batch.workflowId };
      } finally {
        if (batch.lane && !options.async) {
          batch.lane.busy--;
          // Not seen to end (a 504, a failed start): its scrape may still hold the lane's workflow
          // task (a database outage retrying its activity), so the lane takes no further batch.
          if (!ended) batch.lane.retired = true;
        }
        if (answer && --batch.waiting === 0) batch.resolveAnswered();
        release(job, options);
      }
    },
  };
}
