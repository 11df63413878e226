/**
 * The identity rules of identity.ts (unit; the real path is api/routes/browser-identity.test.ts):
 * the headless marker goes, the version is reduced, a seed gives the same identity every time.
 */
import { DESKTOP_SCREENS, contextIdentity, desktopUserAgent, fallbackEngineIdentity } from './identity';

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
});
