/**
 * A scrape run's attempts and their outcome (runs.ts has the rules): an attempt starts only while
 * the run is live, and an outcome is written once (`… WHERE status IN ('queued', 'running')`).
 */
import { type DebitInput, UNIQUE_VIOLATION, debitCtes, sqlState } from '../accounts/credit';
import { jsonbText } from '../platform/sql';
import { FINISHED_COLUMNS, type FinishedRun, LIVE, type ProxyAttempt, type RunFailure, type RunSql } from './run-rows';
import type { StoredResult } from './types';
import type { ScrapeMode } from './engines';

/** One attempt of an `auto` run as its `escalation` keeps it (GET /webhook/runs/:id). */
export interface EscalationEntry {
  attempt: number;
  engine: ScrapeMode;
  /** The proxy tier its attempt went through; `direct` without one. */
  proxy_tier: string;
  /** `succeeded`, or the attempt's error code. */
  outcome: string;
  /** Why the run moved on to the next step after this attempt (`blocked`, `app_shell`, `noscript`). */
  escalated?: string;
  blocked_by?: string;
}
import { blockedByOf } from './blocks';

/** The step that served an `auto` run (its last succeeded attempt): engine and tier; undefined for any other run. */
export function servedStepOf(escalation: unknown): { engine: string; proxy_tier: string } | undefined {
  if (!Array.isArray(escalation)) return undefined;
  const served = (escalation as EscalationEntry[]).findLast((entry) => entry.outcome === 'succeeded');
  return served ? { engine: served.engine, proxy_tier: served.proxy_tier } : undefined;
}

/**
 * A TARGET_BLOCKED failure's vendor, kept on the run's error as `blocked_by`: read back from the
 * failure's message (scrape/blocks.ts blockedMessage), which is what every workflow hands on.
 */
export function blockedByOfFailure(failure: RunFailure): { blocked_by?: string } {
  const vendor = failure.code === 'TARGET_BLOCKED' ? blockedByOf(failure.message) : undefined;
  return vendor ? { blocked_by: vendor } : {};
}

export function runAttemptStatements(sql: RunSql) {
  const statements = {
    ...escalationStatements(sql),
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
        return { started: (await statements.startAttempt(runId, attempt)) === null, balanceAfter: null };
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

    /**
     * Stores the PNGs of a run's `screenshot` actions, numbered from 0, before its result names
     * them; a later attempt's replace an earlier one's (its extra ones are removed). Nothing when
     * the run has finished.
     */
    async saveActionScreenshots(runId: string, shots: ReadonlyArray<{ png: Uint8Array; width: number; height: number }>): Promise<void> {
      await sql.query(`DELETE FROM scrape_action_screenshot WHERE "runId" = $1 AND idx >= $2`, [runId, shots.length]);
      for (const [index, shot] of shots.entries()) {
        await sql.query(
          `INSERT INTO scrape_action_screenshot ("runId", idx, png, width, height) SELECT $1, $2, $3, $4, $5 FROM scrape_run WHERE id = $1 AND status IN ${LIVE}
           ON CONFLICT ("runId", idx) DO UPDATE SET png = EXCLUDED.png, width = EXCLUDED.width, height = EXCLUDED.height, "createdAt" = now()`,
          [runId, index, Buffer.from(shot.png.buffer, shot.png.byteOffset, shot.png.byteLength), shot.width, shot.height],
        );
      }
    },

    /**
     * Records a success with its result; false when the run had already finished. `cacheKey`
     * (scrape/cache-key.ts): the result may answer later identical requests (the results cache).
     */
    async succeed(runId: string, result: StoredResult, elapsedMs: number, cacheKey: string | null = null): Promise<boolean> {
      const rows = await sql.query(
        `UPDATE scrape_run SET status = 'succeeded', result = $2::jsonb, "httpStatus" = $3, "elapsedMs" = $4, "finishedAt" = now(), "cacheKey" = $5
         WHERE id = $1 AND status IN ${LIVE} RETURNING id`,
        [runId, jsonbText(result), result.status, elapsedMs, cacheKey],
      );
      return rows.length > 0;
    },

    /** Stores a result without finishing the run (pre-patch flow histories finish it with markSucceeded). */
    async saveResult(runId: string, result: StoredResult, elapsedMs: number, cacheKey: string | null = null): Promise<void> {
      await sql.query(`UPDATE scrape_run SET result = $2::jsonb, "httpStatus" = $3, "elapsedMs" = $4, "cacheKey" = $5 WHERE id = $1 AND status IN ${LIVE}`, [
        runId,
        jsonbText(result),
        result.status,
        elapsedMs,
        cacheKey,
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
        [runId, jsonbText({ code: failure.code, message: failure.message, refunded: failure.refunded ?? false, ...blockedByOfFailure(failure) })],
      );
      return rows[0] ?? null;
    },
  };
  return statements;
}

/** The statements of an `auto` run's steps (docs/scraping.md "Escalation"). */
function escalationStatements(sql: RunSql) {
  return {
    /**
     * Marks the next attempt of an `auto` run's later step (its number: one more than the run's
     * attempts so far). null when it may go ahead, else the finished run (as startAttempt).
     */
    async startNextAttempt(runId: string): Promise<{ attempt: number } | { finished: FinishedRun }> {
      const live = await sql.query<{ attempts: number }>(
        `UPDATE scrape_run SET status = 'running', attempts = attempts + 1, "startedAt" = COALESCE("startedAt", now())
         WHERE id = $1 AND status IN ${LIVE} RETURNING attempts`,
        [runId],
      );
      if (live[0]) return { attempt: live[0].attempts };
      const rows = await sql.query<FinishedRun>(`SELECT ${FINISHED_COLUMNS} FROM scrape_run WHERE id = $1`, [runId]);
      if (!rows[0]) throw new Error(`scrape run ${runId} does not exist`);
      return { finished: rows[0] };
    },

    /** Appends one attempt of an `auto` run to its `escalation` (docs/scraping.md "Escalation"). */
    /** Adds an `auto` run's attempt to its `escalation`; returns the whole list (the in-process answer carries it). */
    async recordEscalationStep(runId: string, entry: EscalationEntry): Promise<EscalationEntry[]> {
      const rows = await sql.query<{ escalation: EscalationEntry[] | null }>(
        `UPDATE scrape_run SET escalation = COALESCE(escalation, '[]'::jsonb) || $2::jsonb WHERE id = $1 RETURNING escalation`,
        [runId, jsonbText([entry])],
      );
      return rows[0]?.escalation ?? [entry];
    },

    /**
     * An `auto` run's success and its one debit, at the price of the step that served it, in ONE
     * statement: the run row is locked first (a cancel holding it wins, and nothing is debited), the
     * debit applies only while the run is live, and the run is recorded succeeded (with the engine
     * that served it and the price charged) only when the debit applied. So a run is never
     * succeeded unpaid nor paid unsucceeded, whatever kills what when. `charged: false` with
     * `live: true`: the balance was short (the caller reads why with debitCredit's rules).
     */
    async succeedCharged(runId: string, result: StoredResult, elapsedMs: number, debit: DebitInput, servedBy: ScrapeMode, cacheKey: string | null = null): Promise<{ live: boolean; charged: boolean; balanceAfter: number | null }> {
      const debitPart = debitCtes(debit, 6, 'EXISTS (SELECT 1 FROM live)');
      const cacheKeyParam = 6 + debitPart.values.length;
      try {
        const [row] = await sql.query<{ live: boolean; charged: boolean; balanceAfter: number | null }>(
          `WITH live AS (
             SELECT id FROM scrape_run WHERE id = $1 AND status IN ${LIVE} FOR UPDATE
           ), ${debitPart.text}, done AS (
             UPDATE scrape_run SET status = 'succeeded', result = $2::jsonb, "httpStatus" = $3, "elapsedMs" = $4, "finishedAt" = now(), mode = $5, cost = $6::int, "cacheKey" = $${cacheKeyParam}
             WHERE id = $1 AND EXISTS (SELECT 1 FROM live) AND EXISTS (SELECT 1 FROM ledger) RETURNING id
           )
           SELECT EXISTS (SELECT 1 FROM live) AS live, EXISTS (SELECT 1 FROM done) AS charged, (SELECT "balanceAfter" FROM ledger) AS "balanceAfter"`,
          [runId, jsonbText(result), result.status, elapsedMs, servedBy, ...debitPart.values, cacheKey],
        );
        return row!;
      } catch (error) {
        // A racing replay of the same success: the other one recorded it (or will).
        if (sqlState(error) !== UNIQUE_VIOLATION) throw error;
        return { live: false, charged: false, balanceAfter: null };
      }
    },

  };
}
