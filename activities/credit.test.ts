import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createTestDatabase } from '../test/helpers/database';
import { getBalance, grantCredit } from '../accounts/credit';
import { createDatabase, type Database } from '../platform/db';
import { createCreditActivities } from './credit';

describe('credit activities (real PostgreSQL, Temporal activity context)', () => {
  let db: Database;
  let userId: string;

  beforeAll(async () => {
    db = createDatabase(await createTestDatabase());
    userId = randomUUID();
    await db.user.create({ data: { id: userId, name: 'A', email: `${userId}@example.test`, emailVerified: false } });
    await grantCredit(db, { userId, amount: 10, idempotencyKey: `grant:${userId}`, reason: 'grant' });
  });

  afterAll(async () => {
    await db?.$disconnect();
  });

  it('a replayed debit activity (same idempotency key, as on a Temporal retry) leaves one ledger row', async () => {
    const activities = createCreditActivities({ db });
    const input = { userId, apiKeyId: 'k1', amount: 3, idempotencyKey: 'scrape-abc:debit', runId: 'abc', mode: 'http' };
    // First attempt, then the retry Temporal would make after a lost completion.
    const first = await new MockActivityEnvironment({ attempt: 1 }).run(activities.debitCredit, input);
    const retry = await new MockActivityEnvironment({ attempt: 2 }).run(activities.debitCredit, input);
    expect(first).toEqual({ applied: true, balanceAfter: 7 });
    expect(retry).toEqual({ applied: false, balanceAfter: 7 });
    expect(await db.creditLedger.count({ where: { idempotencyKey: 'scrape-abc:debit' } })).toBe(1);
    expect(await getBalance(db, userId)).toBe(7);
  });

  it('a replayed refund activity refunds once', async () => {
    const activities = createCreditActivities({ db });
    const env = new MockActivityEnvironment();
    expect(await env.run(activities.refundCredit, { debitKey: 'scrape-abc:debit' })).toEqual({ applied: true, balanceAfter: 10 });
    expect(await env.run(activities.refundCredit, { debitKey: 'scrape-abc:debit' })).toEqual({ applied: false, balanceAfter: 10 });
    expect(await db.creditLedger.count({ where: { reason: 'refund', refundOf: 'scrape-abc:debit' } })).toBe(1);
  });

  it('not enough credit is a non-retryable ApplicationFailure of type INSUFFICIENT_CREDIT', async () => {
    const activities = createCreditActivities({ db });
    const error: unknown = await new MockActivityEnvironment()
      .run(activities.debitCredit, { userId, amount: 11, idempotencyKey: 'scrape-big:debit' })
      .then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ApplicationFailure);
    const failure = error as ApplicationFailure;
    expect(failure.type).toBe('INSUFFICIENT_CREDIT');
    expect(failure.nonRetryable).toBe(true);
    expect(failure.details).toEqual([{ remaining: 10, required: 11 }]);
    expect(await getBalance(db, userId)).toBe(10);
  });

  it('an infrastructure failure stays retryable (not an ApplicationFailure)', async () => {
    const broken = createDatabase('postgresql://nobody:nothing@127.0.0.1:1/none');
    try {
      const activities = createCreditActivities({ db: broken });
      const error: unknown = await new MockActivityEnvironment()
        .run(activities.debitCredit, { userId, amount: 1, idempotencyKey: 'x' })
        .then(() => undefined, (e: unknown) => e);
      expect(error).toBeDefined();
      expect(error).not.toBeInstanceOf(ApplicationFailure);
    } finally {
      await broken.$disconnect();
    }
  });
});
