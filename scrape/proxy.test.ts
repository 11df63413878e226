/**
 * Outbound proxies at the engine level (docs/scraping.md "Proxies"): PROXY_URLS parsing, the
 * rotation, the tunnel through a real HTTP proxy (proxy-chain) and a real SOCKS5 proxy, the http
 * engine and the browser engine (Debian's Chromium, through the egress proxy chained upstream)
 * against the fixture site, and the SSRF guard deciding on the target through a proxy.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultChromiumPath } from '../platform/config';
import { type ProxyEndpoint, parseProxyUrls, proxyEndpoint } from '../platform/proxy-endpoints';
import { createProxyRotation } from './proxies';
import { startFixtureServer } from '../test/fixtures/server';
import type { FixtureServer } from '../test/fixtures/server';
import { type TestProxy, deadProxyUrl, startHttpProxy, startSocksProxy } from '../test/fixtures/proxies';
import { appErrorOf } from '../test/helpers/app-error';
import { createBrowserPool } from './browser';
import type { BrowserPool } from './browser';
import { createHttpEngine } from './http/engine';
import type { HttpEngine } from './http/engine';
import { openTunnel } from './proxy-tunnel';

const CHROMIUM = process.env.CHROMIUM_PATH ?? defaultChromiumPath();
const HTTP_PASSWORD = 'http-Pa55-s3cret';
const SOCKS_PASSWORD = 'socks-Pa55-s3cret';

const endpointOf = (url: string): ProxyEndpoint => {
  const { proxies, problems } = parseProxyUrls(url);
  expect(problems).toEqual([]);
  return proxies[0]!;
};

describe('PROXY_URLS', () => {
  it('parses http, https and socks5 URLs with optional credentials; JSON never shows them', () => {
    const { proxies, problems } = parseProxyUrls(' http://u%40x:p%3Ass@proxy.example:8080, https://tls.example ,socks5://10.0.0.7:1081,socks5://[::1]:9050 ');
    expect(problems).toEqual([]);
    expect(proxies.map((p) => [p.protocol, p.id])).toEqual([
      ['http', 'proxy.example:8080'],
      ['https', 'tls.example:443'],
      ['socks5', '10.0.0.7:1081'],
      ['socks5', '[::1]:9050'],
    ]);
    expect(proxies[0]!.credentials).toEqual({ username: 'u@x', password: 'p:ss' });
    expect(proxies[2]!.credentials).toBeUndefined();
    const printed = JSON.stringify({ config: { proxies } });
    expect(printed).not.toContain('p:ss');
    expect(printed).not.toContain('u@x');
    expect(printed).toContain('proxy.example:8080');
  });

  it('names bad items by position and host, never by their credentials', () => {
    const { problems } = parseProxyUrls('ftp://user:hunter22@a.example:2121,not a url,http://user:hunter22@b.example:3128/path');
    expect(problems).toEqual([
      'item 1 (a.example:2121): the scheme must be http://, https:// or socks5://',
      'item 2 is not a URL (expected http://, https:// or socks5://[user:password@]host:port)',
      'item 3 (b.example:3128): must be scheme://[user:password@]host:port, without a path or query',
    ]);
    expect(problems.join(' ')).not.toContain('hunter22');
  });
});

describe('the rotation', () => {
  const [a, b, c] = ['a', 'b', 'c'].map((h) => proxyEndpoint('http', `${h}.example`, 3128)) as [ProxyEndpoint, ProxyEndpoint, ProxyEndpoint];

  it('goes round-robin and skips a failed proxy for the cool-down', () => {
    let now = 1000;
    const rotation = createProxyRotation([a, b, c], { cooldownMs: 500, now: () => now });
    expect([rotation.pick(), rotation.pick(), rotation.pick(), rotation.pick()]).toEqual([a, b, c, a]);
    rotation.failed(b);
    expect(rotation.coolingDown()).toEqual(['b.example:3128']);
    expect([rotation.pick(), rotation.pick(), rotation.pick()]).toEqual([c, a, c]);
    now += 500;
    expect(rotation.coolingDown()).toEqual([]);
    expect([rotation.pick(), rotation.pick()]).toEqual([a, b]);
  });

  it('when every proxy cools down, takes the one back soonest', () => {
    let now = 0;
    const rotation = createProxyRotation([a, b], { cooldownMs: 100, now: () => now });
    rotation.failed(a);
    now = 10;
    rotation.failed(b);
    expect(rotation.pick()).toBe(a);
  });

  it('keeps a sticky key on its proxy until that proxy fails', () => {
    const rotation = createProxyRotation([a, b, c], { cooldownMs: 1000 });
    const first = rotation.pick('run-1|shop.example');
    expect(rotation.pick()).not.toBe(first);
    expect(rotation.pick('run-1|shop.example')).toBe(first);
    expect(rotation.pick('run-1|shop.example')).toBe(first);
    expect(rotation.pick('run-2|shop.example')).not.toBe(first);
    rotation.failed(first);
    const moved = rotation.pick('run-1|shop.example');
    expect(moved).not.toBe(first);
    expect(rotation.pick('run-1|shop.example')).toBe(moved);
  });
});

describe('through local proxies', () => {
  let fx: FixtureServer;
  let httpProxy: TestProxy;
  let socksProxy: TestProxy;
  let viaHttp: ProxyEndpoint;
  let viaSocks: ProxyEndpoint;
  let engine: HttpEngine;

  beforeAll(async () => {
    fx = await startFixtureServer();
    httpProxy = await startHttpProxy({ username: 'scraper', password: HTTP_PASSWORD, localAddress: '127.0.0.2' });
    socksProxy = await startSocksProxy({ username: 'scraper', password: SOCKS_PASSWORD, localAddress: '127.0.0.3' });
    viaHttp = endpointOf(httpProxy.url);
    viaSocks = endpointOf(socksProxy.url);
    engine = createHttpEngine({ allowPrivateTargets: true });
  });
  afterAll(async () => {
    await engine?.close();
    await httpProxy?.close();
    await socksProxy?.close();
    await fx?.close();
  });

  describe('the tunnel', () => {
    it('needs the credentials: a proxy refusing them (407, SOCKS auth) is PROXY_FAILED, and the message has no secret', async () => {
      const noAuth = proxyEndpoint('http', '127.0.0.1', viaHttp.port);
      const wrong = endpointOf(httpProxy.url.replace(HTTP_PASSWORD, 'wrong-password'));
      const before = httpProxy.refused();
      const e1 = await appErrorOf(openTunnel(noAuth, '127.0.0.1', fx.port));
      expect(e1).toMatchObject({ code: 'PROXY_FAILED', extra: { proxy: viaHttp.id } });
      expect(e1.message).toContain('407');
      expect((await appErrorOf(openTunnel(wrong, '127.0.0.1', fx.port))).message).toContain('407');
      expect(httpProxy.refused()).toBe(before + 2);
      const socksWrong = endpointOf(socksProxy.url.replace(SOCKS_PASSWORD, 'wrong-password'));
      const e2 = await appErrorOf(openTunnel(socksWrong, '127.0.0.1', fx.port));
      expect(e2).toMatchObject({ code: 'PROXY_FAILED', extra: { proxy: viaSocks.id } });
      expect(e2.message).not.toContain('wrong-password');
    });

    it('reaches the target through an https:// proxy (TLS to the proxy, CONNECT inside)', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tls-proxy-'));
      try {
        execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
        const cert = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
        const tlsProxy = await startHttpProxy({ username: 'scraper', password: HTTP_PASSWORD, localAddress: '127.0.0.4', tls: { key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert } });
        try {
          const endpoint = endpointOf(tlsProxy.url);
          expect(endpoint.protocol).toBe('https');
          // Without trusting its certificate the proxy cannot be used; with it, the tunnel works.
          expect(await appErrorOf(openTunnel(endpoint, '127.0.0.1', fx.port))).toMatchObject({ code: 'PROXY_FAILED' });
          const socket = await openTunnel(endpoint, '127.0.0.1', fx.port, { proxyCa: cert });
          const answer = await new Promise<string>((resolve, reject) => {
            let data = '';
            socket.on('data', (c: Buffer) => (data += c.toString('latin1')));
            socket.on('end', () => resolve(data));
            socket.on('error', reject);
            socket.write(`GET /client-address HTTP/1.1\r\nHost: 127.0.0.1:${fx.port}\r\nConnection: close\r\n\r\n`);
          });
          expect(answer).toMatch(/^HTTP\/1\.1 200/);
          expect(answer).toContain('<h1 id="client">127.0.0.4</h1>');
          expect(tlsProxy.count()).toBe(1);
        } finally {
          await tlsProxy.close();
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('a dead proxy is PROXY_FAILED; a target refusing a working SOCKS proxy stays the target\'s error', async () => {
      const dead = endpointOf((await deadProxyUrl()).url);
      expect(await appErrorOf(openTunnel(dead, '127.0.0.1', fx.port))).toMatchObject({ code: 'PROXY_FAILED', extra: { proxy: dead.id } });
      const closedPort = endpointOf((await deadProxyUrl()).url).port;
      const err = await appErrorOf(openTunnel(viaSocks, '127.0.0.1', closedPort));
      expect(err.code).toBe('SCRAPE_FAILED');
      expect(err.message).toContain('ConnectionRefused');
    });
  });

  describe('http engine', () => {
    it('sends through the http proxy and the SOCKS5 proxy: the site sees the proxy, the proxy counts it', async () => {
      for (const [proxy, test, address] of [[viaHttp, httpProxy, '127.0.0.2'], [viaSocks, socksProxy, '127.0.0.3']] as const) {
        const before = test.count();
        const res = await engine.scrape({ url: `${fx.url}/client-address`, selectors: ['#client'] }, { proxy });
        expect(res.status).toBe(200);
        expect(res.data![0]!.results[0]!.text).toBe(address);
        expect(test.count()).toBe(before + 1);
      }
      const direct = await engine.scrape({ url: `${fx.url}/client-address`, selectors: ['#client'] });
      expect(direct.data![0]!.results[0]!.text).toBe('127.0.0.1');
    });

    it('follows redirects and posts bodies through a proxy', async () => {
      const res = await engine.scrape({ url: `${fx.url}/redirect?n=2`, selectors: ['h1'] }, { proxy: viaSocks });
      expect(res.final_url).toBe(`${fx.url}/page/final`);
      const posted = await engine.scrape({ url: `${fx.url}/echo`, method: 'POST', body: { a: 1 } }, { proxy: viaHttp });
      expect(JSON.parse(posted.html!)).toMatchObject({ method: 'POST', body: '{"a":1}' });
      expect(JSON.parse(posted.html!).headers['proxy-authorization']).toBeUndefined();
    });

    it('a dead proxy fails the attempt with PROXY_FAILED (retryable) naming host:port only', async () => {
      const dead = await deadProxyUrl();
      const err = await appErrorOf(engine.scrape({ url: `${fx.url}/page/1` }, { proxy: endpointOf(dead.url) }));
      expect(err).toMatchObject({ code: 'PROXY_FAILED', extra: { proxy: dead.id } });
      expect(err.message).not.toContain('dead:proxy');
    });

    it('the SSRF guard still decides on the target: a private target through a proxy gets the same error as without, and never reaches the proxy', async () => {
      const strict = createHttpEngine({ allowPrivateTargets: false });
      const before = [httpProxy.count(), socksProxy.count()];
      try {
        for (const url of [`${fx.url}/page/1`, `http://vm:${fx.port}/page/1`]) {
          const direct = await appErrorOf(strict.scrape({ url }));
          expect(direct.code).toBe('PRIVATE_TARGET');
          for (const proxy of [viaHttp, viaSocks]) {
            const proxied = await appErrorOf(strict.scrape({ url }, { proxy }));
            expect({ code: proxied.code, message: proxied.message }).toEqual({ code: direct.code, message: direct.message });
          }
        }
      } finally {
        await strict.close();
      }
      expect([httpProxy.count(), socksProxy.count()]).toEqual(before);
    });
  });

  describe('browser engine (the egress proxy chains upstream)', () => {
    let pool: BrowserPool;
    let strict: BrowserPool;
    beforeAll(() => {
      if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install it or set CHROMIUM_PATH`);
      pool = createBrowserPool({ executablePath: CHROMIUM, allowPrivateTargets: true, maxConcurrency: 2, spareContexts: 1 });
      strict = createBrowserPool({ executablePath: CHROMIUM, allowPrivateTargets: false, maxConcurrency: 1, spareContexts: 0 });
    });
    afterAll(async () => {
      await pool?.close();
      await strict?.close();
    });

    it('renders through the http proxy and the SOCKS5 proxy (page and subresources), and directly without one', async () => {
      for (const [proxy, test, address] of [[viaHttp, httpProxy, '127.0.0.2'], [viaSocks, socksProxy, '127.0.0.3']] as const) {
        const before = test.count();
        const res = await pool.scrape({ url: `${fx.url}/client-address`, selectors: ['#client'] }, { proxy });
        expect(res.status).toBe(200);
        expect(res.data![0]!.results[0]!.text).toBe(address);
        expect(test.count()).toBeGreaterThan(before);
      }
      const counts = [httpProxy.count(), socksProxy.count()];
      const direct = await pool.scrape({ url: `${fx.url}/client-address`, selectors: ['#client'] });
      expect(direct.data![0]!.results[0]!.text).toBe('127.0.0.1');
      expect([httpProxy.count(), socksProxy.count()]).toEqual(counts);
    });

    it('a dead upstream proxy fails the scrape with PROXY_FAILED naming it', async () => {
      const dead = await deadProxyUrl();
      const err = await appErrorOf(pool.scrape({ url: `${fx.url}/page/1` }, { proxy: endpointOf(dead.url) }));
      expect(err).toMatchObject({ code: 'PROXY_FAILED', extra: { proxy: dead.id } });
      expect(err.message).not.toContain('dead:proxy');
    });

    it('the guard refuses a private target through a proxy with the same error as without one', async () => {
      const before = [httpProxy.count(), socksProxy.count()];
      for (const url of [`${fx.url}/page/1`, `http://vm:${fx.port}/page/1`]) {
        const direct = await appErrorOf(strict.scrape({ url }));
        expect(direct.code).toBe('PRIVATE_TARGET');
        for (const proxy of [viaHttp, viaSocks]) {
          const proxied = await appErrorOf(strict.scrape({ url }, { proxy }));
          expect({ code: proxied.code, message: proxied.message }).toEqual({ code: direct.code, message: direct.message });
        }
      }
      expect([httpProxy.count(), socksProxy.count()]).toEqual(before);
    });
  });
});
