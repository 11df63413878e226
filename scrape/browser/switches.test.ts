/**
 * The pool's disabled Chromium features merged into the driver's own `--disable-features` switch
 * (switches.ts): the merge (unit), the driver's list read from the driver itself, and the command
 * line of a Chromium the pool launches (real patchright-core, real full Chromium).
 */
import { readFileSync } from 'node:fs';
import { chromium as patchrightChromium } from 'patchright-core';
import { chromium } from 'playwright-core';
import type { BrowserType } from 'playwright-core';
import { CHROMIUM_ARGS, launchChromium } from './chromium';
import { POOL_DISABLED_FEATURES, disabledFeatures, driverDefaultSwitches, mergeDisabledFeatures } from './switches';

const FULL_CHROMIUM = '/usr/lib/chromium/chromium';

describe('Chromium switches', () => {
  it('merges every --disable-features switch into one at the end, the driver\'s features first, once each', () => {
    const driver = ['--no-first-run', '--disable-features=MediaRouter,Translate', '--headless'];
    const args = ['--disable-gpu', '--disable-features=Translate,Foo', '--lang=en-US'];
    expect(mergeDisabledFeatures(driver, args, ['SpareRendererForSitePerProcess', 'Foo'])).toEqual([
      '--disable-gpu',
      '--lang=en-US',
      '--disable-features=MediaRouter,Translate,Foo,SpareRendererForSitePerProcess',
    ]);
    // Nothing to disable: the arguments as they are.
    expect(mergeDisabledFeatures(['--headless'], ['--disable-gpu'])).toEqual(['--disable-gpu']);
    // Empty and blank entries are dropped.
    expect(disabledFeatures(['--disable-features=', '--disable-features=A,,B , A'])).toEqual(['A', 'B']);
  });

  it.each([
    ['patchright-core', patchrightChromium as unknown as BrowserType],
    ['playwright-core', chromium],
  ])('reads the default switches of %s from the driver itself', async (_name, type) => {
    const switches = await driverDefaultSwitches(type);
    // Features every Playwright build has disabled for years (their chromiumSwitches.ts).
    expect(disabledFeatures(switches)).toEqual(expect.arrayContaining(['MediaRouter', 'PaintHolding']));
    expect(switches).toContain('--headless');
    // Cached: the same answer without a second launch.
    expect(await driverDefaultSwitches(type)).toBe(switches);
  });

  it('launches the pool\'s Chromium with the driver\'s disabled features and its own in the switch Chromium reads', async () => {
    const c = await launchChromium({ executablePath: FULL_CHROMIUM, args: [...CHROMIUM_ARGS], timeoutMs: 60_000, recyclePages: Infinity, rssCheckEveryPages: 50 });
    try {
      expect(c.pid).not.toBeNull();
      const argv = readFileSync(`/proc/${c.pid}/cmdline`, 'utf8').split('\0');
      // Chromium keeps the last one.
      const effective = argv.filter((a) => a.startsWith('--disable-features=')).at(-1)!;
      const driver = disabledFeatures(await driverDefaultSwitches(patchrightChromium as unknown as BrowserType));
      expect(driver.length).toBeGreaterThan(0);
      expect(disabledFeatures([effective])).toEqual([...new Set([...driver, ...POOL_DISABLED_FEATURES])]);
      // A page still loads, and its window starts no WebUI page of the browser's own (the omnibox popup).
      const context = await c.browser.newContext();
      const page = await context.newPage();
      await page.setContent('<p>ok</p>');
      expect(await page.textContent('p')).toBe('ok');
      const session = await c.browser.newBrowserCDPSession();
      const { targetInfos } = await session.send('Target.getTargets');
      expect(targetInfos.map((t) => t.url).filter((url) => url.startsWith('chrome://'))).toEqual([]);
      await session.detach();
      await context.close();
    } finally {
      await c.browser.close();
    }
  }, 120_000);
});
