/**
 * `cancelAndRefund` of the scrape run store (real PostgreSQL): a cancel records the run cancelled
 * and gives its debit back exactly once, whoever cancels and how often, never before the debit it
 * gives back, and never undoes a run that finished (docs/scraping.md "Cancelling a run").
 */
import { randomUUID } from 'node:crypto';
import { createTestDatabase } from '../test/helpers/database';
import { getBalance } from '../accounts/credit';
import { createDatabase, type Database } from '../platform/db';
import { createScrapeRunStore } from './runs';
import { createSqlPool, type SqlPool } from '../platform/sql';

describe('cancelAndRefund (real PostgreSQL)', () => {
  let db: Database;
  let sql: SqlPool;
  let runs: ReturnType<typeof createScrapeRunStore>;
  let userId: string;
  const cancelled = { code: 'CANCELLED', message: 'the run was cancelled by its owner' } as const;

  beforeAll(async () => {
    const url = await createTestDatabase();
    db = createDatabase(url);
    sql = createSqlPool(url);
    runs = createScrapeRunStore(sql);
    userId = randomUUID();
    await db.user.create({ data: { id: userId, name: 'T', email: `${userId}@example.test`, emailVerified: false, creditBalance: 100 } });
  });

  afterAll(async () => {
    await sql?.close();
    await db?.$disconnect();
  });

  async function newRun(): Promise<string> {
    const id = randomUUID();
    await runs.insert([{ id, userId, apiKeyId: null, workflowId: `scrape-lane-t-${id}`, mode: 'http', url: 'https://example.com/', request: { url: 'https://example.com/' }, cost: 3 }]);
    return id;
  }
  const debit = (runId: string) => ({ userId, apiKeyId: null, amount: 3, idempotencyKey: `debit:scrape:${runId}`, runId, mode: 'http' });
  /** The run's ledger rows as [reason, amount], debit first (a debit and its refund may share a timestamp). */
  const ledger = async (runId: string) =>
    (await sql.query<{ reason: string; amount: number }>('SELECT reason::text AS reason, amount FROM credit_ledger WHERE "runId" = $1 ORDER BY reason', [runId])).map((r) => [r.reason, r.amount]);

  it('a debited run: cancelled and refunded in one step, once however often it is cancelled', async () => {
    const id = await newRun();
    const before = await getBalance(sql, userId);
    expect(await runs.startAttemptWithDebit(id, 1, debit(id))).toMatchObject({ started: true });
    const first = await runs.cancelAndRefund(id, cancelled);
    expect(first).toMatchObject({ cancelled: true, refundApplied: true, run: { status: 'cancelled', error: { ...cancelled, refunded: true } } });
    for (let i = 0; i < 3; i++) expect(await runs.cancelAndRefund(id, cancelled)).toMatchObject({ cancelled: false, refundApplied: false, run: { status: 'cancelled' } });
    expect(await ledger(id)).toEqual([
      ['debit', -3],
      ['refund', 3],
    ]);
    expect(await getBalance(sql, userId)).toBe(before);
  });

  it('a queued run: cancelled with nothing to give back, and its attempt can no longer start or debit', async () => {
    const id = await newRun();
    expect(await runs.cancelAndRefund(id, cancelled)).toMatchObject({ cancelled: true, refundApplied: false, run: { status: 'cancelled', error: { refunded: false } } });
    expect(await runs.startAttemptWithDebit(id, 1, debit(id))).toEqual({ started: false, balanceAfter: null });
    expect(await ledger(id)).toEqual([]);
  });

  it('concurrent cancels and a racing debit: one debit at most, refunded exactly when it happened', async () => {
    for (let round = 0; round < 10; round++) {
      const id = await newRun();
      const outcomes = await Promise.all([runs.startAttemptWithDebit(id, 1, debit(id)), runs.cancelAndRefund(id, cancelled), runs.cancelAndRefund(id, cancelled)]);
      const debited = outcomes[0].started;
      expect(await ledger(id)).toEqual(debited ? [['debit', -3], ['refund', 3]] : []);
      expect((await runs.byId(id))!).toMatchObject({ status: 'cancelled', error: { code: 'CANCELLED', refunded: debited } });
      expect(outcomes.slice(1).filter((o) => 'cancelled' in o && o.cancelled)).toHaveLength(1);
    }
  });

  it('a finished run is left as it was', async () => {
    const id = await newRun();
    await runs.startAttemptWithDebit(id, 1, debit(id));
    expect(await runs.succeed(id, { final_url: 'https://example.com/', status: 200, headers: {} }, 5)).toBe(true);
    expect(await runs.cancelAndRefund(id, cancelled)).toMatchObject({ cancelled: false, refundApplied: false, run: { status: 'succeeded' } });
    expect(await ledger(id)).toEqual([['debit', -3]]);
  });
});
