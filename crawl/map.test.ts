import { createHttpEngine, type HttpEngine } from '../scrape/http/engine';
import { startCrawlSite, type CrawlSite } from '../test/fixtures/crawl-site';
import { createMapEngine } from './map';
import { normalizeUrl } from './url';

let engine: HttpEngine;
let site: CrawlSite;
beforeAll(async () => {
  engine = createHttpEngine({ allowPrivateTargets: true });
  site = await startCrawlSite();
});
afterAll(async () => {
  await site.close();
  await engine.close();
});
beforeEach(() => site.reset());

const mapOf = (url: string, options: Partial<Parameters<typeof createMapEngine>[1]> = {}, timeoutMs = 20_000) =>
  createMapEngine({ httpEngine: engine }, { limit: 1000, sitemap: 'include', includeSubdomains: false, ...options })({ url }, { timeoutMs });

describe('the map engine', () => {
  it('answers a 5xx start page as it is (the attempt fails and is retried), without reading sitemaps', async () => {
    const result = await mapOf(`${site.url}/broken`);
    expect(result.status).toBe(500);
    expect(site.hits('/sitemap_index.xml')).toBe(0);
  });

  it('does not list a start page that answered 404, but lists the sitemaps', async () => {
    const result = await mapOf(`${site.url}/missing`);
    expect(result.status).toBe(404);
    const urls = result.links!.map((l) => l.url);
    expect(urls).not.toContain(normalizeUrl(`${site.url}/missing`));
    // robots.txt honoured: the sitemap page it disallows is left out.
    expect(urls.length).toBe(site.sitemapPaths.filter((path) => !site.disallowedPaths.includes(path)).length);
  });

  it('keeps the page links\' text, and stops at the limit inside the page', async () => {
    const result = await mapOf(`${site.url}/shop`, { limit: 3 });
    expect(result.links).toEqual([
      { url: `${site.url}/shop`, text: '', rel: null },
      { url: `${site.url}/`, text: 'link 0', rel: null },
      { url: `${site.url}/search?page=1&q=crawl`, text: 'link 1', rel: null },
    ]);
    expect(site.hits('/sitemap_index.xml')).toBe(0);
  });

  it('past its deadline no sitemap is fetched, and the page links are answered', async () => {
    const result = await mapOf(site.url, {}, 1000);
    expect(site.hits('/sitemap_index.xml')).toBe(0);
    expect(result.links!.length).toBe(1 + site.outLinks('/').filter((path) => !site.disallowedPaths.includes(path)).length);
  });

  it('honours robots.txt: a disallowed start page is not fetched and no disallowed URL is listed; ignoreRobots lists them', async () => {
    const honoured = await mapOf(`${site.url}/private/0`);
    expect(site.hits('/private/0')).toBe(0);
    expect(site.hits('/robots.txt')).toBe(1);
    const urls = honoured.links!.map((l) => l.url);
    expect(urls.some((url) => site.disallowedPaths.includes(new URL(url).pathname))).toBe(false);
    expect(urls).toContain(normalizeUrl(`${site.url}/docs/1`));

    site.reset();
    const ignored = await mapOf(`${site.url}/private/0`, { ignoreRobots: true, sitemap: 'skip' });
    expect(site.hits('/private/0')).toBe(1);
    expect(ignored.links!.map((l) => l.url)).toEqual([`${site.url}/private/0`, `${site.url}/private/1`, `${site.url}/`]);
  });

  it('a robots.txt that cannot be read fails the attempt (retryable) before anything else is fetched', async () => {
    site.setLabRobots('map-unit', 503);
    await expect(mapOf(`${site.labUrl('map-unit')}/`)).rejects.toMatchObject({ code: 'TARGET_ERROR', message: expect.stringMatching(/could not be read \(HTTP 503\)/) });
    expect(site.labHits('map-unit', '/')).toBe(0);
    site.setLabRobots('map-unit', 200);
    const read = await mapOf(`${site.labUrl('map-unit')}/`, { sitemap: 'skip' });
    expect(read.links!.map((l) => new URL(l.url).pathname).sort()).toEqual(['/', '/f/1', '/f/2', '/f/3', '/f/4', '/f/5']);
  });
});
