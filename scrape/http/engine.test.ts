import { FIXTURE_TEXT, startFixtureServer } from '../../test/fixtures/server';
import type { FixtureServer } from '../../test/fixtures/server';
import { matchesBlacklist } from '../../platform/target-guard';
import { createHttpEngine, decodeBody } from './engine';
import type { HttpEngine } from './engine';
import { appErrorOf } from '../../test/helpers/app-error';

let fx: FixtureServer;
let engine: HttpEngine;

beforeAll(async () => {
  fx = await startFixtureServer();
  engine = createHttpEngine({ allowPrivateTargets: true, maxResponseBytes: 2 * 1024 * 1024 });
});
afterAll(async () => {
  await engine.close();
  await fx.close();
});

describe('http engine against the fixture server', () => {
  it('fetches a static page: html, status, headers, final_url, elapsed', async () => {
    const res = await engine.scrape({ url: `${fx.url}/page/1` });
    expect(res).toMatchObject({ url: `${fx.url}/page/1`, final_url: `${fx.url}/page/1`, status: 200, mode: 'http' });
    expect(res.html).toContain('<h1>Page 1</h1>');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.elapsed_ms).toBeGreaterThanOrEqual(0);
    expect(res.data).toBeUndefined();
  });

  it('evaluates selectors (no html then), resolving link URLs against the final URL', async () => {
    const res = await engine.scrape({ url: `${fx.url}/links?n=4`, selectors: ['h1', { selector: 'a.link', attribute: 'href', all: true, name: 'links' }] });
    expect(res.html).toBeUndefined();
    expect(res.data![0]!.results[0]!.text).toBe('Links');
    expect(res.data![1]).toMatchObject({ name: 'links' });
    expect(res.data![1]!.results.map((r) => r.text)).toEqual([1, 2, 3, 4].map((i) => `${fx.url}/page/${i}`));
  });

  it('follows a redirect chain up to maxRedirects and reports the final URL', async () => {
    const res = await engine.scrape({ url: `${fx.url}/redirect?n=5`, selectors: ['h1'] });
    expect(res.final_url).toBe(`${fx.url}/page/final`);
    expect(res.data![0]!.results[0]!.text).toBe('Page final');
    const err = await appErrorOf(engine.scrape({ url: `${fx.url}/redirect?n=6` }));
    expect(err).toMatchObject({ code: 'SCRAPE_FAILED' });
    expect(err.message).toContain('too many redirects');
  });

  it('checks every redirect hop: blacklist and scheme', async () => {
    const toLocalhost = `${fx.url}/redirect-to?url=${encodeURIComponent(`http://localhost:${fx.port}/page/x`)}`;
    const isBlacklisted = (h: string) => matchesBlacklist(h, ['localhost']);
    // the first hop (127.0.0.1) is allowed, the redirect target is not
    expect(await appErrorOf(engine.scrape({ url: toLocalhost }, { isBlacklisted }))).toMatchObject({ code: 'BLACKLISTED', status: 403 });
    expect((await engine.scrape({ url: toLocalhost })).final_url).toBe(`http://localhost:${fx.port}/page/x`);
    const toFile = `${fx.url}/redirect-to?url=${encodeURIComponent('file:///etc/passwd')}`;
    expect(await appErrorOf(engine.scrape({ url: toFile }))).toMatchObject({ code: 'INVALID_URL' });
  });

  it('refuses private targets when allowPrivateTargets is false, by IP literal and by resolved name', async () => {
    const strict = createHttpEngine({ allowPrivateTargets: false });
    const before = fx.hits.get('/page/1') ?? 0;
    try {
      expect(await appErrorOf(strict.scrape({ url: `${fx.url}/page/1` }))).toMatchObject({ code: 'PRIVATE_TARGET', status: 403 });
      // a host name that resolves to loopback is caught at connect time, on the resolved address
      const err = await appErrorOf(strict.scrape({ url: `http://localhost:${fx.port}/page/1` }));
      expect(err).toMatchObject({ code: 'PRIVATE_TARGET' });
      expect(err.message).toContain('localhost');
      expect(fx.hits.get('/page/1') ?? 0).toBe(before); // nothing reached the server
      // with allowPrivateTargets the same URLs work
      const open = createHttpEngine({ allowPrivateTargets: true });
      expect((await open.scrape({ url: `http://localhost:${fx.port}/page/1` })).status).toBe(200);
      await open.close();
    } finally {
      await strict.close();
    }
  });

  it('returns target 4xx/5xx as a status, not an error', async () => {
    for (const code of [404, 410, 500, 503]) {
      const res = await engine.scrape({ url: `${fx.url}/status/${code}`, selectors: ['h1'] });
      expect(res.status).toBe(code);
      expect(res.data![0]!.results[0]!.text).toBe(`Status ${code}`);
    }
  });

  it('caps the response size (plain and decompressed) with RESPONSE_TOO_LARGE', async () => {
    const big = await appErrorOf(engine.scrape({ url: `${fx.url}/large?mb=5` }));
    expect(big).toMatchObject({ code: 'RESPONSE_TOO_LARGE', status: 502 });
    expect(big.message).toContain('2 MiB');
    expect(await appErrorOf(engine.scrape({ url: `${fx.url}/gzip-bomb?mb=50` }))).toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    // the engine still works afterwards
    expect((await engine.scrape({ url: `${fx.url}/large?mb=1` })).html!.length).toBe(1024 * 1024);
  });

  it.each(['gzip', 'br', 'deflate', 'deflate-raw'])('decompresses %s', async (enc) => {
    const res = await engine.scrape({ url: `${fx.url}/compressed?enc=${enc}`, selectors: ['h1'] });
    expect(res.data![0]!.results[0]!.text).toBe(FIXTURE_TEXT.compressed);
    expect(res.headers['content-encoding']).toBe(enc === 'deflate-raw' ? 'deflate' : enc);
  });

  it('decodes the charset from the Content-Type header (iso-8859-1 → windows-1252)', async () => {
    const res = await engine.scrape({ url: `${fx.url}/latin1`, selectors: ['#t'] });
    expect(res.data![0]!.results[0]!.text).toBe(FIXTURE_TEXT.latin1);
  });

  it('decodes the charset from <meta charset> and <meta http-equiv>', async () => {
    const sjis = await engine.scrape({ url: `${fx.url}/meta-charset`, selectors: ['#t'] });
    expect(sjis.data![0]!.results[0]!.text).toBe(FIXTURE_TEXT.sjis);
    const cp1252 = await engine.scrape({ url: `${fx.url}/meta-http-equiv`, selectors: ['#t'] });
    expect(cp1252.data![0]!.results[0]!.text).toBe(FIXTURE_TEXT.latin1);
  });

  it('POSTs an object body as JSON with the caller headers, and a string body as is', async () => {
    const json = await engine.scrape({ url: `${fx.url}/echo?x=1`, method: 'POST', body: { hello: 'world', n: 1 }, headers: { 'X-Test': 'yes', Host: 'evil.test' } });
    const echoed = JSON.parse(json.html!) as { method: string; body: string; headers: Record<string, string>; query: Record<string, string> };
    expect(echoed.method).toBe('POST');
    expect(JSON.parse(echoed.body)).toEqual({ hello: 'world', n: 1 });
    expect(echoed.headers['content-type']).toBe('application/json');
    expect(echoed.headers['x-test']).toBe('yes');
    expect(echoed.headers.host).toBe(`127.0.0.1:${fx.port}`); // Host cannot be overridden
    expect(echoed.query).toEqual({ x: '1' });

    const form = await engine.scrape({ url: `${fx.url}/echo`, method: 'POST', body: 'a=1&b=2', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const echoedForm = JSON.parse(form.html!) as { body: string; headers: Record<string, string> };
    expect(echoedForm.body).toBe('a=1&b=2');
    expect(echoedForm.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('a 303 after POST continues as GET without the body', async () => {
    const res = await engine.scrape({ url: `${fx.url}/redirect-to?status=303&url=/echo`, method: 'POST', body: { a: 1 } });
    const echoed = JSON.parse(res.html!) as { method: string; body: string };
    expect(echoed).toMatchObject({ method: 'GET', body: '' });
  });

  it('times out with SCRAPE_FAILED (retryable) and honours cancellation', async () => {
    const slow = await appErrorOf(engine.scrape({ url: `${fx.url}/slow?ms=30000` }, { timeoutMs: 300 }));
    expect(slow).toMatchObject({ code: 'SCRAPE_FAILED' });
    expect(slow.message).toContain('timed out');

    const controller = new AbortController();
    const reason = new Error('cancelled by test');
    const pending = engine.scrape({ url: `${fx.url}/slow?ms=30000` }, { signal: controller.signal });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('network errors are SCRAPE_FAILED', async () => {
    const closed = await startFixtureServer();
    const url = `${closed.url}/`;
    await closed.close();
    const err = await appErrorOf(engine.scrape({ url }));
    expect(err).toMatchObject({ code: 'SCRAPE_FAILED', status: 502 });
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('rejects invalid selectors and bad schemes before any request', async () => {
    const before = fx.hits.get('/page/2') ?? 0;
    expect(await appErrorOf(engine.scrape({ url: `${fx.url}/page/2`, selectors: ['a[['] }))).toMatchObject({ code: 'INVALID_SELECTOR' });
    expect(fx.hits.get('/page/2') ?? 0).toBe(before);
    expect(await appErrorOf(engine.scrape({ url: 'ftp://127.0.0.1/' }))).toMatchObject({ code: 'INVALID_URL' });
  });
});

describe('decodeBody', () => {
  it('prefers a BOM, falls back to windows-1252 for invalid UTF-8 without a declared charset', () => {
    expect(decodeBody(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]), 'text/html; charset=iso-8859-1')).toBe('hi');
    expect(decodeBody(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80]), 'text/html')).toBe('café €');
    expect(decodeBody(Buffer.from('naïve ✓', 'utf8'), undefined)).toBe('naïve ✓');
  });
});
