/**
 * The scrape_run row's owner (real PostgreSQL): every terminal transition is guarded, so the first
 * outcome written stays — a late success never overwrites a cancel, a late failure never
 * overwrites a success, and a finished run is reported to an attempt that starts after it.
 */
import { randomUUID } from 'node:crypto';
import { createTestDatabase } from '../test/helpers/database';
import { createDatabase, type Database } from './db';
import { createScrapeRunStore } from './scrape-runs';
import { createSqlPool, type SqlPool } from './sql';

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
});
