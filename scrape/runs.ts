/**
 * The `scrape_run` row's one owner: creation, attempts and the terminal transitions. Every transition is guarded (`… WHERE status IN ('queued', 'running')`),
 * so an outcome is written once: a late success never overwrites `cancelled`, a replayed
 * activity finds the run finished and reports that instead of fetching again. A terminal write
 * fires the `scrape_run_finished` notification (trigger, migration 20261122050000), which is how
 * an API process learns of a run finished elsewhere.
 *
 * Every write of `scrape_run` is here: this file (recording, reads), run-attempts.ts (attempts,
 * outcomes), run-cancel.ts (cancellation, refund), results-cache.ts (runs answered from the cache); a crawl's claimed pages and a flow's scrapes
 * are recorded through it too (`recordClaimedPageRuns`, `insertFlowRun`).
 *
 * Plain SQL (platform/sql.ts): these statements are the hot path of every scrape.
 * A request is stored with its secrets redacted (request-redaction.ts): the scrape reads its
 * request from the workflow input, never from the row.
 */
import { jsonbText } from '../platform/sql';
import { runAttemptStatements } from './run-attempts';
import { runCancelStatements } from './run-cancel';
import { createResultsCache } from './results-cache';
import { redactRequestSecrets } from './request-redaction';
import { FINISHED_COLUMNS, type FinishedRun, LIVE, type NewFlowRun, type NewRun, type PageRunTemplate, type RunFailure, type RunSql, TERMINAL_STATUSES } from './run-rows';

export { TERMINAL_STATUSES } from './run-rows';
export type { FinishedRun, NewFlowRun, NewRun, PageRunTemplate, ProxyAttempt, RunFailure, RunStatus } from './run-rows';

export function createScrapeRunStore(sql: RunSql) {
  /** One run with what an answer needs, whatever its status (null when not recorded). */
  async function byId(runId: string): Promise<FinishedRun | null> {
    const rows = await sql.query<FinishedRun>(`SELECT ${FINISHED_COLUMNS} FROM scrape_run WHERE id = $1`, [runId]);
    return rows[0] ?? null;
  }

  return {
    /** Records runs about to start (one statement for a whole batch). */
    async insert(runs: readonly NewRun[]): Promise<void> {
      if (runs.length === 0) return;
      await sql.query(
        `INSERT INTO scrape_run (id, "userId", "apiKeyId", "workflowId", mode, url, request, cost)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::int[])`,
        [
          runs.map((r) => r.id),
          runs.map((r) => r.userId),
          runs.map((r) => r.apiKeyId),
          runs.map((r) => r.workflowId),
          runs.map((r) => r.mode),
          runs.map((r) => r.url),
          runs.map((r) => jsonbText(redactRequestSecrets(r.request))),
          runs.map((r) => r.cost),
        ],
      );
    },

    /**
     * The markdown of the account's latest succeeded scrape of the run's URL before it, and when it
     * finished (the `changeTracking` format); a target's 404/410 is no snapshot.
     */
    async previousMarkdown(runId: string): Promise<{ markdown: string; finishedAt: Date } | null> {
      const rows = await sql.query<{ markdown: string; finishedAt: Date }>(
        `SELECT p.result->>'markdown' AS markdown, p."finishedAt" FROM scrape_run c JOIN scrape_run p ON p."userId" = c."userId" AND p.url = c.url
          WHERE c.id = $1 AND p.id <> c.id AND p.status = 'succeeded' AND p."finishedAt" IS NOT NULL AND p.result ? 'markdown'
            AND coalesce(p."httpStatus", 200) NOT IN (404, 410)
          ORDER BY p."finishedAt" DESC LIMIT 1`,
        [runId],
      );
      return rows[0] ?? null;
    },

    /** Records one run, once: a retried activity finds the row and changes nothing (a monitor's check, monitors/). */
    async insertOnce(run: NewRun): Promise<void> {
      await sql.query(
        `INSERT INTO scrape_run (id, "userId", "apiKeyId", "workflowId", mode, url, request, cost)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8) ON CONFLICT (id) DO NOTHING`,
        [run.id, run.userId, run.apiKeyId, run.workflowId, run.mode, run.url, jsonbText(redactRequestSecrets(run.request)), run.cost],
      );
    },

    /** Records a flow node's scrape with its flow run (once: a retried activity finds the row and changes nothing). */
    async insertFlowRun(run: NewFlowRun): Promise<void> {
      await sql.query(
        `INSERT INTO scrape_run (id, "userId", "apiKeyId", "workflowId", mode, url, request, cost, "flowRunId", "flowNodeId", "flowItemIndex")
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING`,
        [run.id, run.userId, run.apiKeyId, run.workflowId, run.mode, run.url, jsonbText(redactRequestSecrets(run.request)), run.cost, run.flowRunId, run.flowNodeId, run.flowItemIndex],
      );
    },

    /** Names another workflow for runs not yet started (their batch went to a new lane). */
    async reassign(runIds: readonly string[], workflowId: string): Promise<void> {
      await sql.query(`UPDATE scrape_run SET "workflowId" = $2 WHERE id = ANY($1::text[]) AND status = 'queued'`, [runIds, workflowId]);
    },

    /** Records runs that never started (their workflow could not be started): nothing was debited. */
    async failUnstarted(runIds: readonly string[], failure: RunFailure): Promise<void> {
      await sql.query(`UPDATE scrape_run SET status = 'failed', error = $2::jsonb, "finishedAt" = now() WHERE id = ANY($1::text[]) AND status IN ${LIVE}`, [
        runIds,
        jsonbText({ code: failure.code, message: failure.message, refunded: false }),
      ]);
    },

    /**
     * Standalone runs still queued that were recorded before `olderThanMs` ago, with their
     * workflow ids (index scrape_run_queued_idx keeps this cheap: only queued rows are in it).
     * A crawl's page runs are left out: the crawl workflow records them itself when it claims
     * their pages (so it exists and holds them), and a page may wait queued longer than that for
     * its host's politeness delay (up to 60 s).
     */
    async queuedSince(olderThanMs: number, limit: number): Promise<Array<{ id: string; workflowId: string }>> {
      return sql.query<{ id: string; workflowId: string }>(
        `SELECT id, "workflowId" FROM scrape_run
         WHERE status = 'queued' AND "flowRunId" IS NULL AND "workflowId" NOT LIKE 'crawl-%' AND "createdAt" < now() - make_interval(secs => $1::double precision / 1000)
         ORDER BY "createdAt" LIMIT $2`,
        [olderThanMs, limit],
      );
    },

    /**
     * Runs still live (queued or running) recorded before `olderThanMs` ago, oldest first, with
     * their workflow ids: what api/closed-workflow-runs.ts holds against Temporal. A flow's runs
     * are left out (the sweep closes them with their flow run); index scrape_run_live_idx holds
     * only live rows, so this stays cheap however many runs have finished.
     */
    async liveSince(olderThanMs: number, limit: number): Promise<Array<{ id: string; workflowId: string }>> {
      return sql.query<{ id: string; workflowId: string }>(
        `SELECT id, "workflowId" FROM scrape_run
         WHERE status IN ${LIVE} AND "flowRunId" IS NULL AND "createdAt" < now() - make_interval(secs => $1::double precision / 1000)
         ORDER BY "createdAt" LIMIT $2`,
        [olderThanMs, limit],
      );
    },

    /** The live runs of one flow run (its nodes' scrapes). */
    async liveOfFlowRun(flowRunId: string): Promise<string[]> {
      const rows = await sql.query<{ id: string }>(`SELECT id FROM scrape_run WHERE "flowRunId" = $1 AND status IN ${LIVE}`, [flowRunId]);
      return rows.map((row) => row.id);
    },

    /** The live runs under one workflow id (a crawl job's pages). */
    async liveOfWorkflow(workflowId: string): Promise<string[]> {
      const rows = await sql.query<{ id: string }>(`SELECT id FROM scrape_run WHERE "workflowId" = $1 AND status IN ${LIVE}`, [workflowId]);
      return rows.map((row) => row.id);
    },

    ...runAttemptStatements(sql),
    // The results cache's writes (a hit recorded as a `cached` run): results-cache.ts.
    ...createResultsCache(sql),
    ...runCancelStatements(sql, byId),
    byId,

    /** The runs among `runIds` that have finished, with what an answer needs. */
    async finished(runIds: readonly string[]): Promise<FinishedRun[]> {
      if (runIds.length === 0) return [];
      return sql.query<FinishedRun>(`SELECT ${FINISHED_COLUMNS} FROM scrape_run WHERE id = ANY($1::text[]) AND status::text = ANY($2::text[])`, [
        runIds,
        TERMINAL_STATUSES,
      ]);
    },
  };
}

export type ScrapeRunStore = ReturnType<typeof createScrapeRunStore>;

/** What `recordClaimedPageRuns` runs its statement on: the claim's transaction (Prisma's `$queryRawUnsafe`). */
export interface RawQueryClient {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

/**
 * Records the runs of pages a crawl just claimed (crawl/store.ts `claim`), in the claim's own
 * transaction so a page is never held without its run; once per id (a retried claim finds them).
 */
export async function recordClaimedPageRuns(tx: RawQueryClient, pages: ReadonlyArray<{ runId: string; url: string }>, run: PageRunTemplate): Promise<void> {
  if (pages.length === 0) return;
  await tx.$queryRawUnsafe(
    `INSERT INTO scrape_run (id, "userId", "apiKeyId", "workflowId", mode, url, request, cost)
     SELECT t.id, $2, $3, $4, $5, t.url, ($6::jsonb || jsonb_build_object('url', t.url)), $7
     FROM unnest($1::text[], $8::text[]) AS t(id, url)
     ON CONFLICT (id) DO NOTHING`,
    pages.map((p) => p.runId),
    run.userId,
    run.apiKeyId,
    run.workflowId,
    run.mode,
    JSON.stringify(redactRequestSecrets(run.request)),
    run.cost,
    pages.map((p) => p.url),
  );
}
