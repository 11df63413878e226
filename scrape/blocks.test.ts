import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BLOCK_RULES, BLOCK_VENDORS, type BlockVendor, blockedByOf, blockedMessage, classifyBlock, visibleTextLength } from './blocks';

/** The captured pages (test/fixtures/block-pages/README.md: provenance, status and headers of each). */
interface Fixture {
  file: string;
  vendor: BlockVendor;
  status: number;
  headers: Record<string, string>;
}
interface NotBlock {
  file: string;
  what: string;
  status: number;
  headers: Record<string, string>;
}
const dir = path.join(__dirname, '..', 'test', 'fixtures', 'block-pages');
const fixtures = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Fixture[];
const notBlocks = JSON.parse(readFileSync(path.join(dir, 'not-blocks', 'manifest.json'), 'utf8')) as NotBlock[];
const bodyOf = (file: string) => readFileSync(path.join(dir, file), 'utf8');

describe('the block table on real captured block pages', () => {
  it.each(fixtures.map((f) => [f.file, f] as const))('%s is a block of its vendor', (_file, fixture) => {
    expect(classifyBlock({ status: fixture.status, headers: fixture.headers, body: bodyOf(fixture.file) })?.vendor).toBe(fixture.vendor);
  });

  it('every vendor but AWS WAF (whose captured answer is its header) is recognised by its page alone, without the headers', () => {
    for (const fixture of fixtures.filter((f) => f.vendor !== 'aws_waf')) {
      expect([fixture.file, classifyBlock({ status: fixture.status, headers: {}, body: bodyOf(fixture.file) })?.vendor]).toEqual([fixture.file, fixture.vendor]);
    }
  });

  it('has a captured page for every vendor of the table', () => {
    expect(new Set(fixtures.map((f) => f.vendor))).toEqual(new Set(BLOCK_VENDORS));
    for (const vendor of BLOCK_VENDORS) expect(BLOCK_RULES.some((rule) => rule.vendor === vendor)).toBe(true);
  });

  it('a block page served with 200 is not a Cloudflare/Akamai/DataDome/PerimeterX/Sucuri block: those vendors answer with an error status', () => {
    for (const fixture of fixtures.filter((f) => ['cloudflare', 'akamai', 'datadome', 'perimeterx', 'sucuri'].includes(f.vendor))) {
      expect([fixture.file, classifyBlock({ status: 200, headers: {}, body: bodyOf(fixture.file) })]).toEqual([fixture.file, null]);
    }
  });
});

describe('real pages that are not blocks', () => {
  it.each(notBlocks.map((f) => [f.file, f.what, f] as const))('%s (%s) is not a block', (_file, _what, page) => {
    expect(classifyBlock({ status: page.status, headers: page.headers, body: bodyOf(path.join('not-blocks', page.file)) })).toBeNull();
  });

  it('none of them is a block at 200, 403, 404 or 503 either', () => {
    for (const page of notBlocks) {
      for (const status of [200, 403, 404, 503]) expect([page.file, status, classifyBlock({ status, headers: {}, body: bodyOf(path.join('not-blocks', page.file)) })]).toEqual([page.file, status, null]);
    }
  });
});

describe('rules by status and header', () => {
  it('a Cloudflare challenge is named by cf-mitigated whatever the body', () => {
    expect(classifyBlock({ status: 403, headers: { 'cf-mitigated': 'challenge' }, body: '' })?.vendor).toBe('cloudflare');
    expect(classifyBlock({ status: 200, headers: { 'cf-mitigated': 'challenge' }, body: '' })).toBeNull();
  });

  it("Cloudflare's bot-detection script, which it injects into ordinary pages, does not make an error page a block", () => {
    // The script tag as Cloudflare injects it (found on a real forum page of the modern set, bench/extraction/README.md).
    const injected = `<script>(function(){var d=document.createElement('script');d.innerHTML="window.__CF$cv$params={r:'9b1042f96961cd3b',t:'MTc2NjI0NTQ3Mg=='};var a=document.createElement('script');a.src='/cdn-cgi/challenge-platform/scripts/jsd/main.js';document.getElementsByTagName('head')[0].appendChild(a);";})();</script>`;
    for (const status of [403, 503]) expect(classifyBlock({ status, headers: { server: 'cloudflare' }, body: `<html><body><h1>Server error</h1>${injected}</body></html>` })).toBeNull();
  });

  it('x-datadome: protected alone is allowed traffic, not a block', () => {
    expect(classifyBlock({ status: 200, headers: { 'x-datadome': 'protected' }, body: '<html><body>ok</body></html>' })).toBeNull();
  });

  it('AWS WAF: the action header at 202 (challenge) and 405 (captcha); another value or status is not a block', () => {
    expect(classifyBlock({ status: 202, headers: { 'x-amzn-waf-action': 'challenge' }, body: '' })?.vendor).toBe('aws_waf');
    expect(classifyBlock({ status: 405, headers: { 'x-amzn-waf-action': 'captcha' }, body: '' })?.vendor).toBe('aws_waf');
    expect(classifyBlock({ status: 200, headers: { 'x-amzn-waf-action': 'captcha' }, body: '' })).toBeNull();
    expect(classifyBlock({ status: 202, headers: {}, body: '' })).toBeNull();
  });

  it('any 429 is a rate limit unless a vendor rule names it first', () => {
    expect(classifyBlock({ status: 429, headers: {}, body: 'slow down' })?.vendor).toBe('rate_limit');
    expect(classifyBlock({ status: 429, headers: { 'cf-mitigated': 'challenge' }, body: '' })?.vendor).toBe('cloudflare');
  });

  it('plain error statuses are not blocks (a 403, a 404, a 503 of the origin)', () => {
    for (const status of [401, 403, 404, 500, 502, 503]) expect(classifyBlock({ status, headers: { server: 'nginx' }, body: '<h1>Forbidden</h1>' })).toBeNull();
  });

  it('a body longer than a rule reads is not scanned: a long page quoting a block page is not one', () => {
    const akamai = fixtures.find((f) => f.vendor === 'akamai')!;
    const quoted = `<article>${'<p>A long article about edge networks and their error pages.</p>'.repeat(200)}<pre>${bodyOf(akamai.file)}</pre></article>`;
    expect(classifyBlock({ status: 403, headers: {}, body: quoted })).toBeNull();
  });
});

describe('helpers', () => {
  it('visibleTextLength counts text outside tags, scripts, styles and comments', () => {
    expect(visibleTextLength('<html><head><style>p{}</style><script>var a = "long text";</script></head><body><!-- note --><p>Hi  there</p></body></html>')).toBe('Hi there'.length);
  });

  it('blockedByOf reads the vendor back from blockedMessage, and nothing from other messages', () => {
    for (const vendor of BLOCK_VENDORS) expect(blockedByOf(blockedMessage(vendor, 403))).toBe(vendor);
    expect(blockedByOf('the target answered HTTP 500')).toBeUndefined();
    expect(blockedByOf('(blocked_by nobody, HTTP 403)')).toBeUndefined();
    expect(blockedByOf(undefined)).toBeUndefined();
  });
});
