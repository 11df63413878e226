import http from 'node:http';
import zlib from 'node:zlib';
import { createHttpEngine, type HttpEngine } from '../scrape/http/engine';
import { listenOnLoopback } from '../platform/free-port';
import { matchesBlacklist } from '../platform/target-guard';
import { parseProxyUrls } from '../platform/proxy-endpoints';
import { createProxyRotation } from '../scrape/proxies';
import { startCrawlSite, type CrawlSite } from '../test/fixtures/crawl-site';
import { deadProxyUrl, startHttpProxy } from '../test/fixtures/proxies';
import { type DiscoveryDeps, discoverSitemapUrls, discoverSitemaps, fetchRobots } from './fetch';
import { CRAWLER_USER_AGENT_TOKEN, parseRobots } from './robots';
import { compileScope, normalizeUrl } from './url';

let engine: HttpEngine;
let site: CrawlSite;
let deps: DiscoveryDeps;

beforeAll(async () => {
  engine = createHttpEngine({ allowPrivateTargets: true });
  site = await startCrawlSite({ crawlDelaySeconds: 0.5 });
  deps = { httpEngine: engine };
});
afterAll(async () => {
  await site.close();
  await engine.close();
});
beforeEach(() => site.reset());

/** Every sitemap URL of the fixture, as discovery should give it. */
const expectedSitemapUrls = () =>
  new Set([...site.sitemapPaths.map((p) => normalizeUrl(site.url + p)!), ...site.sitemapOffOrigin.map((u) => normalizeUrl(u)!)]);

describe('fetchRobots', () => {
  it('fetches robots.txt once through the engine, and its rules parse', async () => {
    const res = await fetchRobots(deps, site.url);
    expect(res.status).toBe(200);
    expect(site.hits('/robots.txt')).toBe(1);
    const rules = parseRobots(`${site.url}/robots.txt`, res.body, CRAWLER_USER_AGENT_TOKEN);
    expect(rules.crawlDelayMs).toBe(500);
    expect(rules.sitemaps).toEqual([`${site.url}/sitemap_index.xml`]);
    for (const path of site.disallowedPaths) expect(rules.isAllowed(site.url + path)).toBe(false);
    for (const [path, page] of site.pages) if (!page.disallowed) expect(rules.isAllowed(site.url + path)).toBe(true);
  });

  it('a 404 robots.txt means no rules; an unreachable host too', async () => {
    const bare = await startCrawlSite({ robotsTxt: null });
    try {
      expect(await fetchRobots(deps, bare.url)).toEqual({ status: 404, body: null });
    } finally {
      await bare.close();
    }
    const closedPort = site.other.url.replace(/:\d+$/, ':1');
    expect(await fetchRobots(deps, closedPort)).toEqual({ status: null, body: null });
  });

  it('refuses private targets unless they are allowed, and blacklisted hosts, before any request', async () => {
    const strict = createHttpEngine({ allowPrivateTargets: false });
    try {
      await expect(fetchRobots({ httpEngine: strict }, site.url)).rejects.toMatchObject({ code: 'PRIVATE_TARGET' });
      await expect(fetchRobots({ httpEngine: strict }, site.other.url)).rejects.toMatchObject({ code: 'PRIVATE_TARGET' });
      await expect(fetchRobots({ httpEngine: strict }, site.subUrl)).rejects.toMatchObject({ code: 'PRIVATE_TARGET' });
      const found = await discoverSitemaps({ httpEngine: strict }, site.url, [`${site.url}/sitemap_index.xml`], 1000);
      expect(found.urls).toEqual([]);
      expect(found.sitemaps).toEqual([{ url: `${site.url}/sitemap_index.xml`, depth: 0, outcome: 'fetch_failed' }]);
    } finally {
      await strict.close();
    }
    const blacklist = { isBlacklisted: (host: string) => Promise.resolve(matchesBlacklist(host, ['localhost'])) };
    await expect(fetchRobots({ httpEngine: engine, blacklist }, site.url)).rejects.toMatchObject({ code: 'BLACKLISTED' });
    expect(site.hits('/robots.txt')).toBe(0);
  });

  it('goes through the configured proxy, and a dead proxy is marked failed', async () => {
    const proxy = await startHttpProxy({ username: 'u', password: 'p', localAddress: '127.0.0.2' });
    try {
      const rotation = createProxyRotation(parseProxyUrls(proxy.url).proxies, { cooldownMs: 60_000 });
      const res = await fetchRobots({ httpEngine: engine, proxies: rotation, proxySticky: true, proxyScope: 'crawl-1' }, site.url);
      expect(res.status).toBe(200);
      expect(proxy.count()).toBeGreaterThanOrEqual(1);
      const dead = await deadProxyUrl();
      const deadRotation = createProxyRotation(parseProxyUrls(dead.url).proxies, { cooldownMs: 60_000 });
      expect(await fetchRobots({ httpEngine: engine, proxies: deadRotation }, site.url)).toEqual({ status: null, body: null });
      expect(deadRotation.coolingDown()).toEqual([dead.id]);
    } finally {
      await proxy.close();
    }
  });
});

describe('discoverSitemapUrls', () => {
  it('follows the index from robots.txt into the plain and the gzip sitemap, each fetched once', async () => {
    const found = await discoverSitemaps(deps, site.url, [`${site.url}/sitemap_index.xml`], 10_000);
    expect(new Set(found.urls)).toEqual(expectedSitemapUrls());
    expect(found.urls).toHaveLength(expectedSitemapUrls().size);
    expect(found.sitemaps.map((s) => [s.url.replace(site.url, ''), s.outcome])).toEqual([
      ['/sitemap_index.xml', 'sitemapindex'],
      ['/sitemaps/pages.xml', 'urlset'],
      ['/sitemaps/archive.xml.gz', 'urlset'],
    ]);
    for (const path of ['/sitemap_index.xml', '/sitemaps/pages.xml', '/sitemaps/archive.xml.gz']) expect(site.hits(path)).toBe(1);
    for (const path of site.sitemapOnlyPaths) expect(found.urls).toContain(`${site.url}${path}`);
  });

  it('falls back to /sitemap.xml without Sitemap: lines, and keeps to a scope when given one', async () => {
    const scope = compileScope({ startUrl: site.url, sameOrigin: true, allowSubdomains: false, includePaths: [], excludePaths: ['^/private/'] });
    const urls = await discoverSitemapUrls(deps, site.url, [], 10_000, undefined, { accept: (u) => scope(u).ok });
    expect(site.hits('/sitemap.xml')).toBe(1);
    const expected = site.sitemapPaths.filter((p) => !p.startsWith('/private/')).map((p) => `${site.url}${p}`);
    expect(new Set(urls)).toEqual(new Set(expected));
  });

  it('stops at the limit and fetches no further sitemap', async () => {
    const urls = await discoverSitemapUrls(deps, site.url, [`${site.url}/sitemap_index.xml`], 10);
    expect(urls).toHaveLength(10);
    expect(site.hits('/sitemaps/archive.xml.gz')).toBe(0);
  });
});

describe('hostile sitemaps', () => {
  let server: http.Server;
  let base: string;
  const hits = new Map<string, number>();
  const bomb = zlib.gzipSync(Buffer.alloc(32 * 1024 * 1024, 0x20));

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const xml = (body: string) => res.writeHead(200, { 'content-type': 'application/xml' }).end(body);
      const index = (locs: string[]) => xml(`<sitemapindex>${locs.map((l) => `<sitemap><loc>${base}${l}</loc></sitemap>`).join('')}</sitemapindex>`);
      let m: RegExpMatchArray | null;
      if (path === '/loop.xml') return index(['/loop.xml', '/loop2.xml']);
      if (path === '/loop2.xml') return index(['/loop.xml', '/ok.xml']);
      if (path === '/ok.xml') return xml(`<urlset><url><loc>${base}/page</loc></url></urlset>`);
      if ((m = /^\/deep\/(\d+)\.xml$/.exec(path))) return index([`/deep/${Number(m[1]) + 1}.xml`]);
      if (path === '/wide.xml') return index(Array.from({ length: 200 }, (_, i) => `/w/${i}.xml`));
      if (path.startsWith('/w/')) return xml(`<urlset><url><loc>${base}/from${path}</loc></url></urlset>`);
      if (path === '/bomb.xml.gz') return res.writeHead(200, { 'content-type': 'application/gzip' }).end(bomb);
      if (path === '/bomb-encoded.xml') return res.writeHead(200, { 'content-type': 'application/xml', 'content-encoding': 'gzip' }).end(bomb);
      if (path === '/bad.xml') return xml('<urlset><url><loc>oops');
      if (path === '/html.xml') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>no</body></html>');
      res.writeHead(404).end();
    });
    base = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('index loops are fetched once each', async () => {
    const found = await discoverSitemaps(deps, base, [`${base}/loop.xml`], 100);
    expect(found.urls).toEqual([`${base}/page`]);
    expect(hits.get('/loop.xml')).toBe(1);
    expect(hits.get('/loop2.xml')).toBe(1);
  });

  it('index depth and sitemap count are bounded', async () => {
    const deep = await discoverSitemaps(deps, base, [`${base}/deep/0.xml`], 100, undefined, { maxDepth: 3 });
    expect(deep.sitemaps).toHaveLength(4);
    expect(deep.skippedSitemaps).toBe(1);
    expect(hits.get('/deep/4.xml')).toBeUndefined();
    const wide = await discoverSitemaps(deps, base, [`${base}/wide.xml`], 10_000, undefined, { maxSitemaps: 20 });
    expect(wide.sitemaps).toHaveLength(20);
    expect(wide.urls).toHaveLength(19);
    expect(wide.skippedSitemaps).toBe(181);
  });

  it('gzip bombs (a gzip file or a gzip Content-Encoding), bad XML and HTML are skipped, the rest still read', async () => {
    const found = await discoverSitemaps(deps, base, [`${base}/bomb.xml.gz`, `${base}/bomb-encoded.xml`, `${base}/bad.xml`, `${base}/html.xml`, `${base}/missing.xml`, `${base}/ok.xml`], 100, undefined, { maxBytes: 1024 * 1024 });
    expect(found.sitemaps.map((s) => s.outcome)).toEqual(['too_large', 'too_large', 'invalid_xml', 'not_a_sitemap', 'http_error', 'urlset']);
    expect(found.urls).toEqual([`${base}/page`]);
  });

  it('a cancel rejects', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled by test'));
    await expect(discoverSitemaps(deps, base, [`${base}/ok.xml`], 100, controller.signal)).rejects.toThrow('cancelled by test');
  });
});
