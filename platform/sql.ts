/**
 * Plain SQL over a `pg` pool, for the hot path of a scrape (the run row, the debit, the balance).
 * Prisma stays the data layer everywhere else; here its query engine costs more CPU than the
 * statements themselves (a profile put `@prisma/client` first in the API and the worker), and a
 * scrape runs four of them. `$queryRaw` has Prisma's tagged-template shape, so the ledger
 * functions (accounts/credit.ts) take either.
 *
 * Values are sent as parameters, never interpolated. JSON columns take `JSON.stringify`'d text
 * (pg would turn a JS array into a PostgreSQL array literal).
 */
import { Pool, types } from 'pg';

/** `\u0000` in JSON text, not itself escaped (an odd run of backslashes before `u0000`). */
const ESCAPED_NUL = /(?<!\\)((?:\\\\)*)\\u0000/g;

/**
 * A value as the text of a jsonb parameter. PostgreSQL refuses U+0000 in jsonb, and a page's raw
 * document can hold one (HTML parsers drop it or make it U+FFFD), so each is stored as U+FFFD
 * (docs/scraping.md, "NUL characters").
 */
export function jsonbText(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes('\\u0000') ? text.replace(ESCAPED_NUL, '$1\\ufffd') : text;
}

/** What the ledger and run-store functions need: a tagged-template query returning rows. */
export interface SqlClient {
  $queryRaw<T = unknown>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T>;
}

export interface SqlPool extends SqlClient {
  /** A statement with `$1…$n` placeholders. */
  query<T>(text: string, values?: unknown[]): Promise<T[]>;
  /** Runs `fn` in one transaction on one connection (BEGIN … COMMIT, ROLLBACK on a throw). */
  transaction<R>(fn: (tx: SqlClient & { query<T>(text: string, values?: unknown[]): Promise<T[]> }) => Promise<R>): Promise<R>;
  close(): Promise<void>;
}

/**
 * int8 (COUNT, SUM of ints) as a JS number, as the code reading them expects (our sums stay far
 * below 2^53). Set on this pool only: Prisma's adapter shares the `pg` module and its parsers.
 */
const INT8_OID = 20;
const poolTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : (types.getTypeParser(oid, format) as unknown)) as typeof types.getTypeParser,
};

/** `a ${x} b ${y}` → `a $1 b $2`, [x, y]. */
export function toStatement(strings: TemplateStringsArray, values: unknown[]): { text: string; values: unknown[] } {
  let text = strings[0]!;
  for (let i = 1; i < strings.length; i++) text += `$${i}${strings[i]}`;
  return { text, values };
}

/**
 * Socket-level failures of this pool. It talks to PostgreSQL only (never to a scrape target), so
 * any of these means the database cannot be reached: rethrown as DatabaseUnreachableError, which
 * the API answers with 503 DEPENDENCY_UNAVAILABLE (api/middleware/dependencies.ts).
 */
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

export class DatabaseUnreachableError extends Error {
  override name = 'DatabaseUnreachableError';
}

function unreachable(error: unknown): unknown {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && SOCKET_ERRORS.has(code) ? new DatabaseUnreachableError(`PostgreSQL cannot be reached (${code})`, { cause: error }) : error;
}

/** SQLSTATEs of a server shutting down, starting up or recovering, and connection exceptions (class 08). */
export const PG_UNAVAILABLE = /^(57P0[1-3]|08...)$/;

/**
 * Whether `error` (from this pool or node-postgres) says PostgreSQL is unreachable or restarting,
 * as opposed to a statement failing: the caller may wait and try again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  if (name === 'DatabaseUnreachableError') return true;
  // node-postgres's server errors carry a severity; a bare socket error is wrapped above.
  if (typeof code === 'string' && PG_UNAVAILABLE.test(code) && 'severity' in error) return true;
  return typeof message === 'string' && /^Connection terminated( unexpectedly| due to connection timeout)?$/.test(message);
}

/**
 * Runs `statement` until PostgreSQL answers: while it is unreachable or restarting (a few
 * seconds when `npm start` restarts it), waits 250 ms doubling to 2 s and tries again; any other
 * error is thrown at once. Gives up when `signal` aborts or after `maxWaitMs`.
 */
export async function untilDatabaseAnswers<T>(statement: () => Promise<T>, signal?: AbortSignal, maxWaitMs = 60_000): Promise<T> {
  const deadline = Date.now() + maxWaitMs;
  for (let delay = 250; ; delay = Math.min(delay * 2, 2000)) {
    try {
      return await statement();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || signal?.aborted || Date.now() + delay > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** Runs a statement, naming an unreachable database as such. */
async function run<T>(statement: () => Promise<T>): Promise<T> {
  try {
    return await statement();
  } catch (error) {
    throw unreachable(error);
  }
}

export function createSqlPool(databaseUrl: string, options: { max?: number } = {}): SqlPool {
  const pool = new Pool({ connectionString: databaseUrl, max: options.max ?? 10, types: poolTypes });
  // An idle client's error (the server restarted) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const query = async <T>(text: string, values: unknown[] = []) => (await run(() => pool.query(text, values))).rows as T[];
  return {
    query,
    $queryRaw: async <T>(strings: TemplateStringsArray, ...values: unknown[]) => {
      const statement = toStatement(strings, values);
      return (await run(() => pool.query(statement.text, statement.values))).rows as T;
    },
    async transaction(fn) {
      const client = await run(() => pool.connect());
      try {
        await client.query('BEGIN');
        const tx = {
          query: async <T>(text: string, values: unknown[] = []) => (await client.query(text, values)).rows as T[],
          $queryRaw: async <T>(strings: TemplateStringsArray, ...values: unknown[]) => {
            const statement = toStatement(strings, values);
            return (await client.query(statement.text, statement.values)).rows as T;
          },
        };
        const result = await fn(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw unreachable(error);
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
