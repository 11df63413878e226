/**
 * The `scrape_run` row as its store (runs.ts) reads and writes it: statuses, the shapes recorded
 * and answered, and the SQL fragments every guarded statement shares.
 */
import type { SqlPool } from '../platform/sql';
import type { ErrorCode } from '../platform/errors';

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'cached' | 'failed' | 'cancelled';
export const TERMINAL_STATUSES: readonly RunStatus[] = ['succeeded', 'cached', 'failed', 'cancelled'];

/** What the API answers from: the row's columns a run body and an error body read. */
export interface FinishedRun {
  id: string;
  url: string;
  mode: string;
  status: RunStatus;
  attempts: number;
  cost: number;
  request: unknown;
  result: unknown;
  error: unknown;
  httpStatus: number | null;
  elapsedMs: number | null;
  /** A `cached` run (the results cache): when the run whose result it answered with finished. */
  cachedAt?: Date | null;
  /** An `auto` run's attempts (docs/scraping.md "Escalation"); null otherwise. */
  escalation?: unknown;
}

export interface NewRun {
  id: string;
  userId: string;
  apiKeyId: string | null;
  workflowId: string;
  mode: string;
  url: string;
  request: unknown;
  cost: number;
}

/** One attempt through an outbound proxy: which one (`host:port`, never credentials) and how it ended. */
export interface ProxyAttempt {
  attempt: number;
  proxy: string;
  /** `succeeded`, or the attempt's error code (PROXY_FAILED, SCRAPE_FAILED, TARGET_ERROR …). */
  outcome: 'succeeded' | ErrorCode;
  message?: string;
}

export interface RunFailure {
  code: ErrorCode;
  message: string;
  refunded?: boolean;
}

/** A crawl's claimed pages' runs (crawl/store.ts `claim`): what the scrape route would record for each page. */
export interface PageRunTemplate {
  userId: string;
  apiKeyId: string | null;
  workflowId: string;
  mode: string;
  cost: number;
  /** The page request without `url` (set per page). */
  request: Record<string, unknown>;
}

/** A flow node's scrape (activities/flow.ts): a run recorded with its flow run, node and item. */
export interface NewFlowRun extends NewRun {
  flowRunId: string;
  flowNodeId: string;
  flowItemIndex: number | null;
}

/** The part of platform/sql.ts the store runs its statements on. */
export type RunSql = Pick<SqlPool, '$queryRaw' | 'query' | 'transaction'>;

/** The statuses a transition may leave: every write of an outcome is guarded by it. */
export const LIVE = `('queued', 'running')`;
export const FINISHED_COLUMNS = `id, url, mode, status::text AS status, attempts, cost, request, result, error, "httpStatus", "elapsedMs", "cachedAt", escalation`;
