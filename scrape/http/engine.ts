/**
 * http mode: one undici Agent (keep-alive pool) per engine, i.e. per process.
 *
 * Safety: redirects are followed by hand so that every hop is checked (scheme, blacklist,
 * IP-literal range), and host names are checked on the address the socket actually connects to
 * via the Agent's `connect.lookup` (no DNS-rebinding window between check and connect).
 * The body is decompressed (gzip, deflate, br) while it streams, and the DECOMPRESSED size is
 * capped (RESPONSE_TOO_LARGE), so a compression bomb cannot exhaust memory.
 *
 * Errors: AppError INVALID_URL / BLACKLISTED / PRIVATE_TARGET / INVALID_SELECTOR /
 * RESPONSE_TOO_LARGE (deterministic: do not retry) and SCRAPE_FAILED (network error, timeout,
 * too many redirects, bad encoding: retryable). A target 4xx/5xx is a normal result.
 * Cancellation through `signal` rejects with `signal.reason` unchanged.
 *
 * Reading and decompressing a body under its size cap: body.ts. A PDF or DOCX answer (by its
 * Content-Type or its bytes) is converted by scrape/documents/ instead of being read as HTML.
 *
 * Looking like Chrome (option `impersonate`): every https hop is sent by impersonate.ts (wreq-js,
 * Chrome's TLS and HTTP/2, Chromium's navigation headers, DNS pinned by the egress proxy); plain
 * http hops, and every hop when wreq-js cannot load, stay on undici (docs/scraping.md "http mode").
 */
import net from 'node:net';
import tls from 'node:tls';
import { Agent } from 'undici';
import type { buildConnector } from 'undici';
import { AppError } from '../../platform/errors';
import { checkTarget, createGuardedLookup, normalizeHost, resolvePublicHost } from '../../platform/target-guard';
import { refusedHeaderReason } from '../headers';
import type { ProxyEndpoint } from '../../platform/proxy-endpoints';
import { openTunnel } from '../proxy-tunnel';
import { validateSelectors } from '../selectors';
import { documentOutputs } from '../formats';
import { classifyBlock } from '../blocks';
import { javaScriptNeed } from '../app-shell';
import { documentKind, documentResponseOutputs } from '../documents';
import type { DocumentOutputThreads } from '../formats/threads';
import type { ScrapeCallOptions, ScrapeResult } from '../types';
import { decodeHtml } from '../charset';
import { discardBody, headerValue, readBody } from './body';
import type { EngineRequest } from '../request';
import { EMPTY_STORAGE_STATE, requestStateCookies, withCookies } from '../cookies';
import { createRequestCookieJar } from './cookie-jar';
import { ENGINE_DEFAULT_ACCEPT, chromeIdentity, impersonatedHop, lazyImpersonatingClient } from './impersonate';
import { chromiumMajorVersion } from '../browser/identity';
import type { ChromeIdentity } from './impersonate';

export interface HttpEngineOptions {
  /** true lets scrapes reach loopback/private/link-local addresses (tests, local dev). */
  allowPrivateTargets: boolean;
  /** Cap on the decompressed body; default 10 MiB. */
  maxResponseBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  userAgent?: string;
  /** TCP+TLS connect timeout; default 10 s. */
  connectTimeoutMs?: number;
  /** Default deadline of a scrape when the call gives none; default 30 s. */
  defaultTimeoutMs?: number;
  /** Max sockets per origin; default 32. */
  connectionsPerOrigin?: number;
  /** Where large documents' format work runs (scrape/formats/threads.ts); inline without. Closed with the engine. */
  formatThreads?: DocumentOutputThreads;
  /** Look like this Chromium (its major version, read once from `--version`): https hops through impersonate.ts. */
  impersonate?: {
    chromiumPath: string;
    /** `chrome` (default): Chrome's HTTP/2 section (impersonate.ts CHROME_HTTP2_OPTIONS); `profile`: wreq-js's profile's own (the bench's baseline). */
    http2?: 'chrome' | 'profile';
    /** The TLS relay's binary (scrape/http/tls-relay.ts): the site sees the shipped Chromium's ClientHello; without, wreq-js's own. */
    tlsRelayBinary?: string;
  };
}

/** `fetchRaw` options: the scrape call's (signal, deadline, blacklist, proxy) and a tighter body cap. */
export interface RawFetchOptions extends ScrapeCallOptions {
  /** Cap on the decompressed body (at most the engine's own cap). */
  maxBytes?: number;
  /** The Accept header (default: the engine's HTML-first one). */
  accept?: string;
}

/** A response as bytes: what robots.txt and sitemap discovery (crawl/fetch.ts) read. */
export interface RawResponse {
  url: string;
  final_url: string;
  status: number;
  /** Lower-case names, as `ScrapeResult.headers`. */
  headers: Record<string, string>;
  /** The body after Content-Encoding is undone (a gzip *file* stays gzip: the caller looks at it). */
  body: Buffer;
}

export interface HttpEngine {
  scrape(req: EngineRequest, opts?: ScrapeCallOptions): Promise<ScrapeResult>;
  /**
   * A GET answered as bytes, with the same guard, blacklist, redirect checks, proxy, size cap and
   * deadline as `scrape` (one fetcher, not two): robots.txt and sitemaps. A 4xx/5xx is a result.
   */
  fetchRaw(url: string, opts?: RawFetchOptions): Promise<RawResponse>;
  /** Closes the pooled connections. */
  close(): Promise<void>;
}

export const DEFAULT_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

/** The Chrome identity of an impersonating engine: the shipped Chromium's major version (undefined if it cannot be read). */
function impersonatedIdentity(options: HttpEngineOptions): ChromeIdentity | undefined {
  if (!options.impersonate) return undefined;
  const major = chromiumMajorVersion(options.impersonate.chromiumPath);
  return major === undefined ? undefined : chromeIdentity(major);
}

function impersonatorOptions(options: HttpEngineOptions) {
  const { allowPrivateTargets, connectTimeoutMs = 10_000, connectionsPerOrigin = 32 } = options;
  return { allowPrivateTargets, connectTimeoutMs, connectionsPerOrigin, profileHttp2: options.impersonate?.http2 === 'profile', tlsRelayBinary: options.impersonate?.tlsRelayBinary };
}

const CREDENTIAL_HEADERS = ['authorization', 'cookie'];
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export function createHttpEngine(options: HttpEngineOptions): HttpEngine {
  const maxBytes = options.maxResponseBytes ?? 10 * 1024 * 1024;
  const maxRedirects = options.maxRedirects ?? 5;
  const identity = impersonatedIdentity(options);
  const userAgent = options.userAgent ?? identity?.userAgent ?? DEFAULT_USER_AGENT;
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 30_000;
  const directAgent = (rejectUnauthorized: boolean) =>
    new Agent({
      connections: options.connectionsPerOrigin ?? 32,
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      connect: {
        timeout: options.connectTimeoutMs ?? 10_000,
        lookup: createGuardedLookup({ allowPrivateTargets: options.allowPrivateTargets }),
        rejectUnauthorized,
      },
    });
  const agent = directAgent(true);
  let insecureAgent: Agent | undefined;
  const impersonator = lazyImpersonatingClient(identity, impersonatorOptions(options));

  // One keep-alive pool per upstream proxy, made on first use (none without PROXY_URLS).
  const proxied = new Map<string, Agent>();
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const dispatcherFor = (proxy: ProxyEndpoint | undefined, skipTlsVerification: boolean): Agent => {
    if (!proxy) return skipTlsVerification ? (insecureAgent ??= directAgent(false)) : agent;
    const key = `${proxy.id}|${skipTlsVerification}`;
    let a = proxied.get(key);
    if (!a) {
      a = new Agent({
        connections: options.connectionsPerOrigin ?? 32,
        keepAliveTimeout: 10_000,
        keepAliveMaxTimeout: 60_000,
        connect: proxiedConnector(proxy, options.allowPrivateTargets, connectTimeoutMs, !skipTlsVerification),
      });
      proxied.set(key, a);
    }
    return a;
  };

  /**
   * One request with every redirect hop checked (scheme, blacklist, IP-literal range; host names
   * at connect time), the decompressed body read up to `maxBytes`. Shared by `scrape` and `fetchRaw`.
   */
  async function send(req: EngineRequest, call: ScrapeCallOptions, bodyLimit: number): Promise<{ url: URL; status: number; headers: Record<string, string>; bytes: Buffer }> {
    const timeoutMs = call.timeoutMs ?? defaultTimeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    const guard = { allowPrivateTargets: options.allowPrivateTargets, isBlacklisted: call.isBlacklisted };
    const fail = (err: unknown) => toScrapeError(err, call.signal, timeout, timeoutMs);

    let url = await checkTarget(req.url, guard);
    let method: 'GET' | 'POST' = req.method ?? 'GET';
    const headers = buildHeaders(req, userAgent);
    let body = encodeBody(req.body, headers, method);
    const skipTlsVerification = req.skip_tls_verification === true;
    const dispatcher = dispatcherFor(call.proxy, skipTlsVerification);
    // With cookies or a session, a jar decides each hop's cookies (the `cookie` header joins it, for the URL's host).
    const jar = req.cookies?.length || call.storage ? createRequestCookieJar(withCookies(call.storage?.state ?? EMPTY_STORAGE_STATE, requestStateCookies(req.url, req.cookies, req.headers))) : undefined;
    if (jar) delete headers.cookie;

    try {
      for (let hop = 0; ; hop++) {
        if (jar) {
          const cookie = jar.headerFor(url);
          if (cookie) headers.cookie = cookie;
          else delete headers.cookie;
        }
        const client = url.protocol === 'https:' ? await impersonator.get() : undefined;
        const res =
          client
            ? await impersonatedHop(client, { url, method, headers, body, signal, timeoutMs, proxy: call.proxy, skipTlsVerification }, options.allowPrivateTargets)
            : await dispatcher.request({ origin: url.origin, path: `${url.pathname}${url.search}`, method, headers, body, signal });
        jar?.receive(url, res.headers['set-cookie']);
        const location = headerValue(res.headers.location);
        if (REDIRECT_STATUSES.has(res.statusCode) && location !== undefined) {
          await discardBody(res.body);
          if (hop >= maxRedirects) throw new AppError('SCRAPE_FAILED', `too many redirects (more than ${maxRedirects})`);
          let next: URL;
          try {
            next = new URL(location, url);
          } catch {
            throw new AppError('SCRAPE_FAILED', `invalid redirect location: ${location.slice(0, 200)}`);
          }
          next.hash = '';
          next = await checkTarget(next, guard);
          if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
            method = 'GET';
            body = undefined;
            delete headers['content-type'];
          }
          if (next.origin !== url.origin) for (const h of CREDENTIAL_HEADERS) delete headers[h];
          url = next;
          continue;
        }
        const bytes = await readBody(res, bodyLimit);
        if (jar) call.storage?.onState?.(jar.state());
        return { url, status: res.statusCode, headers: flattenHeaders(res.headers), bytes };
      }
    } catch (err) {
      throw fail(err);
    }
  }

  async function scrape(req: EngineRequest, call: ScrapeCallOptions = {}): Promise<ScrapeResult> {
    const started = performance.now();
    if (req.selectors) validateSelectors(req.selectors);
    const { url, status, headers: responseHeaders, bytes } = await send(req, call, maxBytes);
    const result: ScrapeResult = {
      url: req.url,
      final_url: url.href,
      status,
      mode: 'http',
      elapsed_ms: 0,
      headers: responseHeaders,
    };
    const facts = { status, headers: responseHeaders, finalUrl: url.href };
    const document = documentKind(responseHeaders['content-type'], bytes);
    if (document) {
      const remainingMs = (call.timeoutMs ?? defaultTimeoutMs) - (performance.now() - started);
      Object.assign(result, await documentResponseOutputs(req, document, bytes, facts, { remainingMs, ...(call.signal ? { signal: call.signal } : {}) }));
      result.elapsed_ms = Math.round(performance.now() - started);
      return result;
    }
    const text = decodeBody(bytes, responseHeaders['content-type']);
    const block = classifyBlock({ status, headers: responseHeaders, body: text });
    if (block) result.blocked_by = block.vendor;
    const needsJavaScript = block ? undefined : javaScriptNeed(text, responseHeaders['content-type']);
    if (needsJavaScript) result.needs_javascript = needsJavaScript;
    Object.assign(result, options.formatThreads ? await options.formatThreads.outputs(req, text, facts) : documentOutputs(req, text, facts));
    result.elapsed_ms = Math.round(performance.now() - started);
    return result;
  }

  async function fetchRaw(url: string, call: RawFetchOptions = {}): Promise<RawResponse> {
    const req: EngineRequest = { url, method: 'GET', ...(call.accept ? { headers: { accept: call.accept } } : {}) };
    const res = await send(req, call, Math.min(call.maxBytes ?? maxBytes, maxBytes));
    return { url, final_url: res.url.href, status: res.status, headers: res.headers, body: res.bytes };
  }

  return {
    scrape,
    fetchRaw,
    close: async () => {
      await Promise.all([agent.close(), insecureAgent?.close(), ...[...proxied.values()].map((a) => a.close()), options.formatThreads?.close(), impersonator.close()]);
    },
  };
}

/**
 * undici connector through an upstream proxy: the TARGET's name is resolved and checked here by
 * the guard (as the direct path's guarded lookup does), the proxy is asked for the accepted
 * address, and TLS to the target runs inside the tunnel with the target's name (SNI, certificate).
 */
function proxiedConnector(proxy: ProxyEndpoint, allowPrivateTargets: boolean, timeoutMs: number, rejectUnauthorized: boolean) {
  const connector: buildConnector.connector = (opts, callback) => {
    const host = normalizeHost(opts.hostname);
    const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80);
    void (async () => {
      // IP literals are checked as they are; names resolved with the guard (PRIVATE_TARGET, or SCRAPE_FAILED for DNS).
      const address = (await resolvePublicHost(host, { allowPrivateTargets }))[0]!.address;
      const socket = await openTunnel(proxy, address, port, { timeoutMs });
      if (opts.protocol !== 'https:') return socket;
      return new Promise<tls.TLSSocket>((resolve, reject) => {
        const secure = tls.connect({ socket, servername: opts.servername ?? (net.isIP(host) ? undefined : host), ALPNProtocols: ['http/1.1'], rejectUnauthorized });
        secure.once('secureConnect', () => {
          secure.removeListener('error', reject);
          resolve(secure);
        });
        secure.once('error', reject);
      });
    })().then(
      (socket) => callback(null, socket),
      (err: Error) => callback(err, null),
    );
  };
  return connector;
}

// ---------------------------------------------------------------------------------------------
// Request

function buildHeaders(req: EngineRequest, userAgent: string): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': userAgent,
    accept: ENGINE_DEFAULT_ACCEPT,
    'accept-language': 'en-US,en;q=0.9',
  };
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    const key = name.toLowerCase();
    // Refused by the request schema; a request stored before that rule may still carry one.
    if (refusedHeaderReason(key, 'http')) continue;
    headers[key] = value;
  }
  headers['accept-encoding'] = 'gzip, deflate, br';
  return headers;
}

function encodeBody(
  body: EngineRequest['body'],
  headers: Record<string, string>,
  method: 'GET' | 'POST',
): string | undefined {
  if (method !== 'POST' || body === undefined) return undefined;
  if (typeof body === 'string') {
    headers['content-type'] ??= 'text/plain;charset=UTF-8';
    return body;
  }
  headers['content-type'] ??= 'application/json';
  return JSON.stringify(body);
}

// ---------------------------------------------------------------------------------------------
// Response

/** Lower-case names; repeated headers joined with ", " (set-cookie with "\n", as its values contain commas). */
export function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(h)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    out[key] = Array.isArray(value) ? value.join(key === 'set-cookie' ? '\n' : ', ') : value;
  }
  return out;
}

/** The body's text, decoded as Chromium decodes it (scrape/charset.ts). */
export const decodeBody = decodeHtml;

// ---------------------------------------------------------------------------------------------
// Errors

const NETWORK_MESSAGES: Record<string, string> = {
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed temporarily',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timed out waiting for response headers',
  UND_ERR_BODY_TIMEOUT: 'timed out reading the response body',
  UND_ERR_SOCKET: 'socket error',
  UND_ERR_RESPONSE_EXCEEDED_MAX_SIZE: 'response too large',
};

function toScrapeError(err: unknown, external: AbortSignal | undefined, timeout: AbortSignal, timeoutMs: number): unknown {
  if (err instanceof AppError) return err;
  if (external?.aborted) return external.reason;
  if (timeout.aborted) return new AppError('SCRAPE_FAILED', `timed out after ${timeoutMs} ms`, { timeout: true });
  const cause = findAppError(err);
  if (cause) return cause;
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  const known = typeof code === 'string' ? NETWORK_MESSAGES[code] : undefined;
  const text = known ? `${known}${typeof code === 'string' ? ` (${code})` : ''}` : message;
  return new AppError('SCRAPE_FAILED', `request failed: ${text}`);
}

/** A guard error raised inside the connector may come back wrapped (cause / AggregateError). */
function findAppError(err: unknown, depth = 0): AppError | undefined {
  if (depth > 4 || err === null || typeof err !== 'object') return undefined;
  if (err instanceof AppError) return err;
  const e = err as { cause?: unknown; errors?: unknown[] };
  return findAppError(e.cause, depth + 1) ?? (Array.isArray(e.errors) ? e.errors.map((x) => findAppError(x, depth + 1)).find(Boolean) : undefined);
}
