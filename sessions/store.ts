/**
 * The store of sessions (table `scrape_session`; docs/scraping.md, "Sessions"): it owns every
 * write. States go in and out in clear here only: encrypted on the way in (sessions/keys.ts),
 * decrypted on the way out, never logged. Writes to one session are serialised by its row lock
 * (`SELECT … FOR UPDATE`), and each save merges its scrape's changes into the state stored at that
 * moment (sessions/state.ts); the version column counts writes.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../platform/errors';
import type { SqlPool } from '../platform/sql';
import { EMPTY_STORAGE_STATE, type StorageState } from '../scrape/cookies';
import type { Config } from '../platform/config';
import { type EncryptedState, type SessionKeyring, decryptState, encryptState, sessionKeyringFromConfig } from './keys';
import { mergeSessionState, serializeState, sessionFacts, withoutExpired } from './state';

export interface SessionLimits {
  /** SESSION_MAX_BYTES: the largest state, as compact JSON. */
  maxBytes: number;
  /** SESSIONS_PER_ACCOUNT. */
  perAccount: number;
}

/** What the routes show of a session: never a cookie's name or value. */
export interface SessionSummary {
  name: string;
  domains: string[];
  size_bytes: number;
  cookie_count: number;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

/** A session read for a scrape: its state and the version it was read at. */
export interface LoadedSession {
  state: StorageState;
  version: number;
}

type Tx = Parameters<Parameters<SqlPool['transaction']>[0]>[0];

interface SessionRow extends EncryptedState {
  id: string;
  name: string;
  domains: string[];
  sizeBytes: number;
  cookieCount: number;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

const COLUMNS = `id, name, "keyId", iv, ciphertext, "authTag", domains, "sizeBytes", "cookieCount", version, "createdAt", "updatedAt", "lastUsedAt", "expiresAt"`;

function summary(row: SessionRow): SessionSummary {
  return {
    name: row.name,
    domains: row.domains,
    size_bytes: row.sizeBytes,
    cookie_count: row.cookieCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
  };
}

export interface SessionStore {
  list(userId: string): Promise<SessionSummary[]>;
  get(userId: string, name: string): Promise<SessionSummary | null>;
  /** Replaces the whole state (creates the session when new): `PUT /sessions/:name`. */
  importState(userId: string, name: string, state: StorageState): Promise<{ created: boolean; session: SessionSummary }>;
  delete(userId: string, name: string): Promise<boolean>;
  /** Decrypts a session for a scrape and marks it used; null when the account has none of that name. */
  load(userId: string, name: string): Promise<LoadedSession | null>;
  /**
   * Applies what a scrape changed (from `base`, the state it started from, to `final`) to the
   * stored state, under the row's lock; creates the session when new.
   */
  saveChanges(userId: string, name: string, base: StorageState, final: StorageState): Promise<SessionSummary>;
}

export function createSessionStore(sql: SqlPool, keyring: SessionKeyring, limits: SessionLimits): SessionStore {
  const decrypt = (userId: string, row: SessionRow): StorageState => JSON.parse(decryptState(keyring, userId, row.name, row)) as StorageState;

  /** The state encrypted with its facts, or SESSION_TOO_LARGE. */
  function sealed(userId: string, name: string, state: StorageState) {
    const plaintext = serializeState(withoutExpired(state, Date.now() / 1000));
    const sizeBytes = Buffer.byteLength(plaintext, 'utf8');
    if (sizeBytes > limits.maxBytes) {
      throw new AppError('SESSION_TOO_LARGE', `session ${name} would hold ${sizeBytes} bytes of state; the limit is ${limits.maxBytes} (SESSION_MAX_BYTES)`);
    }
    return { ...encryptState(keyring, userId, name, plaintext), sizeBytes, ...sessionFacts(JSON.parse(plaintext) as StorageState) };
  }

  async function lockRow(tx: Tx, userId: string, name: string): Promise<SessionRow | undefined> {
    const [row] = await tx.query<SessionRow>(`SELECT ${COLUMNS} FROM scrape_session WHERE "userId" = $1 AND name = $2 FOR UPDATE`, [userId, name]);
    return row;
  }

  /** A new session's row (empty state), within the account's count; a racing creation of the same name is fine. */
  async function createRow(tx: Tx, userId: string, name: string): Promise<void> {
    // One creation at a time per account, so two new names cannot both pass the count.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('scrape_session:' || $1))`, [userId]);
    const [{ count }] = (await tx.query<{ count: number }>(`SELECT count(*)::int AS count FROM scrape_session WHERE "userId" = $1 AND name <> $2`, [userId, name])) as [{ count: number }];
    if (count >= limits.perAccount) {
      throw new AppError('SESSION_LIMIT_REACHED', `the account keeps ${count} sessions, the limit (SESSIONS_PER_ACCOUNT); delete one before adding ${name}`);
    }
    const row = sealed(userId, name, EMPTY_STORAGE_STATE);
    await tx.query(
      `INSERT INTO scrape_session (id, "userId", name, "keyId", iv, ciphertext, "authTag", domains, "sizeBytes", "cookieCount", version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0) ON CONFLICT ("userId", name) DO NOTHING`,
      [randomUUID(), userId, name, row.keyId, row.iv, row.ciphertext, row.authTag, row.domains, row.sizeBytes, row.cookieCount],
    );
  }

  async function write(tx: Tx, userId: string, name: string, state: StorageState): Promise<SessionRow> {
    const row = sealed(userId, name, state);
    const [updated] = await tx.query<SessionRow>(
      `UPDATE scrape_session SET "keyId" = $3, iv = $4, ciphertext = $5, "authTag" = $6, domains = $7, "sizeBytes" = $8, "cookieCount" = $9,
         "expiresAt" = $10, version = version + 1, "updatedAt" = now()
       WHERE "userId" = $1 AND name = $2 RETURNING ${COLUMNS}`,
      [userId, name, row.keyId, row.iv, row.ciphertext, row.authTag, row.domains, row.sizeBytes, row.cookieCount, row.expiresAt],
    );
    return updated!;
  }

  /** The session's row, locked, created empty when missing. */
  async function lockOrCreate(tx: Tx, userId: string, name: string): Promise<{ row: SessionRow; created: boolean }> {
    const existing = await lockRow(tx, userId, name);
    if (existing) return { row: existing, created: false };
    await createRow(tx, userId, name);
    return { row: (await lockRow(tx, userId, name))!, created: true };
  }

  return {
    async list(userId) {
      const rows = await sql.query<SessionRow>(`SELECT ${COLUMNS} FROM scrape_session WHERE "userId" = $1 AND version > 0 ORDER BY name`, [userId]);
      return rows.map(summary);
    },
    async get(userId, name) {
      const [row] = await sql.query<SessionRow>(`SELECT ${COLUMNS} FROM scrape_session WHERE "userId" = $1 AND name = $2 AND version > 0`, [userId, name]);
      return row ? summary(row) : null;
    },
    async importState(userId, name, state) {
      return sql.transaction(async (tx) => {
        const { created } = await lockOrCreate(tx, userId, name);
        return { created, session: summary(await write(tx, userId, name, state)) };
      });
    },
    async delete(userId, name) {
      const rows = await sql.query<{ id: string }>(`DELETE FROM scrape_session WHERE "userId" = $1 AND name = $2 RETURNING id`, [userId, name]);
      return rows.length > 0;
    },
    async load(userId, name) {
      const [row] = await sql.query<SessionRow>(
        `UPDATE scrape_session SET "lastUsedAt" = now() WHERE "userId" = $1 AND name = $2 AND version > 0 RETURNING ${COLUMNS}`,
        [userId, name],
      );
      return row ? { state: decrypt(userId, row), version: row.version } : null;
    },
    async saveChanges(userId, name, base, final) {
      return sql.transaction(async (tx) => {
        const { row } = await lockOrCreate(tx, userId, name);
        const merged = mergeSessionState(decrypt(userId, row), base, final);
        return summary(await write(tx, userId, name, merged));
      });
    },
  };
}

/** The store with the configuration's keys and limits (SESSION_ENCRYPTION_KEY…, SESSION_MAX_BYTES, SESSIONS_PER_ACCOUNT). */
export function sessionStoreFromConfig(sql: SqlPool, config: Config): SessionStore {
  // The key is resolved on first use: building the app for its document alone reads no secret.
  let ring: SessionKeyring | undefined;
  const resolve = () => (ring ??= sessionKeyringFromConfig(config));
  const keyring: SessionKeyring = {
    get current() {
      return resolve().current;
    },
    byId: (id) => resolve().byId(id),
  };
  return createSessionStore(sql, keyring, { maxBytes: config.SESSION_MAX_BYTES, perAccount: config.SESSIONS_PER_ACCOUNT });
}
