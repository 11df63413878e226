import { RE2JS } from 're2js';
import { SCOPE_LIMITS, ScopeError, compileScope, normalizeUrl, scopeProblems } from './url';

describe('normalizeUrl', () => {
  it.each([
    ['HTTP://Example.COM:80/a/./b/../c?z=1&a=2&a=1#frag', 'http://example.com/a/c?a=2&a=1&z=1'],
    ['https://example.com:443', 'https://example.com/'],
    ['https://example.com:8443/x', 'https://example.com:8443/x'],
    ['http://example.com./a/', 'http://example.com/a/'],
    ['http://example.com/a/', 'http://example.com/a/'],
    ['http://example.com/a', 'http://example.com/a'],
    ['http://example.com/?', 'http://example.com/'],
    ['http://example.com/p?&&b=1&', 'http://example.com/p?b=1'],
    ['http://example.com/%7euser/%2f%c3%a9', 'http://example.com/~user/%2F%C3%A9'],
    ['https://münchen.de/ä b', 'https://xn--mnchen-3ya.de/%C3%A4%20b'],
    ['http://[::1]:8080/a', 'http://[::1]:8080/a'],
    ['  http://example.com/x  ', 'http://example.com/x'],
  ])('%s → %s', (raw, expected) => {
    expect(normalizeUrl(raw)).toBe(expected);
  });

  it('resolves relative references against the base', () => {
    expect(normalizeUrl('../b?y=2&x=1#f', 'http://example.com/dir/sub/page')).toBe('http://example.com/dir/b?x=1&y=2');
    expect(normalizeUrl('//other.example/x', 'https://example.com/')).toBe('https://other.example/x');
    expect(normalizeUrl('#top', 'http://example.com/a?b=1')).toBe('http://example.com/a?b=1');
  });

  it('refuses other schemes, credentials, junk and absurd lengths', () => {
    for (const raw of ['mailto:a@b.c', 'javascript:alert(1)', 'ftp://example.com/', 'data:text/html,x', 'http://user:pw@example.com/', 'http://user@example.com/', 'not a url', '', 'http://', `http://example.com/${'a'.repeat(9000)}`]) {
      expect(normalizeUrl(raw)).toBeNull();
    }
    expect(normalizeUrl('/relative/without/base')).toBeNull();
  });

  it('is idempotent and maps duplicate spellings to one URL', () => {
    const spellings = ['HTTP://LOCALHOST:8080/shop#top', 'http://localhost:8080/./shop', 'http://localhost:8080/x/../shop?', 'http://localhost:8080/shop'];
    expect(new Set(spellings.map((s) => normalizeUrl(s))).size).toBe(1);
    const once = normalizeUrl('HTTP://A.example/%7e/b?z=%3d&a=1')!;
    expect(normalizeUrl(once)).toBe(once);
  });

  it('keeps the order of repeated parameters (stable sort)', () => {
    expect(normalizeUrl('http://e.com/?b=2&a=9&b=1&a=3')).toBe('http://e.com/?a=9&a=3&b=2&b=1');
  });
});

describe('scope', () => {
  const base = { startUrl: 'https://www.example.com/docs', sameOrigin: true, allowSubdomains: false, includePaths: [], excludePaths: [] };

  it('keeps to the start origin by default', () => {
    const scope = compileScope(base);
    expect(scope('https://www.example.com/a')).toEqual({ ok: true });
    expect(scope('HTTPS://WWW.EXAMPLE.COM:443/a#x')).toEqual({ ok: true });
    for (const off of ['http://www.example.com/a', 'https://blog.example.com/a', 'https://www.example.com:8443/a', 'https://evil.com/', 'mailto:x@example.com']) {
      expect(scope(off)).toEqual({ ok: false, reason: 'off_origin' });
    }
  });

  it('allows subdomains (of the host without www.) when asked, any scheme or port, never look-alikes', () => {
    const scope = compileScope({ ...base, allowSubdomains: true });
    for (const ok of ['https://blog.example.com/a', 'http://example.com/', 'https://a.b.example.com:8443/x', 'https://www.example.com/']) expect(scope(ok)).toEqual({ ok: true });
    for (const off of ['https://notexample.com/', 'https://example.com.evil.net/', 'https://other.org/']) expect(scope(off)).toEqual({ ok: false, reason: 'off_origin' });
  });

  it('without same_origin every http(s) host is in scope', () => {
    const scope = compileScope({ ...base, sameOrigin: false });
    expect(scope('https://anything.test/x')).toEqual({ ok: true });
    expect(scope('ftp://anything.test/x')).toEqual({ ok: false, reason: 'off_origin' });
  });

  it('applies exclude before include, on the path only', () => {
    const scope = compileScope({ ...base, includePaths: ['^/docs/', '^/blog$'], excludePaths: ['/private/', '\\.pdf$'] });
    expect(scope('https://www.example.com/docs/a')).toEqual({ ok: true });
    expect(scope('https://www.example.com/blog')).toEqual({ ok: true });
    expect(scope('https://www.example.com/blog?x=/docs/')).toEqual({ ok: true });
    expect(scope('https://www.example.com/shop?x=/docs/')).toEqual({ ok: false, reason: 'not_included' });
    expect(scope('https://www.example.com/docs/private/a')).toEqual({ ok: false, reason: 'excluded' });
    expect(scope('https://www.example.com/docs/a.pdf')).toEqual({ ok: false, reason: 'excluded' });
  });

  it('lists every bad regex, phrased for a 422, and compileScope throws them', () => {
    const options = { includePaths: ['(?=lookahead)', '[', 'fine'], excludePaths: ['(a)\\1', '', 'x'.repeat(SCOPE_LIMITS.maxPatternLength + 1)] };
    const problems = scopeProblems(options);
    expect(problems).toHaveLength(5);
    expect(problems[0]).toMatch(/^include_paths\.0 must be a valid RE2 regular expression/);
    expect(problems[1]).toMatch(/^include_paths\.1 /);
    expect(problems[2]).toMatch(/^exclude_paths\.0 /);
    expect(problems[3]).toBe('exclude_paths.1 must not be empty');
    expect(problems[4]).toBe(`exclude_paths.2 must be at most ${SCOPE_LIMITS.maxPatternLength} characters`);
    expect(() => compileScope({ ...base, ...options })).toThrow(ScopeError);
    expect(scopeProblems({ includePaths: Array(SCOPE_LIMITS.maxPatterns + 1).fill('a'), excludePaths: [] })).toEqual([`include_paths must contain at most ${SCOPE_LIMITS.maxPatterns} items`]);
    expect(scopeProblems({ includePaths: ['^/a', 'b$'], excludePaths: [] })).toEqual([]);
  });

  it('refuses regexes whose compiled program is too large', () => {
    const huge = '(\\w{1000}){1000}';
    const problems = scopeProblems({ includePaths: [huge], excludePaths: [] });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/include_paths\.0 (is too complex|must be a valid RE2)/);
  });

  it('matches catastrophic-backtracking patterns in linear time (RE2), where RegExp would hang', () => {
    const evil = '^(a+)+$';
    const path = `/${'a'.repeat(5000)}!`;
    const scope = compileScope({ ...base, includePaths: [evil.replace('^', '^/')] });
    // RegExp on this input is exponential; RE2 answers at once (the test's own timeout is the bound).
    expect(scope(`https://www.example.com${path}`)).toEqual({ ok: false, reason: 'not_included' });
    expect(RE2JS.compile(evil).test('a'.repeat(100_000))).toBe(true);
  });
});
