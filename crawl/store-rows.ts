/**
 * The crawl tables' rows as their store (store.ts) reads and writes them, and the SQL fragments
 * its statements share.
 */
import type { Database } from '../platform/db';

export type CrawlKind = 'crawl' | 'batch';
export type CrawlStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | 'credit_exhausted';
export type CrawlPageStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'skipped';
export const CRAWL_FINISHED: readonly CrawlStatus[] = ['completed', 'failed', 'cancelled', 'credit_exhausted'];
export const CRAWL_PAGE_STATUSES: readonly CrawlPageStatus[] = ['queued', 'running', 'succeeded', 'failed', 'skipped'];

export interface CrawlRow {
  id: string;
  userId: string;
  apiKeyId: string | null;
  kind: CrawlKind;
  status: CrawlStatus;
  request: unknown;
  workflowId: string;
  pageCost: number;
  resumes: number;
  error: unknown;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface NewPage {
  url: string;
  depth: number;
  /** `skipped` with its reason (robots.txt), else queued. */
  skipped?: { code: string; message: string };
}

export interface ClaimedPage {
  seq: number;
  url: string;
  depth: number;
  runId: string;
}

export interface PageCounts {
  /** Pages in the frontier that are or were to be fetched (skipped ones not included). */
  total: number;
  queued: number;
  running: number;
  completed: number;
  failed: number;
  skipped: number;
}

export interface CrawlPageRow {
  seq: number;
  url: string;
  depth: number;
  status: CrawlPageStatus;
  runId: string | null;
  httpStatus: number | null;
  error: unknown;
}

export const CRAWL_COLUMNS = `id, "userId", "apiKeyId", kind, status, request, "workflowId", "pageCost", resumes, error, "createdAt", "startedAt", "finishedAt"`;

/** `scheme://host[:port]` of a page's URL, in SQL (URLs are normalised: crawl/url.ts, so this is `new URL(url).origin`). */
export const ORIGIN_OF = (alias: string) => `substring(${alias}.url from '^[^/]*//[^/]*')`;

/**
 * The claim's filter of pages kept back: of an origin in `$avoid` (the workflow's: waiting for its
 * politeness delay), or, when `$robots`, of an origin whose robots.txt cannot be read yet (held).
 */
export const HELD_OUT = (alias: string, avoid: number, robots: number) =>
  `NOT (${ORIGIN_OF(alias)} = ANY($${avoid}::text[]))
   AND NOT ($${robots}::boolean AND EXISTS (SELECT 1 FROM crawl_host h WHERE h."crawlId" = ${alias}."crawlId" AND h."robotsRetryAt" IS NOT NULL AND h.origin = ${ORIGIN_OF(alias)}))`;

/** Which queued pages a claim leaves in the frontier (`claim`'s last argument). */
export interface FrontierHold {
  /** Origins the workflow keeps back (one waiting for its politeness delay). */
  avoid: readonly string[];
  /** Keep back pages of origins whose robots.txt cannot be read yet (a crawl that respects robots.txt). */
  robots: boolean;
}

export const NO_HOLD: FrontierHold = { avoid: [], robots: false };

/** robots.txt of one origin of a crawl, as crawl_host keeps it. */
export interface CrawlHostRow {
  robotsStatus: number | null;
  robots: string | null;
  crawlDelayMs: number | null;
  /** Set while it cannot be read: its pages wait, and it is fetched again from then on. */
  robotsRetryAt: Date | null;
  /** When it first could not be read; with robotsRetryAt null, the crawl gave up on the host. */
  robotsFailedSince: Date | null;
  /** robotsRetryAt has passed (by the database's clock). */
  robotsDue: boolean;
}

/** How the store's statements run: one raw query, rows back. */
export type CrawlQuery = <T>(text: string, ...values: unknown[]) => Promise<T[]>;

export function crawlQuery(db: Database): CrawlQuery {
  return <T>(text: string, ...values: unknown[]) => db.$queryRawUnsafe<T[]>(text, ...values);
}
