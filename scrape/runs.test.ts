/**
 * The scrape_run row's owner (real PostgreSQL): every terminal transition is guarded, so the first
 * outcome written stays — a late success never overwrites a cancel, a late failure never
 * overwrites a success, and a finished run is reported to an attempt that starts after it.
 */
import { randomUUID } from 'node:crypto';
import { createTestDatabase } from '../test/helpers/database';
import { createDatabase, type Database } from '../platform/db';
import { createScrapeRunStore } from './runs';
import { createSqlPool, type SqlPool } from '../platform/sql';

describe('scrape run store (real PostgreSQL)', () => {
  let db: Database;
  let sql: SqlPool;
  let runs: ReturnType<typeof createScrapeRunStore>;
  let userId: string;

  beforeAll(async () => {
    const url = await createTestDatabase();
    db = createDatabase(url);
    sql = createSqlPool(url);
    runs = createScrapeRunStore(sql);
    userId = randomUUID();
    await db.user.create({ data: { id: userId, name: 'T', email: `${userId}@example.test`, emailVerified: false } });
  });

  afterAll(async () => {
    await sql?.close();
    await db?.$disconnect();
  });

  async function newRun(): Promise<string> {
    const id = randomUUID();
    await runs.insert([{ id, userId, apiKeyId: null, workflowId: `scrape-${id}`, mode: 'http', url: 'https://example.com/', request: { url: 'https://example.com/' }, cost: 1 }]);
    return id;
  }

  const statusOf = async (id: string) => (await sql.query<{ status: string }>('SELECT status::text AS status FROM scrape_run WHERE id = $1', [id]))[0]!.status;
  const result = { final_url: 'https://example.com/', status: 200, headers: {} };

  it('a late success never overwrites cancelled, and an attempt after it is told the run is finished', async () => {
    const id = await newRun();
    expect(await runs.startAttempt(id, 1)).toBeNull();
    expect(await runs.cancel(id, { code: 'CANCELLED', message: 'the run was cancelled' })).toBe(true);
    expect(await runs.succeed(id, result, 5)).toBe(false);
    expect(await runs.markSucceeded(id)).toBe(false);
    expect(await statusOf(id)).toBe('cancelled');
    expect(await runs.startAttempt(id, 2)).toMatchObject({ id, status: 'cancelled', attempts: 1 });
  });

  it('the first outcome stays: a late failure or cancel never overwrites a success', async () => {
    const id = await newRun();
    expect(await runs.succeed(id, result, 5)).toBe(true);
    expect(await runs.fail(id, { code: 'SCRAPE_FAILED', message: 'late' })).toBeNull();
    expect(await runs.cancel(id, { code: 'CANCELLED', message: 'late' })).toBe(false);
    expect(await statusOf(id)).toBe('succeeded');
    expect((await sql.query<{ error: unknown }>('SELECT error FROM scrape_run WHERE id = $1', [id]))[0]!.error).toBeNull();
  });

  describe('an attempt started with its debit, in one statement', () => {
    const balance = async () => (await sql.query<{ b: number }>('SELECT "creditBalance" AS b FROM "user" WHERE id = $1', [userId]))[0]!.b;
    const debitsOf = async (id: string) => (await sql.query<{ amount: number }>(`SELECT amount FROM credit_ledger WHERE "runId" = $1 AND reason = 'debit'`, [id])).map((r) => r.amount);
    const debit = (id: string, amount = 3) => ({ userId, apiKeyId: null, amount, idempotencyKey: `scrape:${id}:debit`, runId: id, mode: 'http' });

    beforeAll(async () => {
      await sql.query('UPDATE "user" SET "creditBalance" = 100 WHERE id = $1', [userId]);
    });

    it('marks the attempt and debits once; a replay marks and debits nothing more', async () => {
      const id = await newRun();
      const before = await balance();
      expect(await runs.startAttemptWithDebit(id, 1, debit(id))).toEqual({ started: true, balanceAfter: before - 3 });
      expect(await statusOf(id)).toBe('running');
      // The retry of the attempt (or a replayed activity): started again, the debit not applied again.
      expect(await runs.startAttemptWithDebit(id, 2, debit(id))).toEqual({ started: true, balanceAfter: null });
      expect(await debitsOf(id)).toEqual([-3]);
      expect(await balance()).toBe(before - 3);
      expect((await runs.byId(id))!.attempts).toBe(2);
    });

    it('debits nothing for a finished run, and nothing past the balance', async () => {
      const finished = await newRun();
      expect(await runs.succeed(finished, result, 5)).toBe(true);
      const before = await balance();
      expect(await runs.startAttemptWithDebit(finished, 1, debit(finished))).toEqual({ started: false, balanceAfter: null });
      expect(await debitsOf(finished)).toEqual([]);

      const short = await newRun();
      expect(await runs.startAttemptWithDebit(short, 1, debit(short, before + 1))).toEqual({ started: true, balanceAfter: null });
      expect(await debitsOf(short)).toEqual([]);
      expect(await balance()).toBe(before);
    });

    it('racing replays debit once', async () => {
      const id = await newRun();
      const before = await balance();
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => runs.startAttemptWithDebit(id, 1, debit(id))));
      expect(outcomes.every((o) => o.started)).toBe(true);
      expect(outcomes.filter((o) => o.balanceAfter !== null)).toEqual([{ started: true, balanceAfter: before - 3 }]);
      expect(await debitsOf(id)).toEqual([-3]);
      expect(await balance()).toBe(before - 3);
    });
  });
});
