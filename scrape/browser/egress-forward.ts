/**
 * The egress proxy's two forwarders (egress-proxy.ts has the design): a plain-HTTP request, and a
 * CONNECT tunnel (https, wss), each checked and sent direct or through the context's upstream proxy.
 */
import http from 'node:http';
import net from 'node:net';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { AppError } from '../../platform/errors';
import type { createGuardedLookup } from '../../platform/target-guard';
import { normalizeHost } from '../../platform/target-guard';
import type { BlacklistCheck } from '../../platform/target-guard';
import type { ProxyEndpoint } from '../../platform/proxy-endpoints';

export const GUARD_HEADER = 'x-scrape-guard';

export interface Route {
  token: string;
  proxy: ProxyEndpoint | null;
  /** The scrape's host blacklist: its page's every connection is checked against it here (WebSockets too). */
  isBlacklisted?: BlacklistCheck;
  failure?: AppError;
}

/** Throws BLACKLISTED when the route's scrape blacklists `host` (the same check and error as checkTarget's). */
export async function checkBlacklist(route: Route | undefined, host: string): Promise<void> {
  const h = normalizeHost(host);
  if (route?.isBlacklisted && (await route.isBlacklisted(h))) throw new AppError('BLACKLISTED', `target host is blacklisted: ${h}`, { host: h });
}

const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer',
  'transfer-encoding', 'upgrade',
]);

const CHALLENGE = 'HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm="scrape-egress"\r\ncontent-length: 0\r\n\r\n';

/** What both forwarders take from the proxy that owns them (its guard, routes and counters). */
export interface Forwarding {
  /** undefined: direct (no upstream); 'challenge': no valid credentials; 'unassigned': a context no scrape owns. */
  routeOf(req: http.IncomingMessage): Route | 'challenge' | 'unassigned' | undefined;
  refusal(err: unknown): { status: number; code: string; message: string };
  /** Throws PRIVATE_TARGET for a private IP literal (net.connect skips `lookup` for literals). */
  checkLiteral(host: string): void;
  /** Resolves (guarded) and opens a tunnel to the target through the route's upstream proxy. */
  viaUpstream(route: Route, host: string, port: number): Promise<Socket>;
  lookup: ReturnType<typeof createGuardedLookup>;
  connectTimeout: number;
  /** One more request seen. */
  counted(): void;
}

/** A plain-HTTP request: checked, then forwarded without its hop-by-hop headers. */
export function forwardRequest(f: Forwarding, req: http.IncomingMessage, res: http.ServerResponse): void {
  f.counted();
  const route = f.routeOf(req);
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
    f.checkLiteral(target.hostname);
  } catch (err) {
    return refuseRequest(f, res, err);
  }
  checkBlacklist(route, target.hostname).then(
    () => forwardChecked(f, req, res, route, target),
    (err: unknown) => refuseRequest(f, res, err),
  );
}

function refuseRequest(f: Forwarding, res: http.ServerResponse, err: unknown): void {
  const r = f.refusal(err);
  res.writeHead(r.status, { 'content-type': 'text/plain', [GUARD_HEADER]: r.code });
  res.end(r.message);
}

/** A plain-HTTP request the guard accepted so far: forwarded (the connection itself still goes through the guarded lookup). */
function forwardChecked(f: Forwarding, req: http.IncomingMessage, res: http.ServerResponse, route: Route | undefined, target: URL): void {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
  }
  const tunnel = route?.proxy ? f.viaUpstream(route, target.hostname, Number(target.port || 80)) : undefined;
  tunnel?.catch(() => undefined);
  const upstream = http.request({
    host: normalizeHost(target.hostname),
    port: target.port || 80,
    path: `${target.pathname}${target.search}`,
    method: req.method,
    headers,
    lookup: f.lookup,
    timeout: f.connectTimeout,
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
    const r = f.refusal(err);
    res.writeHead(r.status, { 'content-type': 'text/plain', [GUARD_HEADER]: r.code });
    res.end(r.message);
  });
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}

/** A CONNECT: checked, then a tunnel to the target (direct through the guarded lookup, or via the upstream proxy). */
export function forwardConnect(f: Forwarding, req: http.IncomingMessage, client: Socket, head: Buffer): void {
  f.counted();
  client.on('error', () => undefined);
  const route = f.routeOf(req);
  if (route === 'challenge') return void client.end(CHALLENGE);
  if (route === 'unassigned') return void client.end(`HTTP/1.1 403 Forbidden\r\n${GUARD_HEADER}: UNASSIGNED\r\ncontent-length: 0\r\n\r\n`);
  const refuse = (err: unknown) => refuseConnect(f, client, err);
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
  if (!m) return refuse(new Error('bad CONNECT target'));
  const host = m[1]!;
  const port = Number(m[2]);
  try {
    f.checkLiteral(host);
  } catch (err) {
    return refuse(err);
  }
  checkBlacklist(route, host).then(() => connectChecked(f, route, client, head, host, port), refuse);
}

function refuseConnect(f: Forwarding, client: Socket, err: unknown): void {
  const r = f.refusal(err);
  client.end(`HTTP/1.1 ${r.status} ${r.status === 403 ? 'Forbidden' : 'Bad Gateway'}\r\n${GUARD_HEADER}: ${r.code}\r\ncontent-length: 0\r\n\r\n`);
}

/** A CONNECT the guard accepted so far: the tunnel (direct through the guarded lookup, or via the upstream proxy). */
function connectChecked(f: Forwarding, route: Route | undefined, client: Socket, head: Buffer, host: string, port: number): void {
  const refuse = (err: unknown) => refuseConnect(f, client, err);
  if (client.destroyed) return;
  if (route?.proxy) {
    f.viaUpstream(route, host, port).then(
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
  const upstream = net.connect({ host: normalizeHost(host), port, lookup: f.lookup, timeout: f.connectTimeout });
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
}
