/**
 * The identity rules of identity.ts (unit; the real path is api/routes/browser-identity.test.ts):
 * the headless marker goes, the version is reduced, a seed gives the same identity every time.
 */
import { DESKTOP_SCREENS, contextIdentity, desktopUserAgent, fallbackEngineIdentity } from './identity';
import { COUNTRY_LOCALES, DEFAULT_LOCALE, languagesOf } from './locales';

const SHELL_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.8078.108 Safari/537.36';

describe('browser identity', () => {
  it('removes the headless marker and reduces the version as Chrome does', () => {
    expect(desktopUserAgent(SHELL_UA, '156')).toBe('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36');
    expect(desktopUserAgent(SHELL_UA.replace('HeadlessChrome/156.0.8078.108', 'HeadlessChrome/156.0.0.0'), '156')).not.toMatch(/headless/i);
  });

  it('gives a seed the same identity every time, and different seeds different screens', () => {
    const engine = fallbackEngineIdentity('156.0.8078.108');
    expect(contextIdentity(engine, 'session:u1:shop')).toEqual(contextIdentity(engine, 'session:u1:shop'));
    const screens = new Set(Array.from({ length: 40 }, (_, i) => JSON.stringify(contextIdentity(engine, `seed-${i}`).screen)));
    expect(screens.size).toBe(DESKTOP_SCREENS.length);
    for (const screen of DESKTOP_SCREENS) {
      // Each screen holds the 1366×900 viewport with room for the browser's bars.
      expect(screen.width).toBeGreaterThan(1366);
      expect(screen.height).toBeGreaterThan(900);
    }
  });

  it('keeps user agent, client hints and platform in agreement', () => {
    const engine = fallbackEngineIdentity('156.0.8078.108');
    const desktop = contextIdentity(engine, 'a');
    expect(desktop.userAgent).toContain('Chrome/156.0.0.0');
    expect(desktop.userAgent).toContain('Linux x86_64');
    expect(desktop.metadata).toMatchObject({ platform: 'Linux', mobile: false, brands: [{ brand: 'Chromium', version: '156' }] });
    const phone = contextIdentity(engine, 'a', true);
    expect(phone.userAgent).toMatch(/Android .* Chrome\/156\.0\.0\.0 Mobile Safari/);
    expect(phone.metadata).toMatchObject({ platform: 'Android', mobile: true, brands: [{ brand: 'Chromium', version: '156' }] });
  });

  it("takes the proxy country's time zone and languages, the request's Accept-Language first", () => {
    const engine = fallbackEngineIdentity('156.0.8078.108');
    const plain = contextIdentity(engine, 'a');
    expect(DEFAULT_LOCALE.timezones).toContain(plain.timezone);
    expect(plain).toMatchObject({ acceptLanguage: 'en-US,en', locale: 'en-US' });
    expect(contextIdentity(engine, 'a', false, { country: 'DE' })).toMatchObject({ timezone: 'Europe/Berlin', acceptLanguage: 'de-DE,de,en-US,en', locale: 'de-DE' });
    expect(contextIdentity(engine, 'a', true, { country: 'jp' })).toMatchObject({ timezone: 'Asia/Tokyo', locale: 'ja-JP', mobile: true });
    // A country not in the table keeps the default place; the request's languages win over the country's.
    expect(DEFAULT_LOCALE.timezones).toContain(contextIdentity(engine, 'a', false, { country: 'zz' }).timezone);
    expect(contextIdentity(engine, 'a', false, { country: 'de', acceptLanguage: 'fr-FR,fr;q=0.9' })).toMatchObject({ timezone: 'Europe/Berlin', acceptLanguage: 'fr-FR,fr', locale: 'fr-FR' });
    expect(languagesOf('de-CH, de;q=0.9, *;q=0.5')).toEqual(['de-CH', 'de']);
    // Every zone of the table is one this Node's ICU knows (Chromium's is at least as recent).
    for (const { timezones, languages } of Object.values(COUNTRY_LOCALES)) {
      for (const zone of timezones) expect(() => new Intl.DateTimeFormat('en', { timeZone: zone })).not.toThrow();
      expect(languages.length).toBeGreaterThan(0);
    }
  });
});
