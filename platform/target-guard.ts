/**
 * Target guard for both engines: URL scheme, blacklist and SSRF (private address) checks.
 *
 * - `isPrivateAddress(ip)` is the single source of truth for "may not be reached from a scrape".
 * - `createGuardedLookup()` is a `dns.lookup` replacement for undici's `connect.lookup`, so the
 *   check happens on the address the socket actually connects to (no DNS-rebinding window).
 * - `resolvePublicHost()` is the async form used by the browser engine, which cannot hook
 *   Chromium's resolver (see browser.ts for the residual risk).
 * - `matchesBlacklist(host, patterns)` matches exact hosts and `*.domain` wildcards.
 */
import dns from 'node:dns';
import net from 'node:net';
import { domainToASCII } from 'node:url';
import { AppError } from './errors';

/** Called with a normalised host name (lower-case, no trailing dot, no IPv6 brackets). */
export type BlacklistCheck = (host: string) => boolean | Promise<boolean>;

// ---------------------------------------------------------------------------------------------
// IP address classification

function parseIPv4(ip: string): number | null {
  if (!net.isIPv4(ip)) return null;
  const parts = ip.split('.').map(Number);
  return (((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!) >>> 0;
}

/** 8 groups of 16 bits, or null when `ip` is not an IPv6 address. Accepts embedded IPv4. */
function parseIPv6(ip: string): number[] | null {
  if (!net.isIPv6(ip)) return null;
  let text = ip;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    // "::ffff:1.2.3.4" → "::ffff:102:304"
    const v4 = parseIPv4(tail);
    if (v4 === null) return null;
    text = `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const toGroups = (s: string | undefined): number[] => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = toGroups(halves[0]);
  const right = toGroups(halves[1]);
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...left, ...new Array<number>(missing).fill(0), ...right];
  return groups.some((g) => Number.isNaN(g)) ? null : groups;
}

/** [network, prefix length] pairs of IPv4 ranges that a scrape may not reach. */
const BLOCKED_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network", incl. 0.0.0.0 (unspecified)
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. 255.255.255.255 broadcast
];
const BLOCKED_V4_NUM = BLOCKED_V4.map(([base, bits]) => {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return { net: (parseIPv4(base)! & mask) >>> 0, mask };
});

function isPrivateV4(n: number): boolean {
  return BLOCKED_V4_NUM.some(({ net: base, mask }) => ((n & mask) >>> 0) === base);
}

function isPrivateV6(g: number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embeddedV4 = ((g6 << 16) >>> 0) + g7;
  const first5Zero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (first5Zero && g5 === 0xffff) return isPrivateV4(embeddedV4); // ::ffff:a.b.c.d (mapped)
  if (first5Zero && g5 === 0 && g6 === 0 && (g7 === 0 || g7 === 1)) return true; // :: and ::1
  if (first5Zero && g5 === 0) return true; // ::a.b.c.d (deprecated IPv4-compatible)
  if (g0 === 0x64 && g1 === 0xff9b) return isPrivateV4(embeddedV4); // NAT64 64:ff9b::/96 (and /48)
  if (g0 === 0x2002) return isPrivateV4(((g1 << 16) >>> 0) + g2); // 6to4 embeds an IPv4
  if (g0 === 0x2001 && g1 === 0) return true; // Teredo: embeds an obfuscated IPv4, refuse
  if (g0 === 0x2001 && g1 === 0xdb8) return true; // documentation
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return true; // discard-only 100::/64
  if ((g0 & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return true; // site-local fec0::/10 (deprecated)
  if ((g0 & 0xff00) === 0xff00) return true; // multicast ff00::/8
  return false;
}

/**
 * True when `ip` is an address a scrape must not reach: loopback, private, link-local (incl. cloud
 * metadata), CGNAT, unspecified, multicast, broadcast, reserved and documentation ranges, also
 * when wrapped in IPv6 (IPv4-mapped, NAT64, 6to4). Accepts IPv6 with brackets or a zone id.
 * Anything that is not a valid IP address returns true (fail closed).
 */
export function isPrivateAddress(ip: string): boolean {
  let text = ip.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  const v4 = parseIPv4(text);
  if (v4 !== null) return isPrivateV4(v4);
  const v6 = parseIPv6(text);
  if (v6 !== null) return isPrivateV6(v6);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Host names and blacklist

/** Lower-case, IDN → punycode, without trailing dots or IPv6 brackets. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase().replace(/\.+$/, '');
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (net.isIP(h)) return h;
  const ascii = domainToASCII(h);
  return ascii === '' ? h : ascii;
}

/**
 * True when `host` matches one of `patterns`.
 * - `example.com` matches exactly that host (not its subdomains).
 * - `*.example.com` (or `.example.com`) matches every subdomain at any depth AND the apex
 *   `example.com` itself: a blacklist entry is meant to block a site, so we err on blocking.
 * Case-insensitive; trailing dots and IDN spellings are normalised on both sides. Patterns may
 * also be given as URLs (`https://example.com/path`): only the host is used.
 */
export function matchesBlacklist(host: string, patterns: readonly string[]): boolean {
  const h = normalizeHost(host);
  if (h === '') return false;
  for (const raw of patterns) {
    let p = raw.trim();
    if (p === '') continue;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(p)) {
      try {
        p = new URL(p).hostname;
      } catch {
        continue;
      }
    }
    const wildcard = p.startsWith('*.') || p.startsWith('.');
    const base = normalizeHost(p.replace(/^\*?\./, ''));
    if (base === '') continue;
    if (h === base) return true;
    if (wildcard && h.endsWith('.' + base)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// URL checks

/** Parses `raw` as an absolute http(s) URL, else AppError INVALID_URL. */
export function parseHttpUrl(raw: string | URL): URL {
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    throw new AppError('INVALID_URL', `invalid URL: ${truncate(String(raw))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('INVALID_URL', `unsupported URL scheme "${url.protocol.replace(/:$/, '')}": only http and https`);
  }
  if (url.hostname === '') throw new AppError('INVALID_URL', `URL has no host: ${truncate(String(raw))}`);
  return url;
}

/** Address classifier; `isPrivateAddress` unless a test injects another. */
export type AddressPolicy = (ip: string) => boolean;

export interface TargetCheckOptions {
  allowPrivateTargets: boolean;
  isBlacklisted?: BlacklistCheck;
  isPrivate?: AddressPolicy;
}

/**
 * Checks one hop before any connection: scheme (INVALID_URL), blacklist (BLACKLISTED) and, when
 * the host is an IP literal, its range (PRIVATE_TARGET). Host names are resolved later, at
 * connect time (http) or by `resolvePublicHost` (browser). Returns the parsed URL.
 */
export async function checkTarget(raw: string | URL, opts: TargetCheckOptions): Promise<URL> {
  const url = parseHttpUrl(raw);
  const host = normalizeHost(url.hostname);
  if (opts.isBlacklisted && (await opts.isBlacklisted(host))) {
    throw new AppError('BLACKLISTED', `target host is blacklisted: ${host}`, { host });
  }
  if (!opts.allowPrivateTargets && net.isIP(host) && (opts.isPrivate ?? isPrivateAddress)(host)) {
    throw privateTargetError(host, host);
  }
  // RFC 6761: `localhost` and every name under it are loopback, whatever DNS says (Chromium
  // resolves them to 127.0.0.1 itself; a resolver may not know them at all).
  if (!opts.allowPrivateTargets && isLocalhostName(host)) {
    throw new AppError('PRIVATE_TARGET', `target host ${host} is a loopback name`, { host });
  }
  return url;
}

/** `localhost`, `localhost.` and any `*.localhost` name (RFC 6761 section 6.3). */
export function isLocalhostName(host: string): boolean {
  const name = host.replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

export function privateTargetError(host: string, address: string): AppError {
  return new AppError(
    'PRIVATE_TARGET',
    host === address
      ? `target address ${address} is private, loopback or link-local`
      : `target host ${host} resolves to a private, loopback or link-local address (${address})`,
    { host },
  );
}

// ---------------------------------------------------------------------------------------------
// DNS

export interface LookupAddress {
  address: string;
  family: number;
}
type RawLookup = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** The callback shape net.connect uses for `lookup` (with or without `all: true`). */
export type LookupFunction = (
  hostname: string,
  options: dns.LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

export interface GuardedLookupOptions {
  allowPrivateTargets: boolean;
  /** Resolver to wrap; defaults to `dns.lookup`. Tests inject a fake. */
  lookup?: RawLookup;
  isPrivate?: AddressPolicy;
}

/**
 * A `dns.lookup`-compatible function for `net.connect({ lookup })` / undici `connect.lookup`.
 * It resolves every address of the host and fails with AppError PRIVATE_TARGET when ANY of them
 * is private (so a round-robin mix cannot be used to reach an internal address).
 */
export function createGuardedLookup(opts: GuardedLookupOptions): LookupFunction {
  const resolve: RawLookup = opts.lookup ?? (dns.lookup);
  const isPrivate = opts.isPrivate ?? isPrivateAddress;
  return (hostname, options, callback) => {
    const wantAll = options.all === true;
    // RFC 6761 6.3: names under `localhost.` are loopback without asking DNS (Chromium does the
    // same; the system resolver may not know them). `localhost` itself is left to the system.
    const lookupName: RawLookup = isLocalhostName(normalizeHost(hostname)) && normalizeHost(hostname) !== 'localhost' && !opts.lookup
      ? (_name, _opts, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }])
      : resolve;
    lookupName(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, wantAll ? [] : '', 0);
      if (!addresses || addresses.length === 0) {
        const e: NodeJS.ErrnoException = new Error(`no address for ${hostname}`);
        e.code = 'ENOTFOUND';
        return callback(e, wantAll ? [] : '', 0);
      }
      if (!opts.allowPrivateTargets) {
        const bad = addresses.find((a) => isPrivate(a.address));
        if (bad) return callback(privateTargetError(normalizeHost(hostname), bad.address), wantAll ? [] : '', 0);
      }
      if (wantAll) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * Resolves `hostname` (or takes an IP literal as is) and throws PRIVATE_TARGET when any address
 * is private, unless `allowPrivateTargets`. DNS failures throw SCRAPE_FAILED.
 */
export async function resolvePublicHost(
  hostname: string,
  opts: GuardedLookupOptions,
): Promise<LookupAddress[]> {
  const host = normalizeHost(hostname);
  if (net.isIP(host)) {
    if (!opts.allowPrivateTargets && (opts.isPrivate ?? isPrivateAddress)(host)) throw privateTargetError(host, host);
    return [{ address: host, family: net.isIP(host) }];
  }
  const lookup = createGuardedLookup(opts);
  return new Promise((resolve, reject) => {
    lookup(host, { all: true }, (err, addresses) => {
      if (err) {
        reject(err instanceof AppError ? err : new AppError('SCRAPE_FAILED', `cannot resolve ${host}: ${err.code ?? err.message}`));
      } else resolve(addresses as LookupAddress[]);
    });
  });
}

function truncate(s: string, n = 200): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
