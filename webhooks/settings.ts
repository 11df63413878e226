/**
 * What the webhook code needs of the configuration (docs/webhooks.md): the key of stored secrets,
 * the retry schedule, the attempt timeout, the private addresses a receiver may have. The SSRF guard of a webhook URL lives here too: the scrape guard
 * (platform/target-guard.ts) with private addresses refused whatever ALLOW_PRIVATE_TARGETS says, except
 * those listed in WEBHOOK_PRIVATE_ALLOWLIST, plus the blacklist.
 */
import net from 'node:net';
import { resolveAuthSecret } from '../accounts/auth-config';
import type { Config } from '../platform/config';
import { AppError } from '../platform/errors';
import { type BlacklistCheck, type LookupFunction, checkTarget, createGuardedLookup, isPrivateAddress, resolvePublicHost } from '../platform/target-guard';
import { deriveSecretKey } from './signing';
import type { WebhookRetry } from './types';

export interface WebhookSettings {
  /** Encryption key of stored signing secrets (never logged). */
  secretKey: Buffer;
  retry: WebhookRetry;
  /** Private addresses a receiver may have (tests: 127.0.0.1). */
  privateAllowlist: readonly string[];
  /** How long an API process trusts "this account has endpoints" (async scrapes read it). */
  endpointCacheMs: number;
}

export function webhookSettings(config: Config): WebhookSettings {
  return {
    secretKey: deriveSecretKey(resolveAuthSecret(config)),
    retry: {
      initialIntervalMs: config.WEBHOOK_RETRY_INITIAL_MS,
      maximumIntervalMs: Math.max(config.WEBHOOK_RETRY_INITIAL_MS, config.WEBHOOK_RETRY_MAX_INTERVAL_MS),
      windowMs: config.WEBHOOK_RETRY_WINDOW_MS,
      attemptTimeoutMs: config.WEBHOOK_TIMEOUT_MS,
    },
    privateAllowlist: config.WEBHOOK_PRIVATE_ALLOWLIST,
    endpointCacheMs: config.WEBHOOK_ENDPOINT_CACHE_MS,
  };
}

/** Private, loopback or link-local, and not allowed for receivers. */
function privatePolicy(allowlist: readonly string[]) {
  const allowed = new Set(allowlist.map((a) => a.replace(/^\[|\]$/g, '').toLowerCase()));
  return (ip: string) => isPrivateAddress(ip) && !allowed.has(ip.toLowerCase());
}

export interface WebhookGuard {
  /** Refuses a URL whose host is blacklisted (BLACKLISTED) or private (PRIVATE_TARGET), resolving the name; INVALID_URL for another scheme. */
  check(url: string): Promise<URL>;
  /** The same rule at connect time (no DNS-rebinding window): undici's `connect.lookup`. */
  lookup: LookupFunction;
}

export function createWebhookGuard(settings: Pick<WebhookSettings, 'privateAllowlist'>, isBlacklisted: BlacklistCheck): WebhookGuard {
  const isPrivate = privatePolicy(settings.privateAllowlist);
  return {
    async check(raw) {
      const url = await checkTarget(raw, { allowPrivateTargets: false, isBlacklisted, isPrivate });
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (net.isIP(host) && !isPrivate(host)) return url;
      try {
        await resolvePublicHost(url.hostname, { allowPrivateTargets: false, isPrivate });
      } catch (error) {
        if (error instanceof AppError && error.code === 'PRIVATE_TARGET') throw error;
        throw new AppError('BAD_REQUEST', `the webhook host ${url.hostname} does not resolve`);
      }
      return url;
    },
    lookup: createGuardedLookup({ allowPrivateTargets: false, isPrivate }),
  };
}
