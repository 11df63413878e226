/**
 * Outbound proxy endpoints (PROXY_URLS, docs/scraping.md "Proxies"): the configured list parsed
 * into endpoints. Platform, because the configuration parses it; the rotation over the endpoints
 * is the scrape domain's (scrape/proxies.ts).
 *
 * - `parseProxyUrls()` turns the comma-separated setting into endpoints. Its messages name an
 *   item by position and `host:port`, never its credentials.
 * - A `ProxyEndpoint` serialises (JSON, logs) as `{ protocol, proxy: "host:port" }` only: its
 *   credentials are kept off enumerable properties, so printing one cannot leak them.
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

// ------------------------------------------------------------------ proxy tiers (PROXY_TIERS)

/** The proxy tiers, cheapest first (docs/scraping.md "Escalation"): `basic` datacenter, `stealth` residential. */
export const PROXY_TIER_NAMES = ['basic', 'stealth'] as const;
export type ProxyTierName = (typeof PROXY_TIER_NAMES)[number];

/** The pools' key for "any country" (a request without `country`, or a country with no pool of its own… is refused). */
export const DEFAULT_COUNTRY = 'default';

/** The configured pools: tier → country (`default`, or ISO 3166-1 alpha-2 in lower case) → endpoints. */
export type ProxyPools = Partial<Record<ProxyTierName, Record<string, ProxyEndpoint[]>>>;

/**
 * Parses PROXY_TIERS, a JSON object `{"basic": {"default": [urls], "de": [urls]}, "stealth": {…}}`
 * (each list an array of proxy URLs or one comma-separated string), and folds PROXY_URLS in as
 * `basic.default` (so a configuration of PROXY_URLS alone keeps working). `problems` name a tier,
 * a country and an item's position, never a credential.
 */
export function parseProxyTiers(tiersText: string, proxyUrls: readonly ProxyEndpoint[]): { pools: ProxyPools; problems: string[] } {
  const pools: ProxyPools = {};
  const problems: string[] = [];
  if (tiersText.trim() !== '') {
    let raw: unknown;
    try {
      raw = JSON.parse(tiersText);
    } catch {
      return { pools, problems: ['is not JSON (expected {"basic": {"default": ["http://host:port"], "de": [...]}, "stealth": {...}})'] };
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { pools, problems: ['must be a JSON object of tiers'] };
    for (const [tier, countries] of Object.entries(raw as Record<string, unknown>)) {
      if (!(PROXY_TIER_NAMES as readonly string[]).includes(tier)) {
        problems.push(`"${tier}" is not a tier (tiers: ${PROXY_TIER_NAMES.join(', ')})`);
        continue;
      }
      if (countries === null || typeof countries !== 'object' || Array.isArray(countries)) {
        problems.push(`${tier}: must be an object of countries ("default" or a two-letter country code) to proxy URLs`);
        continue;
      }
      const byCountry: Record<string, ProxyEndpoint[]> = {};
      for (const [country, list] of Object.entries(countries as Record<string, unknown>)) {
        const key = country.toLowerCase();
        if (key !== DEFAULT_COUNTRY && !/^[a-z]{2}$/.test(key)) {
          problems.push(`${tier}.${country}: a country is "default" or a two-letter code (ISO 3166-1 alpha-2)`);
          continue;
        }
        const text = Array.isArray(list) && list.every((item) => typeof item === 'string') ? list.join(',') : typeof list === 'string' ? list : undefined;
        if (text === undefined) {
          problems.push(`${tier}.${country}: must be a list of proxy URLs`);
          continue;
        }
        const parsed = parseProxyUrls(text);
        for (const problem of parsed.problems) problems.push(`${tier}.${country}: ${problem}`);
        if (parsed.proxies.length === 0 && parsed.problems.length === 0) problems.push(`${tier}.${country}: lists no proxy`);
        if (parsed.proxies.length) byCountry[key] = parsed.proxies;
      }
      pools[tier as ProxyTierName] = byCountry;
    }
  }
  if (proxyUrls.length) {
    if (pools.basic?.[DEFAULT_COUNTRY]) problems.push('PROXY_URLS and PROXY_TIERS\' basic.default both list the basic pool: keep one');
    else pools.basic = { ...pools.basic, [DEFAULT_COUNTRY]: [...proxyUrls] };
  }
  return { pools, problems };
}

/** The tiers with a pool for `country` (its own, else `default`), cheapest first. */
export function tiersServing(pools: ProxyPools, country?: string): ProxyTierName[] {
  return PROXY_TIER_NAMES.filter((tier) => poolFor(pools, tier, country) !== undefined);
}

/** The pool of a tier for a country: the country's own, else the tier's `default` (any country) when no country is asked. */
export function poolFor(pools: ProxyPools, tier: ProxyTierName, country?: string): ProxyEndpoint[] | undefined {
  const byCountry = pools[tier];
  if (!byCountry) return undefined;
  return country ? byCountry[country.toLowerCase()] : byCountry[DEFAULT_COUNTRY];
}

