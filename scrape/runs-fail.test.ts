/**
 * Settling a failed scrape (real PostgreSQL): every attempt of a run failed, so its debit goes
 * back and the run is recorded failed — unless the run finished meanwhile. A run recorded
 * succeeded by an attempt whose process was killed before it could report (the workflow then
 * settles the whole batch failed) keeps its outcome and its debit: the account got the page.
 */
import { randomUUID } from 'node:crypto';
import { createTestDatabase } from '../test/helpers/database';
import { getBalance } from '../accounts/credit';
import { createDatabase, type Database } from '../platform/db';
import { createScrapeRunStore } from './runs';
import { createSqlPool, type SqlPool } from '../platform/sql';
import { settleFailedScrape } from '../activities/scrape/run-scrape';
import type { ScrapeActivityDeps } from '../activities/scrape/activity-deps';

describe('settleFailedScrape (real PostgreSQL)', () => {
  let db: Database;
  let sql: SqlPool;
  let runs: ReturnType<typeof createScrapeRunStore>;
  let deps: ScrapeActivityDeps;
  let userId: string;
  let refundsCounted = 0;
  const failure = { code: 'SCRAPE_FAILED' as const, message: 'the batch of first attempts failed' };

  beforeAll(async () => {
    const url = await createTestDatabase();
    db = createDatabase(url);
    sql = createSqlPool(url);
    runs = createScrapeRunStore(sql);
    userId = randomUUID();
    await db.user.create({ data: { id: userId, name: 'T', email: `${userId}@example.test`, emailVerified: false, creditBalance: 100 } });
    // Only what settling reads: the store, the SQL pool and the refund counter.
    deps = { db, sql, runs, metrics: { creditsRefunded: { inc: () => refundsCounted++ } } } as unknown as ScrapeActivityDeps;
  });

  afterAll(async () => {
    await sql?.close();
    await db?.$disconnect();
  });

  async function debitedRun(): Promise<string> {
    const id = randomUUID();
    await runs.insert([{ id, userId, apiKeyId: null, workflowId: `scrape-lane-t-${id}`, mode: 'http', url: 'https://example.com/', request: { url: 'https://example.com/' }, cost: 3 }]);
    const debit = { userId, apiKeyId: null, amount: 3, idempotencyKey: `debit:scrape:${id}`, runId: id, mode: 'http' };
    expect(await runs.startAttemptWithDebit(id, 1, debit)).toMatchObject({ started: true });
    return id;
  }
  const ledger = async (runId: string) =>
    (await sql.query<{ reason: string; amount: number }>('SELECT reason::text AS reason, amount FROM credit_ledger WHERE "runId" = $1 ORDER BY reason', [runId])).map((r) => [r.reason, r.amount]);

  it('a running debited run: failed and refunded once, however often it is settled', async () => {
    const id = await debitedRun();
    const before = await getBalance(sql, userId);
    for (let i = 0; i < 3; i++) await settleFailedScrape(deps, { runId: id, ...failure });
    expect(await runs.byId(id)).toMatchObject({ status: 'failed', error: { ...failure, refunded: true } });
    expect(await ledger(id)).toEqual([
      ['debit', -3],
      ['refund', 3],
    ]);
    expect(await getBalance(sql, userId)).toBe(before + 3);
  });

  it('a run that succeeded meanwhile keeps its outcome and its debit', async () => {
    const id = await debitedRun();
    expect(await runs.succeed(id, { final_url: 'https://example.com/', status: 200, headers: {} }, 5)).toBe(true);
    const before = await getBalance(sql, userId);
    const counted = refundsCounted;
    await settleFailedScrape(deps, { runId: id, ...failure });
    expect(await runs.byId(id)).toMatchObject({ status: 'succeeded' });
    expect(await ledger(id)).toEqual([['debit', -3]]);
    expect(await getBalance(sql, userId)).toBe(before);
    expect(refundsCounted).toBe(counted);
  });
});
