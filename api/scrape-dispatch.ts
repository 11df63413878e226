/**
 * Standalone scrapes from this API process (POST /webhook/unblocker, template runs): records each
 * run, starts it in a `scrapeBatchWorkflow` on the sync task queue, and waits for its outcome.
 *
 * Group commit. Requests of one account, mode and target host are gathered into one workflow
 * execution: while that key's previous start is still under way, and while other requests of the
 * key are in flight here and could join, for at most `lingerMs`. A lone request starts at once;
 * under load, a batch gathers what arrives meanwhile. What a scrape costs Temporal is per workflow execution (~20 ms of CPU in the server and
 * as much in the SDK, whatever the batch size: docs/benchmarks.md), so under load this is what
 * keeps a scrape cheap; at concurrency 1 it adds nothing. Each scrape keeps its own run row,
 * debit, retries, refund and outcome; the workflow id is `scrape-<first run id>` and the search
 * attribute ScrapeRunIds lists every run, so each is found in the Temporal UI by its id.
 *
 * An http batch asks for an eager start when this process's worker runs: the server hands the
 * first workflow task straight back, so the batch runs here with no task-queue round trip, and its
 * activities tell the waiting requests in-process (api/run-waiters.ts). A browser batch starts on
 * the browser queue: the browser worker runs it and renders its pages as local activities.
 */
import type { Client } from '@temporalio/client';
import { type SearchAttributePair, SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import type { Logger } from '../lib/logger';
import type { FinishedRun, ScrapeRunStore } from '../lib/scrape-runs';
import type { ScrapeBatchWorkflowInput, ScrapeJob, TaskQueues } from '../workflows/definitions';
import type { FinishedAnswer, RunWaiters } from './run-waiters';

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

  function newBatch(key: string, job: ScrapeJob, bytes: number, options: DispatchOptions): Batch {
    let resolveStarted!: () => void;
    let rejectStarted!: (error: unknown) => void;
    const started = new Promise<void>((resolve, reject) => {
      resolveStarted = resolve;
      rejectStarted = reject;
    });
    started.catch(() => undefined);
    return { key, openedAt: Date.now(), workflowId: options.workflowId ?? `scrape-${job.runId}`, jobs: [job], bytes, options, started, resolveStarted, rejectStarted };
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
      // A browser batch runs where the pages are rendered (its renders are local activities there);
      // an http batch on the sync queue, eagerly in this process when its worker runs.
      const browser = request.mode === 'browser';
      const input: ScrapeBatchWorkflowInput = { scrapes: batch.jobs, browserQueue: deps.queues.browser, ...(browser ? { renderLocally: true } : {}) };
      await client.workflow.start('scrapeBatchWorkflow', {
        taskQueue: browser ? deps.queues.browser : deps.queues.sync,
        workflowId: batch.workflowId,
        args: [input],
        memo: { accountId: userId, runs: batch.jobs.map((job) => ({ id: job.runId, url: job.request.url })), ...batch.options.memo },
        typedSearchAttributes: attributes,
        requestEagerStart: !browser && deps.temporal.eagerStartAvailable(),
      });
    } catch (error) {
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
    state.starting = true;
    start(batch).then(() => batch.resolveStarted(), (error: unknown) => {
      deps.logger.error({ err: error instanceof Error ? error.message : String(error), workflowId: batch.workflowId, runs: batch.jobs.length }, 'scrape batch could not be started');
      batch.rejectStarted(error);
    }).finally(() => {
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
    if (last && last.jobs.length < settings.maxBatch && last.bytes + bytes <= MAX_BATCH_BYTES) {
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
      try {
        try {
          await batch.started;
        } catch (error) {
          deps.waiters.forget(job.runId);
          throw error;
        }
        if (!answer) return { status: 'queued', workflowId: batch.workflowId };
        const finished = await answer;
        return finished ? { status: 'finished', workflowId: batch.workflowId, answer: finished } : { status: 'timeout', workflowId: batch.workflowId };
      } finally {
        release(job, options);
      }
    },
  };
}
