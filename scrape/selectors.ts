/**
 * Selector evaluation on an HTML string with cheerio; used by both engines (the browser engine
 * passes `page.content()`), so results are identical across modes.
 *
 * Semantics:
 * - `all: false` (default) → the first match only; `all: true` → every match, in document order.
 * - `attribute` set → only elements carrying that attribute are considered, and each result's
 *   `text` is the attribute's value. For URL-valued attributes (href, src, action, formaction,
 *   poster, data, cite) the value is resolved against `baseUrl` when given, so a list of links can
 *   feed another scrape directly; `attributes` always keeps the raw values.
 * - otherwise `text` is the element's text with whitespace collapsed to single spaces and trimmed.
 * - `html` is the element's inner HTML.
 * - Only CSS (as supported by cheerio/css-select, incl. `:contains()`, `:has()`) is accepted.
 */
import { load } from 'cheerio';
import type { CheerioAPI } from 'cheerio';
import { AppError } from '../platform/errors';
import type { SelectorMatch, SelectorResult, SelectorSpec } from './types';

const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'poster', 'data', 'cite']);

let probe: CheerioAPI | undefined;

/**
 * Selectors already found valid in this process. A scrape's selectors are checked by the API
 * before it accepts the request and again by the attempt that evaluates them, and most callers
 * send the same few selectors on every request: compiling each on a probe document cost 0.8 ms of
 * the API's CPU per scrape at concurrency 1 (docs/benchmarks.md "One client, one scrape at a time").
 */
const validSelectors = new Set<string>();
const VALID_SELECTORS_MAX = 1000;
const MEMO_SELECTOR_MAX_LENGTH = 512;

/** Throws AppError INVALID_SELECTOR naming the first selector that is not valid CSS. */
export function assertValidCss(selector: string, what = 'selector'): void {
  if (validSelectors.has(selector)) return;
  probe ??= load('<html><body></body></html>');
  if (selector.trim() === '') throw new AppError('INVALID_SELECTOR', `${what} is empty`, { selector });
  try {
    probe(selector);
    // Bounded: a flood of distinct selectors only empties the memo; long ones are not kept.
    if (selector.length <= MEMO_SELECTOR_MAX_LENGTH) {
      if (validSelectors.size >= VALID_SELECTORS_MAX) validSelectors.clear();
      validSelectors.add(selector);
    }
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new AppError('INVALID_SELECTOR', `invalid CSS ${what} "${selector}": ${reason}`, { selector });
  }
}

/**
 * Validates every selector up front (before any fetch), so the API can answer 400 before starting
 * work. Accepts bare strings or specs. Throws AppError INVALID_SELECTOR naming the bad selector.
 */
export function validateSelectors(selectors: ReadonlyArray<string | SelectorSpec>): void {
  for (const s of selectors) assertValidCss(typeof s === 'string' ? s : s.selector);
}

export function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export interface EvaluateOptions {
  /** Base for resolving URL-valued attributes (the document's final URL). */
  baseUrl?: string;
}

/** Evaluates `selectors` on `html`; one result entry per selector, in order. */
export function evaluateSelectors(
  html: string,
  selectors: ReadonlyArray<string | SelectorSpec>,
  opts: EvaluateOptions = {},
): SelectorResult[] {
  const specs = selectors.map((s): SelectorSpec => (typeof s === 'string' ? { selector: s } : s));
  validateSelectors(specs);
  const $ = load(html, { baseURI: opts.baseUrl });
  return specs.map((spec) => {
    const matches: SelectorMatch[] = [];
    const attr = spec.attribute?.toLowerCase();
    for (const el of $(spec.selector).toArray()) {
      // Elements only (tags, scripts, styles: the nodes with attributes), never text or comments.
      if (!('attribs' in el)) continue;
      const attributes: Record<string, string> = { ...el.attribs };
      let text: string;
      if (attr !== undefined) {
        const value = attributes[attr];
        if (value === undefined) continue;
        text = URL_ATTRIBUTES.has(attr) ? resolveUrl(value, opts.baseUrl) : value;
      } else {
        text = normalizeText($(el).text());
      }
      matches.push({ text, html: $(el).html() ?? '', attributes });
      if (!spec.all) break;
    }
    const result: SelectorResult = { selector: spec.selector, results: matches };
    if (spec.name !== undefined) result.name = spec.name;
    return result;
  });
}

function resolveUrl(value: string, base: string | undefined): string {
  const v = value.trim();
  if (!base) return v;
  try {
    return new URL(v, base).href;
  } catch {
    return v;
  }
}
