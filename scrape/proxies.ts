/**
 * Outbound proxies (PROXY_URLS, docs/scraping.md "Proxies"): parsing the configured list and the
 * per-process rotation both engines share.
 *
 * - `parseProxyUrls()` turns the comma-separated setting into endpoints. Its messages name an
 *   item by position and `host:port`, never its credentials.
 * - A `ProxyEndpoint` serialises (JSON, logs) as `{ protocol, proxy: "host:port" }` only: its
 *   credentials are kept off enumerable properties, so printing one cannot leak them.
 * - `ProxyRotation`: round-robin over the endpoints, skipping one for `cooldownMs` after it failed;
 *   optionally sticky per key (e.g. `${flowRunId}|${host}`). The state lives in the process: every
 *   worker process rotates on its own (documented as acceptable).
 */

export const PROXY_PROTOCOLS = ['http', 'https', 'socks5'] as const;
export type ProxyProtocol = (typeof PROXY_PROTOCOLS)[number];

export interface ProxyCredentials {
  username: string;
  password: string;
}

export interface ProxyEndpoint {
  /** `host:port`, what attempts record and messages name (IPv6 hosts in brackets). */
  readonly id: string;
  readonly protocol: ProxyProtocol;
  /** Host name or IP literal (IPv6 without brackets). */
  readonly host: string;
  readonly port: number;
  /** Not enumerable: absent from JSON and logs. */
  readonly credentials?: ProxyCredentials;
}

const DEFAULT_PORTS: Record<ProxyProtocol, number> = { http: 80, https: 443, socks5: 1080 };

/** One endpoint; its credentials are a non-enumerable property, and `toJSON` shows the id only. */
export function proxyEndpoint(protocol: ProxyProtocol, host: string, port: number, credentials?: ProxyCredentials): ProxyEndpoint {
  const bare = host.replace(/^\[|\]$/g, '');
  const id = `${bare.includes(':') ? `[${bare}]` : bare}:${port}`;
  const endpoint: ProxyEndpoint = { id, protocol, host: bare, port };
  Object.defineProperty(endpoint, 'credentials', { value: credentials, enumerable: false });
  Object.defineProperty(endpoint, 'toJSON', { value: () => ({ protocol, proxy: id }), enumerable: false });
  return endpoint;
}

/** Parses PROXY_URLS. `problems` name items by position (and host:port when it parses), never a credential. */
export function parseProxyUrls(text: string): { proxies: ProxyEndpoint[]; problems: string[] } {
  const proxies: ProxyEndpoint[] = [];
  const problems: string[] = [];
  const items = text.split(',').map((s) => s.trim()).filter(Boolean);
  items.forEach((item, i) => {
    const which = `item ${i + 1}`;
    let url: URL;
    try {
      url = new URL(item);
    } catch {
      problems.push(`${which} is not a URL (expected http://, https:// or socks5://[user:password@]host:port)`);
      return;
    }
    const protocol = url.protocol.replace(/:$/, '');
    const where = url.hostname ? ` (${url.hostname}${url.port ? `:${url.port}` : ''})` : '';
    if (!(PROXY_PROTOCOLS as readonly string[]).includes(protocol)) {
      problems.push(`${which}${where}: the scheme must be http://, https:// or socks5://`);
      return;
    }
    if (!url.hostname) return void problems.push(`${which}: has no host`);
    if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
      return void problems.push(`${which}${where}: must be scheme://[user:password@]host:port, without a path or query`);
    }
    let credentials: ProxyCredentials | undefined;
    if (url.username || url.password) {
      try {
        credentials = { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
      } catch {
        return void problems.push(`${which}${where}: its credentials are not valid percent-encoding`);
      }
      if (protocol === 'socks5' && (credentials.username.length > 255 || credentials.password.length > 255)) {
        return void problems.push(`${which}${where}: SOCKS5 user names and passwords are at most 255 bytes`);
      }
    }
    const port = url.port ? Number(url.port) : DEFAULT_PORTS[protocol as ProxyProtocol];
    proxies.push(proxyEndpoint(protocol as ProxyProtocol, url.hostname, port, credentials));
  });
  // The same host:port may be listed more than once (a provider's gateway with one user name per session).
  return { proxies, problems };
}

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
