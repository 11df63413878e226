/**
 * The page as a PNG (the `screenshot` formats and the `screenshot` action): the viewport, or the
 * whole page cut at MAX_SCREENSHOT_HEIGHT.
 */
import type { Page } from 'playwright-core';

/** A full page is cut at this height (Chromium's own texture limit is 16 384 px). */
export const MAX_SCREENSHOT_HEIGHT = 16_384;

/** The page as a PNG: the viewport (1366×900), or the whole page up to MAX_SCREENSHOT_HEIGHT. */
export async function takeScreenshot(page: Page, fullPage: boolean, run: { remaining(): number }): Promise<{ png: Uint8Array; width: number; height: number }> {
  const viewport = page.viewportSize() ?? { width: 1366, height: 900 };
  let clip: { x: number; y: number; width: number; height: number } | undefined;
  if (fullPage) {
    const height = await page.evaluate(() => Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0));
    if (height > MAX_SCREENSHOT_HEIGHT) clip = { x: 0, y: 0, width: viewport.width, height: MAX_SCREENSHOT_HEIGHT };
  }
  const png = await page.screenshot({ type: 'png', fullPage, clip, timeout: run.remaining(), animations: 'disabled' });
  return { png, ...pngSize(png) };
}

/** A PNG's size from its IHDR chunk (bytes 16–23, big-endian). */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
