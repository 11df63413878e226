/**
 * Guarding HTTP proxy for the browser engine, on 127.0.0.1 and a free port.
 *
 * Chromium is launched with `--proxy-server=<this> --proxy-bypass-list=<-loopback>`, so EVERY
 * request the browser makes (every redirect hop, subresource, iframe, WebSocket) goes through
 * here, and this proxy is what resolves host names: it connects only after the guarded lookup
 * accepted the resolved address (the same check as the http engine, no DNS-rebinding window).
 * Playwright's `route()` is not called for redirect hops, so this is the hard guarantee; the
 * engine's route handler only gives early, well-named errors.
 *
 * Refusals: a plain-HTTP request gets `403` with header `x-scrape-guard: PRIVATE_TARGET`;
 * a CONNECT (https, wss) gets `403` and Chromium fails the request (ERR_TUNNEL_CONNECTION_FAILED).
 *
 * Upstream proxies (PROXY_URLS, docs/scraping.md "Proxies"): with `upstream: true` this proxy
 * also chains to the outbound proxy chosen for each scrape. Every browser context then uses this
 * proxy with its own credentials (`token:secret`, Playwright's per-context `proxy` option, which
 * answers our 407 challenge once per context); `assign(token, proxy | null)` says where that
 * context's traffic goes (an upstream proxy, or direct), `release(token)` forgets it. The guard
 * still decides on the target first (resolved here, refused if private); the upstream proxy is
 * asked for the accepted IP address (proxy-tunnel.ts). An upstream failure answers `502` with
 * `x-scrape-guard: PROXY_FAILED` and is remembered for the token (`upstreamFailure`).
 */
import http from 'node:http';
import net from 'node:net';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { AppError } from '../../platform/errors';
import { listenOnLoopback } from '../../platform/free-port';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createGuardedLookup, isPrivateAddress, normalizeHost, privateTargetError, resolvePublicHost } from '../../platform/target-guard';
import type { AddressPolicy } from '../../platform/target-guard';
import type { ProxyEndpoint } from '../../platform/proxy-endpoints';
import { openTunnel } from '../proxy-tunnel';

export const GUARD_HEADER = 'x-scrape-guard';

export interface EgressProxyOptions {
  allowPrivateTargets: boolean;
  connectTimeoutMs?: number;
  /** Test hook: address classifier (default `isPrivateAddress`). */
  isPrivate?: AddressPolicy;
  /** Chain to upstream proxies per context (PROXY_URLS set): every request must carry a context's credentials. */
  upstream?: boolean;
}

export interface EgressProxy {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  stats(): { requests: number; blocked: number; upstreamFailures: number };
  /** `upstream` only: the password every context's credentials carry (random per process). */
  secret: string;
  /** `upstream` only: where the traffic of the context with this token goes (a proxy, or null: direct). */
  assign(token: string, proxy: ProxyEndpoint | null): void;
  release(token: string): void;
  /** `upstream` only: the first upstream failure seen for this token's traffic, if any. */
  upstreamFailure(token: string): AppError | undefined;
  close(): Promise<void>;
}

interface Route {
  token: string;
  proxy: ProxyEndpoint | null;
  failure?: AppError;
}

const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer',
  'transfer-encoding', 'upgrade',
]);

export async function startEgressProxy(opts: EgressProxyOptions): Promise<EgressProxy> {
  const isPrivate = opts.isPrivate ?? isPrivateAddress;
  const lookup = createGuardedLookup({ allowPrivateTargets: opts.allowPrivateTargets, isPrivate });
  const connectTimeout = opts.connectTimeoutMs ?? 10_000;
  const sockets = new Set<Socket>();
  let requests = 0;
  let blocked = 0;
  let upstreamFailures = 0;
  const secret = randomBytes(18).toString('base64url');
  const routes = new Map<string, Route>();

  /**
   * The route of a request: undefined without `upstream` (direct, as before); 'challenge' when it
   * carries no valid credentials (407, which Playwright answers with the context's); 'unassigned'
   * for a context no scrape owns.
   */
  const routeOf = (req: http.IncomingMessage): Route | 'challenge' | 'unassigned' | undefined => {
    if (!opts.upstream) return undefined;
    const m = /^Basic\s+(\S+)$/i.exec(req.headers['proxy-authorization'] ?? '');
    if (!m) return 'challenge';
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const token = decoded.slice(0, colon);
    const given = Buffer.from(decoded.slice(colon + 1));
    const expected = Buffer.from(secret);
    if (colon < 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) return 'challenge';
    return routes.get(token) ?? 'unassigned';
  };
  const CHALLENGE = 'HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm="scrape-egress"\r\ncontent-length: 0\r\n\r\n';

  /** Resolves (guarded) and opens a tunnel to the target through the route's upstream proxy. */
  const viaUpstream = async (route: Route, host: string, port: number): Promise<Socket> => {
    const [first] = await resolvePublicHost(host, { allowPrivateTargets: opts.allowPrivateTargets, isPrivate });
    try {
      return await openTunnel(route.proxy!, first!.address, port, { timeoutMs: connectTimeout });
    } catch (err) {
      if (err instanceof AppError && err.code === 'PROXY_FAILED') {
        upstreamFailures++;
        route.failure ??= err;
      }
      throw err;
    }
  };

  /** Throws PRIVATE_TARGET for a private IP literal (net.connect skips `lookup` for literals). */
  const checkLiteral = (host: string) => {
    const h = normalizeHost(host);
    if (!opts.allowPrivateTargets && net.isIP(h) && isPrivate(h)) throw privateTargetError(h, h);
  };

  const refusal = (err: unknown): { status: number; code: string; message: string } => {
    if (err instanceof AppError && (err.code === 'PROXY_FAILED' || err.code === 'SCRAPE_FAILED')) return { status: 502, code: err.code, message: err.message };
    if (err instanceof AppError) {
      blocked++;
      return { status: 403, code: err.code, message: err.message };
    }
    const message = err instanceof Error ? err.message : String(err);
    return { status: 502, code: 'SCRAPE_FAILED', message };
  };

  const server = http.createServer((req, res) => {
    requests++;
    const route = routeOf(req);
    if (route === 'challenge') {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="scrape-egress"', 'content-length': '0' });
      return void res.end();
    }
    if (route === 'unassigned') {
      res.writeHead(403, { 'content-type': 'text/plain', [GUARD_HEADER]: 'UNASSIGNED' });
      return void res.end('no scrape owns this context');
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new AppError('INVALID_URL', `proxy only forwards http: URLs`);
      checkLiteral(target.hostname);
    } catch (err) {
      const r = refusal(err);
      res.writeHead(r.status, { 'content-type': 'text/plain', [GUARD_HEADER]: r.code });
      res.end(r.message);
      return;
    }
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
    }
    const tunnel = route?.proxy ? viaUpstream(route, target.hostname, Number(target.port || 80)) : undefined;
    tunnel?.catch(() => undefined);
    const upstream = http.request({
      host: normalizeHost(target.hostname),
      port: target.port || 80,
      path: `${target.pathname}${target.search}`,
      method: req.method,
      headers,
      lookup: lookup,
      timeout: connectTimeout,
      // Through an upstream proxy: the socket is the tunnel to the address the guard accepted.
      ...(tunnel
        ? {
            createConnection: (_o: unknown, done: (err: Error | null, socket: Duplex) => void) => {
              tunnel.then((socket) => done(null, socket), (err: Error) => done(err, undefined as unknown as Duplex));
              return undefined;
            },
          }
        : {}),
    });
    upstream.on('response', (up) => {
      const out: string[] = [];
      for (let i = 0; i + 1 < up.rawHeaders.length; i += 2) {
        if (!HOP_BY_HOP.has(up.rawHeaders[i]!.toLowerCase())) out.push(up.rawHeaders[i]!, up.rawHeaders[i + 1]!);
      }
      res.writeHead(up.statusCode ?? 502, up.statusMessage, out);
      up.pipe(res);
      up.on('error', () => res.destroy());
    });
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timeout')));
    upstream.on('error', (err) => {
      if (res.headersSent) return void res.destroy();
      const r = refusal(err);
      res.writeHead(r.status, { 'content-type': 'text/plain', [GUARD_HEADER]: r.code });
      res.end(r.message);
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });

  server.on('connect', (req: http.IncomingMessage, client: Socket, head: Buffer) => {
    requests++;
    client.on('error', () => undefined);
    const route = routeOf(req);
    if (route === 'challenge') return void client.end(CHALLENGE);
    if (route === 'unassigned') return void client.end(`HTTP/1.1 403 Forbidden\r\n${GUARD_HEADER}: UNASSIGNED\r\ncontent-length: 0\r\n\r\n`);
    const refuse = (err: unknown) => {
      const r = refusal(err);
      client.end(`HTTP/1.1 ${r.status} ${r.status === 403 ? 'Forbidden' : 'Bad Gateway'}\r\n${GUARD_HEADER}: ${r.code}\r\ncontent-length: 0\r\n\r\n`);
    };
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
    if (!m) return refuse(new Error('bad CONNECT target'));
    const host = m[1]!;
    const port = Number(m[2]);
    try {
      checkLiteral(host);
    } catch (err) {
      return refuse(err);
    }
    if (route?.proxy) {
      viaUpstream(route, host, port).then(
        (upstream) => {
          if (client.destroyed) return void upstream.destroy();
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length > 0) upstream.write(head);
          upstream.on('error', () => client.destroy());
          upstream.pipe(client);
          client.pipe(upstream);
          client.on('close', () => upstream.destroy());
        },
        refuse,
      );
      return;
    }
    const upstream = net.connect({ host: normalizeHost(host), port, lookup: lookup, timeout: connectTimeout });
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      upstream.setTimeout(0);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('connect timeout')));
    upstream.on('error', (err) => (connected ? client.destroy() : refuse(err)));
    client.on('close', () => upstream.destroy());
  });

  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    stats: () => ({ requests, blocked, upstreamFailures }),
    secret,
    assign: (token, proxy) => void routes.set(token, { token, proxy }),
    release: (token) => void routes.delete(token),
    upstreamFailure: (token) => routes.get(token)?.failure,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
