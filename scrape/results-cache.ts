/**
 * The results cache's reads (docs/scraping.md "Results cache"). The cache is the `scrape_run`
 * table itself: a succeeded run of a cacheable request keeps its key (`cacheKey`, written with its
 * result: run-attempts.ts `succeed`), and the partial index scrape_run_cache_idx (account, key,
 * finished time; succeeded rows with a key only) finds the account's newest one. No table of its
 * own: the result is already stored once per run, with its owner, and deleted with it.
 *
 * A hit is recorded as a run of its own, status `cached`, cost 0, its result copied from the
 * source run (`cachedFrom`) — one statement, no workflow: history, the dashboard and
 * GET /webhook/runs/:id show it as any other run. A screenshot comes along (its PNG copied under
 * the new run, the result's URL pointing at it), so the cached run stands on its own.
 */
import { jsonbText } from '../platform/sql';
import { FINISHED_COLUMNS, type FinishedRun, type RunSql } from './run-rows';

/** A hit: the cached run as recorded (`cachedAt`: when its source finished), and the account's balance (a hit changes nothing). */
export interface CacheHit {
  run: FinishedRun;
  balance: number;
}

/** The newest succeeded run of the account and key that finished within maxAgeMs ($1 user, $2 key, $3 max age). */
const SOURCE = `SELECT s.id, s.result, s."httpStatus", s."finishedAt" FROM scrape_run s
   WHERE s."userId" = $1 AND s."cacheKey" = $2 AND s.status = 'succeeded'
     AND s."finishedAt" > now() - make_interval(secs => $3::double precision / 1000)
   ORDER BY s."finishedAt" DESC LIMIT 1`;

/** The source's result for the run `$4`: its screenshot's URL names the new run (the PNG is copied there). */
const COPIED_RESULT = `CASE WHEN src.result ? 'screenshot' THEN jsonb_set(src.result, '{screenshot,url}', to_jsonb('/webhook/runs/' || $4 || '/screenshot')) ELSE src.result END`;

export function createResultsCache(sql: Pick<RunSql, 'query'>) {
  return {
    /**
     * Answers a request from the cache when the account has a run of its key that succeeded
     * within maxAgeMs: records the `cached` run `runId` and returns it; null on a miss (nothing written).
     */
    async answer(input: { runId: string; userId: string; apiKeyId: string | null; key: string; maxAgeMs: number; mode: string; url: string; request: unknown }): Promise<CacheHit | null> {
      const rows = await sql.query<FinishedRun & { balance: number }>(
        `WITH src AS (${SOURCE}),
         ins AS (
           INSERT INTO scrape_run (id, "userId", "apiKeyId", "workflowId", mode, url, request, cost, status, result, "httpStatus", "elapsedMs", "finishedAt", "cachedFrom", "cachedAt")
           SELECT $4, $1, $5, '', $6, $7, $8::jsonb, 0, 'cached', ${COPIED_RESULT}, src."httpStatus", 0, now(), src.id, src."finishedAt" FROM src
           RETURNING ${FINISHED_COLUMNS}
         ),
         shot AS (
           INSERT INTO scrape_screenshot ("runId", png, width, height)
           SELECT ins.id, p.png, p.width, p.height FROM ins JOIN src ON true JOIN scrape_screenshot p ON p."runId" = src.id
         )
         SELECT ins.*, (SELECT "creditBalance" FROM "user" WHERE id = $1) AS balance FROM ins JOIN src ON true`,
        [input.userId, input.key, input.maxAgeMs, input.runId, input.apiKeyId, input.mode, input.url, jsonbText(input.request)],
      );
      const row = rows[0];
      if (!row) return null;
      const { balance, ...run } = row;
      return { run, balance: Number(balance) };
    },

    /**
     * A crawl or batch page (its run already recorded, queued) answered from the cache: the run
     * becomes `cached` with the source's result, cost 0. Returns its HTTP status, or null on a miss
     * (or when the run is no longer queued: nothing written). Idempotent: a retry finds it cached.
     */
    async answerQueuedRun(input: { runId: string; userId: string; key: string; maxAgeMs: number }): Promise<{ httpStatus: number } | null> {
      const rows = await sql.query<{ httpStatus: number | null; status: string }>(
        `WITH src AS (${SOURCE}),
         upd AS (
           UPDATE scrape_run r SET status = 'cached', cost = 0, result = ${COPIED_RESULT}, "httpStatus" = src."httpStatus", "elapsedMs" = 0,
                  "finishedAt" = now(), "cachedFrom" = src.id, "cachedAt" = src."finishedAt"
             FROM src WHERE r.id = $4 AND r.status = 'queued' RETURNING r.id, r."httpStatus"
         ),
         shot AS (
           INSERT INTO scrape_screenshot ("runId", png, width, height)
           SELECT upd.id, p.png, p.width, p.height FROM upd JOIN src ON true JOIN scrape_screenshot p ON p."runId" = src.id
           ON CONFLICT ("runId") DO NOTHING
         )
         SELECT "httpStatus", 'cached' AS status FROM upd
         UNION ALL SELECT "httpStatus", status::text FROM scrape_run WHERE id = $4 AND status = 'cached' AND NOT EXISTS (SELECT 1 FROM upd)`,
        [input.userId, input.key, input.maxAgeMs, input.runId],
      );
      const row = rows[0];
      return row ? { httpStatus: row.httpStatus ?? 200 } : null;
    },
  };
}

export type ResultsCache = ReturnType<typeof createResultsCache>;
