/**
 * What the API process needs of event webhooks (docs/webhooks.md): the settings and URL guard,
 * built once per process, and whether an account has endpoints, which an async scrape reads on
 * its way in. That read is the only webhook cost on the scrape path: none for a synchronous
 * request; for an async one, an in-memory answer, refreshed from PostgreSQL at most once per
 * account every WEBHOOK_ENDPOINT_CACHE_MS (and at once in the process where an endpoint is added
 * or deleted). Another replica learns of a new endpoint within that time.
 */
import { type WebhookGuard, type WebhookSettings, createWebhookGuard, webhookSettings } from '../webhooks/settings';
import type { AppDeps } from './deps';

export interface ApiWebhooks {
  settings: WebhookSettings;
  guard: WebhookGuard;
  hasEndpoints(userId: string): Promise<boolean>;
  /** An endpoint of the account was added or deleted here. */
  changed(userId: string): void;
}

const perProcess = new WeakMap<object, ApiWebhooks>();

/** Bound to the deps' SQL pool, which every copy of the deps shares. */
export function apiWebhooks(deps: Pick<AppDeps, 'config' | 'sql' | 'blacklist'>): ApiWebhooks {
  const existing = perProcess.get(deps.sql);
  if (existing) return existing;
  const settings = webhookSettings(deps.config);
  const known = new Map<string, { has: boolean; at: number }>();
  const created: ApiWebhooks = {
    settings,
    guard: createWebhookGuard(settings, (host) => deps.blacklist.isBlacklisted(host)),
    async hasEndpoints(userId) {
      const cached = known.get(userId);
      if (cached && Date.now() - cached.at < settings.endpointCacheMs) return cached.has;
      const rows = await deps.sql.query<{ one: number }>('SELECT 1 AS one FROM webhook_endpoint WHERE "userId" = $1 AND "deletedAt" IS NULL LIMIT 1', [userId]);
      // Bounded: forget everything rather than grow without limit (accounts are re-read on their next async scrape).
      if (known.size >= 100_000) known.clear();
      known.set(userId, { has: rows.length > 0, at: Date.now() });
      return rows.length > 0;
    },
    changed(userId) {
      known.delete(userId);
    },
  };
  perProcess.set(deps.sql, created);
  return created;
}
