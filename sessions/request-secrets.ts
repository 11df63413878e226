/**
 * The secrets of SAVED definitions at rest (docs/operations.md "Secrets at rest"): a flow's
 * nodes, a monitor's request, a crawl's page template and a saved template keep a request that
 * must run again later with its real secrets, so they cannot be redacted as the run record is
 * (scrape/request-redaction.ts). Each secret value (exactly those the run record redacts:
 * `mapRequestSecrets`) is sealed before the row is written, under the stored sessions' keyring
 * (sessions/keys.ts: AES-256-GCM, the key named by id, old keys still read), bound to the
 * owner's account and the kind of definition, so a value copied to another account's row does
 * not open. A sealed value is a string `$sealed:v1:<key id>:<base64url(iv | tag | ciphertext)>`
 * holding the JSON of the value (a body may be an object, a form value a number).
 *
 * - Written: `sealRequestSecrets`, with the stored definition to keep a secret sent back masked.
 * - Read by the owner: masked (`redactRequestSecrets`), never the ciphertext nor the clear value.
 * - Opened (`unsealRequestSecrets`) only where a run starts (workflow input is encrypted by the
 *   payload codec) or in the activity that turns the row into a scrape.
 * Values stored in clear before this (no migration) pass through `unsealRequestSecrets` as they
 * are; they are sealed at the definition's next save, or by `npm run sessions:reencrypt`.
 */
import { AppError } from '../platform/errors';
import { REDACTED, type SecretPosition, mapRequestSecrets } from '../scrape/request-redaction';
import { type SessionKeyring, decryptBound, encryptBound } from './keys';

export const SEALED_PREFIX = '$sealed:v1:';

export type DefinitionKind = 'flow' | 'monitor' | 'crawl' | 'template';

/** Whose definition a sealed value belongs to (its associated data). */
export interface SecretOwner {
  userId: string;
  kind: DefinitionKind;
}

const associatedData = (owner: SecretOwner) => Buffer.from(`request-secret\0${owner.userId}\0${owner.kind}`, 'utf8');

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(SEALED_PREFIX);
}

function seal(keyring: SessionKeyring, owner: SecretOwner, value: unknown): string {
  const sealed = encryptBound(keyring, associatedData(owner), JSON.stringify(value));
  return `${SEALED_PREFIX}${sealed.keyId}:${Buffer.concat([sealed.iv, sealed.authTag, sealed.ciphertext]).toString('base64url')}`;
}

function sealedKeyId(value: string): string {
  return value.slice(SEALED_PREFIX.length).split(':', 1)[0] ?? '';
}

function open(keyring: SessionKeyring, owner: SecretOwner, value: string, position: SecretPosition): unknown {
  const [keyId = '', packed = ''] = value.slice(SEALED_PREFIX.length).split(':');
  const bytes = Buffer.from(packed, 'base64url');
  const outcome = bytes.length < 28 ? 'altered' : decryptBound(keyring, associatedData(owner), { keyId, iv: bytes.subarray(0, 12), authTag: bytes.subarray(12, 28), ciphertext: bytes.subarray(28) });
  if (outcome === 'unknown-key') throw new AppError('SECRET_UNREADABLE', `the ${owner.kind}'s secret at ${position} is encrypted under key ${keyId}, which is not configured (SESSION_ENCRYPTION_KEY, SESSION_ENCRYPTION_KEYS_OLD)`);
  if (outcome === 'altered') throw new AppError('SECRET_UNREADABLE', `the ${owner.kind}'s secret at ${position} does not decrypt: it was altered, or belongs to another account`);
  return JSON.parse(outcome.plaintext) as unknown;
}

/** Each secret of a stored request by its position (sealed, or clear in a row written before sealing). */
function storedSecrets(stored: unknown): Map<SecretPosition, unknown> {
  const found = new Map<SecretPosition, unknown>();
  mapRequestSecrets(stored, (value, position) => {
    found.set(position, value);
    return value;
  });
  return found;
}

/**
 * The request as a definition stores it: every secret sealed. A secret sent back masked
 * (`[redacted]`, as every read shows it) keeps the stored one at the same position (`stored`:
 * the definition's request before this write), so an edit of other fields needs no retyping; a
 * masked value with nothing stored there is refused (it would otherwise be typed or sent as the
 * literal text "[redacted]"). A value already sealed is kept as it is.
 */
export function sealRequestSecrets<T>(keyring: SessionKeyring, owner: SecretOwner, request: T, stored?: unknown): T {
  const previous = storedSecrets(stored);
  return mapRequestSecrets(request, (value, position) => {
    if (value === undefined || isSealed(value)) return value;
    if (value === REDACTED) {
      const kept = previous.get(position);
      if (kept === undefined || kept === REDACTED) {
        throw new AppError('BAD_REQUEST', `${position.replace(/^scrape\//, 'scrape options ')} is "${REDACTED}" (a masked secret) but this ${owner.kind} has no stored secret there: send the value itself`);
      }
      return isSealed(kept) ? kept : seal(keyring, owner, kept);
    }
    return seal(keyring, owner, value);
  });
}

/** The request with its real secrets, for a run to start. Clear values (rows written before sealing) pass through. */
export function unsealRequestSecrets<T>(keyring: SessionKeyring, owner: SecretOwner, request: T): T {
  return mapRequestSecrets(request, (value, position) => (isSealed(value) ? open(keyring, owner, value, position) : value));
}

/**
 * For a key rotation (`npm run sessions:reencrypt`): every secret under the current key, those
 * stored in clear before sealing included. `changed` says whether the row needs writing.
 */
export function resealRequestSecrets<T>(keyring: SessionKeyring, owner: SecretOwner, request: T): { request: T; changed: boolean } {
  let changed = false;
  const out = mapRequestSecrets(request, (value, position) => {
    if (value === undefined || value === REDACTED) return value;
    const next = resealed(keyring, owner, value, position);
    changed ||= next !== undefined;
    return next ?? value;
  });
  return { request: out, changed };
}

/** One secret sealed under the current key (a clear one sealed, an old-key one opened first); undefined when it already is. */
function resealed(keyring: SessionKeyring, owner: SecretOwner, value: unknown, position: SecretPosition): string | undefined {
  if (isSealed(value) && sealedKeyId(value) === keyring.current.id) return undefined;
  return seal(keyring, owner, isSealed(value) ? open(keyring, owner, value, position) : value);
}

/** Where a webhook header's value sits, for an error that names it. */
const headerPosition = (name: string): SecretPosition => `webhook header ${name}`;

/**
 * A Firecrawl-compatible job's webhook `headers` (a receiver's `Authorization`, as a rule) at rest:
 * each value sealed as the job's other secrets are, in the crawl row and in each delivery row
 * (webhooks/events.ts copies them sealed), and opened only for the POST (webhooks/deliver.ts).
 * A value already sealed is kept as it is.
 */
export function sealHeaderValues(keyring: SessionKeyring, owner: SecretOwner, headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, isSealed(value) ? value : seal(keyring, owner, value)]));
}

/** The headers to send: sealed values opened, clear ones (rows written before sealing) as they are. */
export function unsealHeaderValues(keyring: SessionKeyring, owner: SecretOwner, headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(isSealed(value) ? open(keyring, owner, value, headerPosition(name)) : value)]));
}

/** For a key rotation: each header value under the current key (clear ones included); `changed` says whether to write. */
export function resealHeaderValues(keyring: SessionKeyring, owner: SecretOwner, headers: Record<string, unknown>): { headers: Record<string, string>; changed: boolean } {
  let changed = false;
  const out = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => {
      const next = resealed(keyring, owner, String(value), headerPosition(name));
      changed ||= next !== undefined;
      return [name, next ?? String(value)];
    }),
  );
  return { headers: out, changed };
}

/**
 * `masked` (a run record's request: secrets `[redacted]`) with each masked secret taken from
 * `clear` at the same position: a retried step that re-runs the request it recorded gets the
 * real secrets back (monitors/store.ts `startCheck`).
 */
export function restoreMaskedSecrets<T>(masked: T, clear: unknown): T {
  const secrets = storedSecrets(clear);
  return mapRequestSecrets(masked, (value, position) => (value === REDACTED && secrets.has(position) ? secrets.get(position) : value));
}
