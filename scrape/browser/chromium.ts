/**
 * One launched Chromium process and the pool's bookkeeping about it. The pool keeps one current
 * Chromium; after a recycle the previous one lives on as "retiring" until its last scrape ends.
 */
import { chromium } from 'playwright-core';
import { chromium as patchrightChromium } from 'patchright-core';
import { trustExtraCas } from './extra-ca';
import type { Browser, BrowserType } from 'playwright-core';
import { fallbackEngineIdentity, readEngineIdentity } from './identity';
import type { EngineIdentity } from './identity';
import { chromiumIsolation, chromiumLaunch } from './launch-environment';
import { desktopPresentationArgs, isHeadlessShell } from './presentation';
import { POOL_DISABLED_FEATURES, driverDefaultSwitches, mergeDisabledFeatures } from './switches';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  // navigator.webdriver false, natively (no getter patched): docs/scraping.md, "How we look to a site".
  '--disable-blink-features=AutomationControlled',
];

export type RecycleReason = 'pages' | 'rss';

export interface Chromium {
  readonly browser: Browser;
  /** The browser process id (Chromium reports it over CDP), for memory readings; null if unknown. */
  readonly pid: number | null;
  /** What this Chromium presents to sites, headless marker removed (identity.ts). */
  readonly identity: EngineIdentity;
  /** Launched with desktop screens (presentation.ts): its desktop contexts use them instead of emulating one. */
  readonly nativeScreens: boolean;
  /** Scrapes that have taken a context of this Chromium. */
  pages: number;
  /** Scrapes holding a context of this Chromium now: a retiring Chromium closes when this is 0. */
  inFlight: number;
  /** Replaced by a newer Chromium: takes no new scrapes, closes after its in-flight ones. */
  retiring: boolean;
  /** Why a successor is being launched, once one is. */
  recycleReason: RecycleReason | null;
  /** Recycle for pages when `pages` reaches this (moved on if a successor fails to launch). */
  recycleAt: number;
  /** Next `pages` count at which to read the memory of its process tree. */
  nextRssCheck: number;
  /** The first memory reading (proc.ts), taken after warm-up (the first `rssCheckEveryPages` pages). */
  rssBaseline: number | null;
  /** The latest reading. */
  rssLatest: number | null;
  rssReading: boolean;
}

/**
 * Which build of Playwright's API drives Chromium (docs/scraping.md, "How we look to a site"):
 * `patchright` (patchright-core, the same API) never sends CDP's `Runtime.enable` to a page, which
 * a page's script can detect (a logged Error's `stack` is read by the listening inspector:
 * fpscanner's `hasCDP`); `playwright` (playwright-core) does. Default: patchright for the full
 * Chromium (where looking like a person's Chrome is the point), playwright for the headless shell
 * (which plainly says it is headless anyway: the throughput choice).
 */
export type BrowserDriver = 'playwright' | 'patchright';

export function defaultDriver(executablePath: string): BrowserDriver {
  return isHeadlessShell(executablePath) ? 'playwright' : 'patchright';
}

function browserType(driver: BrowserDriver): BrowserType {
  // patchright-core is playwright-core's API at 1.63 (its types are its own copy of the same declarations).
  return driver === 'patchright' ? (patchrightChromium as unknown as BrowserType) : chromium;
}

export interface LaunchSettings {
  executablePath: string;
  /** Default: `defaultDriver(executablePath)`. */
  driver?: BrowserDriver;
  args: string[];
  timeoutMs: number;
  /** Page count at which to recycle (Infinity = never) and between memory readings. */
  recyclePages: number;
  rssCheckEveryPages: number;
  /** The benchmark's baseline only (BrowserPoolOptions.withoutSandbox). */
  withoutSandbox?: boolean;
  /** Features turned off with the driver's own (switches.ts); default POOL_DISABLED_FEATURES. */
  disableFeatures?: readonly string[];
}

/** Launches Chromium; rejects with Playwright's error when it cannot. */
export async function launchChromium(settings: LaunchSettings): Promise<Chromium> {
  // Screens with a work area and the workers' user agent (presentation.ts): the full Chromium only.
  const presentation = desktopPresentationArgs(settings.executablePath);
  // Its own environment, its sandbox, an unprivileged user when we are root (launch-environment.ts).
  const launch = chromiumLaunch(settings.executablePath, [...settings.args, ...presentation], { withoutSandbox: settings.withoutSandbox === true });
  // NODE_EXTRA_CA_CERTS as an NSS database in that environment's HOME (extra-ca.ts).
  trustExtraCas(launch.env.HOME!, chromiumIsolation(settings.executablePath).user);
  const type = browserType(settings.driver ?? defaultDriver(settings.executablePath));
  const browser = await type.launch({
    executablePath: launch.executablePath,
    args: await withDisabledFeatures(type, launch.args, settings.disableFeatures ?? POOL_DISABLED_FEATURES),
    env: launch.env,
    chromiumSandbox: launch.sandbox,
    timeout: settings.timeoutMs,
    // The worker decides when to stop; Chromium must not die before in-flight scrapes finish.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  return {
    browser,
    pid: await browserPid(browser),
    identity: await readEngineIdentity(browser).catch(() => fallbackEngineIdentity(browser.version())),
    nativeScreens: presentation.length > 0,
    pages: 0,
    inFlight: 0,
    retiring: false,
    recycleReason: null,
    recycleAt: settings.recyclePages,
    nextRssCheck: settings.rssCheckEveryPages,
    rssBaseline: null,
    rssLatest: null,
    rssReading: false,
  };
}

/**
 * `args` with `features` turned off in one `--disable-features` switch that keeps the driver's own
 * (switches.ts). If the driver's list cannot be read, `args` as they are: theirs must not be lost.
 */
async function withDisabledFeatures(type: BrowserType, args: string[], features: readonly string[]): Promise<string[]> {
  if (features.length === 0 && !args.some((a) => a.startsWith('--disable-features='))) return args;
  try {
    return mergeDisabledFeatures(await driverDefaultSwitches(type), args, features);
  } catch {
    return args;
  }
}

/**
 * Playwright does not expose the process of a launched browser (only of a browser server), and
 * /usr/bin/chromium is a wrapper script: ask Chromium itself.
 */
async function browserPid(browser: Browser): Promise<number | null> {
  try {
    const session = await browser.newBrowserCDPSession();
    try {
      const { processInfo } = await session.send('SystemInfo.getProcessInfo');
      return processInfo.find((p) => p.type === 'browser')?.id ?? null;
    } finally {
      await session.detach().catch(() => undefined);
    }
  } catch {
    return null;
  }
}
