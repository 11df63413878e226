/**
 * Re-encrypts stored sessions under the current key (`npm run sessions:reencrypt`,
 * docs/operations.md "Session encryption key"): after a rotation, every row still under an old key
 * (SESSION_ENCRYPTION_KEYS_OLD) is read and written back under SESSION_ENCRYPTION_KEY, so the old
 * key can then be dropped from configuration. One row at a time, each under its row lock (a scrape
 * saving the same session waits for it); the state itself, its version and its facts are unchanged.
 * A row no configured key reads is left as it is and reported by name: dropping its key already
 * made it unreadable (SESSION_UNREADABLE), and rewriting it cannot help.
 */
import type { SqlPool } from '../platform/sql';
import { AppError } from '../platform/errors';
import { type EncryptedState, type SessionKeyring, decryptState, encryptState } from './keys';

export interface ReencryptOutcome {
  /** Rows now under the current key that were under an old one. */
  reencrypted: number;
  /** Rows already under the current key. */
  current: number;
  /** Rows no configured key reads: `userId/name`. */
  unreadable: string[];
}

interface KeyedRow extends EncryptedState {
  id: string;
  userId: string;
  name: string;
}

export async function reencryptSessions(sql: SqlPool, keyring: SessionKeyring): Promise<ReencryptOutcome> {
  const outcome: ReencryptOutcome = { reencrypted: 0, current: 0, unreadable: [] };
  const ids = await sql.query<{ id: string; keyId: string }>(`SELECT id, "keyId" FROM scrape_session ORDER BY id`);
  outcome.current = ids.filter((row) => row.keyId === keyring.current.id).length;
  for (const { id } of ids.filter((row) => row.keyId !== keyring.current.id)) {
    await sql.transaction(async (tx) => {
      const [row] = await tx.query<KeyedRow>(`SELECT id, "userId", name, "keyId", iv, ciphertext, "authTag" FROM scrape_session WHERE id = $1 FOR UPDATE`, [id]);
      // Gone meanwhile, or saved under the current key by a scrape since the list was read.
      if (!row) return;
      if (row.keyId === keyring.current.id) {
        outcome.current++;
        return;
      }
      let plaintext: string;
      try {
        plaintext = decryptState(keyring, row.userId, row.name, row);
      } catch (error) {
        if (error instanceof AppError && error.code === 'SESSION_UNREADABLE') {
          outcome.unreadable.push(`${row.userId}/${row.name}`);
          return;
        }
        throw error;
      }
      const sealed = encryptState(keyring, row.userId, row.name, plaintext);
      await tx.query(`UPDATE scrape_session SET "keyId" = $2, iv = $3, ciphertext = $4, "authTag" = $5 WHERE id = $1`, [id, sealed.keyId, sealed.iv, sealed.ciphertext, sealed.authTag]);
      outcome.reencrypted++;
    });
  }
  return outcome;
}
