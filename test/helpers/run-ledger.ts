/**
 * The ledger checks of the crash tests (api/routes/scrape.durability.test.ts, the cluster's chaos
 * test scripts/start.chaos.test.ts): an account's scrape runs against its credit ledger, after
 * the fact, from SQL only. Each list names the offending runs with what they hold, so a failing
 * test says what went wrong.
 */
import { sql } from './database';

export const TERMINAL = ['succeeded', 'failed', 'cancelled'];

export interface RunRow {
  id: string;
  status: string;
  error: { code: string; refunded: boolean } | null;
  cost: number;
  url: string;
  /** Scrape attempts started: 0 for a run that failed before its first (nothing charged). */
  attempts: number;
}

/** A run that failed before its first attempt: nothing done, nothing charged (api/scrape-run.ts, runNeverStarted). */
export const neverStarted = (run: RunRow) => run.status === 'failed' && run.attempts === 0;

export const runsOf = (databaseUrl: string, userId: string) =>
  sql<RunRow>(databaseUrl, 'SELECT id, status::text AS status, error, cost, url, attempts FROM scrape_run WHERE "userId" = $1', [userId]);

interface Offender {
  id: string;
  status: string;
  error: RunRow['error'];
  debits: number;
  refunds: number;
}

export interface LedgerAudit {
  runs: RunRow[];
  /** Run ids a client was told of that have no run. */
  missing: string[];
  /** Run ids recorded more than once (none: the id is the key, but cheap to check). */
  duplicateIds: number;
  /** Runs debited or refunded more than once, or debited another amount than their cost. */
  doubleDebits: Offender[];
  /** Debit rows with no run, or a run of another account. */
  debitsWithoutRun: Array<{ runId: string | null; amount: number }>;
  /** Succeeded runs not debited exactly once or refunded; failed runs whose refund does not match their debit or their record. */
  wrongRefunds: Offender[];
  debits: number;
  refunds: number;
  /** The sum of the debit and refund rows (negative: what the runs cost in all). */
  moved: number;
  /** The sum of every ledger row of the account (grants included). */
  ledgerTotal: number;
  balance: number;
  /** Runs by outcome: `succeeded`, `failed <code>`, … */
  outcomes: Record<string, number>;
}

/**
 * Succeeded: debited once, never refunded. Failed: refunded exactly when it had been debited (a
 * run whose workflow never started was never debited), and its record says which.
 */
export async function auditRunsAndLedger(databaseUrl: string, userId: string, told: Iterable<string>): Promise<LedgerAudit> {
  const runs = await runsOf(databaseUrl, userId);
  const byId = new Map(runs.map((r) => [r.id, r]));
  const ledger = await sql<{ runId: string | null; reason: string; amount: number }>(databaseUrl, 'SELECT "runId", reason::text AS reason, amount FROM credit_ledger WHERE "userId" = $1', [userId]);
  const rows = (id: string, reason: string) => ledger.filter((l) => l.runId === id && l.reason === reason);
  const summary = (run: RunRow): Offender => ({ id: run.id, status: run.status, error: run.error, debits: rows(run.id, 'debit').length, refunds: rows(run.id, 'refund').length });
  const doubleDebits = runs.filter((run) => rows(run.id, 'debit').length > 1 || rows(run.id, 'refund').length > 1 || rows(run.id, 'debit').some((d) => d.amount !== -run.cost)).map(summary);
  const debitsWithoutRun = ledger.filter((l) => l.reason === 'debit' && (!l.runId || !byId.has(l.runId))).map((l) => ({ runId: l.runId, amount: l.amount }));
  const wrongRefunds = runs
    .filter((run) => {
      const debits = rows(run.id, 'debit').length;
      const refunds = rows(run.id, 'refund').length;
      if (run.status === 'succeeded') return debits !== 1 || refunds !== 0;
      if (run.status === 'failed') return refunds !== debits || run.error?.refunded !== refunds > 0;
      return false;
    })
    .map(summary);
  const outcomes: Record<string, number> = {};
  for (const run of runs) {
    const outcome = run.status === 'failed' ? `failed ${run.error?.code}` : run.status;
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  const balance = (await sql<{ creditBalance: number }>(databaseUrl, 'SELECT "creditBalance" FROM "user" WHERE id = $1', [userId]))[0]!.creditBalance;
  return {
    runs,
    missing: [...told].filter((id) => !byId.has(id)),
    duplicateIds: runs.length - byId.size,
    doubleDebits,
    debitsWithoutRun,
    wrongRefunds,
    debits: ledger.filter((l) => l.reason === 'debit').length,
    refunds: ledger.filter((l) => l.reason === 'refund').length,
    moved: ledger.filter((l) => l.reason === 'debit' || l.reason === 'refund').reduce((sum, l) => sum + l.amount, 0),
    ledgerTotal: ledger.reduce((sum, l) => sum + l.amount, 0),
    balance,
    outcomes,
  };
}
