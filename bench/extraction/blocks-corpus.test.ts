/**
 * No false positives of the block-page classifier (scrape/blocks.ts) on real content: every page
 * of the committed real-page corpus (README.md: 94 readability and 181 Zyte pages, articles of
 * every kind, some with a captcha in their comment form) is classified as the target's answer at
 * 200, and at 403, 404 and 503 as if the same page were an error page: none is a block.
 * bench/blocks.ts prints the same figures (with the data-local sets when imported) and the cost.
 */
import { classifyBlock } from '../../scrape/blocks';
import { loadPages } from './pages';

const committed = loadPages().filter((page) => page.set === 'readability' || page.set === 'zyte');

it('classifies none of the corpus pages as a block, at any status', () => {
  expect(committed.length).toBe(275);
  const blocks: string[] = [];
  for (const page of committed) {
    for (const status of [200, 403, 404, 503]) {
      const verdict = classifyBlock({ status, headers: { 'content-type': 'text/html; charset=utf-8' }, body: page.html });
      if (verdict) blocks.push(`${page.set}/${page.name} at ${status}: ${verdict.vendor}`);
    }
  }
  expect(blocks).toEqual([]);
});

it('the corpus holds real pages with captcha widgets (comment and sign-up forms), so the test above means something', () => {
  const withCaptcha = committed.filter((page) => /g-recaptcha|google\.com\/recaptcha\/|h-captcha|cf-turnstile/.test(page.html));
  expect(withCaptcha.length).toBeGreaterThanOrEqual(10);
});
