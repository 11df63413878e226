/**
 * Limits (docs/operations.md, "Limits"), enforced across API replicas through PostgreSQL:
 * - requests per API key per minute (RATE_LIMIT_PER_MINUTE): one upsert per API-key request on a
 *   row per key and minute (fixed windows); over the limit → 429 RATE_LIMITED with Retry-After =
 *   the seconds left in the minute;
 * - runs in flight per account (CONCURRENCY_LIMIT): standalone scrape runs and flow runs queued or
 *   running, counted through partial indexes of live runs, read beside the balance before a run is
 *   recorded; at the limit → 429 with Retry-After 1. Check-then-start: concurrent starts of one
 *   account may pass the limit by the requests in flight at that instant (a soft limit).
 * - failed sign-ins per account (SIGN_IN_FAILURE_LIMIT per SIGN_IN_FAILURE_WINDOW_S): the auth
 *   library's 401 answers to POST /api/auth/sign-in/email counted per e-mail address in
 *   `sign_in_failure` (fixed windows, same upsert as the key rate); at the limit a sign-in of that
 *   address → 429 before the library checks the password, Retry-After = seconds left in the window.
 *   Per-address throttling of the auth routes is the library's own (lib/auth.ts).
 * A 429 comes before any run is recorded or credit taken. Each is counted in
 * `requests_limited_total{limit}`.
 */
import { AppError } from '../lib/errors';
import type { Config } from '../lib/config';
import type { Metrics } from '../lib/metrics';
import type { SqlPool } from '../lib/sql';

export interface LimitSettings {
  ratePerMinute: number;
  concurrency: number;
  /** Failed sign-ins of one address per window before 429; null = not counted. */
  signInFailures?: { limit: number; windowSeconds: number } | null;
}

/** The limits' settings from the configuration (docs/operations.md, "Limits"). */
export function limitSettings(config: Pick<Config, 'RATE_LIMIT_PER_MINUTE' | 'CONCURRENCY_LIMIT' | 'AUTH_RATE_LIMIT' | 'SIGN_IN_FAILURE_LIMIT' | 'SIGN_IN_FAILURE_WINDOW_S'>): LimitSettings {
  return {
    ratePerMinute: config.RATE_LIMIT_PER_MINUTE,
    concurrency: config.CONCURRENCY_LIMIT,
    signInFailures: config.AUTH_RATE_LIMIT ? { limit: config.SIGN_IN_FAILURE_LIMIT, windowSeconds: config.SIGN_IN_FAILURE_WINDOW_S } : null,
  };
}

/** The start of the current fixed window of $2 seconds, in SQL. */
const FAILURE_WINDOW = `to_timestamp(floor(extract(epoch FROM now()) / $2::int) * $2::int)`;

export function createLimits(deps: { sql: Pick<SqlPool, 'query'>; metrics: Metrics } & LimitSettings) {
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

    /** 429 when the address already failed SIGN_IN_FAILURE_LIMIT sign-ins in this window. */
    async checkSignIn(email: string): Promise<void> {
      const rule = deps.signInFailures;
      if (!rule) return;
      const [row] = await sql.query<{ count: number; retryAfter: number }>(
        `SELECT count, GREATEST(1, ceil(extract(epoch FROM "windowStart" + make_interval(secs => $2::int) - now())))::int AS "retryAfter"
           FROM sign_in_failure WHERE email = $1 AND "windowStart" = ${FAILURE_WINDOW}`,
        [email.toLowerCase(), rule.windowSeconds],
      );
      if (row && row.count >= rule.limit) {
        metrics.requestsLimited.inc({ limit: 'sign_in_account' });
        throw new AppError('RATE_LIMITED', `Too many failed sign-ins for this account; retry after ${row.retryAfter} s`, { retryAfter: row.retryAfter });
      }
    },

    /** Counts one failed sign-in (the library answered 401) of the address. */
    async countFailedSignIn(email: string): Promise<void> {
      const rule = deps.signInFailures;
      if (!rule) return;
      await sql.query(
        `INSERT INTO sign_in_failure (email, "windowStart", count) VALUES ($1, ${FAILURE_WINDOW}, 1)
         ON CONFLICT (email, "windowStart") DO UPDATE SET count = sign_in_failure.count + 1`,
        [email.toLowerCase(), rule.windowSeconds],
      );
    },

    /** Deletes counters of past windows (hourly, with the idempotency sweep). */
    async sweep(): Promise<void> {
      await sql.query(`DELETE FROM api_key_rate WHERE "windowStart" < now() - interval '1 hour'`);
      await sql.query(`DELETE FROM sign_in_failure WHERE "windowStart" < now() - interval '1 day'`);
    },
  };
}

export type Limits = ReturnType<typeof createLimits>;
