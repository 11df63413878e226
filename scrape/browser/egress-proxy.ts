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
 *
 * This file keeps the guard, the routes and the server; egress-forward.ts forwards one request or
 * one CONNECT tunnel.
 */
import http from 'node:http';
import net from 'node:net';
import type { Socket } from 'node:net';
import { AppError } from '../../platform/errors';
import { listenOnLoopback } from '../../platform/free-port';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createGuardedLookup, isPrivateAddress, normalizeHost, privateTargetError, resolvePublicHost } from '../../platform/target-guard';
import type { AddressPolicy, BlacklistCheck } from '../../platform/target-guard';
import type { ProxyEndpoint } from '../../platform/proxy-endpoints';
import { openTunnel } from '../proxy-tunnel';
import { type Forwarding, type Route, forwardConnect, forwardRequest } from './egress-forward';

export { GUARD_HEADER } from './egress-forward';

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
  assign(token: string, proxy: ProxyEndpoint | null, isBlacklisted?: BlacklistCheck): void;
  release(token: string): void;
  /** `upstream` only: the first upstream failure seen for this token's traffic, if any. */
  upstreamFailure(token: string): AppError | undefined;
  close(): Promise<void>;
}

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

  const forwarding: Forwarding = { routeOf, refusal, checkLiteral, viaUpstream, lookup, connectTimeout, counted: () => void requests++ };
  const server = http.createServer((req, res) => forwardRequest(forwarding, req, res));
  server.on('connect', (req: http.IncomingMessage, client: Socket, head: Buffer) => forwardConnect(forwarding, req, client, head));

  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    stats: () => ({ requests, blocked, upstreamFailures }),
    secret,
    assign: (token, proxy, isBlacklisted) => void routes.set(token, { token, proxy, ...(isBlacklisted ? { isBlacklisted } : {}) }),
    release: (token) => void routes.delete(token),
    upstreamFailure: (token) => routes.get(token)?.failure,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
