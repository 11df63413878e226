/**
 * The crawl tables' one owner (docs/crawl.md "Tables"): `crawl` (the job), `crawl_page` (the
 * frontier: one row per normalised URL, UNIQUE (crawlId, url), so a URL is fetched at most once
 * per crawl whatever finds it twice) and `crawl_host` (robots.txt of each origin, fetched once).
 * Every transition is guarded (`… WHERE status = …`), so a retried activity or a replayed
 * workflow changes nothing twice. Each claimed page is an ordinary `scrape_run` row (workflowId
 * `crawl-<id>`), recorded in the same transaction as the claim by its own store (scrape/runs.ts).
 */
import type { Database } from '../platform/db';
import { type PageRunTemplate, recordClaimedPageRuns } from '../scrape/runs';

export type { PageRunTemplate } from '../scrape/runs';

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

const CRAWL_COLUMNS = `id, "userId", "apiKeyId", kind, status, request, "workflowId", "pageCost", resumes, error, "createdAt", "startedAt", "finishedAt"`;

/** `scheme://host[:port]` of a page's URL, in SQL (URLs are normalised: crawl/url.ts, so this is `new URL(url).origin`). */
const ORIGIN_OF = (alias: string) => `substring(${alias}.url from '^[^/]*//[^/]*')`;

/**
 * The claim's filter of pages kept back: of an origin in `$avoid` (the workflow's: waiting for its
 * politeness delay), or, when `$robots`, of an origin whose robots.txt cannot be read yet (held).
 */
const HELD_OUT = (alias: string, avoid: number, robots: number) =>
  `NOT (${ORIGIN_OF(alias)} = ANY($${avoid}::text[]))
   AND NOT ($${robots}::boolean AND EXISTS (SELECT 1 FROM crawl_host h WHERE h."crawlId" = ${alias}."crawlId" AND h."robotsRetryAt" IS NOT NULL AND h.origin = ${ORIGIN_OF(alias)}))`;

/** Which queued pages a claim leaves in the frontier (`claim`'s last argument). */
export interface FrontierHold {
  /** Origins the workflow keeps back (one waiting for its politeness delay). */
  avoid: readonly string[];
  /** Keep back pages of origins whose robots.txt cannot be read yet (a crawl that respects robots.txt). */
  robots: boolean;
}

const NO_HOLD: FrontierHold = { avoid: [], robots: false };

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

export function createCrawlStore(db: Database) {
  const q = <T>(text: string, ...values: unknown[]) => db.$queryRawUnsafe<T[]>(text, ...values);

  return {
    async create(row: Pick<CrawlRow, 'id' | 'userId' | 'apiKeyId' | 'kind' | 'request' | 'workflowId' | 'pageCost'>): Promise<CrawlRow> {
      const [created] = await q<CrawlRow>(
        `INSERT INTO crawl (id, "userId", "apiKeyId", kind, request, "workflowId", "pageCost") VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7) RETURNING ${CRAWL_COLUMNS}`,
        row.id,
        row.userId,
        row.apiKeyId,
        row.kind,
        JSON.stringify(row.request),
        row.workflowId,
        row.pageCost,
      );
      return created!;
    },

    async byId(id: string): Promise<CrawlRow | null> {
      const [row] = await q<CrawlRow>(`SELECT ${CRAWL_COLUMNS} FROM crawl WHERE id = $1`, id);
      return row ?? null;
    },

    /** The account's jobs, newest first, after the keyset cursor. */
    async list(userId: string, limit: number, after?: { createdAt: Date; id: string }): Promise<CrawlRow[]> {
      if (!after) return q<CrawlRow>(`SELECT ${CRAWL_COLUMNS} FROM crawl WHERE "userId" = $1 ORDER BY "createdAt" DESC, id DESC LIMIT $2`, userId, limit);
      return q<CrawlRow>(
        `SELECT ${CRAWL_COLUMNS} FROM crawl WHERE "userId" = $1 AND ("createdAt", id) < ($3::timestamptz, $4) ORDER BY "createdAt" DESC, id DESC LIMIT $2`,
        userId,
        limit,
        after.createdAt,
        after.id,
      );
    },

    /** queued → running (an execution began); false when the job had finished (cancelled before it started). */
    async markRunning(id: string): Promise<boolean> {
      const rows = await q(`UPDATE crawl SET status = 'running', "startedAt" = COALESCE("startedAt", now()), "finishedAt" = NULL WHERE id = $1 AND status IN ('queued', 'running') RETURNING 1`, id);
      return rows.length > 0;
    },

    /** The job's end; a finished job is never changed (a replayed finish, a cancel that came first). */
    async finish(id: string, status: Exclude<CrawlStatus, 'queued' | 'running'>, error?: { code: string; message: string }): Promise<boolean> {
      const rows = await q(
        `UPDATE crawl SET status = $2, error = $3::jsonb, "finishedAt" = now() WHERE id = $1 AND status IN ('queued', 'running') RETURNING 1`,
        id,
        status,
        error ? JSON.stringify(error) : null,
      );
      return rows.length > 0;
    },

    /** credit_exhausted → queued for a new execution (POST /crawl/:id/resume); false when not exhausted (or another resume won). */
    async reopen(id: string): Promise<CrawlRow | null> {
      const [row] = await q<CrawlRow>(
        `UPDATE crawl SET status = 'queued', resumes = resumes + 1, "finishedAt" = NULL, error = NULL WHERE id = $1 AND status = 'credit_exhausted' RETURNING ${CRAWL_COLUMNS}`,
        id,
      );
      return row ?? null;
    },

    /**
     * Adds pages to the frontier in the given order: a URL already there is left as it is; of the
     * new ones, at most `limit` minus the pages already counted go in as queued (skipped ones do
     * not count). One writer at a time per crawl (the crawl row is locked), so the count is exact.
     * Returns how many were queued.
     */
    async addPages(crawlId: string, pages: readonly NewPage[], limit: number): Promise<number> {
      if (pages.length === 0) return 0;
      return db.$transaction(async (tx) => {
        await tx.$queryRawUnsafe(`SELECT 1 FROM crawl WHERE id = $1 FOR UPDATE`, crawlId);
        const skipped = pages.filter((p) => p.skipped);
        if (skipped.length) {
          await tx.$queryRawUnsafe(
            `INSERT INTO crawl_page ("crawlId", url, depth, status, error, "finishedAt")
             SELECT $1, u, d, 'skipped', e::jsonb, now() FROM unnest($2::text[], $3::int[], $4::text[]) AS t(u, d, e)
             ON CONFLICT ("crawlId", url) DO NOTHING`,
            crawlId,
            skipped.map((p) => p.url),
            skipped.map((p) => p.depth),
            skipped.map((p) => JSON.stringify(p.skipped)),
          );
        }
        const queued = pages.filter((p) => !p.skipped);
        if (queued.length === 0) return 0;
        const [row] = await tx.$queryRawUnsafe<Array<{ counted: number }>>(
          `SELECT count(*)::int AS counted FROM crawl_page WHERE "crawlId" = $1 AND status <> 'skipped'`,
          crawlId,
        );
        const room = limit - (row?.counted ?? 0);
        if (room <= 0) return 0;
        const inserted = await tx.$queryRawUnsafe<unknown[]>(
          `INSERT INTO crawl_page ("crawlId", url, depth)
           SELECT $1, u, d FROM (
             SELECT DISTINCT ON (u) u, d, o FROM unnest($2::text[], $3::int[]) WITH ORDINALITY AS t(u, d, o)
             WHERE NOT EXISTS (SELECT 1 FROM crawl_page p WHERE p."crawlId" = $1 AND p.url = t.u)
             ORDER BY u, o
           ) fresh ORDER BY o LIMIT $4
           ON CONFLICT ("crawlId", url) DO NOTHING RETURNING 1`,
          crawlId,
          queued.map((p) => p.url),
          queued.map((p) => p.depth),
          room,
        );
        return inserted.length;
      });
    },

    /**
     * Claims queued pages for the given run ids (chosen by the workflow, so a retried claim finds
     * its own pages again instead of claiming others): each id not yet holding a page takes the
     * next queued page in frontier order, and its scrape_run row is recorded in the same
     * transaction. Returns the pages held by these ids.
     */
    async claim(crawlId: string, runIds: readonly string[], run: PageRunTemplate, hold: FrontierHold = NO_HOLD): Promise<ClaimedPage[]> {
      return db.$transaction(async (tx) => {
        const held = await tx.$queryRawUnsafe<ClaimedPage[]>(
          `SELECT seq::int8 AS seq, url, depth, "runId" FROM crawl_page WHERE "crawlId" = $1 AND "runId" = ANY($2::text[])`,
          crawlId,
          [...runIds],
        );
        // A crawl that has ended (cancelled while this claim was on its way) takes no more pages;
        // the row lock orders this claim with the cancel's update, so `failClaimedPages` sees what it took.
        const [crawl] = await tx.$queryRawUnsafe<Array<{ status: string }>>(`SELECT status::text AS status FROM crawl WHERE id = $1 FOR SHARE`, crawlId);
        const open = crawl?.status === 'queued' || crawl?.status === 'running';
        const free = open ? runIds.filter((id) => !held.some((p) => p.runId === id)) : [];
        if (free.length) {
          const claimed = await tx.$queryRawUnsafe<ClaimedPage[]>(
            `WITH next AS (
               SELECT seq FROM crawl_page p WHERE "crawlId" = $1 AND status = 'queued' AND ${HELD_OUT('p', 4, 5)} ORDER BY seq LIMIT $3 FOR UPDATE SKIP LOCKED
             ), numbered AS (SELECT seq, row_number() OVER (ORDER BY seq) AS n FROM next),
             ids AS (SELECT id, n FROM unnest($2::text[]) WITH ORDINALITY AS t(id, n))
             UPDATE crawl_page p SET status = 'running', "runId" = ids.id
             FROM numbered JOIN ids ON ids.n = numbered.n WHERE p.seq = numbered.seq
             RETURNING p.seq::int8 AS seq, p.url, p.depth, p."runId"`,
            crawlId,
            free,
            free.length,
            [...hold.avoid],
            hold.robots,
          );
          await recordClaimedPageRuns(tx, claimed, run);
          held.push(...claimed);
        }
        return held.map((p) => ({ ...p, seq: Number(p.seq) })).sort((a, b) => a.seq - b.seq);
      });
    },

    /** A claimed page's outcome (once: only while it is running under this run). */
    async finishPage(runId: string, outcome: { status: 'succeeded' | 'failed'; httpStatus?: number | null; error?: { code: string; message: string } }): Promise<boolean> {
      const rows = await q(
        `UPDATE crawl_page SET status = $2, "httpStatus" = $3, error = $4::jsonb, "finishedAt" = now() WHERE "runId" = $1 AND status = 'running' RETURNING 1`,
        runId,
        outcome.status,
        outcome.httpStatus ?? null,
        outcome.error ? JSON.stringify(outcome.error) : null,
      );
      return rows.length > 0;
    },

    /**
     * A cancelled crawl's pages still claimed once its scrapes in flight have ended: claimed by a
     * claim that completed while the cancel arrived, so its workflow never ran them. Recorded
     * failed with `error`; their run ids (runs recorded, never started, never debited).
     */
    async failClaimedPages(crawlId: string, error: { code: string; message: string }): Promise<string[]> {
      const rows = await q<{ runId: string }>(
        `UPDATE crawl_page SET status = 'failed', error = $2::jsonb, "finishedAt" = now() WHERE "crawlId" = $1 AND status = 'running' RETURNING "runId"`,
        crawlId,
        JSON.stringify(error),
      );
      return rows.map((row) => row.runId);
    },

    /** Gives a claimed page back to the frontier (its debit was refused: credit ran out). */
    async requeuePage(runId: string): Promise<boolean> {
      const rows = await q(`UPDATE crawl_page SET status = 'queued', "runId" = NULL WHERE "runId" = $1 AND status = 'running' RETURNING 1`, runId);
      return rows.length > 0;
    },

    async page(crawlId: string, url: string): Promise<CrawlPageRow | null> {
      const [row] = await q<CrawlPageRow>(`SELECT seq::int8 AS seq, url, depth, status, "runId", "httpStatus", error FROM crawl_page WHERE "crawlId" = $1 AND url = $2`, crawlId, url);
      return row ? { ...row, seq: Number(row.seq) } : null;
    },

    async pageByRun(runId: string): Promise<(CrawlPageRow & { crawlId: string }) | null> {
      const [row] = await q<CrawlPageRow & { crawlId: string }>(
        `SELECT seq::int8 AS seq, "crawlId", url, depth, status, "runId", "httpStatus", error FROM crawl_page WHERE "runId" = $1`,
        runId,
      );
      return row ? { ...row, seq: Number(row.seq) } : null;
    },

    /** Pages in frontier order after `afterSeq`, optionally of one status. */
    async pages(crawlId: string, options: { afterSeq?: number; status?: CrawlPageStatus; limit: number }): Promise<CrawlPageRow[]> {
      const rows = await q<CrawlPageRow>(
        `SELECT seq::int8 AS seq, url, depth, status, "runId", "httpStatus", error FROM crawl_page
         WHERE "crawlId" = $1 AND seq > $2 AND ($3::text IS NULL OR status = $3) ORDER BY seq LIMIT $4`,
        crawlId,
        options.afterSeq ?? 0,
        options.status ?? null,
        options.limit,
      );
      return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
    },

    async counts(crawlId: string): Promise<PageCounts> {
      const rows = await q<{ status: CrawlPageStatus; n: number }>(`SELECT status, count(*)::int AS n FROM crawl_page WHERE "crawlId" = $1 GROUP BY status`, crawlId);
      const of = (s: CrawlPageStatus) => rows.find((r) => r.status === s)?.n ?? 0;
      const counts = { queued: of('queued'), running: of('running'), completed: of('succeeded'), failed: of('failed'), skipped: of('skipped') };
      return { total: counts.queued + counts.running + counts.completed + counts.failed, ...counts };
    },

    /** Credits the job's pages kept: their debits less their refunds (every run under the job's workflow id). */
    async credits(workflowId: string): Promise<number> {
      const [row] = await q<{ spent: number | null }>(
        // By each run's ledger keys (accounts/credit.ts: the debit `debit:scrape:<run>`, its refund
        // `refund:<debit key>`): the unique key index answers, where "runId" has none.
        `SELECT -COALESCE(SUM(l.amount), 0)::int AS spent FROM scrape_run r
         JOIN credit_ledger l ON l."idempotencyKey" IN ('debit:scrape:' || r.id, 'refund:debit:scrape:' || r.id)
         WHERE r."workflowId" = $1`,
        workflowId,
      );
      return row?.spent ?? 0;
    },

    async host(crawlId: string, origin: string): Promise<CrawlHostRow | null> {
      const [row] = await q<CrawlHostRow>(
        `SELECT "robotsStatus", robots, "crawlDelayMs", "robotsRetryAt", "robotsFailedSince", ("robotsRetryAt" IS NOT NULL AND "robotsRetryAt" <= now()) AS "robotsDue"
         FROM crawl_host WHERE "crawlId" = $1 AND origin = $2`,
        crawlId,
        origin,
      );
      return row ?? null;
    },

    async hosts(crawlId: string, origins: readonly string[]): Promise<Array<{ origin: string; crawlDelayMs: number | null }>> {
      if (origins.length === 0) return [];
      return q(`SELECT origin, "crawlDelayMs" FROM crawl_host WHERE "crawlId" = $1 AND origin = ANY($2::text[])`, crawlId, [...origins]);
    },

    /**
     * Records an origin's robots.txt once (a second fetch by a racing activity is dropped).
     * `retryInMs`: it could not be read; the host is held (its pages wait) until then.
     */
    async saveHost(crawlId: string, origin: string, robots: { status: number | null; body: string | null; crawlDelayMs: number | null; retryInMs?: number }): Promise<void> {
      const held = robots.retryInMs !== undefined;
      await q(
        `INSERT INTO crawl_host ("crawlId", origin, "robotsStatus", robots, "crawlDelayMs", "robotsRetryAt", "robotsFailedSince")
         VALUES ($1, $2, $3, $4, $5, CASE WHEN $6 THEN now() + make_interval(secs => $7::double precision / 1000) END, CASE WHEN $6 THEN now() END)
         ON CONFLICT ("crawlId", origin) DO NOTHING`,
        crawlId,
        origin,
        robots.status,
        robots.body,
        robots.crawlDelayMs,
        held,
        robots.retryInMs ?? 0,
      );
    },

    /**
     * A held origin's robots.txt fetched again (only while it is held: one writer wins). Read
     * (`retryInMs` absent): its rules, and the hold lifted. Still unreadable: held until `retryInMs`
     * from now. Returns whether this call changed the row.
     */
    async robotsFetchedAgain(crawlId: string, origin: string, robots: { status: number | null; body: string | null; crawlDelayMs: number | null; retryInMs?: number }): Promise<boolean> {
      const held = robots.retryInMs !== undefined;
      const rows = await q(
        `UPDATE crawl_host SET "robotsStatus" = $3, robots = $4, "crawlDelayMs" = $5, "fetchedAt" = now(),
           "robotsRetryAt" = CASE WHEN $6 THEN now() + make_interval(secs => $7::double precision / 1000) END,
           "robotsFailedSince" = CASE WHEN $6 THEN "robotsFailedSince" END
         WHERE "crawlId" = $1 AND origin = $2 AND "robotsRetryAt" IS NOT NULL RETURNING 1`,
        crawlId,
        origin,
        robots.status,
        robots.body,
        robots.crawlDelayMs,
        held,
        robots.retryInMs ?? 0,
      );
      return rows.length > 0;
    },

    /** A held origin given up on: no longer held, and disallowed for the rest of the crawl (robotsFailedSince stays). */
    async giveUpRobots(crawlId: string, origin: string, status: number | null): Promise<boolean> {
      const rows = await q(
        `UPDATE crawl_host SET "robotsStatus" = $3, "fetchedAt" = now(), "robotsRetryAt" = NULL WHERE "crawlId" = $1 AND origin = $2 AND "robotsRetryAt" IS NOT NULL RETURNING 1`,
        crawlId,
        origin,
        status,
      );
      return rows.length > 0;
    },

    /** The queued pages of one origin (those a hold kept back). */
    async queuedUrlsOf(crawlId: string, origin: string): Promise<string[]> {
      const rows = await q<{ url: string }>(`SELECT url FROM crawl_page p WHERE "crawlId" = $1 AND status = 'queued' AND ${ORIGIN_OF('p')} = $2 ORDER BY seq`, crawlId, origin);
      return rows.map((row) => row.url);
    },

    /** Queued pages recorded skipped with `reason` (robots.txt): never fetched, not counted against `limit`. */
    async skipQueued(crawlId: string, urls: readonly string[], reason: { code: string; message: string }): Promise<number> {
      if (urls.length === 0) return 0;
      const rows = await q(
        `UPDATE crawl_page SET status = 'skipped', error = $3::jsonb, "finishedAt" = now() WHERE "crawlId" = $1 AND url = ANY($2::text[]) AND status = 'queued' RETURNING 1`,
        crawlId,
        [...urls],
        JSON.stringify(reason),
      );
      return rows.length;
    },

    /**
     * What a claim under `hold` left in the frontier: `held` (queued pages remain: every one of
     * them kept back, since the claim took all it could), the held origins whose robots.txt is due
     * to be fetched again and have pages waiting, and in how many ms the next held origin with
     * pages waiting is due (null: none).
     */
    async frontierHeld(crawlId: string, robots: boolean): Promise<{ held: boolean; robotsDue: string[]; robotsDueInMs: number | null }> {
      const [row] = await q<{ held: boolean; robotsDue: string[]; robotsDueInMs: number | null }>(
        `WITH waiting AS (
           SELECT h.origin, h."robotsRetryAt" FROM crawl_host h
           WHERE $2 AND h."crawlId" = $1 AND h."robotsRetryAt" IS NOT NULL
             AND EXISTS (SELECT 1 FROM crawl_page p WHERE p."crawlId" = $1 AND p.status = 'queued' AND ${ORIGIN_OF('p')} = h.origin)
         )
         SELECT EXISTS (SELECT 1 FROM crawl_page WHERE "crawlId" = $1 AND status = 'queued') AS held,
                COALESCE((SELECT array_agg(origin ORDER BY origin) FROM waiting WHERE "robotsRetryAt" <= now()), '{}') AS "robotsDue",
                (SELECT GREATEST(1, ceil(extract(epoch FROM min("robotsRetryAt") - now()) * 1000))::int FROM waiting WHERE "robotsRetryAt" > now() HAVING count(*) > 0) AS "robotsDueInMs"`,
        crawlId,
        robots,
      );
      return row ?? { held: false, robotsDue: [], robotsDueInMs: null };
    },
  };
}

export type CrawlStore = ReturnType<typeof createCrawlStore>;
