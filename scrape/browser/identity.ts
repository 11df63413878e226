/**
 * What a browser context presents to a site (docs/scraping.md, "How we look to a site"): one
 * coherent identity per context, set through Chromium's own emulation (CDP
 * `Emulation.setUserAgentOverride` with client-hint metadata, Playwright's `userAgent` option, the
 * full Chromium's own screens (presentation.ts) or Playwright's `screen` option on the headless
 * shell), never by patching getters in the page: a patched getter is a giveaway of its own.
 *
 * - The engine's part is read once per launched Chromium (`readEngineIdentity`): its own user
 *   agent and client hints, with the headless marker removed ("HeadlessChrome" → "Chrome", the
 *   "HeadlessChrome" brand dropped) and the version reduced as a desktop Chrome reduces it
 *   (`Chrome/156.0.0.0`). Version, platform and architecture stay the engine's real ones: a user
 *   agent claiming another OS or version than the fonts, WebGL and JavaScript features show is
 *   easier to catch than an honest Linux Chromium.
 * - The context's part (`contextIdentity`) varies by a seed: the screen (one of a few common
 *   desktop sizes; the viewport stays 1366×900, what screenshots are documented to be) and the
 *   time zone; and by the place (locales.ts): the proxy's country gives the time zone and
 *   languages, a request's own `Accept-Language` the languages. A stored session's seed is
 *   derived from its owner and name, so it keeps its identity across scrapes.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { Browser, CDPSession } from 'playwright-core';
import { countryLocale, languagesOf } from './locales';

/** CDP's Emulation.UserAgentMetadata. */
export interface UserAgentMetadata {
  brands: Array<{ brand: string; version: string }>;
  fullVersionList: Array<{ brand: string; version: string }>;
  platform: string;
  platformVersion: string;
  architecture: string;
  model: string;
  mobile: boolean;
  bitness: string;
  wow64: boolean;
}

/** What the launched Chromium is, as a site should see it (headless marker removed). */
export interface EngineIdentity {
  /** Desktop user agent, e.g. `Mozilla/5.0 (X11; Linux x86_64) … Chrome/156.0.0.0 Safari/537.36`. */
  userAgent: string;
  /** `navigator.platform`, e.g. `Linux x86_64`. */
  navigatorPlatform: string;
  metadata: UserAgentMetadata;
}

export interface ContextIdentity {
  userAgent: string;
  /** Sent as `Accept-Language`; `navigator.languages` follows it. */
  acceptLanguage: string;
  /** The first of those languages: `Intl`'s default locale and `navigator.language`. */
  locale: string;
  /** IANA time zone: `Intl`, `Date` (locales.ts: the proxy's country, else a US zone, never the machine's UTC). */
  timezone: string;
  navigatorPlatform: string;
  metadata: UserAgentMetadata;
  screen: { width: number; height: number };
  mobile: boolean;
}

/** Common desktop screens that hold the 1366×900 viewport with room for the browser's own bars. */
export const DESKTOP_SCREENS: ReadonlyArray<{ width: number; height: number }> = [
  { width: 1920, height: 1080 },
  { width: 1920, height: 1200 },
  { width: 2560, height: 1440 },
  { width: 1680, height: 1050 },
];

/** Where the identity says it is: the proxy's country, and the request's own `Accept-Language` (Firecrawl's `location.languages`). */
export interface IdentityPlace {
  country?: string;
  acceptLanguage?: string;
}

/**
 * Height of a desktop Chrome's own bars (tab strip and toolbar) on Linux: `outerHeight` minus
 * `innerHeight`. A headless window is the viewport alone (outer = inner), which detectors flag.
 */
export const BROWSER_BARS_HEIGHT = 87;

const HEADLESS_BRAND = /headless/i;

/**
 * Reads the engine's own user agent and client hints in a throwaway context (one per launch), and
 * removes the headless marker. Falls back to what `browser.version()` alone gives if the page
 * cannot answer (the context is closed either way).
 */
export async function readEngineIdentity(browser: Browser): Promise<EngineIdentity> {
  const fullVersion = browser.version();
  const major = fullVersion.split('.')[0] ?? '0';
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const native = await page.evaluate(async () => {
      const uad = (navigator as Navigator & { userAgentData?: { getHighEntropyValues(hints: string[]): Promise<Record<string, unknown>> } }).userAgentData;
      const high = uad ? await uad.getHighEntropyValues(['architecture', 'bitness', 'model', 'platformVersion', 'fullVersionList', 'wow64']) : null;
      return { userAgent: navigator.userAgent, platform: navigator.platform, high };
    });
    const high = (native.high ?? {}) as Partial<UserAgentMetadata> & { brands?: UserAgentMetadata['brands'] };
    const withoutHeadless = (list: UserAgentMetadata['brands'] | undefined) => (list ?? []).filter((b) => !HEADLESS_BRAND.test(b.brand));
    const brands = withoutHeadless(high.brands);
    const fullVersionList = withoutHeadless(high.fullVersionList);
    return {
      userAgent: desktopUserAgent(native.userAgent, major),
      navigatorPlatform: native.platform || 'Linux x86_64',
      metadata: {
        brands: brands.length ? brands : [{ brand: 'Chromium', version: major }],
        fullVersionList: fullVersionList.length ? fullVersionList : [{ brand: 'Chromium', version: fullVersion }],
        platform: (high as { platform?: string }).platform ?? 'Linux',
        platformVersion: high.platformVersion ?? '',
        architecture: high.architecture ?? 'x86',
        model: high.model ?? '',
        mobile: false,
        bitness: high.bitness ?? '64',
        wow64: high.wow64 ?? false,
      },
    };
  } finally {
    await context.close().catch(() => undefined);
  }
}

/** What `browser.version()` alone gives, if the engine cannot be asked (a desktop Linux Chromium). */
export function fallbackEngineIdentity(fullVersion: string): EngineIdentity {
  const major = fullVersion.split('.')[0] ?? '0';
  return {
    userAgent: linuxDesktopUserAgent(major),
    navigatorPlatform: 'Linux x86_64',
    metadata: {
      brands: [{ brand: 'Chromium', version: major }],
      fullVersionList: [{ brand: 'Chromium', version: fullVersion }],
      platform: 'Linux',
      platformVersion: '',
      architecture: 'x86',
      model: '',
      mobile: false,
      bitness: '64',
      wow64: false,
    },
  };
}

/** A desktop Chrome's reduced user agent on Linux for a major version: what pages, workers and http mode send. */
export function linuxDesktopUserAgent(major: number | string): string {
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

const majors = new Map<string, number | undefined>();

/**
 * The major version `<path> --version` prints ("Chromium 156.0.8078.108" → 156), read once per
 * path and process; undefined if it cannot be read. What http mode impersonates and what the full
 * Chromium's workers say (presentation.ts) both come from it.
 */
export function chromiumMajorVersion(executablePath: string): number | undefined {
  if (!majors.has(executablePath)) {
    let major: number | undefined;
    try {
      const out = execFileSync(executablePath, ['--version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] });
      const m = /(\d+)\.\d+\.\d+/.exec(out);
      major = m ? Number(m[1]) : undefined;
    } catch {
      major = undefined;
    }
    majors.set(executablePath, major);
  }
  return majors.get(executablePath);
}

/** `HeadlessChrome/156.0.8078.108` → `Chrome/156.0.0.0` (Chrome's reduced user agent). */
export function desktopUserAgent(engineUserAgent: string, major: string): string {
  return engineUserAgent.replace(/(?:Headless)?Chrome\/[\d.]+/, `Chrome/${major}.0.0.0`);
}

/** 0 ≤ n < modulo, the same for the same seed. */
function pick(seed: string, modulo: number): number {
  return createHash('sha256').update(seed).digest().readUInt32BE(0) % modulo;
}

/**
 * The identity of one context. `seed`: a stored session's (its owner and name: activities/scrape/session.ts) to keep its
 * identity across scrapes, else any fresh value. `mobile`: the phone `mobile: true` emulates
 * (context.ts's MOBILE_DEVICE), with the engine's real version in an Android user agent.
 */
export function contextIdentity(engine: EngineIdentity, seed: string, mobile = false, place: IdentityPlace = {}): ContextIdentity {
  const screen = DESKTOP_SCREENS[pick(seed, DESKTOP_SCREENS.length)]!;
  const local = countryLocale(place.country);
  const asked = place.acceptLanguage ? languagesOf(place.acceptLanguage) : [];
  const languages = asked.length ? asked : local.languages;
  const timezone = local.timezones[pick(`${seed}:timezone`, local.timezones.length)]!;
  const where = { acceptLanguage: languages.join(','), locale: languages[0]!, timezone };
  if (!mobile) {
    return { userAgent: engine.userAgent, ...where, navigatorPlatform: engine.navigatorPlatform, metadata: engine.metadata, screen, mobile: false };
  }
  const major = engine.metadata.brands.find((b) => /chrom/i.test(b.brand))?.version ?? '0';
  return {
    // Chrome's reduced Android user agent (the model and OS version are frozen to "K" and 10).
    userAgent: `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`,
    ...where,
    navigatorPlatform: 'Linux armv81',
    metadata: { ...engine.metadata, platform: 'Android', platformVersion: '14.0.0', architecture: '', bitness: '', model: 'Pixel 7', mobile: true, wow64: false },
    screen,
    mobile: true,
  };
}

/** Sets the user agent and client hints on the page's CDP session (headers and `navigator` alike). */
export async function applyIdentity(cdp: CDPSession, identity: ContextIdentity): Promise<void> {
  await cdp.send('Emulation.setUserAgentOverride', {
    userAgent: identity.userAgent,
    acceptLanguage: identity.acceptLanguage,
    platform: identity.navigatorPlatform,
    userAgentMetadata: identity.metadata,
  });
}
