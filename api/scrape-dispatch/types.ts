/** The dispatcher's shapes, shared by its parts (api/scrape-dispatch.ts describes how they fit). */
import type { Client } from '@temporalio/client';
import type { ScrapeJob } from '../../workflows/definitions';

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

export interface DispatcherSettings {
  /** Most scrapes in one workflow execution; 1 turns batching off. */
  maxBatch: number;
  /** With other requests of the key in flight, how long a new batch waits for company. */
  lingerMs: number;
}

export interface Batch {
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

/**
 * A running scrapeLaneWorkflow of one key, started by this process. It takes a batch only when
 * none of its earlier scrapes is in flight: its workflow task stays open while a local activity
 * runs, and a batch handed over meanwhile waits for that task, so a busy lane would hold the next
 * batch behind a slow page (measured: 5.9 s behind a 6 s page; docs/benchmarks.md "A lane
 * prototype").
 */
export interface Lane {
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
