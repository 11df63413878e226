/**
 * A crawl's pages in its store (store.ts has the rules): a claimed page's outcome (once), and the
 * reads of pages and counts.
 */
import { type CrawlPageRow, type CrawlPageStatus, type CrawlQuery, type PageCounts } from './store-rows';

export function crawlPageStatements(q: CrawlQuery) {
  return {
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
  };
}
