/**
 * Verified API keys, kept in memory so a request with a key seen recently costs no database
 * round trip (the auth plugin's verification is a lookup and an update, ~10 ms per request).
 *
 * Revocation stays immediate on every API replica: a key that is disabled, expires, is re-keyed or
 * deleted fires `apikey_changed` (trigger, migration 20261122050000), and each replica drops it on
 * that notification. The cache serves only while the notification connection is listening; when
 * it drops, the cache is emptied and every request is verified by the plugin until it is back. A
 * verification that overlapped an invalidation is not cached (it may have read the key before
 * the change). Entries also expire after `ttlMs` and at the key's own `expiresAt`.
 *
 * `lastRequest` (shown as `lastUsedAt`) is written by the plugin on a verification; on a cache hit
 * it is refreshed at most once per `touchMs` per key (docs/accounts.md: precise to a minute).
 */
import { createHash } from 'node:crypto';
import type { PgListener } from '../platform/pg-listener';

export interface VerifiedKey {
  userId: string;
  apiKeyId: string;
}

interface Entry extends VerifiedKey {
  cachedAt: number;
  keyExpiresAt: number | null;
  touchedAt: number;
}

export interface ApiKeyVerifier {
  /** The key's owner, or null when the key is unknown, revoked or expired. */
  verify(key: string): Promise<VerifiedKey | null>;
  size(): number;
}

export interface ApiKeyVerifierDeps {
  /** The auth plugin's verification (the source of truth). */
  verifyWithPlugin(key: string): Promise<(VerifiedKey & { expiresAt: Date | null }) | null>;
  /** Refreshes a key's lastRequest (fire and forget). */
  touch(apiKeyId: string): Promise<void>;
  listener: PgListener;
  ttlMs?: number;
  touchMs?: number;
  now?: () => number;
}

export function createApiKeyVerifier(deps: ApiKeyVerifierDeps): ApiKeyVerifier {
  const ttlMs = deps.ttlMs ?? 5 * 60_000;
  const touchMs = deps.touchMs ?? 60_000;
  const now = deps.now ?? Date.now;
  const cache = new Map<string, Entry>();
  /** Bumped on every invalidation: a verification that saw it change is not cached. */
  let invalidations = 0;

  deps.listener.on('apikey_changed', (apiKeyId) => {
    invalidations++;
    for (const [digest, entry] of cache) if (entry.apiKeyId === apiKeyId) cache.delete(digest);
  });
  deps.listener.onState(() => {
    invalidations++;
    cache.clear();
  });

  return {
    async verify(key) {
      const digest = createHash('sha256').update(key).digest('base64url');
      const at = now();
      const hit = cache.get(digest);
      if (hit && deps.listener.listening()) {
        const fresh = at - hit.cachedAt < ttlMs && (hit.keyExpiresAt === null || at < hit.keyExpiresAt);
        if (fresh) {
          if (at - hit.touchedAt >= touchMs) {
            hit.touchedAt = at;
            void deps.touch(hit.apiKeyId).catch(() => undefined);
          }
          return { userId: hit.userId, apiKeyId: hit.apiKeyId };
        }
        cache.delete(digest);
      }
      const seen = invalidations;
      const verified = await deps.verifyWithPlugin(key);
      if (!verified) return null;
      if (deps.listener.listening() && seen === invalidations) {
        cache.set(digest, { userId: verified.userId, apiKeyId: verified.apiKeyId, cachedAt: at, touchedAt: at, keyExpiresAt: verified.expiresAt ? verified.expiresAt.getTime() : null });
      }
      return { userId: verified.userId, apiKeyId: verified.apiKeyId };
    },
    size: () => cache.size,
  };
}
