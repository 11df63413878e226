/**
 * impersonate.ts's pure parts: the client-hint brand list Chromium derives from its major version
 * (checked against what real Chrome profiles send: impit's chrome124 and chrome142, wreq-js's
 * chrome_149, recorded by test/fixtures/tls-fingerprint.ts), the navigation header order, and the
 * choice of wreq-js profile. The wire itself is compared with Chromium in api/routes/scrape-tls.test.ts.
 */
import { chromeIdentity, navigationHeaders, newestChromeProfile } from './impersonate';

describe('chromeIdentity', () => {
  it.each([
    [124, '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"'],
    [142, '"Chromium";v="142", "Google Chrome";v="142", "Not_A Brand";v="99"'],
    [149, '"Google Chrome";v="149", "Chromium";v="149", "Not)A;Brand";v="24"'],
  ])('Chrome %i sends sec-ch-ua %s', (major, secChUa) => {
    expect(chromeIdentity(major).secChUa).toBe(secChUa);
  });

  it('names the major version in a desktop Linux user agent without Headless', () => {
    expect(chromeIdentity(156)).toEqual({
      major: 156,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
      secChUa: '"Not:A-Brand";v="8", "Chromium";v="156", "Google Chrome";v="156"',
    });
  });
});

describe('navigationHeaders', () => {
  it("puts Chrome's headers in Chromium's order, the caller's extra ones before accept-encoding, cookie before priority", () => {
    const names = navigationHeaders(chromeIdentity(156), { 'accept-language': 'de', cookie: 'a=b', 'x-custom': '1', 'user-agent': 'mine' }).map(([n]) => n);
    expect(names).toEqual([
      'sec-ch-ua', 'sec-ch-ua-mobile', 'sec-ch-ua-platform', 'upgrade-insecure-requests', 'user-agent', 'accept', 'sec-fetch-site', 'sec-fetch-mode',
      'sec-fetch-user', 'sec-fetch-dest', 'x-custom', 'accept-encoding', 'accept-language', 'cookie', 'priority',
    ]);
    expect(Object.fromEntries(navigationHeaders(chromeIdentity(156), { 'user-agent': 'mine' }))['user-agent']).toBe('mine');
  });
});

describe('newestChromeProfile', () => {
  it('takes the newest Chrome profile at or below the major version, else the oldest', () => {
    const profiles = ['chrome_100', 'chrome_149', 'chrome_136', 'firefox_151', 'edge_148'];
    expect(newestChromeProfile(profiles, 156)).toBe('chrome_149');
    expect(newestChromeProfile(profiles, 140)).toBe('chrome_136');
    expect(newestChromeProfile(profiles, 90)).toBe('chrome_100');
  });
});
