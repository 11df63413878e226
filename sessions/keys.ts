/**
 * Encryption of stored sessions at rest (docs/scraping.md, "Sessions"): AES-256-GCM from
 * node:crypto, an AEAD cipher (secrecy and integrity in one: a row altered or moved to another
 * account or name fails to decrypt rather than yielding wrong cookies), with a random 96-bit IV
 * per write and the row's account and name as associated data.
 *
 * Keys: SESSION_ENCRYPTION_KEY (32 bytes, base64), else one derived with HKDF-SHA256 from the
 * server secret (BETTER_AUTH_SECRET, or DATA_DIR/auth-secret outside production), so `npm start`
 * works with nothing set. Each row names its key by id (a hash of the key, never the key), so a
 * rotation moves the old key to SESSION_ENCRYPTION_KEYS_OLD: rows under it are still read, and
 * are written under the new key at their next save or import.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { resolveAuthSecret } from '../accounts/auth-config';
import type { Config } from '../platform/config';
import { AppError } from '../platform/errors';

const CIPHER = 'aes-256-gcm';

export interface SessionKey {
  /** 16 hex digits of SHA-256 over a label and the key: names the key in a row, reveals nothing of it. */
  id: string;
  key: Buffer;
}

export interface SessionKeyring {
  /** What every write uses. */
  current: SessionKey;
  /** The key a row names (current or old), or undefined. */
  byId(id: string): SessionKey | undefined;
}

export interface EncryptedState {
  keyId: string;
  iv: Buffer;
  ciphertext: Buffer;
  authTag: Buffer;
}

export function sessionKey(key: Buffer): SessionKey {
  if (key.length !== 32) throw new Error('a session key is 32 bytes');
  return { id: createHash('sha256').update('scrape-api session key id\0').update(key).digest('hex').slice(0, 16), key };
}

export function createSessionKeyring(current: Buffer, old: readonly Buffer[] = []): SessionKeyring {
  const keys = [current, ...old].map(sessionKey);
  const byId = new Map(keys.map((k) => [k.id, k]));
  return { current: keys[0]!, byId: (id) => byId.get(id) };
}

/** The keyring configuration names (docs/operations.md, "Session encryption key"). */
export function sessionKeyringFromConfig(config: Config): SessionKeyring {
  const current = config.SESSION_ENCRYPTION_KEY
    ? Buffer.from(config.SESSION_ENCRYPTION_KEY, 'base64')
    : Buffer.from(hkdfSync('sha256', resolveAuthSecret(config), 'scrape-sessions', 'scrape-api session encryption v1', 32));
  return createSessionKeyring(current, config.SESSION_ENCRYPTION_KEYS_OLD.map((k) => Buffer.from(k, 'base64')));
}

const configuredRings = new WeakMap<Config, SessionKeyring>();

/**
 * The configuration's keyring, one per configuration, resolved on first use (building the app
 * for its document alone reads no secret): what the saved definitions' secrets are sealed under
 * (sessions/request-secrets.ts).
 */
export function configuredKeyring(config: Config): SessionKeyring {
  let ring = configuredRings.get(config);
  if (!ring) {
    let resolved: SessionKeyring | undefined;
    const resolve = () => (resolved ??= sessionKeyringFromConfig(config));
    ring = {
      get current() {
        return resolve().current;
      },
      byId: (id) => resolve().byId(id),
    };
    configuredRings.set(config, ring);
  }
  return ring;
}

/** The associated data: a row decrypts only as the account's session of that name. */
function associatedData(userId: string, name: string): Buffer {
  return Buffer.from(`${userId}\0${name}`, 'utf8');
}

export function encryptState(keyring: SessionKeyring, userId: string, name: string, plaintext: string): EncryptedState {
  return encryptBound(keyring, associatedData(userId, name), plaintext);
}

/** Throws when the row's key is unknown (a key dropped from configuration) or the row was altered. */
export function decryptState(keyring: SessionKeyring, userId: string, name: string, row: EncryptedState): string {
  const outcome = decryptBound(keyring, associatedData(userId, name), row);
  // SESSION_UNREADABLE is final: no retry of the scrape can make a missing key appear.
  if (outcome === 'unknown-key') throw new AppError('SESSION_UNREADABLE', `session ${name} is encrypted under key ${row.keyId}, which is not configured (SESSION_ENCRYPTION_KEY, SESSION_ENCRYPTION_KEYS_OLD)`);
  if (outcome === 'altered') throw new AppError('SESSION_UNREADABLE', `session ${name} does not decrypt under key ${row.keyId}: it was altered, or belongs to another account or name`);
  return outcome.plaintext;
}

/**
 * AES-256-GCM under the keyring's current key, bound to `associatedData` (the same cipher and
 * keys for every secret kept at rest: sessions here, the secrets of saved definitions in
 * sessions/request-secrets.ts, each with its own associated data).
 */
export function encryptBound(keyring: SessionKeyring, associatedData: Buffer, plaintext: string): EncryptedState {
  const iv = randomBytes(12);
  const cipher = createCipheriv(CIPHER, keyring.current.key, iv);
  cipher.setAAD(associatedData);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { keyId: keyring.current.id, iv, ciphertext, authTag: cipher.getAuthTag() };
}

/** The plaintext, or why not: its key is not configured, or it was altered or bound to other data. */
export function decryptBound(keyring: SessionKeyring, associatedData: Buffer, row: EncryptedState): { plaintext: string } | 'unknown-key' | 'altered' {
  const key = keyring.byId(row.keyId);
  if (!key) return 'unknown-key';
  try {
    const decipher = createDecipheriv(CIPHER, key.key, row.iv);
    decipher.setAAD(associatedData);
    decipher.setAuthTag(row.authTag);
    return { plaintext: Buffer.concat([decipher.update(row.ciphertext), decipher.final()]).toString('utf8') };
  } catch {
    return 'altered';
  }
}
