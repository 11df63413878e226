/**
 * The `extract_job` table's one owner (docs/firecrawl.md "Extract"): an extract job reads the
 * pages of the crawl and batch jobs it started (`jobIds`); its outcome is written once, guarded
 * by `status = 'processing'`, so a retried step or a late writer never overwrites an ending.
 */
import type { Database } from '../platform/db';
import type { ErrorCode } from '../platform/errors';

/** The ledger key of an extract job's one debit (the model's step): retried, it never charges twice. */
export const extractDebitKey = (extractId: string) => `debit:extract:${extractId}`;

export type ExtractStatus = 'processing' | 'completed' | 'failed' | 'cancelled';

export interface ExtractRow {
  id: string;
  userId: string;
  apiKeyId: string | null;
  status: ExtractStatus;
  request: Record<string, unknown>;
  jobIds: string[];
  workflowId: string;
  data: unknown;
  sources: Record<string, string[]> | null;
  error: { code: ErrorCode; message: string } | null;
  usage: { model: string; prompt_tokens: number; completion_tokens: number; calls: number } | null;
  pages: number;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface NewExtract {
  id: string;
  userId: string;
  apiKeyId: string | null;
  request: Record<string, unknown>;
  jobIds: string[];
  workflowId: string;
}

const json = (value: unknown) => JSON.stringify(value ?? null);

export function createExtractStore(db: Database) {
  return {
    async insert(job: NewExtract): Promise<void> {
      await db.$executeRawUnsafe(
        `INSERT INTO extract_job (id, "userId", "apiKeyId", request, "jobIds", "workflowId") VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6)`,
        job.id,
        job.userId,
        job.apiKeyId,
        json(job.request),
        json(job.jobIds),
        job.workflowId,
      );
    },

    async byId(id: string): Promise<ExtractRow | null> {
      const rows = await db.$queryRawUnsafe<ExtractRow[]>(`SELECT * FROM extract_job WHERE id = $1`, id);
      return rows[0] ?? null;
    },

    /** The statuses of the jobs it reads (crawl.status). */
    async jobStatuses(id: string): Promise<string[]> {
      const rows = await db.$queryRawUnsafe<Array<{ status: string }>>(
        `SELECT c.status FROM extract_job e JOIN crawl c ON c.id IN (SELECT jsonb_array_elements_text(e."jobIds")) WHERE e.id = $1`,
        id,
      );
      return rows.map((r) => r.status);
    },

    /** The pages its jobs scraped, with their markdown, in job then frontier order (at most `limit`). */
    async pages(id: string, limit: number): Promise<Array<{ url: string; markdown: string }>> {
      return db.$queryRawUnsafe<Array<{ url: string; markdown: string }>>(
        `SELECT r.url, coalesce(r.result->>'markdown', '') AS markdown
           FROM extract_job e, jsonb_array_elements_text(e."jobIds") WITH ORDINALITY AS j(id, n)
           JOIN crawl_page p ON p."crawlId" = j.id AND p.status = 'succeeded'
           JOIN scrape_run r ON r.id = p."runId"
          WHERE e.id = $1 ORDER BY j.n, p.seq LIMIT $2`,
        id,
        limit,
      );
    },

    /** Credits the jobs' pages kept (debits less refunds). */
    async pageCredits(id: string): Promise<number> {
      const rows = await db.$queryRawUnsafe<Array<{ credits: bigint | number | null }>>(
        `SELECT -sum(l.amount) AS credits FROM extract_job e, jsonb_array_elements_text(e."jobIds") AS j(id)
           JOIN scrape_run r ON r."workflowId" = 'crawl-' || j.id JOIN credit_ledger l ON l."runId" = r.id WHERE e.id = $1`,
        id,
      );
      return Number(rows[0]?.credits ?? 0);
    },

    async complete(id: string, outcome: { data: unknown; sources: Record<string, string[]>; usage: unknown; pages: number }): Promise<boolean> {
      const changed = await db.$executeRawUnsafe(
        `UPDATE extract_job SET status = 'completed', data = $2::jsonb, sources = $3::jsonb, usage = $4::jsonb, pages = $5, "finishedAt" = now() WHERE id = $1 AND status = 'processing'`,
        id,
        json(outcome.data),
        json(outcome.sources),
        json(outcome.usage),
        outcome.pages,
      );
      return changed > 0;
    },

    async fail(id: string, failure: { code: ErrorCode; message: string; refunded?: boolean }, usage?: unknown): Promise<boolean> {
      const changed = await db.$executeRawUnsafe(
        `UPDATE extract_job SET status = 'failed', error = $2::jsonb, usage = coalesce($3::jsonb, usage), "finishedAt" = now() WHERE id = $1 AND status = 'processing'`,
        id,
        json(failure),
        usage === undefined ? null : json(usage),
      );
      return changed > 0;
    },

    /** Jobs processing since longer than `graceMs` (for the closed-workflow sweep, api/closed-workflow-runs.ts), oldest first. */
    async processingSince(graceMs: number, limit: number): Promise<Array<{ id: string; workflowId: string }>> {
      return db.$queryRawUnsafe<Array<{ id: string; workflowId: string }>>(
        `SELECT id, "workflowId" FROM extract_job WHERE status = 'processing' AND "createdAt" < now() - $1 * interval '1 millisecond' ORDER BY "createdAt" LIMIT $2`,
        graceMs,
        limit,
      );
    },

    async cancel(id: string): Promise<boolean> {
      const changed = await db.$executeRawUnsafe(`UPDATE extract_job SET status = 'cancelled', "finishedAt" = now() WHERE id = $1 AND status = 'processing'`, id);
      return changed > 0;
    },
  };
}

export type ExtractStore = ReturnType<typeof createExtractStore>;
