/**
 * What the full Chromium is launched to present, before any context exists (docs/scraping.md,
 * "How we look to a site"): facts a page reads that no per-page CDP emulation reaches.
 *
 * - **Screens with a work area.** A person's desktop has a panel (GNOME's top bar), so
 *   `screen.availHeight` is below `screen.height`; headless Chromium's screen is 800×600 with no
 *   panel, and any device-metrics emulation (Playwright's `viewport`/`screen` options) sets
 *   `avail*` equal to the screen (CreepJS's `noTaskbar`). So Chromium is launched with
 *   `--screen-info` (new headless mode's screen configuration): every desktop screen of
 *   identity.ts side by side, each with a 32 px top bar, and a desktop context does not emulate
 *   device metrics at all: its window is sized to the 1366×900 viewport plus the browser's bars and
 *   placed on the screen its identity names (`windowOnScreen`). Every value a page reads is then
 *   Chromium's own. With several screens `screen.isExtended` is true, as for a person with more
 *   than one monitor.
 * - **The user agent of workers.** `Emulation.setUserAgentOverride` applies to a page and its
 *   dedicated workers; shared and service workers take Chromium's default user agent, which in
 *   headless mode says `HeadlessChrome` (CreepJS's `hasHeadlessWorkerUA`). `--user-agent` makes that
 *   default the desktop one (the same string identity.ts gives pages), from the major version
 *   `--version` prints.
 *
 * Only for the full Chromium: the headless shell (the throughput choice, which says it is headless
 * anyway) keeps Playwright's emulation, and no flag changes there.
 */
import path from 'node:path';
import { DESKTOP_SCREENS, chromiumMajorVersion, linuxDesktopUserAgent } from './identity';

/** GNOME's top bar: the part of each screen a window cannot cover (`availTop`, `height - availHeight`). */
export const DESKTOP_PANEL_HEIGHT = 32;

/** The desktop screens side by side, left to right, as `--screen-info` lays them out. */
export const SCREEN_LAYOUT: ReadonlyArray<{ left: number; width: number; height: number }> = DESKTOP_SCREENS.reduce<Array<{ left: number; width: number; height: number }>>((laid, s) => {
  const last = laid[laid.length - 1];
  laid.push({ left: last ? last.left + last.width : 0, width: s.width, height: s.height });
  return laid;
}, []);

export function isHeadlessShell(executablePath: string): boolean {
  return /headless[-_]shell/.test(path.basename(executablePath));
}

/** `--screen-info={0,0 1920x1080 workAreaTop=32}{1920,0 1920x1200 workAreaTop=32}…` */
export function screenInfoArg(): string {
  return `--screen-info=${SCREEN_LAYOUT.map((s) => `{${s.left},0 ${s.width}x${s.height} workAreaTop=${DESKTOP_PANEL_HEIGHT}}`).join('')}`;
}

/** The launch flags above; none for the headless shell. `--user-agent` only when the version can be read. */
export function desktopPresentationArgs(executablePath: string): string[] {
  if (isHeadlessShell(executablePath)) return [];
  const major = chromiumMajorVersion(executablePath);
  return [
    screenInfoArg(),
    // Chrome's reduced desktop user agent on Linux, as identity.ts's desktopUserAgent makes it from the engine's own.
    ...(major !== undefined ? [`--user-agent=${linuxDesktopUserAgent(major)}`] : []),
  ];
}

/**
 * Where a desktop context's window goes: on the screen of its identity (by size; the first one
 * when none matches), centred in that screen's work area, `width`×`height` (the viewport plus the
 * browser's bars).
 */
export function windowOnScreen(screen: { width: number; height: number } | undefined, width: number, height: number): { left: number; top: number; width: number; height: number } {
  const on = SCREEN_LAYOUT.find((s) => s.width === screen?.width && s.height === screen?.height) ?? SCREEN_LAYOUT[0]!;
  const workHeight = on.height - DESKTOP_PANEL_HEIGHT;
  return {
    left: on.left + Math.max(0, Math.floor((on.width - width) / 2)),
    top: DESKTOP_PANEL_HEIGHT + Math.max(0, Math.floor((workHeight - height) / 2)),
    width,
    height,
  };
}
