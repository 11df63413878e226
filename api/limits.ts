/**
 * Limits (docs/operations.md, "Limits"), enforced across API replicas through PostgreSQL:
 * - requests per API key per minute (RATE_LIMIT_PER_MINUTE): one upsert per API-key request on a
 *   row per key and minute (fixed windows); over the limit → 429 RATE_LIMITED with Retry-After =
 *   the seconds left in the minute;
 * - runs in flight per account (CONCURRENCY_LIMIT): standalone scrape runs and flow runs queued or
 *   running, counted through partial indexes of live runs, read beside the balance before a run is
 *   recorded; at the limit → 429 with Retry-After 1. Check-then-start: concurrent starts of one
 *   account may pass the limit by the requests in flight at that instant (a soft limit).
 * A 429 comes before any run is recorded or credit taken. Each is counted in
 * `requests_limited_total{limit}`.
 */
import { AppError } from '../lib/errors';
import type { Metrics } from '../lib/metrics';
import type { SqlPool } from '../lib/sql';

export function createLimits(deps: { sql: Pick<SqlPool, 'query'>; metrics: Metrics; ratePerMinute: number; concurrency: number }) {
  const { sql, metrics } = deps;
  return {
    /** Counts one request of the key; 429 when the minute's count passes the limit. */
    async countRequest(apiKeyId: string): Promise<void> {
      if (deps.ratePerMinute <= 0) return;
      const [row] = await sql.query<{ count: number; retryAfter: number }>(
        `INSERT INTO api_key_rate ("apiKeyId", "windowStart", count) VALUES ($1, date_trunc('minute', now()), 1)
         ON CONFLICT ("apiKeyId", "windowStart") DO UPDATE SET count = api_key_rate.count + 1
         RETURNING count, GREATEST(1, ceil(extract(epoch FROM date_trunc('minute', now()) + interval '1 minute' - now())))::int AS "retryAfter"`,
        [apiKeyId],
      );
      if (row && row.count > deps.ratePerMinute) {
        metrics.requestsLimited.inc({ limit: 'rate' });
        throw new AppError('RATE_LIMITED', `This API key made more than ${deps.ratePerMinute} requests this minute; retry after ${row.retryAfter} s`, { retryAfter: row.retryAfter });
      }
    },

    /** 429 when the account already has CONCURRENCY_LIMIT runs in flight. */
    async checkConcurrency(userId: string): Promise<void> {
      if (deps.concurrency <= 0) return;
      const [row] = await sql.query<{ live: number }>(
        `SELECT (SELECT count(*) FROM scrape_run WHERE "userId" = $1 AND status IN ('queued', 'running') AND "flowRunId" IS NULL)
              + (SELECT count(*) FROM flow_run WHERE "userId" = $1 AND status IN ('queued', 'running')) AS live`,
        [userId],
      );
      if (row && row.live >= deps.concurrency) {
        metrics.requestsLimited.inc({ limit: 'concurrency' });
        throw new AppError('RATE_LIMITED', `The account has ${row.live} runs in flight (the limit is ${deps.concurrency}); retry when one finishes`, { retryAfter: 1 });
      }
    },

    /** Deletes counters of past windows (hourly, with the idempotency sweep). */
    async sweep(): Promise<void> {
      await sql.query(`DELETE FROM api_key_rate WHERE "windowStart" < now() - interval '1 hour'`);
    },
  };
}

export type Limits = ReturnType<typeof createLimits>;
