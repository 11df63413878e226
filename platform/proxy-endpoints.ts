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
