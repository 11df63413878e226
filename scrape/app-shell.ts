/**
 * Pages that plainly need JavaScript (docs/scraping.md "Escalation"): what an http fetch got is
 * the shell of a single-page app, or a page whose only words ask to turn JavaScript on. An `auto`
 * scrape moves such an answer on to the browser; every other mode takes it as the page.
 *
 * Deliberately narrow, so an ordinary page is never sent to the (dearer) browser for nothing:
 * - `app_shell`: at most APP_SHELL_MAX_TEXT characters of visible text, and a script bundle
 *   (`<script src=…>`) or an empty mount point (`id="root"`, `"app"`, `"__next"`, `"__nuxt"`);
 * - `noscript`: a `<noscript>` asking for JavaScript, and at most NOSCRIPT_MAX_TEXT characters of
 *   visible text around it (a full article with a polite noscript notice is not a shell).
 * Only HTML answers are judged, and only up to MAX_JUDGED_CHARS (a shell is small).
 *
 * Client-safe (no Node built-ins), like scrape/blocks.ts, whose text measure it shares.
 */
import { visibleTextLength } from './blocks';

export type JavaScriptNeed = 'app_shell' | 'noscript';

/** Visible text (outside tags, scripts, styles, noscript) a shell may have: a title, a "Loading…". */
export const APP_SHELL_MAX_TEXT = 120;
/** Visible text beside a noscript warning for the page to count as needing JavaScript. */
export const NOSCRIPT_MAX_TEXT = 400;
/** Longer documents are never judged shells. */
export const MAX_JUDGED_CHARS = 256 * 1024;

const SCRIPT_BUNDLE = /<script\b[^>]*\bsrc\s*=/i;
const EMPTY_MOUNT = /<(div|main|body|app-root)\b[^>]*\bid\s*=\s*["']?(root|app|__next|__nuxt|svelte|main-app)["']?[^>]*>\s*<\/\1>/i;
const NOSCRIPT = /<noscript\b[^>]*>([\s\S]*?)<\/noscript\s*>/gi;
const ASKS_FOR_JAVASCRIPT = /(enable|turn on|activate|requires?|need|needs|without)\b[^<]{0,60}\bjavascript|javascript\b[^<]{0,40}\b(required|disabled|enabled|needed|must be)/i;

/** Why this HTML needs a browser, or undefined when it is a page as it is. */
export function javaScriptNeed(html: string, contentType?: string): JavaScriptNeed | undefined {
  if (contentType !== undefined && !/html/i.test(contentType)) return undefined;
  if (html.length > MAX_JUDGED_CHARS) return undefined;
  const text = visibleTextLength(html);
  if (text <= APP_SHELL_MAX_TEXT && (SCRIPT_BUNDLE.test(html) || EMPTY_MOUNT.test(html))) return 'app_shell';
  if (text <= NOSCRIPT_MAX_TEXT) {
    for (const match of html.matchAll(NOSCRIPT)) if (ASKS_FOR_JAVASCRIPT.test(match[1] ?? '')) return 'noscript';
  }
  return undefined;
}
