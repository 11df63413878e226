import http from 'node:http';
import net from 'node:net';
import { startFixtureServer } from '../../test/fixtures/server';
import type { FixtureServer } from '../../test/fixtures/server';
import { GUARD_HEADER, startEgressProxy } from './egress-proxy';
import type { EgressProxy } from './egress-proxy';

let fx: FixtureServer;
beforeAll(async () => {
  fx = await startFixtureServer();
});
afterAll(async () => {
  await fx.close();
});

/** GET an absolute URL through the proxy (plain-HTTP proxying). */
function viaProxy(proxy: EgressProxy, url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const p = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: p.hostname, port: p.port, path: url, method: 'GET', headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends CONNECT host:port and returns the proxy's status line. */
function connectVia(proxy: EgressProxy, target: string): Promise<string> {
  const p = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(p.port), p.hostname, () => socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
    let data = '';
    socket.on('data', (c) => {
      data += c.toString('latin1');
      if (data.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(data.split('\r\n')[0]!);
      }
    });
    socket.on('error', reject);
  });
}

describe('egress proxy', () => {
  it('refuses private targets (IP literal and resolved name), for HTTP and CONNECT', async () => {
    const proxy = await startEgressProxy({ allowPrivateTargets: false });
    try {
      const before = fx.hits.get('/page/1') ?? 0;
      const literal = await viaProxy(proxy, `${fx.url}/page/1`);
      expect(literal.status).toBe(403);
      expect(literal.headers[GUARD_HEADER]).toBe('PRIVATE_TARGET');
      const named = await viaProxy(proxy, `http://localhost:${fx.port}/page/1`);
      expect(named.status).toBe(403);
      expect(named.headers[GUARD_HEADER]).toBe('PRIVATE_TARGET');
      expect(await connectVia(proxy, `127.0.0.1:${fx.port}`)).toMatch(/^HTTP\/1\.1 403/);
      expect(await connectVia(proxy, `localhost:${fx.port}`)).toMatch(/^HTTP\/1\.1 403/);
      expect(await connectVia(proxy, `[::1]:${fx.port}`)).toMatch(/^HTTP\/1\.1 403/);
      expect(fx.hits.get('/page/1') ?? 0).toBe(before);
      expect(proxy.stats().blocked).toBe(5);
    } finally {
      await proxy.close();
    }
  });

  it('forwards allowed traffic', async () => {
    const proxy = await startEgressProxy({ allowPrivateTargets: true });
    try {
      const res = await viaProxy(proxy, `${fx.url}/page/7`);
      expect(res.status).toBe(200);
      expect(res.body).toContain('<h1>Page 7</h1>');
      expect(await connectVia(proxy, `127.0.0.1:${fx.port}`)).toMatch(/^HTTP\/1\.1 200/);
      expect(proxy.stats()).toEqual({ requests: 2, blocked: 0, upstreamFailures: 0 });
    } finally {
      await proxy.close();
    }
  });
});
