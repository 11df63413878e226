/**
 * Plain SQL over a `pg` pool, for the hot path of a scrape (the run row, the debit, the balance).
 * Prisma stays the data layer everywhere else; here its query engine costs more CPU than the
 * statements themselves (a profile put `@prisma/client` first in the API and the worker), and a
 * scrape runs four of them. `$queryRaw` has Prisma's tagged-template shape, so the ledger
 * functions (lib/credit.ts) take either.
 *
 * Values are sent as parameters, never interpolated. JSON columns take `JSON.stringify`'d text
 * (pg would turn a JS array into a PostgreSQL array literal).
 */
import { Pool, types } from 'pg';

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

export function createSqlPool(databaseUrl: string, options: { max?: number } = {}): SqlPool {
  const pool = new Pool({ connectionString: databaseUrl, max: options.max ?? 10, types: poolTypes });
  // An idle client's error (the server restarted) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const query = async <T>(text: string, values: unknown[] = []) => (await pool.query(text, values)).rows as T[];
  return {
    query,
    $queryRaw: async <T>(strings: TemplateStringsArray, ...values: unknown[]) => {
      const statement = toStatement(strings, values);
      return (await pool.query(statement.text, statement.values)).rows as T;
    },
    async transaction(fn) {
      const client = await pool.connect();
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
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
