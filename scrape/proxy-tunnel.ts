/**
 * A TCP tunnel to a target through one upstream proxy (PROXY_URLS): the one piece both engines use
 * (the http engine's connector, the browser's egress proxy), docs/scraping.md "Proxies".
 *
 * - http:// and https:// proxies: `CONNECT host:port` (Node's own http client; the https proxy is
 *   reached over TLS), with `Proxy-Authorization: Basic` when the URL has credentials.
 * - socks5:// proxies: the `socks` library (the SOCKS client behind `socks-proxy-agent`), with
 *   user/password authentication (RFC 1929) when the URL has credentials.
 *
 * The caller passes the target as the IP address its guard accepted (platform/target-guard.ts): the proxy
 * is asked for that address, never for a name it would resolve itself, so the SSRF guard decides
 * on the address actually reached. The proxy itself is trusted configuration: it is connected to
 * without the guard.
 *
 * Failures reject with AppError PROXY_FAILED (retryable; `extra.proxy` is `host:port`) when the
 * proxy could not be used (connect refused or timed out, CONNECT answered other than 200, SOCKS
 * negotiation or authentication failed, SOCKS general failure / not allowed), and with
 * SCRAPE_FAILED when a working SOCKS proxy says the TARGET refused or is unreachable (the target's
 * own error, as without a proxy). Messages name the proxy by `host:port`, never its credentials.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Socket } from 'node:net';
import tls from 'node:tls';
import { SocksClient } from 'socks';
import { AppError } from '../platform/errors';
import type { ProxyEndpoint } from '../platform/proxy-endpoints';

export interface TunnelOptions {
  /** Connect plus handshake; default 10 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Test hook: CA certificates (PEM) to trust for an https:// proxy, besides Node's own. */
  proxyCa?: string;
}

/** A SOCKS reply about the target, not the proxy (RFC 1928 REP 3, 4, 5, 6). */
const SOCKS_TARGET_REPLY = /rejected connection - (NetworkUnreachable|HostUnreachable|ConnectionRefused|TTLExpired)/;

export function proxyFailure(proxy: ProxyEndpoint, what: string): AppError {
  return new AppError('PROXY_FAILED', scrub(`proxy ${proxy.id} failed: ${what}`, proxy), { proxy: proxy.id });
}

/** Removes the proxy's credentials from a message, should a library ever echo them. */
function scrub(message: string, proxy: ProxyEndpoint): string {
  let out = message;
  for (const secret of [proxy.credentials?.password, proxy.credentials?.username]) {
    if (secret && secret.length >= 3) out = out.split(secret).join('***');
  }
  return out;
}

function describe(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

/** Opens a raw TCP stream to `host:port` (an IP literal the guard accepted) through `proxy`. */
export async function openTunnel(proxy: ProxyEndpoint, host: string, port: number, options: TunnelOptions = {}): Promise<Socket> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  options.signal?.throwIfAborted();
  return proxy.protocol === 'socks5' ? socksTunnel(proxy, host, port, timeoutMs, options.signal) : connectTunnel(proxy, host, port, timeoutMs, options.signal, options.proxyCa);
}

async function socksTunnel(proxy: ProxyEndpoint, host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<Socket> {
  try {
    const { socket } = await SocksClient.createConnection({
      command: 'connect',
      destination: { host, port },
      proxy: {
        host: proxy.host,
        port: proxy.port,
        type: 5,
        ...(proxy.credentials ? { userId: proxy.credentials.username, password: proxy.credentials.password } : {}),
      },
      timeout: timeoutMs,
      set_tcp_nodelay: true,
    });
    if (signal?.aborted) {
      socket.destroy();
      throw signal.reason;
    }
    return socket;
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    const message = describe(err);
    const target = SOCKS_TARGET_REPLY.exec(message);
    if (target) throw new AppError('SCRAPE_FAILED', `request failed: ${target[1]} (reported by proxy ${proxy.id})`);
    throw proxyFailure(proxy, message);
  }
}

function connectTunnel(proxy: ProxyEndpoint, host: string, port: number, timeoutMs: number, signal?: AbortSignal, proxyCa?: string): Promise<Socket> {
  const authority = `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
  const headers: Record<string, string> = { host: authority };
  if (proxy.credentials) {
    headers['proxy-authorization'] = `Basic ${Buffer.from(`${proxy.credentials.username}:${proxy.credentials.password}`).toString('base64')}`;
  }
  const client = proxy.protocol === 'https' ? https : http;
  return new Promise<Socket>((resolve, reject) => {
    let settled = false;
    const req = client.request({
      host: proxy.host,
      port: proxy.port,
      method: 'CONNECT',
      path: authority,
      headers,
      agent: false,
      timeout: timeoutMs,
      ...(proxy.protocol === 'https' ? { servername: net.isIP(proxy.host) ? undefined : proxy.host, ...(proxyCa ? { ca: [...tls.rootCertificates, proxyCa] } : {}) } : {}),
    });
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      req.destroy();
      reject(err);
    };
    const onAbort = () => fail(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.once('connect', (res: http.IncomingMessage, socket: Socket, head: Buffer) => {
      if (settled) return void socket.destroy();
      if (res.statusCode !== 200) {
        socket.destroy();
        return fail(proxyFailure(proxy, `CONNECT answered ${res.statusCode ?? '?'}${res.statusMessage ? ` ${res.statusMessage}` : ''}`));
      }
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      socket.setTimeout(0);
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    // A proxy that answers a CONNECT with a body-less non-2xx may end up here instead of `connect`.
    req.once('response', (res: http.IncomingMessage) => {
      res.resume();
      fail(proxyFailure(proxy, `CONNECT answered ${res.statusCode ?? '?'}`));
    });
    req.once('timeout', () => fail(proxyFailure(proxy, `no answer within ${timeoutMs} ms`)));
    req.once('error', (err) => fail(proxyFailure(proxy, describe(err))));
    req.end();
  });
}
