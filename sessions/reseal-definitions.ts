/**
 * Re-seals the secrets of saved definitions under the current key (`npm run sessions:reencrypt`,
 * after sessions/reencrypt.ts; docs/operations.md "Secrets at rest"): after a rotation, every
 * secret under an old key (SESSION_ENCRYPTION_KEYS_OLD), and every one stored in clear before
 * sealing existed, is written back sealed under SESSION_ENCRYPTION_KEY, so the old key can be
 * dropped. One row at a time under its row lock; a row with a secret no configured key opens is
 * left as it is and reported as `table/id`.
 */
import type { SqlPool } from '../platform/sql';
import { AppError } from '../platform/errors';
import type { SessionKeyring } from './keys';
import { type DefinitionKind, resealHeaderValues, resealRequestSecrets } from './request-secrets';

/** A column holding requests of one kind of definition, and where in its value they are. */
export interface DefinitionColumn {
  table: string;
  column: string;
  kind: DefinitionKind;
  /** The value with `change` applied to each request in it (the value itself when it is one request). */
  mapRequests?: (value: unknown, change: (request: unknown) => unknown) => unknown;
  /** The value with `change` applied to each map of sealed header values in it (a Firecrawl job webhook's `headers`). */
  mapHeaders?: (value: unknown, change: (headers: Record<string, unknown>) => Record<string, string>) => unknown;
}

export interface ResealOutcome {
  /** Rows written back with every secret under the current key. */
  resealed: number;
  /** `table/id` of rows some secret of which no configured key opens. */
  unreadable: string[];
}

export async function resealDefinitions(sql: SqlPool, keyring: SessionKeyring, columns: readonly DefinitionColumn[]): Promise<ResealOutcome> {
  const outcome: ResealOutcome = { resealed: 0, unreadable: [] };
  for (const { table, column, kind, mapRequests = (value: unknown, change: (request: unknown) => unknown) => change(value), mapHeaders } of columns) {
    const ids = await sql.query<{ id: string }>(`SELECT id FROM ${table} ORDER BY id`);
    for (const { id } of ids) {
      await sql.transaction(async (tx) => {
        const [row] = await tx.query<{ userId: string; value: unknown }>(`SELECT "userId", ${column} AS value FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
        if (!row) return;
        let changed = false;
        let next: unknown;
        try {
          next = mapRequests(row.value, (request) => {
            const resealed = resealRequestSecrets(keyring, { userId: row.userId, kind }, request);
            changed ||= resealed.changed;
            return resealed.request;
          });
          next = mapHeaders
            ? mapHeaders(next, (headers) => {
                const resealed = resealHeaderValues(keyring, { userId: row.userId, kind }, headers);
                changed ||= resealed.changed;
                return resealed.headers;
              })
            : next;
        } catch (error) {
          if (error instanceof AppError && error.code === 'SECRET_UNREADABLE') {
            outcome.unreadable.push(`${table}/${id}`);
            return;
          }
          throw error;
        }
        if (!changed) return;
        await tx.query(`UPDATE ${table} SET ${column} = $2::jsonb WHERE id = $1`, [id, JSON.stringify(next)]);
        outcome.resealed++;
      });
    }
  }
  return outcome;
}
