/**
 * What a page's own scripts (and an `executeJavascript` action) can reach, with a REAL Chromium
 * under the default private-address policy (ALLOW_PRIVATE_TARGETS=false): the site stands on a
 * public-range address of this host (test/helpers/public-address.ts), so nothing of the guard is
 * bent for the test.
 *
 * - Non-http(s) schemes (docs/scraping.md, "Schemes a page may use"): `file:` by fetch, XHR and an
 *   iframe, `chrome:`, `view-source:` and `data:` navigations of the top frame: none reaches
 *   content, and the scrape still answers with the page.
 * - fetch, XHR and WebSocket from an action toward a private address (127.0.0.3) and toward a
 *   blacklisted public-looking host are refused: the servers there never see the request. The
 *   same WebSocket without the blacklist opens (the check can fail).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { defaultChromiumPath } from '../../platform/config';
import { matchesBlacklist } from '../../platform/target-guard';
import { type PublicAddress, addPublicAddress } from '../../test/helpers/public-address';
import { createBrowserPool } from './';
import type { BrowserPool } from './';

jest.setTimeout(120_000);

const CHROMIUM = process.env.CHROMIUM_PATH ?? defaultChromiumPath();
const SECRET = `SECRET-${randomBytes(8).toString('hex')}`;

interface Site {
  url: string;
  host: string;
  /** Every request and WebSocket upgrade seen, by path. */
  seen: string[];
  close(): Promise<void>;
}

/** A tiny site: `/secret` (readable cross-origin), `/ws` (a WebSocket handshake), and the pages of `pages`. */
async function startSite(host: string, pages: Record<string, string> = {}): Promise<Site> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    const page = pages[req.url ?? ''];
    if (page !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(page);
    }
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
    res.end(SECRET);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: Socket) => {
    seen.push(`upgrade ${req.url ?? ''}`);
    const accept = createHash('sha1').update(`${String(req.headers['sec-websocket-key'])}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    host,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The action's script: what fetch, XHR and a WebSocket toward `base` got ('refused' when nothing came back). */
function probeScript(base: string): string {
  const ws = base.replace(/^http/, 'ws');
  return `
const viaFetch = async () => { try { const r = await fetch(${JSON.stringify(`${base}/secret?by=fetch`)}); return 'status ' + r.status + ' ' + (await r.text()).slice(0, 60); } catch (e) { return 'refused'; } };
const viaXhr = () => new Promise((done) => { const x = new XMLHttpRequest(); x.open('GET', ${JSON.stringify(`${base}/secret?by=xhr`)}); x.onload = () => done('status ' + x.status + ' ' + String(x.responseText).slice(0, 60)); x.onerror = () => done('refused'); x.send(); });
const viaSocket = () => new Promise((done) => { let s; try { s = new WebSocket(${JSON.stringify(`${ws}/ws`)}); } catch (e) { return done('refused'); } s.onopen = () => { done('open'); s.close(); }; s.onerror = () => done('refused'); s.onclose = () => done('refused'); });
return { fetch: await viaFetch(), xhr: await viaXhr(), ws: await viaSocket() };`;
}

const SCHEMES_PAGE = `<!doctype html><html><head><title>schemes</title></head><body><h1>Schemes page</h1>
<iframe id="local" src="file:///etc/hostname"></iframe>
<script>
(async () => {
  const out = {};
  try { const r = await fetch('file:///etc/passwd'); out.fetch = 'read ' + (await r.text()).slice(0, 60); } catch (e) { out.fetch = 'refused'; }
  out.xhr = await new Promise((done) => { try { const x = new XMLHttpRequest(); x.open('GET', 'file:///etc/passwd'); x.onload = () => done('read ' + String(x.responseText).slice(0, 60)); x.onerror = () => done('refused'); x.send(); } catch (e) { done('refused'); } });
  document.body.dataset.probed = JSON.stringify(out);
})();
</script></body></html>`;

let pool: BrowserPool;
let addresses: PublicAddress[] = [];
let site: Site;
let blacklisted: Site;
let privateSite: Site;

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install it or set CHROMIUM_PATH`);
  addresses = [await addPublicAddress(), await addPublicAddress()];
  site = await startSite(addresses[0]!.address, { '/schemes': SCHEMES_PAGE, '/blank': '<!doctype html><title>blank</title><h1>Blank page</h1>' });
  blacklisted = await startSite(addresses[1]!.address);
  privateSite = await startSite('127.0.0.3');
  pool = createBrowserPool({ executablePath: CHROMIUM, allowPrivateTargets: false, maxConcurrency: 2 });
});
afterAll(async () => {
  await pool?.close();
  await Promise.all([site?.close(), blacklisted?.close(), privateSite?.close()]);
  await Promise.all(addresses.map((a) => a.release()));
});

describe('non-http(s) schemes from a page', () => {
  it('file: by fetch, XHR and iframe, chrome:, view-source: and data: navigations reach nothing; the scrape answers with the page', async () => {
    const hostname = fs.readFileSync('/etc/hostname', 'utf8').trim();
    const passwdLine = fs.readFileSync('/etc/passwd', 'utf8').split('\n')[0]!;
    const navigate = (to: string) => ({ type: 'executeJavascript' as const, script: `location.href = ${JSON.stringify(to)}; 'asked'` });
    const result = await pool.scrape(
      {
        url: `${site.url}/schemes`,
        wait_for: 'body[data-probed]',
        capture_network: true,
        formats: ['html'],
        actions: [
          navigate('chrome://version'),
          navigate('view-source:' + `${site.url}/blank`),
          navigate('data:text/html,<h1>data navigation</h1>'),
          navigate('file:///etc/passwd'),
          { type: 'executeJavascript', script: 'return document.body.dataset.probed' },
          { type: 'executeJavascript', script: 'return location.href' },
        ],
      },
      { timeoutMs: 60_000 },
    );
    const returns = result.actions!.javascriptReturns;
    expect(JSON.parse(returns[4]!.value as string)).toEqual({ fetch: 'refused', xhr: 'refused' });
    // Still the page: none of the navigations happened.
    expect(returns[5]!.value).toBe(`${site.url}/schemes`);
    expect(result.final_url).toBe(`${site.url}/schemes`);
    const everything = JSON.stringify(result);
    expect(everything).toContain('Schemes page');
    expect(everything).not.toContain(passwdLine);
    expect(everything).not.toContain('data navigation');
    expect(everything).not.toMatch(/Command Line|Executable Path|Profile Path/);
    if (hostname.length > 3) expect(JSON.stringify(result.network)).not.toContain(hostname);
    // No file: request got an answer (Chromium's own refusal or the guard's).
    expect(result.network!.filter((n) => /^(file|chrome|view-source):/.test(n.url) && n.status !== null)).toEqual([]);
  });
});

describe('fetch, XHR and WebSocket from an executeJavascript action', () => {
  const isBlacklisted = (host: string) => matchesBlacklist(host, [addresses[1]!.address]);

  it('toward a private address: refused, nothing reaches it', async () => {
    const result = await pool.scrape(
      { url: `${site.url}/blank`, actions: [{ type: 'executeJavascript', script: probeScript(privateSite.url) }] },
      { timeoutMs: 60_000, isBlacklisted },
    );
    expect(result.actions!.javascriptReturns[0]!.value).toEqual({ fetch: 'refused', xhr: 'refused', ws: 'refused' });
    expect(privateSite.seen).toEqual([]);
  });

  it('toward a blacklisted host: refused, nothing reaches it; without the blacklist the same probes get through', async () => {
    const refused = await pool.scrape(
      { url: `${site.url}/blank`, actions: [{ type: 'executeJavascript', script: probeScript(blacklisted.url) }] },
      { timeoutMs: 60_000, isBlacklisted },
    );
    expect(refused.actions!.javascriptReturns[0]!.value).toEqual({ fetch: 'refused', xhr: 'refused', ws: 'refused' });
    expect(blacklisted.seen).toEqual([]);

    const open = await pool.scrape({ url: `${site.url}/blank`, actions: [{ type: 'executeJavascript', script: probeScript(blacklisted.url) }] }, { timeoutMs: 60_000 });
    expect(open.actions!.javascriptReturns[0]!.value).toEqual({ fetch: `status 200 ${SECRET}`, xhr: `status 200 ${SECRET}`, ws: 'open' });
    expect(blacklisted.seen).toEqual(expect.arrayContaining(['/secret?by=fetch', '/secret?by=xhr', 'upgrade /ws']));
  });
});
