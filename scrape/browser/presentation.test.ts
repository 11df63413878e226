import { DESKTOP_SCREENS } from './identity';
import { DESKTOP_PANEL_HEIGHT, SCREEN_LAYOUT, desktopPresentationArgs, screenInfoArg, windowOnScreen } from './presentation';

describe('the full Chromium’s desktop screens', () => {
  it('lays every identity screen side by side, each with a top panel', () => {
    expect(SCREEN_LAYOUT.map(({ width, height }) => ({ width, height }))).toEqual(DESKTOP_SCREENS);
    for (let i = 1; i < SCREEN_LAYOUT.length; i++) expect(SCREEN_LAYOUT[i]!.left).toBe(SCREEN_LAYOUT[i - 1]!.left + SCREEN_LAYOUT[i - 1]!.width);
    expect(screenInfoArg()).toBe(`--screen-info={0,0 1920x1080 workAreaTop=${DESKTOP_PANEL_HEIGHT}}{1920,0 1920x1200 workAreaTop=${DESKTOP_PANEL_HEIGHT}}{3840,0 2560x1440 workAreaTop=${DESKTOP_PANEL_HEIGHT}}{6400,0 1680x1050 workAreaTop=${DESKTOP_PANEL_HEIGHT}}`);
  });

  it('places a window inside the work area of its identity’s screen', () => {
    for (const [i, screen] of DESKTOP_SCREENS.entries()) {
      const bounds = windowOnScreen(screen, 1366, 987);
      const on = SCREEN_LAYOUT[i]!;
      expect(bounds.width).toBe(1366);
      expect(bounds.height).toBe(987);
      expect(bounds.left).toBeGreaterThanOrEqual(on.left);
      expect(bounds.left + bounds.width).toBeLessThanOrEqual(on.left + on.width);
      expect(bounds.top).toBeGreaterThanOrEqual(DESKTOP_PANEL_HEIGHT);
      expect(bounds.top + bounds.height).toBeLessThanOrEqual(on.height);
    }
    // A screen not in the layout: the first one.
    expect(windowOnScreen({ width: 1, height: 1 }, 1366, 987).left).toBeLessThan(SCREEN_LAYOUT[1]!.left);
  });

  it('adds no flag for the headless shell', () => {
    expect(desktopPresentationArgs('/usr/lib/chromium/chromium-headless-shell')).toEqual([]);
  });
});
