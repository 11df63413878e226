/**
 * The `scrape_run` row's one owner for what the scrape path writes: creation, attempts and the
 * terminal transitions. Every transition is guarded (`… WHERE status IN ('queued', 'running')`),
 * so an outcome is written once: a late success never overwrites `cancelled`, a replayed
 * activity finds the run finished and reports that instead of fetching again. A terminal write
 * fires the `scrape_run_finished` notification (trigger, migration 20261122050000), which is how
 * an API process learns of a run finished elsewhere.
 *
 * Plain SQL (platform/sql.ts): these statements are the hot path of every scrape.
 */
import { type DebitInput, UNIQUE_VIOLATION, debitCtes, isRefunded, refundCredit, sqlState } from '../accounts/credit';
import { type SqlClient, type SqlPool, jsonbText } from '../platform/sql';
import type { StoredResult } from './types';
import type { ErrorCode } from '../platform/errors';
import { scrapeCreditKeys } from './credit-keys';

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export const TERMINAL_STATUSES: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled'];

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


const LIVE = `('queued', 'running')`;
const FINISHED_COLUMNS = `id, url, mode, status::text AS status, attempts, cost, request, result, error, "httpStatus", "elapsedMs"`;

export function createScrapeRunStore(sql: Pick<SqlPool, '$queryRaw' | 'query' | 'transaction'>) {
  const store = {
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
          runs.map((r) => jsonbText(r.request)),
          runs.map((r) => r.cost),
        ],
      );
    },

    /**
     * Marks an attempt as started. Returns null when it may go ahead, or the finished run when the
     * run is already terminal (a replay after a crash, a cancel): the caller must not scrape again.
     */
    async startAttempt(runId: string, attempt: number, started?: { flowRunId?: string | null }): Promise<FinishedRun | null> {
      const live = await sql.query<{ id: string; flowRunId: string | null }>(
        `UPDATE scrape_run SET status = 'running', attempts = GREATEST(attempts, $2), "startedAt" = COALESCE("startedAt", now())
         WHERE id = $1 AND status IN ${LIVE} RETURNING id, "flowRunId"`,
        [runId, attempt],
      );
      // `started` (optional) receives the run's flow run, for a proxy sticky per flow run and host.
      if (live.length) {
        if (started) started.flowRunId = live[0]!.flowRunId;
        return null;
      }
      const rows = await sql.query<FinishedRun>(`SELECT ${FINISHED_COLUMNS} FROM scrape_run WHERE id = $1`, [runId]);
      if (!rows[0]) throw new Error(`scrape run ${runId} does not exist`);
      return rows[0];
    },

    /**
     * startAttempt and the run's debit in one statement (the debit only when the attempt could
     * start). `started: false`: the run had finished (nothing debited; read it with byId).
     * `balanceAfter: null`: the debit was not applied here (a replay, a short balance, a racing
     * replay): debitCredit tells which.
     */
    async startAttemptWithDebit(runId: string, attempt: number, debit: DebitInput): Promise<{ started: boolean; balanceAfter: number | null }> {
      const debitPart = debitCtes(debit, 3, 'EXISTS (SELECT 1 FROM started)');
      try {
        const [row] = await sql.query<{ started: boolean; balanceAfter: number | null }>(
          `WITH started AS (
             UPDATE scrape_run SET status = 'running', attempts = GREATEST(attempts, $2), "startedAt" = COALESCE("startedAt", now())
             WHERE id = $1 AND status IN ${LIVE} RETURNING id
           ), ${debitPart.text}
           SELECT EXISTS (SELECT 1 FROM started) AS started, (SELECT "balanceAfter" FROM ledger) AS "balanceAfter"`,
          [runId, attempt, ...debitPart.values],
        );
        return row!;
      } catch (error) {
        // A racing replay of the debit rolled the whole statement back: each on its own then.
        if (sqlState(error) !== UNIQUE_VIOLATION) throw error;
        return { started: (await store.startAttempt(runId, attempt)) === null, balanceAfter: null };
      }
    },

    /**
     * Appends one attempt's proxy and outcome to the run (`proxyAttempts`, shown by
     * GET /webhook/runs/:id as `proxy_attempts`): only attempts that went through a proxy.
     */
    async recordProxyAttempt(runId: string, entry: ProxyAttempt): Promise<void> {
      await sql.query(`UPDATE scrape_run SET "proxyAttempts" = COALESCE("proxyAttempts", '[]'::jsonb) || $2::jsonb WHERE id = $1`, [
        runId,
        jsonbText([entry]),
      ]);
    },

    /**
     * Stores a run's screenshot (formats `screenshot`, `screenshot@fullPage`) before its result
     * names it; a later attempt's replaces an earlier one's. Nothing when the run has finished.
     */
    async saveScreenshot(runId: string, png: Uint8Array, width: number, height: number): Promise<void> {
      await sql.query(
        `INSERT INTO scrape_screenshot ("runId", png, width, height) SELECT $1, $2, $3, $4 FROM scrape_run WHERE id = $1 AND status IN ${LIVE}
         ON CONFLICT ("runId") DO UPDATE SET png = EXCLUDED.png, width = EXCLUDED.width, height = EXCLUDED.height, "createdAt" = now()`,
        [runId, Buffer.from(png.buffer, png.byteOffset, png.byteLength), width, height],
      );
    },

    /** Records a success with its result; false when the run had already finished. */
    async succeed(runId: string, result: StoredResult, elapsedMs: number): Promise<boolean> {
      const rows = await sql.query(
        `UPDATE scrape_run SET status = 'succeeded', result = $2::jsonb, "httpStatus" = $3, "elapsedMs" = $4, "finishedAt" = now()
         WHERE id = $1 AND status IN ${LIVE} RETURNING id`,
        [runId, jsonbText(result), result.status, elapsedMs],
      );
      return rows.length > 0;
    },

    /** Stores a result without finishing the run (pre-patch flow histories finish it with markSucceeded). */
    async saveResult(runId: string, result: StoredResult, elapsedMs: number): Promise<void> {
      await sql.query(`UPDATE scrape_run SET result = $2::jsonb, "httpStatus" = $3, "elapsedMs" = $4 WHERE id = $1 AND status IN ${LIVE}`, [
        runId,
        jsonbText(result),
        result.status,
        elapsedMs,
      ]);
    },

    async markSucceeded(runId: string): Promise<boolean> {
      const rows = await sql.query(`UPDATE scrape_run SET status = 'succeeded', "finishedAt" = now() WHERE id = $1 AND status IN ${LIVE} RETURNING id`, [runId]);
      return rows.length > 0;
    },

    /**
     * Records a failure (`refunded` says whether its credit went back). Returns the finished run,
     * or null when it had already finished (nothing written).
     */
    async fail(runId: string, failure: RunFailure): Promise<FinishedRun | null> {
      const rows = await sql.query<FinishedRun>(
        `UPDATE scrape_run SET status = 'failed', error = $2::jsonb, "finishedAt" = now() WHERE id = $1 AND status IN ${LIVE} RETURNING ${FINISHED_COLUMNS}`,
        [runId, jsonbText({ code: failure.code, message: failure.message, refunded: failure.refunded ?? false })],
      );
      return rows[0] ?? null;
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

    /** Records a cancellation (a flow run cancelled mid-scrape); false when already finished. */
    async cancel(runId: string, failure: RunFailure): Promise<boolean> {
      const rows = await sql.query(
        `UPDATE scrape_run SET status = 'cancelled', error = $2::jsonb, "finishedAt" = now() WHERE id = $1 AND status IN ${LIVE} RETURNING id`,
        [runId, jsonbText({ code: failure.code, message: failure.message, refunded: failure.refunded ?? false })],
      );
      return rows.length > 0;
    },

    /**
     * Cancels a run that has not finished and gives its debit back (no credit for work not done),
     * in one transaction: the guarded transition locks the row, so a debit racing it either
     * committed before (and is refunded here) or finds the run cancelled and debits nothing; the
     * refund is keyed by the run's debit, so it happens once however often this is called (by
     * POST /webhook/runs/:id/cancel, by the lane hearing its Signal, by a batch cancelled from
     * Temporal); and whoever reads the run on its `scrape_run_finished` notification (a waiting
     * request) sees it cancelled with `refunded` already true. A run cancelled earlier gets any
     * refund still due; a run never debited has nothing to give back; a run that succeeded or
     * failed is left as it is. `cancelled`: this call made the transition; `refundApplied`: this
     * call gave credit back; `run`: the run as it is now (null when there is no such run).
     */
    async cancelAndRefund(runId: string, failure: RunFailure): Promise<{ cancelled: boolean; refundApplied: boolean; run: FinishedRun | null }> {
      const debitKey = scrapeCreditKeys.debit(runId);
      const refundIn = async (db: SqlClient & { query<T>(text: string, values?: unknown[]): Promise<T[]> }) => {
        const refund = await refundCredit(db, { debitKey });
        const refunded = refund.applied || (await isRefunded(db, debitKey));
        if (refunded) await db.query(`UPDATE scrape_run SET error = jsonb_set(COALESCE(error, '{}'::jsonb), '{refunded}', 'true'::jsonb) WHERE id = $1`, [runId]);
        return refund.applied;
      };
      let outcome: { cancelled: boolean; refundApplied: boolean } | undefined;
      for (let attempt = 1; !outcome; attempt++) {
        try {
          outcome = await sql.transaction(async (tx) => {
            const rows = await tx.query(
              `UPDATE scrape_run SET status = 'cancelled', error = $2::jsonb, "finishedAt" = now() WHERE id = $1 AND status IN ${LIVE} RETURNING id`,
              [runId, jsonbText({ code: failure.code, message: failure.message, refunded: false })],
            );
            if (rows.length === 0) return { cancelled: false, refundApplied: false };
            return { cancelled: true, refundApplied: await refundIn(tx) };
          });
        } catch (error) {
          // A refund racing this one (a failed attempt's settle) aborted the transaction: again.
          if (attempt >= 3 || sqlState(error) === undefined) throw error;
        }
      }
      const run = await store.byId(runId);
      if (outcome.cancelled || run?.status !== 'cancelled' || (run.error as { refunded?: boolean } | null)?.refunded === true) return { ...outcome, run };
      // Cancelled before, and not refunded then: a debit that came after that cancel is refunded now.
      const refundApplied = await refundIn(sql);
      return { cancelled: false, refundApplied, run: refundApplied ? await store.byId(runId) : run };
    },

    /** Notes on a finished run's error that its credit went back (a cancel's refund comes after the cancel). */
    async markRefunded(runId: string): Promise<void> {
      await sql.query(`UPDATE scrape_run SET error = jsonb_set(COALESCE(error, '{}'::jsonb), '{refunded}', 'true'::jsonb) WHERE id = $1`, [runId]);
    },

    /** One run with what an answer needs, whatever its status (null when not recorded). */
    async byId(runId: string): Promise<FinishedRun | null> {
      const rows = await sql.query<FinishedRun>(`SELECT ${FINISHED_COLUMNS} FROM scrape_run WHERE id = $1`, [runId]);
      return rows[0] ?? null;
    },

    /** The runs among `runIds` that have finished, with what an answer needs. */
    async finished(runIds: readonly string[]): Promise<FinishedRun[]> {
      if (runIds.length === 0) return [];
      return sql.query<FinishedRun>(`SELECT ${FINISHED_COLUMNS} FROM scrape_run WHERE id = ANY($1::text[]) AND status::text = ANY($2::text[])`, [
        runIds,
        TERMINAL_STATUSES,
      ]);
    },
  };
  return store;
}

export type ScrapeRunStore = ReturnType<typeof createScrapeRunStore>;
