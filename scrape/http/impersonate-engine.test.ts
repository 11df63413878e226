/**
 * The http engine's impersonated path (https hops through wreq-js and the egress proxy) against
 * local TLS servers: an upstream proxy chained, private targets refused, redirects re-checked,
 * cookies per hop, POST bodies, gzip, the size cap. The wire fingerprint itself is compared with
 * Chromium through the real service in api/routes/scrape-tls.test.ts.
 */
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { defaultChromiumPath, parseConfig } from '../../platform/config';
import { parseProxyUrls } from '../../platform/proxy-endpoints';
import { startHttpProxy, type TestProxy } from '../../test/fixtures/proxies';
import { startTlsFingerprintServer, type TlsFingerprintServer } from '../../test/fixtures/tls-fingerprint';
import { appErrorOf } from '../../test/helpers/app-error';
import { createHttpEngine, type HttpEngine } from './engine';
import { tlsRelayBinaryPath } from './tls-relay';

const chromiumPath = process.env.CHROMIUM_PATH ?? defaultChromiumPath();
// Through the TLS relay (deploy/tls-relay, built by scripts/setup.cjs), as shipped.
const impersonate = { chromiumPath, tlsRelayBinary: tlsRelayBinaryPath(parseConfig(process.env).dataDir) };
let fingerprint: TlsFingerprintServer;
let site: https.Server;
let siteUrl: string;
let proxy: TestProxy;
let engine: HttpEngine;
let strict: HttpEngine;
/** `/held`: how many requests arrived; the first is answered only when `releaseHeld` is called. */
let heldArrivals = 0;
let onHeldArrival: (() => void) | undefined;
let releaseHeld: (() => void) | undefined;

beforeAll(async () => {
  fingerprint = await startTlsFingerprintServer();
  const key = fs.readFileSync(fingerprint.caFile.replace(/cert\.pem$/, 'key.pem'));
  const cert = fs.readFileSync(fingerprint.caFile);
  site = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: '/echo', 'set-cookie': ['hop=1; Path=/'] });
        return res.end();
      }
      if (req.url === '/to-private') {
        res.writeHead(302, { location: 'https://localhost/' });
        return res.end();
      }
      if (req.url === '/held') {
        heldArrivals += 1;
        onHeldArrival?.();
        const answer = () => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end(`<html><body><p id="arrival">${heldArrivals}</p></body></html>`);
        };
        if (heldArrivals === 1) releaseHeld = answer;
        else answer();
        return;
      }
      if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        return res.end(zlib.gzipSync(Buffer.alloc(4 * 1024 * 1024, 'a')));
      }
      const echo = JSON.stringify({ method: req.method, cookie: req.headers.cookie ?? null, body: Buffer.concat(chunks).toString() });
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync(`<html><body><pre id="echo">${echo.replace(/</g, '&lt;')}</pre></body></html>`));
    });
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `https://127.0.0.1:${(site.address() as AddressInfo).port}`;
  proxy = await startHttpProxy({ username: 'scraper', password: 'pw', localAddress: '127.0.0.1' });
  engine = createHttpEngine({ allowPrivateTargets: true, impersonate, maxResponseBytes: 1024 * 1024 });
  strict = createHttpEngine({ allowPrivateTargets: false, impersonate });
});

afterAll(async () => {
  await engine?.close();
  await strict?.close();
  await proxy?.close();
  site?.close();
  await fingerprint?.close();
});

const echoOf = (html: string | undefined) => JSON.parse(/<pre id="echo">([^<]*)<\/pre>/.exec(html ?? '')![1]!.replace(/&lt;/g, '<')) as { method: string; cookie: string | null; body: string };

it('chains the upstream proxy, with the Chrome fingerprint end to end', async () => {
  const [upstream] = parseProxyUrls(proxy.url).proxies;
  const before = proxy.count();
  const result = await engine.scrape({ url: `${fingerprint.url}/via-proxy`, skip_tls_verification: true }, { proxy: upstream! });
  expect(result.status).toBe(200);
  expect(proxy.count()).toBe(before + 1);
  const record = fingerprint.records.find((r) => r.path === '/via-proxy')!;
  expect({ protocol: record.protocol, grease: record.tls.grease }).toEqual({ protocol: 'h2', grease: true });
  // The relay's ClientHello: Chromium's signature algorithms (a GREASE one, ML-DSA), through the upstream proxy too.
  expect(record.tls.signatureAlgorithmGrease).toBe(true);
  expect(record.tls.signatureAlgorithms.slice(1, 4)).toEqual(['0904', '0905', '0906']);
  // Chrome's HTTP/2 options (CHROME_HTTP2_OPTIONS) on this transport too: Chromium's HEADERS weight.
  expect({ akamai: record.http2!.akamai, priority: record.http2!.headersPriority }).toEqual({ akamai: '1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p', priority: '1:0:256' });
});

it('refuses a private target, and checks a redirect hop again (blacklist)', async () => {
  expect((await appErrorOf(strict.scrape({ url: `${fingerprint.url}/private`, skip_tls_verification: true }))).code).toBe('PRIVATE_TARGET');
  expect((await appErrorOf(engine.scrape({ url: `${siteUrl}/to-private`, skip_tls_verification: true }, { isBlacklisted: (host) => host === 'localhost' }))).code).toBe('BLACKLISTED');
  expect(fingerprint.records.some((r) => r.path === '/private')).toBe(false);
});

it('posts a body, follows a redirect as GET with the cookies of each hop, and decodes gzip', async () => {
  const result = await engine.scrape({ url: `${siteUrl}/redirect`, method: 'POST', body: 'payload', cookies: [{ name: 'mine', value: 'x' }], skip_tls_verification: true, formats: ['html'] } as never);
  expect(result.final_url).toBe(`${siteUrl}/echo`);
  expect(echoOf(result.html)).toEqual({ method: 'GET', cookie: 'mine=x; hop=1', body: '' });
  const posted = await engine.scrape({ url: `${siteUrl}/echo`, method: 'POST', body: 'payload', skip_tls_verification: true, formats: ['html'] } as never);
  expect(echoOf(posted.html)).toMatchObject({ method: 'POST', body: 'payload' });
});

it('caps the decompressed body', async () => {
  expect((await appErrorOf(engine.scrape({ url: `${siteUrl}/big`, skip_tls_verification: true }))).code).toBe('RESPONSE_TOO_LARGE');
});

it('verifies certificates unless told not to', async () => {
  const err = await appErrorOf(engine.scrape({ url: `${siteUrl}/echo` }));
  expect(err.code).toBe('SCRAPE_FAILED');
  // The relay verified, and answered wreq-js's handshake with the alert that says why.
  expect(err.message).toContain('TLSV1_ALERT_UNKNOWN_CA');
});

it('without the relay binary, sends wreq-js\'s own ClientHello and still verifies', async () => {
  const direct = createHttpEngine({ allowPrivateTargets: true, impersonate: { chromiumPath } });
  try {
    await direct.scrape({ url: `${fingerprint.url}/direct`, skip_tls_verification: true });
    const record = fingerprint.records.find((r) => r.path === '/direct')!;
    expect({ protocol: record.protocol, grease: record.tls.grease, signatureAlgorithmGrease: record.tls.signatureAlgorithmGrease }).toEqual({ protocol: 'h2', grease: true, signatureAlgorithmGrease: false });
    expect(record.tls.signatureAlgorithms).not.toContain('0904');
    expect((await appErrorOf(direct.scrape({ url: `${siteUrl}/echo` }))).message).toContain('CERTIFICATE_VERIFY_FAILED');
  } finally {
    await direct.close();
  }
});

/** The TLS relay processes this test process started (one per engine). */
function relayPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return comm.startsWith('tls-relay') && Number(ppid) === process.pid && state !== 'Z' ? [Number(pid)] : [];
      } catch {
        return [];
      }
    });
}

it('starts another relay when its process dies, and keeps sending Chromium\'s ClientHello', async () => {
  await engine.scrape({ url: `${fingerprint.url}/before-kill`, skip_tls_verification: true });
  const before = relayPids();
  expect(before.length).toBeGreaterThan(0);
  for (const pid of before) process.kill(pid, 'SIGKILL');
  const deadline = Date.now() + 20_000;
  // Reaped (not only dead): the engine has seen its relay exit.
  while (before.some((pid) => fs.existsSync(`/proc/${pid}`)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const result = await engine.scrape({ url: `${fingerprint.url}/after-kill`, skip_tls_verification: true });
  expect(result.status).toBe(200);
  const record = fingerprint.records.find((r) => r.path === '/after-kill')!;
  expect(record.tls.signatureAlgorithms.slice(1, 4)).toEqual(['0904', '0905', '0906']);
  expect(relayPids().filter((pid) => !before.includes(pid)).length).toBeGreaterThan(0);
});

it('sends a GET once more through a new relay when the relay dies under it', async () => {
  const arrived = new Promise<void>((resolve) => (onHeldArrival = resolve));
  const scraping = engine.scrape({ url: `${siteUrl}/held`, skip_tls_verification: true, formats: ['html'] } as never);
  await arrived; // the site holds the first request: the hop is in flight through the relay
  const relays = relayPids();
  expect(relays.length).toBeGreaterThan(0);
  for (const pid of relays) process.kill(pid, 'SIGKILL');
  const result = await scraping;
  releaseHeld?.();
  expect(result.status).toBe(200);
  // The second arrival answered it, through a relay started after the kill.
  expect(heldArrivals).toBe(2);
  expect(result.html).toContain('<p id="arrival">2</p>');
  expect(relayPids().filter((pid) => !relays.includes(pid)).length).toBeGreaterThan(0);
});
