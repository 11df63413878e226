/**
 * http mode's Chrome impersonation (docs/scraping.md "How we look to a site", "http mode").
 *
 * https hops are sent by wreq-js (Rust, BoringSSL: Chrome's own TLS library) with its newest
 * Chrome profile at or below the shipped Chromium's major version, so the ClientHello (JA4 a and
 * b, GREASE, extension set, ALPN h2) is Chrome's, and with Chrome's HTTP/2 section
 * (CHROME_HTTP2_OPTIONS) the HTTP/2 preface (SETTINGS, WINDOW_UPDATE, HEADERS priority,
 * pseudo-header order) is the shipped Chromium's; the header names, values and order are the
 * shipped Chromium's for a navigation (built here, with `sec-ch-ua*` client hints of the same
 * major version). The signature algorithms wreq-js cannot send (ML-DSA and a GREASE one): with
 * `tlsRelayBinary` the TLS handshake with the site is the relay's (scrape/http/tls-relay.ts, Go and
 * utls, the shipped Chromium's ClientHello in full) and wreq-js speaks TLS to the relay only.
 *
 * DNS pinning: wreq-js resolves names itself, so it is sent through the browser engine's egress
 * proxy (scrape/browser/egress-proxy.ts) on 127.0.0.1: the proxy resolves the target, refuses
 * private addresses and connects to the address it checked (no rebinding window), and chains the
 * scrape's upstream proxy (one token per upstream proxy, "direct" for none). TLS stays end to end.
 *
 * Trust: wreq-js reads BoringSSL's default verify paths (SSL_CERT_FILE), not NODE_EXTRA_CA_CERTS;
 * with NODE_EXTRA_CA_CERTS set, a bundle of SSL_CERT_FILE's (or the system's) roots plus those
 * certificates is written once and SSL_CERT_FILE points at it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { BrowserProfile, CustomHttp2Options, Transport } from 'wreq-js';
import type { ProxyEndpoint } from '../../platform/proxy-endpoints';
import { tlsTrustEnvironment } from '../../platform/config';
import { normalizeHost, resolvePublicHost } from '../../platform/target-guard';
import type { EgressProxy } from '../browser/egress-proxy';
import { linuxDesktopUserAgent } from '../browser/identity';
import { startEgressProxy } from '../browser/egress-proxy';
import { startTlsRelay } from './tls-relay';

type WreqModule = typeof import('wreq-js');

/**
 * Chrome's HTTP/2 connection, as the shipped Chromium opens it: SETTINGS
 * `1:65536;2:0;4:6291456;6:262144` in Chrome's order, a connection WINDOW_UPDATE to 15 MiB
 * (15663105 over the default), pseudo-headers `m,a,s,p`, and the HEADERS frame's priority:
 * exclusive on stream 0, weight 256 (the wire byte is weight - 1: 255). wreq-js's Chrome profiles
 * send weight 220 there (wire byte 219). `emulation.http2Options` replaces the profile's whole
 * HTTP/2 section (the profile's TLS section stays as it is), so every field the profile sets is
 * given here with the profile's value, and only the weight differs. Checked field by field against
 * Chromium in api/routes/scrape-tls.test.ts.
 */
export const CHROME_HTTP2_OPTIONS: CustomHttp2Options = {
  headerTableSize: 65_536,
  enablePush: false,
  initialWindowSize: 6_291_456,
  maxHeaderListSize: 262_144,
  initialConnectionWindowSize: 15_728_640,
  headersPseudoOrder: ['Method', 'Authority', 'Scheme', 'Path'],
  settingsOrder: ['HeaderTableSize', 'EnablePush', 'MaxConcurrentStreams', 'InitialWindowSize', 'MaxFrameSize', 'MaxHeaderListSize', 'EnableConnectProtocol', 'NoRfc7540Priorities'],
  headersStreamDependency: { dependencyId: 0, weight: 255, exclusive: true },
};

/** The Chrome a scrape presents: its major version and the headers that name it. */
export interface ChromeIdentity {
  major: number;
  userAgent: string;
  secChUa: string;
}

// Chromium's user-agent brand list (components/embedder_support/user_agent_utils.cc): the GREASE
// brand and the order are derived from the major version, so they match a real Chrome of it.
const GREASE_CHARS = [' ', '(', ':', '-', '.', '/', ')', ';', '=', '?', '_'];
const GREASE_VERSIONS = ['8', '99', '24'];
const BRAND_ORDERS = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

export function chromeIdentity(major: number): ChromeIdentity {
  const grease = `"Not${GREASE_CHARS[major % 11]}A${GREASE_CHARS[(major + 1) % 11]}Brand";v="${GREASE_VERSIONS[major % 3]}"`;
  const brands = [grease, `"Chromium";v="${major}"`, `"Google Chrome";v="${major}"`];
  const order = BRAND_ORDERS[major % 6]!;
  const shuffled: string[] = [];
  brands.forEach((brand, i) => (shuffled[order[i]!] = brand));
  return {
    major,
    userAgent: linuxDesktopUserAgent(major),
    secChUa: shuffled.join(', '),
  };
}

/** Chromium's header order for a top-level navigation (recorded from the shipped Chromium, test/fixtures/tls-fingerprint.ts). */
const NAVIGATION_ORDER = [
  'cache-control', 'sec-ch-ua', 'sec-ch-ua-mobile', 'sec-ch-ua-platform', 'origin', 'content-type', 'upgrade-insecure-requests', 'user-agent', 'accept',
  'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-user', 'sec-fetch-dest', 'referer', 'accept-encoding', 'accept-language', 'cookie', 'priority',
];
const NAVIGATION_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';

/**
 * The navigation headers in Chromium's order: Chrome's own, overridden by `given` (the engine's
 * request headers: accept-language, cookie, the caller's); names Chrome does not send go before
 * accept-encoding, as Chrome places extra headers.
 */
export function navigationHeaders(identity: ChromeIdentity, given: Record<string, string>): [string, string][] {
  const chrome: Record<string, string> = {
    'sec-ch-ua': identity.secChUa,
    'sec-ch-ua-mobile': '?0',
    'sec-ch-ua-platform': '"Linux"',
    'upgrade-insecure-requests': '1',
    'user-agent': identity.userAgent,
    accept: NAVIGATION_ACCEPT,
    'sec-fetch-site': 'none',
    'sec-fetch-mode': 'navigate',
    'sec-fetch-user': '?1',
    'sec-fetch-dest': 'document',
    'accept-encoding': 'gzip, deflate, br, zstd',
    priority: 'u=0, i',
  };
  const merged = { ...chrome, ...given };
  const known = NAVIGATION_ORDER.filter((name) => merged[name] !== undefined);
  const extra = Object.keys(merged).filter((name) => !NAVIGATION_ORDER.includes(name));
  const at = known.indexOf('accept-encoding');
  const names = [...known.slice(0, at), ...extra, ...known.slice(at)];
  return names.map((name) => [name, merged[name]!]);
}

/** A response as the engine reads it: status, lower-case headers, the decompressed body as a stream. */
export interface ImpersonatedResponse {
  statusCode: number;
  headers: Record<string, string | string[]>;
  body: Readable;
}

export interface ImpersonatedRequest {
  url: URL;
  method: 'GET' | 'POST';
  headers: [string, string][];
  body: string | undefined;
  signal: AbortSignal;
  timeoutMs: number;
  proxy: ProxyEndpoint | undefined;
  skipTlsVerification: boolean;
}

export interface ImpersonatingClient {
  identity: ChromeIdentity;
  /** wreq-js's profile in use, e.g. chrome_149. */
  profile: string;
  /** The TLS relay's process id when the relay sends the ClientHello (tests, bench). */
  relayPid: number | undefined;
  send(req: ImpersonatedRequest): Promise<ImpersonatedResponse>;
  close(): Promise<void>;
}

export interface ImpersonatingClientOptions {
  identity: ChromeIdentity;
  allowPrivateTargets: boolean;
  connectTimeoutMs: number;
  connectionsPerOrigin: number;
  /** The TLS relay's binary: the site sees the relay's ClientHello (Chromium's, in full); undefined: wreq-js's own. */
  tlsRelayBinary?: string | undefined;
  /** Keep the wreq-js profile's own HTTP/2 section (HEADERS weight 220) instead of CHROME_HTTP2_OPTIONS: the bench's baseline. */
  profileHttp2?: boolean;
}

/** undefined when wreq-js's native binding cannot load here (the engine then stays on undici). */
export async function createImpersonatingClient(options: ImpersonatingClientOptions): Promise<ImpersonatingClient | undefined> {
  let wreq: WreqModule;
  try {
    wreq = await import('wreq-js');
  } catch {
    return undefined;
  }
  trustExtraCaCerts();
  const profile = newestChromeProfile(wreq.getProfiles(), options.identity.major);
  const egress: EgressProxy = await startEgressProxy({ allowPrivateTargets: options.allowPrivateTargets, connectTimeoutMs: options.connectTimeoutMs, upstream: true });
  egress.assign('direct', null);
  // Without the relay (no binary, or it cannot start), wreq-js's own ClientHello: the rest is unchanged.
  const startRelay = (binary: string) =>
    startTlsRelay({ binary, egressUrl: egress.url, egressSecret: egress.secret, caFile: tlsTrustEnvironment.sslCertFile(), connectTimeoutMs: options.connectTimeoutMs }).catch(() => undefined);
  let relay = options.tlsRelayBinary ? await startRelay(options.tlsRelayBinary) : undefined;
  const transports = new Map<string, Promise<Transport>>();
  /** A relay whose process died (killed, crashed) is replaced, and the transports that pointed at it go. */
  let restarting: Promise<void> | undefined;
  const restartRelay = (): Promise<void> =>
    (restarting ??= (async () => {
      const stale = [...transports.values()];
      transports.clear();
      await Promise.allSettled(stale.map(async (t) => (await t).close()));
      relay = await startRelay(options.tlsRelayBinary!);
    })().finally(() => (restarting = undefined)));
  const transportFor = (proxy: ProxyEndpoint | undefined, insecure: boolean): Promise<Transport> => {
    // A token may not hold ':' (it is the user name of Basic credentials), which proxy ids (host:port) do.
    const token = proxy ? `proxy-${Buffer.from(proxy.id).toString('base64url')}` : 'direct';
    const key = `${token}|${insecure}`;
    let t = transports.get(key);
    if (!t) {
      if (proxy) egress.assign(token, proxy);
      const proxyUrl = new URL(egress.url);
      proxyUrl.username = encodeURIComponent(token);
      proxyUrl.password = encodeURIComponent(egress.secret);
      t = wreq.createTransport({
        browser: profile as BrowserProfile,
        os: 'linux',
        // The profile's TLS; Chrome's HTTP/2 with the HEADERS weight Chromium sends.
        ...(options.profileHttp2 ? {} : { emulation: { http2Options: CHROME_HTTP2_OPTIONS } }),
        // Through the relay, wreq-js's TLS ends at the relay (loopback, its per-run certificate): the
        // relay verifies the site's certificate, unless the credentials say skip.
        proxy: relay ? relay.proxyUrl(token, insecure) : proxyUrl.href,
        insecure: relay ? true : insecure,
        connectTimeout: options.connectTimeoutMs,
        poolMaxIdlePerHost: options.connectionsPerOrigin,
        poolIdleTimeout: 10_000,
      });
      transports.set(key, t);
    }
    return t;
  };

  return {
    identity: options.identity,
    profile,
    get relayPid() {
      return relay?.pid;
    },
    async send(req) {
      if (relay && !relay.alive()) await restartRelay();
      const through = relay;
      try {
        return await fetchOnce(req);
      } catch (error) {
        // The relay died under this hop (killed, crashed): the site's answer cannot come. A GET is
        // sent once more through a new relay; a POST may have reached the site, so it fails as is.
        if (!through || req.method !== 'GET' || req.signal.aborted || (through.alive() && (await through.listening()))) throw error;
        if (relay === through) await restartRelay();
        return fetchOnce(req);
      }
    },
    async close() {
      const all = await Promise.allSettled([...transports.values()]);
      await Promise.allSettled(all.flatMap((t) => (t.status === 'fulfilled' ? [t.value.close()] : [])));
      await relay?.close();
      await egress.close();
    },
  };

  async function fetchOnce(req: ImpersonatedRequest): Promise<ImpersonatedResponse> {
    const transport = await transportFor(req.proxy, req.skipTlsVerification);
    const res = await wreq.fetch(req.url.href, {
      method: req.method,
      headers: req.headers,
      ...(req.body !== undefined ? { body: req.body } : {}),
      redirect: 'manual',
      signal: req.signal,
      timeout: req.timeoutMs,
      transport,
      disableDefaultHeaders: true,
      cookieMode: 'ephemeral',
    });
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of res.headers.entries()) {
      const key = name.toLowerCase();
      if (key === 'set-cookie') continue;
      headers[key] = headers[key] === undefined ? value : `${String(headers[key])}, ${value}`;
    }
    const cookies = res.headers.getSetCookie();
    if (cookies.length) headers['set-cookie'] = cookies;
    const body = res.body ? Readable.fromWeb(res.body) : Readable.from([]);
    return { statusCode: res.status, headers, body };
  }
}

/** The engine's impersonating client, made on first use (it starts the egress proxy); undefined when it cannot be. */
export function lazyImpersonatingClient(identity: ChromeIdentity | undefined, options: Omit<ImpersonatingClientOptions, 'identity'>) {
  let client: Promise<ImpersonatingClient | undefined> | undefined;
  return {
    get: (): Promise<ImpersonatingClient | undefined> => {
      if (!identity) return Promise.resolve(undefined);
      client ??= createImpersonatingClient({ identity, ...options }).catch(() => undefined);
      return client;
    },
    close: async (): Promise<void> => {
      await (await client)?.close();
    },
  };
}

/** The Accept the engine sends by default; on an impersonated hop, Chrome's own replaces it. */
export const ENGINE_DEFAULT_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/**
 * One https hop through the impersonating client, its headers in Chromium's order. The target's
 * name is checked here first for a well-named PRIVATE_TARGET; the egress proxy re-checks the
 * address it connects to (the hard guarantee, no rebinding window).
 */
export async function impersonatedHop(
  client: ImpersonatingClient,
  hop: Omit<ImpersonatedRequest, 'headers'> & { headers: Record<string, string> },
  allowPrivateTargets: boolean,
): Promise<ImpersonatedResponse> {
  await resolvePublicHost(normalizeHost(hop.url.hostname), { allowPrivateTargets });
  const given = { ...hop.headers };
  // Chrome's own accept-encoding (with zstd): the client decompresses, body.ts caps what comes out.
  delete given['accept-encoding'];
  if (given.accept === ENGINE_DEFAULT_ACCEPT) delete given.accept;
  return client.send({ ...hop, headers: navigationHeaders(client.identity, given) });
}

/** The newest `chrome_N` profile with N <= major (the oldest one if every profile is newer). */
export function newestChromeProfile(profiles: readonly string[], major: number): string {
  const chrome = profiles
    .map((p) => ({ p, n: Number(/^chrome_(\d+)$/.exec(p)?.[1]) }))
    .filter((x) => Number.isFinite(x.n))
    .sort((a, b) => a.n - b.n);
  const atOrBelow = chrome.filter((x) => x.n <= major);
  return (atOrBelow[atOrBelow.length - 1] ?? chrome[0])?.p ?? 'chrome';
}

const SYSTEM_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem'];
let trustDone = false;

/** NODE_EXTRA_CA_CERTS for BoringSSL: SSL_CERT_FILE = system roots + those certificates (once per process). */
function trustExtraCaCerts(): void {
  if (trustDone) return;
  trustDone = true;
  const extra = tlsTrustEnvironment.extraCaCertsFile();
  if (!extra) return;
  try {
    // The operator's SSL_CERT_FILE (or the system bundle) stays trusted; the extra certificates join it.
    const system = [tlsTrustEnvironment.sslCertFile(), ...SYSTEM_BUNDLES].find((f) => f && fs.existsSync(f));
    const base = system ? fs.readFileSync(system, 'utf8') : '';
    const extraText = fs.readFileSync(extra, 'utf8');
    // NODE_EXTRA_CA_CERTS naming the bundle BoringSSL already reads adds nothing.
    if (base.replace(/\s+/g, '').includes(extraText.replace(/\s+/g, ''))) return;
    const bundle = `${base}\n${extraText}\n`;
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'scrape-ca-')), 'ca-bundle.pem');
    fs.writeFileSync(file, bundle, { mode: 0o600 });
    tlsTrustEnvironment.setSslCertFile(file);
  } catch {
    // An unreadable NODE_EXTRA_CA_CERTS: Node itself warns about it; the system roots still apply.
  }
}
