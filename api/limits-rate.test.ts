/**
 * The per-key request counter of api/limits.ts in its default form (counted in memory, added to
 * the shared rows every RATE_LIMIT_FLUSH_MS), against an in-memory stand-in for `api_key_rate`
 * shared by two "replicas"; fake timers move the clock. api/limits.test.ts runs it on PostgreSQL.
 */
import { AppError } from '../platform/errors';
import { createMetrics } from '../platform/metrics';
import { createLimits } from './limits';

const LIMIT = 5;
const FLUSH_MS = 100;

/** The `api_key_rate` rows, upserted as the flush statement does (count += amount, RETURNING the new counts). */
function sharedRows(options: { failNext?: number } = {}) {
  const rows = new Map<string, number>();
  let failures = options.failNext ?? 0;
  const statements: string[] = [];
  return {
    rows,
    statements,
    failNext(n: number) {
      failures = n;
    },
    query<T>(text: string, values: unknown[] = []): Promise<T[]> {
      statements.push(text);
      if (failures > 0) {
        failures--;
        return Promise.reject(new Error('connection refused'));
      }
      if (!text.includes('unnest')) return Promise.reject(new Error(`unexpected statement: ${text}`));
      const [keys, starts, amounts] = values as [string[], number[], number[]];
      return Promise.resolve(
        keys.map((apiKeyId, i) => {
          const id = `${apiKeyId}|${starts[i]}`;
          const count = (rows.get(id) ?? 0) + amounts[i]!;
          rows.set(id, count);
          return { apiKeyId, windowStart: String(starts[i]), count } as T;
        }),
      );
    },
  };
}

const replica = (sql: ReturnType<typeof sharedRows>) =>
  createLimits({ sql, metrics: createMetrics(), ratePerMinute: LIMIT, rateFlushMs: FLUSH_MS, concurrency: 0 });

async function outcome(limits: ReturnType<typeof replica>, apiKeyId: string): Promise<number | 'limited'> {
  try {
    await limits.countRequest(apiKeyId);
    return 0;
  } catch (error) {
    if (error instanceof AppError && error.code === 'RATE_LIMITED') return 'limited';
    throw error;
  }
}

const MINUTE = 60_000;
const START = Date.UTC(2026, 10, 22, 12, 0, 10);

beforeEach(() => {
  jest.useFakeTimers({ now: START });
});

afterEach(() => {
  jest.useRealTimers();
});

it('refuses the request past the limit on one replica at once, without a statement per request', async () => {
  const sql = sharedRows();
  const limits = replica(sql);
  const answers = [];
  for (let n = 0; n <= LIMIT; n++) answers.push(await outcome(limits, 'key-a'));
  expect(answers).toEqual([0, 0, 0, 0, 0, 'limited']);
  expect(sql.statements).toHaveLength(0);
  await jest.advanceTimersByTimeAsync(FLUSH_MS);
  // One statement for the whole burst; the refused request is counted too, as the per-request upsert counts it.
  expect(sql.statements).toHaveLength(1);
  expect(sql.rows.get(`key-a|${START - (START % MINUTE)}`)).toBe(LIMIT + 1);
  // Another key is counted on its own.
  expect(await outcome(limits, 'key-b')).toBe(0);
});

it('says how long until the minute ends', async () => {
  const limits = replica(sharedRows());
  for (let n = 0; n < LIMIT; n++) await limits.countRequest('key-a');
  const refused = await limits.countRequest('key-a').catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(AppError);
  // 12:00:10 → 50 s left in the minute.
  expect((refused as AppError).extra).toMatchObject({ retryAfter: 50 });
});

it('learns the counts of the other replicas at its flush, and refuses from then on', async () => {
  const sql = sharedRows();
  const [a, b] = [replica(sql), replica(sql)];
  for (let n = 0; n < LIMIT - 1; n++) expect(await outcome(a, 'key')).toBe(0);
  await jest.advanceTimersByTimeAsync(FLUSH_MS);
  // b has not flushed yet: it only knows its own request (the documented approximation).
  expect(await outcome(b, 'key')).toBe(0);
  await jest.advanceTimersByTimeAsync(FLUSH_MS);
  // Its flush returned LIMIT (4 from a, 1 from b): the next request passes it.
  expect(await outcome(b, 'key')).toBe('limited');
  // a learns at its next flush (it has counted nothing since: its next request carries it).
  expect(await outcome(a, 'key')).toBe(0);
  await jest.advanceTimersByTimeAsync(FLUSH_MS);
  expect(await outcome(a, 'key')).toBe('limited');
});

it('keeps its counts when a flush fails and adds them at the next one', async () => {
  const sql = sharedRows({ failNext: 1 });
  const limits = replica(sql);
  for (let n = 0; n < 3; n++) await limits.countRequest('key');
  await jest.advanceTimersByTimeAsync(FLUSH_MS);
  expect(sql.rows.size).toBe(0);
  await jest.advanceTimersByTimeAsync(FLUSH_MS);
  expect([...sql.rows.values()]).toEqual([3]);
  expect(sql.statements).toHaveLength(2);
});

it('starts a new count at the minute boundary and still adds the past minute to its own row', async () => {
  const sql = sharedRows();
  const limits = replica(sql);
  for (let n = 0; n < LIMIT; n++) await limits.countRequest('key');
  expect(await outcome(limits, 'key')).toBe('limited');
  jest.setSystemTime(START - (START % MINUTE) + MINUTE);
  expect(await outcome(limits, 'key')).toBe(0);
  await jest.advanceTimersByTimeAsync(FLUSH_MS);
  const minute = START - (START % MINUTE);
  expect(sql.rows.get(`key|${minute}`)).toBe(LIMIT + 1);
  expect(sql.rows.get(`key|${minute + MINUTE}`)).toBe(1);
});

it('adds what it counted when closed, without waiting for the timer', async () => {
  const sql = sharedRows();
  const limits = replica(sql);
  await limits.countRequest('key');
  await limits.close();
  expect([...sql.rows.values()]).toEqual([1]);
});
