/**
 * Limits (docs/operations.md, "Limits"), enforced across API replicas through PostgreSQL:
 * - requests per API key per minute (RATE_LIMIT_PER_MINUTE), in fixed one-minute windows, one row
 *   per key and minute in `api_key_rate`. Each replica counts its requests in memory and adds them
 *   to the shared rows every RATE_LIMIT_FLUSH_MS in one statement, which returns the counts of
 *   every replica; a request is refused when the last shared count plus what this replica counted
 *   since passes the limit. Over the limit → 429 RATE_LIMITED with Retry-After = the seconds left
 *   in the minute. RATE_LIMIT_FLUSH_MS=0: one upsert per request instead (exact across replicas,
 *   one more statement per request).
 * - runs in flight per account (CONCURRENCY_LIMIT): standalone scrape runs, flow runs and crawl or
 *   batch jobs queued or running (a job counts once, not its pages; a flow run once, not its
 *   scrapes), counted through partial indexes of live runs, read in the statement that reads the
 *   balance before a run is recorded; at the limit → 429 with Retry-After 1. Check-then-start:
 *   concurrent starts of one account may pass the limit by the requests in flight at that
 *   instant (a soft limit).
 * - failed sign-ins per account (SIGN_IN_FAILURE_LIMIT per SIGN_IN_FAILURE_WINDOW_S): the auth
 *   library's 401 answers to POST /api/auth/sign-in/email counted per e-mail address in
 *   `sign_in_failure` (fixed windows, same upsert as the key rate); at the limit a sign-in of that
 *   address → 429 before the library checks the password, Retry-After = seconds left in the window.
 *   Per-address throttling of the auth routes is the library's own (accounts/auth.ts).
 * A 429 comes before any run is recorded or credit taken. Each is counted in
 * `requests_limited_total{limit}`.
 */
import { AppError } from '../platform/errors';
import type { Config } from '../platform/config';
import type { Metrics } from '../platform/metrics';
import type { Logger } from '../platform/logger';
import type { SqlPool } from '../platform/sql';

export interface LimitSettings {
  ratePerMinute: number;
  /** How often counted requests go to PostgreSQL; 0 = each request as it comes. */
  rateFlushMs: number;
  concurrency: number;
  /** Failed sign-ins of one address per window before 429; null = not counted. */
  signInFailures?: { limit: number; windowSeconds: number } | null;
}

/** The limits' settings from the configuration (docs/operations.md, "Limits"). */
export function limitSettings(config: Pick<Config, 'RATE_LIMIT_PER_MINUTE' | 'RATE_LIMIT_FLUSH_MS' | 'CONCURRENCY_LIMIT' | 'AUTH_RATE_LIMIT' | 'SIGN_IN_FAILURE_LIMIT' | 'SIGN_IN_FAILURE_WINDOW_S'>): LimitSettings {
  return {
    ratePerMinute: config.RATE_LIMIT_PER_MINUTE,
    rateFlushMs: config.RATE_LIMIT_FLUSH_MS,
    concurrency: config.CONCURRENCY_LIMIT,
    signInFailures: config.AUTH_RATE_LIMIT ? { limit: config.SIGN_IN_FAILURE_LIMIT, windowSeconds: config.SIGN_IN_FAILURE_WINDOW_S } : null,
  };
}

/** The start of the current fixed window of $2 seconds, in SQL. */
const FAILURE_WINDOW = `to_timestamp(floor(extract(epoch FROM now()) / $2::int) * $2::int)`;

const MINUTE_MS = 60_000;

/**
 * The runs in flight of account $1 (served by the partial indexes of live runs): its standalone
 * scrape runs (scrapes, template runs, maps), its flow runs and its crawl and batch jobs, each one
 * run. A flow run's scrapes and a job's pages are not counted: their job is, once, and its own
 * `concurrency` bounds them (docs/operations.md "Limits"). A job's page runs carry its workflow id
 * (`crawl-<id>`).
 */
const LIVE_RUNS = `((SELECT count(*) FROM scrape_run WHERE "userId" = $1 AND status IN ('queued', 'running') AND "flowRunId" IS NULL AND "workflowId" NOT LIKE 'crawl-%')
  + (SELECT count(*) FROM flow_run WHERE "userId" = $1 AND status IN ('queued', 'running'))
  + (SELECT count(*) FROM crawl WHERE "userId" = $1 AND status IN ('queued', 'running')))::int`;

/** The account's runs in flight as the concurrency limit counts them (Firecrawl's `GET /v2/concurrency-check`). */
export async function liveRunsOf(sql: Pick<SqlPool, 'query'>, userId: string): Promise<number> {
  const [row] = await sql.query<{ live: number }>(`SELECT ${LIVE_RUNS} AS live`, [userId]);
  return Number(row?.live ?? 0);
}

/** One key's requests in one minute, as this replica knows them. */
interface KeyMinute {
  apiKeyId: string;
  /** Epoch ms of the minute's start. */
  windowStart: number;
  /** The shared count (every replica) the last flush returned. */
  shared: number;
  /** Counted here since: not yet in the shared count. */
  pending: number;
}

export function createLimits(deps: { sql: Pick<SqlPool, 'query'>; metrics: Metrics; logger?: Logger } & LimitSettings) {
  const { sql, metrics } = deps;
  function refuseAtConcurrency(live: number): void {
    if (live < deps.concurrency) return;
    metrics.requestsLimited.inc({ limit: 'concurrency' });
    throw new AppError('RATE_LIMITED', `The account has ${live} runs in flight (the limit is ${deps.concurrency}); retry when one finishes`, { retryAfter: 1 });
  }
  const minutes = new Map<string, KeyMinute>();
  /** Past minutes still holding requests to add to their rows. */
  let retired: KeyMinute[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;

  function refuse(count: number, retryAfter: number): void {
    if (count <= deps.ratePerMinute) return;
    metrics.requestsLimited.inc({ limit: 'rate' });
    throw new AppError('RATE_LIMITED', `This API key made more than ${deps.ratePerMinute} requests this minute; retry after ${retryAfter} s`, { retryAfter });
  }

  /** Adds every replica-local count to its shared row, in one statement; learns the shared counts back. */
  async function flush(): Promise<void> {
    flushTimer = undefined;
    const batch = [...retired, ...[...minutes.values()].filter((m) => m.pending > 0)];
    if (!batch.length) return;
    const amounts = batch.map((m) => m.pending);
    const rows = await sql.query<{ apiKeyId: string; windowStart: string; count: number }>(
      `INSERT INTO api_key_rate ("apiKeyId", "windowStart", count)
       SELECT key, to_timestamp(start / 1000.0), amount FROM unnest($1::text[], $2::bigint[], $3::int[]) AS t(key, start, amount)
       ON CONFLICT ("apiKeyId", "windowStart") DO UPDATE SET count = api_key_rate.count + EXCLUDED.count
       RETURNING "apiKeyId", (extract(epoch FROM "windowStart") * 1000)::bigint AS "windowStart", count`,
      [batch.map((m) => m.apiKeyId), batch.map((m) => m.windowStart), amounts],
    );
    batch.forEach((m, i) => (m.pending -= amounts[i]!));
    retired = retired.filter((m) => m.pending > 0);
    for (const row of rows) {
      const current = minutes.get(row.apiKeyId);
      if (current && current.windowStart === Number(row.windowStart)) current.shared = row.count;
    }
  }

  function scheduleFlush(): void {
    if (flushTimer || flushing) return;
    flushTimer = setTimeout(() => {
      flushing = flush()
        .catch((error: unknown) => deps.logger?.warn({ err: error instanceof Error ? error.message : String(error) }, 'adding request counts to api_key_rate failed; kept for the next flush'))
        .finally(() => {
          flushing = undefined;
          if (retired.length || [...minutes.values()].some((m) => m.pending > 0)) scheduleFlush();
        });
    }, deps.rateFlushMs);
    flushTimer.unref();
  }

  /** Counts one request of the key in this replica's memory; 429 when the key's minute passes the limit. */
  function countLocally(apiKeyId: string): void {
    const now = Date.now();
    const windowStart = now - (now % MINUTE_MS);
    let minute = minutes.get(apiKeyId);
    if (minute?.windowStart !== windowStart) {
      if (minute?.pending) retired.push(minute);
      minute = { apiKeyId, windowStart, shared: 0, pending: 0 };
      minutes.set(apiKeyId, minute);
    }
    minute.pending++;
    scheduleFlush();
    refuse(minute.shared + minute.pending, Math.max(1, Math.ceil((windowStart + MINUTE_MS - now) / 1000)));
  }

  return {
    /** Counts one request of the key; 429 when the minute's count passes the limit. */
    async countRequest(apiKeyId: string): Promise<void> {
      if (deps.ratePerMinute <= 0) return;
      if (deps.rateFlushMs > 0) {
        countLocally(apiKeyId);
        return;
      }
      const [row] = await sql.query<{ count: number; retryAfter: number }>(
        `INSERT INTO api_key_rate ("apiKeyId", "windowStart", count) VALUES ($1, date_trunc('minute', now()), 1)
         ON CONFLICT ("apiKeyId", "windowStart") DO UPDATE SET count = api_key_rate.count + 1
         RETURNING count, GREATEST(1, ceil(extract(epoch FROM date_trunc('minute', now()) + interval '1 minute' - now())))::int AS "retryAfter"`,
        [apiKeyId],
      );
      if (row) refuse(row.count, row.retryAfter);
    },

    /** Adds what this replica counted and not yet added to the shared counters (at shutdown). */
    async close(): Promise<void> {
      clearTimeout(flushTimer);
      flushTimer = undefined;
      await flushing;
      await flush().catch((error: unknown) => deps.logger?.warn({ err: error instanceof Error ? error.message : String(error) }, 'adding request counts to api_key_rate at shutdown failed'));
    },

    /**
     * The account's credit balance, read in one statement with its runs in flight: 429 when it
     * already has CONCURRENCY_LIMIT of them; NOT_FOUND without the account.
     */
    async balanceForNewRun(userId: string): Promise<number> {
      const counted = deps.concurrency > 0;
      const [row] = await sql.query<{ balance: number; live: number | null }>(
        `SELECT "creditBalance" AS balance, ${counted ? LIVE_RUNS : 'NULL'} AS live FROM "user" WHERE id = $1`,
        [userId],
      );
      if (!row) throw new AppError('NOT_FOUND', 'Account not found');
      if (counted) refuseAtConcurrency(Number(row.live));
      return row.balance;
    },

    /** 429 when the account already has CONCURRENCY_LIMIT runs in flight. */
    async checkConcurrency(userId: string): Promise<void> {
      if (deps.concurrency <= 0) return;
      const [row] = await sql.query<{ live: number }>(`SELECT ${LIVE_RUNS} AS live`, [userId]);
      if (row) refuseAtConcurrency(Number(row.live));
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
