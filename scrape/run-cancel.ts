/**
 * A scrape run's cancellation or final failure, and its refund (runs.ts has the rules): the
 * transition is guarded like every other, and the refund is keyed by the run's debit, so it
 * happens once.
 */
import { isRefunded, refundCredit, sqlState } from '../accounts/credit';
import { type SqlClient, jsonbText } from '../platform/sql';
import { scrapeCreditKeys } from './credit-keys';
import { FINISHED_COLUMNS, type FinishedRun, LIVE, type RunFailure, type RunSql } from './run-rows';
import { blockedByOfFailure } from './run-attempts';

/** Notes on a run's error that its credit went back. */
const MARK_REFUNDED = `UPDATE scrape_run SET error = jsonb_set(COALESCE(error, '{}'::jsonb), '{refunded}', 'true'::jsonb) WHERE id = $1`;

type RunTransaction = Parameters<Parameters<RunSql['transaction']>[0]>[0];

/** Runs `work` in one transaction, again (three tries in all) when a refund racing it aborted it. */
async function transactionRetried<R>(sql: RunSql, work: (tx: RunTransaction) => Promise<R>): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await sql.transaction(work);
    } catch (error) {
      if (attempt >= 3 || sqlState(error) === undefined) throw error;
    }
  }
}

export function runCancelStatements(sql: RunSql, byId: (runId: string) => Promise<FinishedRun | null>) {
  return {
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
        if (refunded) await db.query(MARK_REFUNDED, [runId]);
        return refund.applied;
      };
      // A refund racing this one (a failed attempt's settle) aborts the transaction: tried again.
      const outcome = await transactionRetried(sql, async (tx) => {
        const rows = await tx.query(
          `UPDATE scrape_run SET status = 'cancelled', error = $2::jsonb, "finishedAt" = now() WHERE id = $1 AND status IN ${LIVE} RETURNING id`,
          [runId, jsonbText({ code: failure.code, message: failure.message, refunded: false })],
        );
        if (rows.length === 0) return { cancelled: false, refundApplied: false };
        return { cancelled: true, refundApplied: await refundIn(tx) };
      });
      const run = await byId(runId);
      if (outcome.cancelled || run?.status !== 'cancelled' || (run.error as { refunded?: boolean } | null)?.refunded === true) return { ...outcome, run };
      // Cancelled before, and not refunded then: a debit that came after that cancel is refunded now.
      const refundApplied = await refundIn(sql);
      return { cancelled: false, refundApplied, run: refundApplied ? await byId(runId) : run };
    },

    /**
     * Every attempt of a run failed: records it failed and gives its debit back, in one
     * transaction on the locked row. A run that finished succeeded (or cached) meanwhile keeps its
     * outcome and its debit: an attempt recorded it and its process was killed before it could
     * report, so the workflow settles the whole batch failed — the account has the page. A run
     * already failed or cancelled gets any refund still due. `run`: the run this call finished
     * (null when it had already finished); `refundApplied`: this call gave credit back.
     */
    async failAndRefund(runId: string, failure: RunFailure): Promise<{ run: FinishedRun | null; refundApplied: boolean }> {
      const debitKey = scrapeCreditKeys.debit(runId);
      // A refund racing this one (a cancel) aborts the transaction: tried again.
      return transactionRetried(sql, async (tx) => {
        const [row] = await tx.query<{ status: string }>(`SELECT status::text AS status FROM scrape_run WHERE id = $1 FOR UPDATE`, [runId]);
        if (row && (row.status === 'succeeded' || row.status === 'cached')) return { run: null, refundApplied: false };
        const refund = await refundCredit(tx, { debitKey });
        const refunded = refund.applied || (await isRefunded(tx, debitKey));
        const rows = await tx.query<FinishedRun>(
          `UPDATE scrape_run SET status = 'failed', error = $2::jsonb, "finishedAt" = now() WHERE id = $1 AND status IN ${LIVE} RETURNING ${FINISHED_COLUMNS}`,
          [runId, jsonbText({ code: failure.code, message: failure.message, refunded, ...blockedByOfFailure(failure) })],
        );
        if (!rows[0] && refund.applied) await tx.query(MARK_REFUNDED, [runId]);
        return { run: rows[0] ?? null, refundApplied: refund.applied };
      });
    },

    /** Notes on a finished run's error that its credit went back (a cancel's refund comes after the cancel). */
    async markRefunded(runId: string): Promise<void> {
      await sql.query(MARK_REFUNDED, [runId]);
    },

    /**
     * Closes runs that never reached their scrape (a cancelled crawl's pages waiting for their
     * origin's turn, or claimed and never launched): cancelled, nothing debited, so nothing refunded.
     */
    async cancelUnfinished(runIds: readonly string[], failure: RunFailure): Promise<void> {
      await sql.query(`UPDATE scrape_run SET status = 'cancelled', error = $2::jsonb, "finishedAt" = now() WHERE id = ANY($1::text[]) AND status IN ${LIVE}`, [
        runIds,
        jsonbText({ code: failure.code, message: failure.message, refunded: false }),
      ]);
    },
  };
}
