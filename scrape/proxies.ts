/**
 * The per-process rotation over the outbound proxies (PROXY_URLS, docs/scraping.md "Proxies")
 * both engines share; the endpoints themselves are parsed by the configuration
 * (platform/proxy-endpoints.ts).
 *
 * - `ProxyRotation`: round-robin over the endpoints, skipping one for `cooldownMs` after it failed;
 *   optionally sticky per key (e.g. `${flowRunId}|${host}`). The state lives in the process: every
 *   worker process rotates on its own (documented as acceptable).
 */
import { DEFAULT_COUNTRY, type ProxyEndpoint, type ProxyPools, type ProxyTierName, poolFor, tiersServing } from '../platform/proxy-endpoints';

/** What a request asks for: the configured proxies (`default`) or a direct connection (`none`). */
export const PROXY_CHOICES = ['none', 'default'] as const;
export type ProxyChoice = (typeof PROXY_CHOICES)[number];

export interface ProxyRotationOptions {
  /** How long a proxy that failed is skipped. */
  cooldownMs: number;
  /** Most sticky keys remembered (oldest forgotten first); default 10 000. */
  maxStickyKeys?: number;
  /** Test hook: the clock. */
  now?: () => number;
}

export interface ProxyRotation {
  readonly proxies: readonly ProxyEndpoint[];
  /**
   * The proxy for the next request: the next one in turn that is not cooling down (when all
   * are, the one whose cool-down ends first). With `stickyKey`, the proxy that key had, unless it
   * is cooling down (then a new one, remembered for the key).
   */
  pick(stickyKey?: string): ProxyEndpoint;
  /** The proxy failed (connect refused, refused CONNECT, SOCKS error): skip it for the cool-down. */
  failed(proxy: ProxyEndpoint): void;
  /** The proxy worked: its cool-down (if any) ends. */
  succeeded(proxy: ProxyEndpoint): void;
  /** Ids of the proxies cooling down now. */
  coolingDown(): string[];
}

export function createProxyRotation(proxies: readonly ProxyEndpoint[], options: ProxyRotationOptions): ProxyRotation {
  if (proxies.length === 0) throw new Error('a proxy rotation needs at least one proxy');
  const now = options.now ?? Date.now;
  const maxSticky = options.maxStickyKeys ?? 10_000;
  // By endpoint (not id): one host:port may be listed several times with other credentials.
  const coolUntil = new Map<ProxyEndpoint, number>();
  const sticky = new Map<string, ProxyEndpoint>();
  let next = 0;

  const cooling = (p: ProxyEndpoint, t: number) => (coolUntil.get(p) ?? 0) > t;

  function roundRobin(): ProxyEndpoint {
    const t = now();
    for (let i = 0; i < proxies.length; i++) {
      const p = proxies[(next + i) % proxies.length]!;
      if (!cooling(p, t)) {
        next = (next + i + 1) % proxies.length;
        return p;
      }
    }
    // Every proxy is cooling down: the one back soonest (a request is not refused for it).
    const soonest = [...proxies].sort((a, b) => (coolUntil.get(a) ?? 0) - (coolUntil.get(b) ?? 0))[0]!;
    next = (proxies.indexOf(soonest) + 1) % proxies.length;
    return soonest;
  }

  return {
    proxies,
    pick(stickyKey) {
      if (stickyKey === undefined) return roundRobin();
      const kept = sticky.get(stickyKey);
      if (kept && !cooling(kept, now())) return kept;
      const chosen = roundRobin();
      sticky.delete(stickyKey);
      sticky.set(stickyKey, chosen);
      if (sticky.size > maxSticky) sticky.delete(sticky.keys().next().value!);
      return chosen;
    },
    failed(proxy) {
      coolUntil.set(proxy, now() + options.cooldownMs);
    },
    succeeded(proxy) {
      if (coolUntil.has(proxy)) coolUntil.delete(proxy);
    },
    coolingDown() {
      const t = now();
      return proxies.filter((p) => cooling(p, t)).map((p) => p.id);
    },
  };
}

/** The sticky key of a scope (a flow run, later a crawl) and a target URL's host. */
export function proxyStickyKey(scope: string, url: string): string {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    host = url;
  }
  return `${scope}|${host}`;
}

/**
 * The rotations of the configured proxy tiers (PROXY_TIERS), one per tier and country, built on
 * first use; `basic.default` is the process's PROXY_URLS rotation when given (so plain `proxy:
 * "default"` scrapes and tiered ones share its turns and cool-downs).
 */
export interface TierRotations {
  /** The rotation of a tier's pool for `country` (the tier's `default` without one); undefined when that pool is not configured. */
  rotation(tier: ProxyTierName, country?: string): ProxyRotation | undefined;
  /** The tiers with a pool for `country`, cheapest first. */
  tiersFor(country?: string): ProxyTierName[];
}

export function createTierRotations(pools: ProxyPools, options: ProxyRotationOptions, basicDefault?: ProxyRotation): TierRotations {
  const rotations = new Map<string, ProxyRotation>();
  return {
    rotation(tier, country) {
      const pool = poolFor(pools, tier, country);
      if (!pool) return undefined;
      const key = `${tier}|${country?.toLowerCase() ?? DEFAULT_COUNTRY}`;
      if (tier === 'basic' && !country && basicDefault) return basicDefault;
      let rotation = rotations.get(key);
      if (!rotation) rotations.set(key, (rotation = createProxyRotation(pool, options)));
      return rotation;
    },
    tiersFor: (country) => tiersServing(pools, country),
  };
}
