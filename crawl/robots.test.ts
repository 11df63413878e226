import { CRAWLER_USER_AGENT_TOKEN, DISALLOW_ALL, MAX_CRAWL_DELAY_MS, MAX_ROBOTS_BYTES, parseRobots, robotsFailure, robotsUrlOf, robotsVerdict } from './robots';

const ROBOTS_URL = 'https://example.com/robots.txt';

describe('parseRobots', () => {
  const text = [
    'User-agent: *',
    'Disallow: /private/',
    'Allow: /private/public',
    'Disallow: /*.pdf$',
    'Crawl-delay: 1.5',
    '',
    `User-agent: ${CRAWLER_USER_AGENT_TOKEN}`,
    'Disallow: /no-bots/',
    'Crawl-delay: 2',
    '',
    'Sitemap: https://example.com/sitemap_index.xml',
    'Sitemap: HTTPS://EXAMPLE.COM/sitemap_index.xml#dup',
    'Sitemap: ftp://example.com/nope.xml',
  ].join('\n');

  it('applies the group of the user agent (longest match, Allow on a tie) and its Crawl-delay', () => {
    const generic = parseRobots(ROBOTS_URL, text, 'SomeOtherBot');
    expect(generic.isAllowed('https://example.com/private/x')).toBe(false);
    expect(generic.isAllowed('https://example.com/private/public')).toBe(true);
    expect(generic.isAllowed('https://example.com/a/file.pdf')).toBe(false);
    expect(generic.isAllowed('https://example.com/a/file.pdf?x=1')).toBe(true);
    expect(generic.isAllowed('https://EXAMPLE.com/ok#frag')).toBe(true);
    expect(generic.crawlDelayMs).toBe(1500);

    const ours = parseRobots(ROBOTS_URL, text, CRAWLER_USER_AGENT_TOKEN);
    expect(ours.isAllowed('https://example.com/no-bots/a')).toBe(false);
    // A specific group replaces the * group entirely (RFC 9309).
    expect(ours.isAllowed('https://example.com/private/x')).toBe(true);
    expect(ours.crawlDelayMs).toBe(2000);
  });

  it('lists Sitemap: lines normalised, deduplicated, http(s) only', () => {
    expect(parseRobots(ROBOTS_URL, text, 'x').sitemaps).toEqual(['https://example.com/sitemap_index.xml']);
  });

  it('no robots.txt (null) allows everything; URLs of another origin are not its business', () => {
    const none = parseRobots(ROBOTS_URL, null, 'x');
    expect(none.isAllowed('https://example.com/private/x')).toBe(true);
    expect(none.crawlDelayMs).toBeNull();
    expect(none.sitemaps).toEqual([]);
    const rules = parseRobots(ROBOTS_URL, 'User-agent: *\nDisallow: /', 'x');
    expect(rules.isAllowed('https://example.com/a')).toBe(false);
    expect(rules.isAllowed('https://other.example/a')).toBe(true);
    expect(rules.isAllowed('mailto:x@example.com')).toBe(false);
  });

  it('clamps absurd Crawl-delay values and ignores bad ones', () => {
    expect(parseRobots(ROBOTS_URL, 'User-agent: *\nCrawl-delay: 86400', 'x').crawlDelayMs).toBe(MAX_CRAWL_DELAY_MS);
    expect(parseRobots(ROBOTS_URL, 'User-agent: *\nCrawl-delay: soon', 'x').crawlDelayMs).toBeNull();
    expect(parseRobots(ROBOTS_URL, 'User-agent: *\nCrawl-delay: -3', 'x').crawlDelayMs).toBeNull();
  });

  it('survives hostile files: garbage, huge, and wildcard-heavy rules against long paths', () => {
    expect(parseRobots(ROBOTS_URL, '\u0000\uFFFF<html>not robots</html>', 'x').isAllowed('https://example.com/a')).toBe(true);
    const huge = `User-agent: *\n${'Disallow: /x\n'.repeat(100_000)}Disallow: /after-the-cap\n`;
    expect(huge.length).toBeGreaterThan(MAX_ROBOTS_BYTES);
    const big = parseRobots(ROBOTS_URL, huge, 'x');
    expect(big.isAllowed('https://example.com/x')).toBe(false);
    expect(big.isAllowed('https://example.com/after-the-cap')).toBe(true);
    const wild = parseRobots(ROBOTS_URL, `User-agent: *\nDisallow: /${'*a'.repeat(500)}$`, 'x');
    // robots-parser matches without regexes: a long path answers at once.
    expect(wild.isAllowed(`https://example.com/${'a'.repeat(2000)}b`)).toBe(true);
  });

  it('robotsVerdict (RFC 9309 2.3.1): 2xx rules, 4xx but 429 allow all, 5xx/429/no answer disallow all until it can be read', () => {
    expect(robotsVerdict({ status: 200, body: 'User-agent: *' })).toBe('rules');
    expect(robotsVerdict({ status: 200, body: '' })).toBe('rules');
    for (const status of [400, 401, 403, 404, 410, 451]) expect([status, robotsVerdict({ status, body: null })]).toEqual([status, 'allow-all']);
    for (const status of [429, 500, 502, 503, 504, 302, 100]) expect([status, robotsVerdict({ status, body: null })]).toEqual([status, 'unreachable']);
    expect(robotsVerdict({ status: null, body: null })).toBe('unreachable');
    expect(DISALLOW_ALL.isAllowed('https://example.com/')).toBe(false);
    expect([robotsFailure(503), robotsFailure(null)]).toEqual(['HTTP 503', 'no answer']);
  });

  it('robotsUrlOf', () => {
    expect(robotsUrlOf('https://example.com/a/b?c')).toBe('https://example.com/robots.txt');
    expect(robotsUrlOf('http://localhost:8080')).toBe('http://localhost:8080/robots.txt');
  });
});
