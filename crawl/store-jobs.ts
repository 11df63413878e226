/**
 * The `crawl` row (the job) in its store (store.ts has the rules): creation, reads, and its
 * guarded status transitions.
 */
import { CRAWL_COLUMNS, type CrawlQuery, type CrawlRow, type CrawlStatus } from './store-rows';

export function crawlJobStatements(q: CrawlQuery) {
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

    /** Jobs queued or running since longer than `graceMs` (for the closed-workflow sweep, api/closed-workflow-runs.ts), oldest first. */
    async liveSince(graceMs: number, limit: number): Promise<Array<{ id: string; workflowId: string }>> {
      return q<{ id: string; workflowId: string }>(
        `SELECT id, "workflowId" FROM crawl WHERE status IN ('queued', 'running') AND "createdAt" < now() - $1 * interval '1 millisecond' ORDER BY "createdAt" LIMIT $2`,
        graceMs,
        limit,
      );
    },

    /** credit_exhausted → queued for a new execution (POST /crawl/:id/resume); false when not exhausted (or another resume won). */
    async reopen(id: string): Promise<CrawlRow | null> {
      const [row] = await q<CrawlRow>(
        `UPDATE crawl SET status = 'queued', resumes = resumes + 1, "finishedAt" = NULL, error = NULL WHERE id = $1 AND status = 'credit_exhausted' RETURNING ${CRAWL_COLUMNS}`,
        id,
      );
      return row ?? null;
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
  };
}
