import { randomUUID } from 'node:crypto';
import { createTestDatabase } from '../test/helpers/database';
import { debitCredit, getBalance, grantCredit, refundCredit } from './credit';
import { createDatabase, type Database } from '../platform/db';
import { AppError } from '../platform/errors';

describe('credit ledger (real PostgreSQL)', () => {
  let db: Database;

  beforeAll(async () => {
    // A pool wide enough that 100 concurrent debits really run concurrently in the database.
    db = createDatabase(await createTestDatabase(), { poolSize: 40 });
  });

  afterAll(async () => {
    await db?.$disconnect();
  });

  async function account(balance: number): Promise<string> {
    const id = randomUUID();
    await db.user.create({ data: { id, name: 'T', email: `${id}@example.test`, emailVerified: false } });
    if (balance > 0) await grantCredit(db, { userId: id, amount: balance, idempotencyKey: `grant:test:${id}`, reason: 'grant' });
    return id;
  }

  const ledger = (userId: string) => db.creditLedger.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } });

  it('100 concurrent debits of 1 against a balance of 30: exactly 30 succeed, balance 0, 30 debit rows', async () => {
    const userId = await account(30);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => debitCredit(db, { userId, amount: 1, idempotencyKey: `debit:${userId}:${i}`, mode: 'http' })),
    );
    const ok = outcomes.filter((o) => o.status === 'fulfilled');
    const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(ok).toHaveLength(30);
    expect(failed).toHaveLength(70);
    // Every failure is the business error, never a deadlock or serialization failure.
    for (const f of failed) {
      expect(f.reason).toBeInstanceOf(AppError);
      expect((f.reason as AppError).code).toBe('INSUFFICIENT_CREDIT');
    }
    expect(await getBalance(db, userId)).toBe(0);
    const rows = (await ledger(userId)).filter((r) => r.reason === 'debit');
    expect(rows).toHaveLength(30);
    expect(rows.every((r) => r.amount === -1)).toBe(true);
    // balanceAfter values are 29..0, each exactly once: the debits were serialised.
    expect(rows.map((r) => r.balanceAfter).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('a replayed debit (same key, even concurrently) changes the balance once', async () => {
    const userId = await account(10);
    const key = `debit:replay:${userId}`;
    const results = await Promise.all(Array.from({ length: 10 }, () => debitCredit(db, { userId, amount: 3, idempotencyKey: key })));
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(results.filter((r) => !r.applied).every((r) => r.balanceAfter === 7)).toBe(true);
    expect(await getBalance(db, userId)).toBe(7);
    const again = await debitCredit(db, { userId, amount: 3, idempotencyKey: key });
    expect(again).toEqual({ applied: false, balanceAfter: 7 });
    expect(await db.creditLedger.count({ where: { idempotencyKey: key } })).toBe(1);
  });

  it('refuses a debit larger than the balance with INSUFFICIENT_CREDIT and changes nothing', async () => {
    const userId = await account(4);
    const attempt = debitCredit(db, { userId, amount: 5, idempotencyKey: `debit:big:${userId}` });
    await expect(attempt).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDIT', status: 402, extra: { remaining: 4, required: 5 } });
    expect(await getBalance(db, userId)).toBe(4);
    expect(await db.creditLedger.count({ where: { userId, reason: 'debit' } })).toBe(0);
    // The key was not consumed: the same operation succeeds once credit is there.
    await grantCredit(db, { userId, amount: 1, idempotencyKey: `topup:${userId}`, reason: 'topup' });
    expect(await debitCredit(db, { userId, amount: 5, idempotencyKey: `debit:big:${userId}` })).toEqual({ applied: true, balanceAfter: 0 });
  });

  it('refunds a debit once, whatever the refund key, with the key and mode of the debit', async () => {
    const userId = await account(10);
    const apiKeyId = `key-${userId}`;
    await debitCredit(db, { userId, apiKeyId, amount: 5, idempotencyKey: 'debit:r1', runId: 'run-1', mode: 'browser' });
    expect(await getBalance(db, userId)).toBe(5);

    expect(await refundCredit(db, { debitKey: 'debit:r1' })).toEqual({ applied: true, balanceAfter: 10 });
    expect(await refundCredit(db, { debitKey: 'debit:r1' })).toEqual({ applied: false, balanceAfter: 10 });
    // A different refund key for the same debit does not refund it twice.
    expect(await refundCredit(db, { debitKey: 'debit:r1', idempotencyKey: 'refund:other' })).toEqual({ applied: false, balanceAfter: 10 });
    expect(await getBalance(db, userId)).toBe(10);

    const refunds = (await ledger(userId)).filter((r) => r.reason === 'refund');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 5, balanceAfter: 10, apiKeyId, runId: 'run-1', mode: 'browser', idempotencyKey: 'refund:debit:r1', refundOf: 'debit:r1' });
  });

  it('concurrent refunds of one debit apply once', async () => {
    const userId = await account(10);
    await debitCredit(db, { userId, amount: 4, idempotencyKey: `debit:cr:${userId}` });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => refundCredit(db, { debitKey: `debit:cr:${userId}`, idempotencyKey: i % 2 ? undefined : `refund:alt:${userId}:${i}` })),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(await getBalance(db, userId)).toBe(10);
  });

  it('refund of an unknown debit changes nothing', async () => {
    expect(await refundCredit(db, { debitKey: 'debit:never-happened' })).toEqual({ applied: false, balanceAfter: 0 });
  });

  it('refuses an idempotency key reused for a different operation', async () => {
    const userId = await account(10);
    await debitCredit(db, { userId, amount: 1, idempotencyKey: `debit:conflict:${userId}` });
    await expect(debitCredit(db, { userId, amount: 2, idempotencyKey: `debit:conflict:${userId}` })).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    await expect(grantCredit(db, { userId, amount: 1, idempotencyKey: `debit:conflict:${userId}`, reason: 'topup' })).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    expect(await getBalance(db, userId)).toBe(9);
  });

  it('grants and adjusts, never below zero', async () => {
    const userId = await account(0);
    expect(await grantCredit(db, { userId, amount: 50, idempotencyKey: `g:${userId}`, reason: 'grant' })).toEqual({ applied: true, balanceAfter: 50 });
    expect(await grantCredit(db, { userId, amount: 50, idempotencyKey: `g:${userId}`, reason: 'grant' })).toEqual({ applied: false, balanceAfter: 50 });
    expect(await grantCredit(db, { userId, amount: -20, idempotencyKey: `adj:${userId}`, reason: 'adjustment' })).toEqual({ applied: true, balanceAfter: 30 });
    await expect(grantCredit(db, { userId, amount: -31, idempotencyKey: `adj2:${userId}`, reason: 'adjustment' })).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDIT' });
    await expect(grantCredit(db, { userId, amount: -1, idempotencyKey: `neg:${userId}`, reason: 'topup' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(debitCredit(db, { userId, amount: 0, idempotencyKey: `zero:${userId}` })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(debitCredit(db, { userId, amount: 1.5, idempotencyKey: `frac:${userId}` })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await getBalance(db, userId)).toBe(30);
  });

  it('an unknown account is NOT_FOUND, not a silent no-op', async () => {
    await expect(debitCredit(db, { userId: 'nobody', amount: 1, idempotencyKey: 'debit:nobody' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(getBalance(db, 'nobody')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
