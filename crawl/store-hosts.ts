/**
 * `crawl_host` in its store (store.ts has the rules): each origin's robots.txt, recorded once,
 * fetched again while held.
 */
import { type CrawlHostRow, type CrawlQuery } from './store-rows';

export function crawlHostStatements(q: CrawlQuery) {
  return {
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
  };
}
