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
 */
import http from 'node:http';
import net from 'node:net';
import type { Socket } from 'node:net';
import { AppError } from '../../lib/errors';
import { listenOnLoopback } from '../../lib/runtime/free-port';
import { createGuardedLookup, isPrivateAddress, normalizeHost, privateTargetError } from '../../scrape/guard';
import type { AddressPolicy } from '../../scrape/guard';

export const GUARD_HEADER = 'x-scrape-guard';

export interface EgressProxyOptions {
  allowPrivateTargets: boolean;
  connectTimeoutMs?: number;
  /** Test hook: address classifier (default `isPrivateAddress`). */
  isPrivate?: AddressPolicy;
}

export interface EgressProxy {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  stats(): { requests: number; blocked: number };
  close(): Promise<void>;
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

  /** Throws PRIVATE_TARGET for a private IP literal (net.connect skips `lookup` for literals). */
  const checkLiteral = (host: string) => {
    const h = normalizeHost(host);
    if (!opts.allowPrivateTargets && net.isIP(h) && isPrivate(h)) throw privateTargetError(h, h);
  };

  const refusal = (err: unknown): { status: number; code: string; message: string } => {
    if (err instanceof AppError) {
      blocked++;
      return { status: 403, code: err.code, message: err.message };
    }
    const message = err instanceof Error ? err.message : String(err);
    return { status: 502, code: 'SCRAPE_FAILED', message };
  };

  const server = http.createServer((req, res) => {
    requests++;
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
    const upstream = http.request({
      host: normalizeHost(target.hostname),
      port: target.port || 80,
      path: `${target.pathname}${target.search}`,
      method: req.method,
      headers,
      lookup: lookup,
      timeout: connectTimeout,
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
    stats: () => ({ requests, blocked }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
