import { originVerdict } from './auth';

describe('originVerdict (who sent a state-changing request)', () => {
  const trusted = ['https://api.example.test', 'https://dashboard.example.test'];

  it.each([
    ['curl: no Origin, Referer or Sec-Fetch-*', {}, 'script'],
    ["Node's fetch: Sec-Fetch-Mode only", { 'sec-fetch-mode': 'cors' }, 'script'],
    ['our own origin', { origin: 'https://api.example.test' }, 'trusted'],
    ['a TRUSTED_ORIGINS origin, even cross-site by fetch metadata', { origin: 'https://dashboard.example.test', 'sec-fetch-site': 'cross-site' }, 'trusted'],
    ['origin compared without case or trailing slash', { origin: 'HTTPS://API.EXAMPLE.TEST/' }, 'trusted'],
    ['another site', { origin: 'https://evil.example' }, 'refused'],
    ['an opaque origin', { origin: 'null' }, 'refused'],
    ['a sibling subdomain', { origin: 'https://evil.api.example.test' }, 'refused'],
    ['no Origin but a Referer of another site', { referer: 'https://evil.example/x' }, 'refused'],
    ['no Origin but a Referer of our site', { referer: 'https://api.example.test/dashboard' }, 'trusted'],
    ['an unparseable Referer', { referer: '::' }, 'refused'],
    ['Sec-Fetch-Site: cross-site without Origin', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' }, 'refused'],
    ['Sec-Fetch-Site: same-site without Origin', { 'sec-fetch-site': 'same-site' }, 'refused'],
    ['Sec-Fetch-Site: same-origin without Origin', { 'sec-fetch-site': 'same-origin' }, 'trusted'],
  ] as const)('%s', (_label, headers, verdict) => {
    expect(originVerdict(headers, trusted)).toBe(verdict);
  });
});
