/**
 * Chromium features the pool turns off, merged into the driver's own `--disable-features` switch.
 *
 * Chromium reads one `--disable-features=` switch: when a command line has several, the last one
 * wins (base::CommandLine keeps one value per switch). Playwright and patchright put their own
 * (`chromiumSwitches`: MediaRouter, Translate, OptimizationHints, PaintHolding…) before the
 * caller's `args`, and do not merge: passing ours alone would silently turn theirs back on. Their
 * list is not exported, and it changes between versions, so it is not copied here: it is read from
 * the driver itself, by asking it to launch a stand-in executable that records the command line it
 * is given and exits (`driverDefaultSwitches`, once per driver and process, a few ms), then ours
 * are appended to it in one switch (`mergeDisabledFeatures`).
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserType } from 'playwright-core';

/**
 * What the pool turns off on top of the driver's list. Each one is work Chromium does beside the
 * page, none changes what a page's scripts or a site can observe (docs/scraping.md, "Browser pool"):
 *
 * - SpareRendererForSitePerProcess: after every navigation Chromium starts a renderer process
 *   ahead of time for the next site; a context serves one page and is closed, so that renderer is
 *   started, initialised and killed for nothing (measured: one renderer process more per page).
 * - WebUIOmniboxPopup, WebUIOmniboxAimPopup, WebUIOmniboxFullPopup, AimEnabled: the full
 *   Chromium (156) draws the address bar's suggestion popup, and its "AI mode" variant, as WebUI
 *   pages (`chrome://omnibox-popup.top-chrome/`), loaded in a renderer process of their own for
 *   every new window, i.e. every context, though a headless window's address bar is never used:
 *   with them off the popup is drawn natively (if ever) and a page costs one renderer, not two.
 *   Browser UI, not the page's: nothing of it is visible to a page or a site.
 */
export const POOL_DISABLED_FEATURES: readonly string[] = ['SpareRendererForSitePerProcess', 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup', 'AimEnabled'];

const DISABLE_FEATURES = '--disable-features=';

/** The features a command line disables: the values of its every `--disable-features=` switch, in order, once each. */
export function disabledFeatures(args: readonly string[]): string[] {
  const features = args.filter((a) => a.startsWith(DISABLE_FEATURES)).flatMap((a) => a.slice(DISABLE_FEATURES.length).split(','));
  return [...new Set(features.map((f) => f.trim()).filter((f) => f !== ''))];
}

/**
 * `args` with every `--disable-features=` switch replaced by one at the end that disables the
 * driver's features (from `driverDefaults`, its default command line), then those of `args`, then
 * `extra`. Without any feature to disable, `args` is returned as it is.
 */
export function mergeDisabledFeatures(driverDefaults: readonly string[], args: readonly string[], extra: readonly string[] = []): string[] {
  const features = [...new Set([...disabledFeatures(driverDefaults), ...disabledFeatures(args), ...extra])];
  const rest = args.filter((a) => !a.startsWith(DISABLE_FEATURES));
  if (features.length === 0) return rest;
  return [...rest, `${DISABLE_FEATURES}${features.join(',')}`];
}

const probes = new WeakMap<BrowserType, Promise<string[]>>();

/**
 * The switches `browserType.launch()` puts on Chromium's command line by itself (headless, default
 * options): it is asked to launch a stand-in shell script, which writes its arguments to a file and
 * exits, so the launch fails at once and nothing is started. Cached per driver for the process.
 * Rejects when the stand-in recorded nothing (the launch could not run it).
 */
export function driverDefaultSwitches(browserType: BrowserType): Promise<string[]> {
  let probe = probes.get(browserType);
  if (!probe) {
    probe = probeSwitches(browserType);
    probes.set(browserType, probe);
    // A failed probe is tried again at the next launch.
    probe.catch(() => probes.delete(browserType));
  }
  return probe;
}

async function probeSwitches(browserType: BrowserType): Promise<string[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'chromium-switches-'));
  try {
    const recorded = path.join(dir, 'args');
    const standIn = path.join(dir, 'chromium');
    writeFileSync(standIn, `#!/bin/sh\nprintf '%s\\n' "$@" > '${recorded}'\nexit 1\n`);
    chmodSync(standIn, 0o755);
    await browserType.launch({ executablePath: standIn, timeout: 30_000, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false }).then(
      (browser) => browser.close(),
      () => undefined,
    );
    let text: string;
    try {
      text = readFileSync(recorded, 'utf8');
    } catch {
      throw new Error(`could not read the driver's default Chromium switches (the stand-in in ${os.tmpdir()} did not run)`);
    }
    return text.split('\n').filter((a) => a.startsWith('--'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
