import zlib from 'node:zlib';
import { gunzipBounded, isGzip, parseSitemap } from './sitemap';

const urlset = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc><lastmod>2026-01-01</lastmod></url>`).join('')}</urlset>`;
const index = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('')}</sitemapindex>`;
const buf = (s: string) => Buffer.from(s, 'utf8');

describe('parseSitemap', () => {
  it('reads a urlset: normalised, deduplicated, http(s) only, entities decoded', () => {
    const parsed = parseSitemap(buf(urlset(['https://e.com/a', 'HTTPS://E.COM/a#x', ' https://e.com/b?z=1&amp;a=2 ', 'ftp://e.com/c', 'not a url', 'https://e.com/one'])));
    expect(parsed).toEqual({ ok: true, kind: 'urlset', urls: ['https://e.com/a', 'https://e.com/b?a=2&z=1', 'https://e.com/one'], sitemaps: [] });
  });

  it('reads a single-entry urlset and a namespaced (prefixed) one', () => {
    expect(parseSitemap(buf(urlset(['https://e.com/only'])))).toMatchObject({ ok: true, urls: ['https://e.com/only'] });
    const prefixed = '<?xml version="1.0"?><sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://e.com/p</sm:loc></sm:url></sm:urlset>';
    expect(parseSitemap(buf(prefixed))).toMatchObject({ ok: true, kind: 'urlset', urls: ['https://e.com/p'] });
  });

  it('reads a sitemap index', () => {
    expect(parseSitemap(buf(index(['https://e.com/s1.xml', 'https://e.com/s2.xml.gz'])))).toEqual({
      ok: true, kind: 'sitemapindex', urls: [], sitemaps: ['https://e.com/s1.xml', 'https://e.com/s2.xml.gz'],
    });
  });

  it('reads gzip by its magic bytes, whatever the name', () => {
    const gz = zlib.gzipSync(urlset(['https://e.com/gz']));
    expect(isGzip(gz)).toBe(true);
    expect(parseSitemap(gz)).toMatchObject({ ok: true, kind: 'urlset', urls: ['https://e.com/gz'] });
  });

  it('reads a text sitemap', () => {
    expect(parseSitemap(buf('https://e.com/1\r\nhttps://e.com/2\n\njunk\n'))).toMatchObject({ ok: true, kind: 'text', urls: ['https://e.com/1', 'https://e.com/2'] });
  });

  it('skips (never throws on) invalid XML, other documents, DTDs and empty input', () => {
    expect(parseSitemap(buf('<urlset><url><loc>https://e.com/a</loc></url>'))).toEqual({ ok: false, reason: 'invalid_xml' });
    expect(parseSitemap(buf('<html><body>hello</body></html>'))).toEqual({ ok: false, reason: 'not_a_sitemap' });
    expect(parseSitemap(buf(''))).toEqual({ ok: false, reason: 'not_a_sitemap' });
    expect(parseSitemap(Buffer.from([0xff, 0xfe, 0x00, 0x3c]))).toMatchObject({ ok: false });
    const lol = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><urlset><url><loc>https://e.com/&lol2;</loc></url></urlset>`;
    expect(parseSitemap(buf(lol))).toEqual({ ok: false, reason: 'dtd' });
    expect(parseSitemap(Buffer.from([0x1f, 0x8b, 1, 2, 3]))).toEqual({ ok: false, reason: 'bad_gzip' });
    expect(parseSitemap(buf(urlset([])))).toEqual({ ok: true, kind: 'urlset', urls: [], sitemaps: [] });
  });

  it('stops a gzip bomb at the byte cap', () => {
    const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(gunzipBounded(bomb, 1024 * 1024)).toEqual({ ok: false, reason: 'too_large' });
    expect(parseSitemap(bomb, { maxBytes: 1024 * 1024 })).toEqual({ ok: false, reason: 'too_large' });
    expect(parseSitemap(buf(urlset(['https://e.com/a'])), { maxBytes: 50 })).toEqual({ ok: false, reason: 'too_large' });
  });

  it('keeps at most maxUrls of a huge sitemap', () => {
    const locs = Array.from({ length: 60_000 }, (_, i) => `https://e.com/p/${i}`);
    const parsed = parseSitemap(buf(urlset(locs)), { maxUrls: 50_000 });
    expect(parsed.ok && parsed.urls.length).toBe(50_000);
    expect(parsed.ok && parsed.urls[49_999]).toBe('https://e.com/p/49999');
  });
});
