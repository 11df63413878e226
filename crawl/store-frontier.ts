/**
 * The frontier in its store (store.ts has the rules): pages added once per URL up to the limit,
 * claimed in frontier order (with their scrape_run rows, recorded by scrape/runs.ts in the
 * claim's transaction), given back, skipped, held back.
 */
import type { Database } from '../platform/db';
import { type PageRunTemplate, recordClaimedPageRuns } from '../scrape/runs';
import { type ClaimedPage, type CrawlQuery, type FrontierHold, HELD_OUT, type NewPage, NO_HOLD, ORIGIN_OF } from './store-rows';

export function crawlFrontierStatements(db: Database, q: CrawlQuery) {
  return {
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

    /** Gives a claimed page back to the frontier (its debit was refused: credit ran out). */
    async requeuePage(runId: string): Promise<boolean> {
      const rows = await q(`UPDATE crawl_page SET status = 'queued', "runId" = NULL WHERE "runId" = $1 AND status = 'running' RETURNING 1`, runId);
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
