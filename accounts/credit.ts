/**
 * The credit ledger: the only code that changes an account's balance (`user.creditBalance`).
 *
 * Every change is ONE SQL statement that updates the balance and inserts its `credit_ledger`
 * row together (a statement is atomic: both happen or neither does), so there is no
 * interactive transaction, no lock held across round trips and no lock-order to get wrong:
 *
 * - the balance update is guarded (`"creditBalance" >= amount`), so concurrent debits never
 *   oversell; PostgreSQL serialises them on the user row and re-checks the guard after waiting;
 * - the ledger's unique `idempotencyKey` makes a replay (a Temporal retry) change nothing: the
 *   statement skips when the key exists, and when two replays race, the loser's insert hits the
 *   unique index, which rolls its whole statement back (balance included) and is reported as
 *   `applied: false`;
 * - the table's CHECK (`creditBalance >= 0`) backs all of this up.
 *
 * No Temporal here: activities/credit.ts wraps these for workflows.
 */
import { randomUUID } from 'node:crypto';
import type { SqlClient } from '../platform/sql';
import { AppError } from '../platform/errors';

export interface DebitInput {
  userId: string;
  apiKeyId?: string | null;
  amount: number;
  idempotencyKey: string;
  runId?: string | null;
  mode?: string | null;
}

export interface CreditChange {
  /** false when the idempotency key was already used (nothing changed). */
  applied: boolean;
  /** The balance after this change; on a replay, the account's current balance. */
  balanceAfter: number;
}

export interface RefundInput {
  /** Idempotency key of the debit to reverse. */
  debitKey: string;
  /** Default `refund:<debitKey>`. */
  idempotencyKey?: string;
}

export interface GrantInput {
  userId: string;
  amount: number;
  idempotencyKey: string;
  reason: 'grant' | 'topup' | 'adjustment';
  runId?: string | null;
}

/** What the ledger functions need of a database: Prisma's client, a transaction's, or the plain pool of platform/sql.ts. */
export type Sql = SqlClient;

/** Idempotency key of the sign-up grant of an account. */
export const signupGrantKey = (userId: string) => `grant:signup:${userId}`;
export const refundKey = (debitKey: string) => `refund:${debitKey}`;

const MAX_KEY_LENGTH = 200;
/** Attempts for the (never expected) transient failures a single statement can still meet. */
const TRANSIENT_ATTEMPTS = 3;

function checkKey(name: string, key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new AppError('BAD_REQUEST', `${name} must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
}

function checkAmount(amount: number, allowNegative: boolean): void {
  if (!Number.isSafeInteger(amount) || amount === 0 || (!allowNegative && amount < 0)) {
    throw new AppError('BAD_REQUEST', `amount must be a ${allowNegative ? 'non-zero' : 'positive'} whole number`);
  }
}

/** PostgreSQL SQLSTATE of a failed query, through Prisma's driver-adapter error wrapping. */
export function sqlState(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const record = current as Record<string, unknown>;
    for (const candidate of [record.code, (record.meta as Record<string, unknown> | undefined)?.code, record.originalCode]) {
      if (typeof candidate === 'string' && /^[0-9A-Z]{5}$/.test(candidate) && !candidate.startsWith('P')) return candidate;
    }
    const meta = record.meta as Record<string, unknown> | undefined;
    const driver = meta?.driverAdapterError as Record<string, unknown> | undefined;
    const cause = driver?.cause as Record<string, unknown> | undefined;
    if (cause && typeof cause.originalCode === 'string') return cause.originalCode;
    current = record.cause ?? driver;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = '23505';
const TRANSIENT = new Set(['40001', '40P01']);

/** Runs one statement; a unique violation (a racing replay) becomes `null`, deadlock/serialization failures are retried. */
async function once<T>(run: () => Promise<T>): Promise<T | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const state = sqlState(error);
      if (state === UNIQUE_VIOLATION) return null;
      if (state && TRANSIENT.has(state) && attempt < TRANSIENT_ATTEMPTS) continue;
      throw error;
    }
  }
}

interface BalanceRow {
  balanceAfter: number;
}

export async function getBalance(db: Sql, userId: string): Promise<number> {
  const rows = await db.$queryRaw<{ creditBalance: number }[]>`SELECT "creditBalance" FROM "user" WHERE id = ${userId}`;
  const row = rows[0];
  if (!row) throw new AppError('NOT_FOUND', 'Account not found');
  return row.creditBalance;
}

interface LedgerRow {
  userId: string;
  amount: number;
  reason: string;
  refundOf: string | null;
}

async function findLedger(db: Sql, idempotencyKey: string): Promise<LedgerRow | undefined> {
  const rows = await db.$queryRaw<LedgerRow[]>`
    SELECT "userId", amount, reason::text AS reason, "refundOf" FROM credit_ledger WHERE "idempotencyKey" = ${idempotencyKey}`;
  return rows[0];
}

/** Whether the debit under `debitKey` has been refunded (by any refund key). */
export async function isRefunded(db: Sql, debitKey: string): Promise<boolean> {
  const rows = await db.$queryRaw<Array<{ found: number }>>`SELECT 1 AS found FROM credit_ledger WHERE "refundOf" = ${debitKey} LIMIT 1`;
  return rows.length > 0;
}

/** A replayed key must describe the same operation; anything else is a caller bug, refused loudly. */
function sameOperation(existing: LedgerRow, expected: { userId: string; amount: number; reason: string }, key: string): void {
  if (existing.userId !== expected.userId || existing.amount !== expected.amount || existing.reason !== expected.reason) {
    throw new AppError('IDEMPOTENCY_CONFLICT', `Idempotency key ${key} was already used for a different credit operation`);
  }
}

/**
 * Takes `amount` credits from the account, once per idempotency key.
 * Not enough credit → AppError INSUFFICIENT_CREDIT (402), nothing changed.
 */
export async function debitCredit(db: Sql, input: DebitInput, attempt = 1): Promise<CreditChange> {
  checkKey('idempotencyKey', input.idempotencyKey);
  checkAmount(input.amount, false);
  const { userId, amount, idempotencyKey } = input;
  const rows = await once(
    () => db.$queryRaw<BalanceRow[]>`
      WITH debited AS (
        UPDATE "user" SET "creditBalance" = "creditBalance" - ${amount}
        WHERE id = ${userId}
          AND "creditBalance" >= ${amount}
          AND NOT EXISTS (SELECT 1 FROM credit_ledger WHERE "idempotencyKey" = ${idempotencyKey})
        RETURNING "creditBalance"
      )
      INSERT INTO credit_ledger (id, "userId", "apiKeyId", amount, "balanceAfter", reason, "idempotencyKey", "runId", mode)
      SELECT ${randomUUID()}, ${userId}, ${input.apiKeyId ?? null}, ${-amount}, "creditBalance", 'debit'::"LedgerReason",
             ${idempotencyKey}, ${input.runId ?? null}, ${input.mode ?? null}
      FROM debited
      RETURNING "balanceAfter"`,
  );
  if (rows?.[0]) return { applied: true, balanceAfter: rows[0].balanceAfter };

  // Nothing written: a replay, too little credit, or no such account.
  const existing = await findLedger(db, idempotencyKey);
  if (existing) {
    sameOperation(existing, { userId, amount: -amount, reason: 'debit' }, idempotencyKey);
    return { applied: false, balanceAfter: await getBalance(db, userId) };
  }
  const balance = await getBalance(db, userId);
  if (balance < amount) {
    throw new AppError('INSUFFICIENT_CREDIT', `Not enough credit: ${amount} needed, ${balance} remaining`, { remaining: balance, required: amount });
  }
  // The balance was short at the time of the statement and has been topped up since: try again.
  if (attempt >= TRANSIENT_ATTEMPTS) throw new AppError('INTERNAL', 'The debit could not be applied; try again');
  return debitCredit(db, input, attempt + 1);
}

/**
 * debitCredit's statement as two CTEs, `debited` then `ledger` (RETURNING "balanceAfter"), for a
 * statement that debits behind another change of its own (scrape/runs.ts: the start of a
 * scrape's attempt): `condition` is SQL the balance update also requires. Parameters are
 * numbered from `$${first}`. Nothing written (a replay, a short balance, the condition false, or
 * a racing replay's unique violation rolling the statement back) is for debitCredit to explain.
 */
export function debitCtes(input: DebitInput, first: number, condition: string): { text: string; values: unknown[] } {
  checkKey('idempotencyKey', input.idempotencyKey);
  checkAmount(input.amount, false);
  const [amount, userId, key, id, apiKeyId, runId, mode] = [0, 1, 2, 3, 4, 5, 6].map((i) => `$${first + i}`);
  return {
    text: `debited AS (
        UPDATE "user" SET "creditBalance" = "creditBalance" - ${amount}::int
        WHERE id = ${userId} AND "creditBalance" >= ${amount}::int AND (${condition})
          AND NOT EXISTS (SELECT 1 FROM credit_ledger WHERE "idempotencyKey" = ${key})
        RETURNING "creditBalance"
      ), ledger AS (
        INSERT INTO credit_ledger (id, "userId", "apiKeyId", amount, "balanceAfter", reason, "idempotencyKey", "runId", mode)
        SELECT ${id}, ${userId}, ${apiKeyId}, -${amount}::int, "creditBalance", 'debit'::"LedgerReason", ${key}, ${runId}, ${mode}
        FROM debited
        RETURNING "balanceAfter"
      )`,
    values: [input.amount, input.userId, input.idempotencyKey, randomUUID(), input.apiKeyId ?? null, input.runId ?? null, input.mode ?? null],
  };
}

/**
 * Gives back the credits of the debit recorded under `debitKey`, once: a second refund of the
 * same debit (under any idempotency key) changes nothing. No such debit → `applied: false`.
 */
export async function refundCredit(db: Sql, input: RefundInput): Promise<CreditChange> {
  checkKey('debitKey', input.debitKey);
  const idempotencyKey = input.idempotencyKey ?? refundKey(input.debitKey);
  checkKey('idempotencyKey', idempotencyKey);
  const { debitKey } = input;
  const rows = await once(
    () => db.$queryRaw<BalanceRow[]>`
      WITH debit AS (
        SELECT "userId", "apiKeyId", amount, "runId", mode FROM credit_ledger
        WHERE "idempotencyKey" = ${debitKey} AND reason = 'debit'::"LedgerReason"
      ),
      credited AS (
        UPDATE "user" u SET "creditBalance" = u."creditBalance" - debit.amount
        FROM debit
        WHERE u.id = debit."userId"
          AND NOT EXISTS (SELECT 1 FROM credit_ledger WHERE "idempotencyKey" = ${idempotencyKey} OR "refundOf" = ${debitKey})
        RETURNING u."creditBalance", debit."userId", debit."apiKeyId", debit.amount, debit."runId", debit.mode
      )
      INSERT INTO credit_ledger (id, "userId", "apiKeyId", amount, "balanceAfter", reason, "idempotencyKey", "runId", mode, "refundOf")
      SELECT ${randomUUID()}, "userId", "apiKeyId", -amount, "creditBalance", 'refund'::"LedgerReason",
             ${idempotencyKey}, "runId", mode, ${debitKey}
      FROM credited
      RETURNING "balanceAfter"`,
  );
  if (rows?.[0]) return { applied: true, balanceAfter: rows[0].balanceAfter };

  const debit = await findLedger(db, debitKey);
  if (!debit || debit.reason !== 'debit') return { applied: false, balanceAfter: debit ? await getBalance(db, debit.userId) : 0 };
  const existing = await findLedger(db, idempotencyKey);
  if (existing && (existing.reason !== 'refund' || existing.refundOf !== debitKey)) {
    throw new AppError('IDEMPOTENCY_CONFLICT', `Idempotency key ${idempotencyKey} was already used for a different credit operation`);
  }
  return { applied: false, balanceAfter: await getBalance(db, debit.userId) };
}

/** Adds credits (grant, top-up) or, for an adjustment, adds or removes them; once per idempotency key. */
export async function grantCredit(db: Sql, input: GrantInput, attempt = 1): Promise<CreditChange> {
  checkKey('idempotencyKey', input.idempotencyKey);
  checkAmount(input.amount, input.reason === 'adjustment');
  const { userId, amount, idempotencyKey, reason } = input;
  const rows = await once(
    () => db.$queryRaw<BalanceRow[]>`
      WITH granted AS (
        UPDATE "user" SET "creditBalance" = "creditBalance" + ${amount}
        WHERE id = ${userId}
          AND "creditBalance" + ${amount} >= 0
          AND NOT EXISTS (SELECT 1 FROM credit_ledger WHERE "idempotencyKey" = ${idempotencyKey})
        RETURNING "creditBalance"
      )
      INSERT INTO credit_ledger (id, "userId", amount, "balanceAfter", reason, "idempotencyKey", "runId")
      SELECT ${randomUUID()}, ${userId}, ${amount}, "creditBalance", ${reason}::"LedgerReason", ${idempotencyKey}, ${input.runId ?? null}
      FROM granted
      RETURNING "balanceAfter"`,
  );
  if (rows?.[0]) return { applied: true, balanceAfter: rows[0].balanceAfter };

  const existing = await findLedger(db, idempotencyKey);
  if (existing) {
    sameOperation(existing, { userId, amount, reason }, idempotencyKey);
    return { applied: false, balanceAfter: await getBalance(db, userId) };
  }
  const balance = await getBalance(db, userId);
  if (balance + amount < 0) {
    throw new AppError('INSUFFICIENT_CREDIT', `Not enough credit: the adjustment would leave ${balance + amount}`, { remaining: balance, required: -amount });
  }
  if (attempt >= TRANSIENT_ATTEMPTS) throw new AppError('INTERNAL', 'The credit change could not be applied; try again');
  return grantCredit(db, input, attempt + 1);
}

/**
 * Credits a scrape run kept: its debit less its refund, from the ledger (the source of truth).
 * Flow runs show credits this way (per node, per run) rather than from scrape_run.cost.
 */
export async function scrapeRunCredits(db: Sql, scrapeRunId: string): Promise<number> {
  const rows = await db.$queryRaw<Array<{ spent: bigint | null }>>`
    SELECT -SUM("amount") AS spent FROM "credit_ledger" WHERE "runId" = ${scrapeRunId} AND "reason" IN ('debit', 'refund')`;
  return Number(rows[0]?.spent ?? 0);
}

/** Credits each node of a flow run kept (its scrapes' debits less refunds); nodes without any are absent. */
export async function flowRunCreditsByNode(db: Sql, flowRunId: string): Promise<Map<string, number>> {
  const rows = await db.$queryRaw<Array<{ nodeId: string; spent: bigint }>>`
    SELECT s."flowNodeId" AS "nodeId", -SUM(l."amount") AS spent
    FROM "credit_ledger" l JOIN "scrape_run" s ON s."id" = l."runId"
    WHERE s."flowRunId" = ${flowRunId} AND l."reason" IN ('debit', 'refund')
    GROUP BY s."flowNodeId"`;
  return new Map(rows.map((r) => [r.nodeId, Number(r.spent)]));
}
