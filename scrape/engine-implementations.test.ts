/** The engines' settings that depend on the Chromium in use (unit). */
import { defaultSpareContexts } from './engine-implementations';

describe('BROWSER_SPARE_CONTEXTS unset', () => {
  it('keeps no spare with the full Chromium, and the pool default (the concurrency) with the headless shell', () => {
    expect(defaultSpareContexts('/usr/lib/chromium/chromium')).toBe(0);
    expect(defaultSpareContexts('/usr/lib/chromium/chromium-headless-shell')).toBeUndefined();
  });
});
