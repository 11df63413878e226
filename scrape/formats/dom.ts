/**
 * The server-side DOM of the output formats: linkedom (docs/scraping.md "Output formats": fast,
 * htmlparser2 underneath like cheerio's selectors, and a real DOM API, which Readability needs).
 * One parse per scrape serves links, metadata and the content; nothing here runs when a request
 * names no format.
 */
import { parseHTML } from 'linkedom';

/** The part of linkedom's DOM the formats use (its own typings are loose). */
export type Doc = Document;
export type El = Element;

export function parseDocument(html: string): Doc {
  return parseHTML(html).document;
}

/** A fragment (the main content) as the body of a document of its own. */
export function parseFragment(fragment: string): Doc {
  return parseDocument(`<!doctype html><html><head></head><body>${fragment}</body></html>`);
}

/** The document's base for relative URLs: its `<base href>` resolved against the final URL, else the final URL. */
export function baseUrlOf(doc: Doc, finalUrl: string): string {
  const href = doc.querySelector('base[href]')?.getAttribute('href');
  if (href) {
    try {
      return new URL(href.trim(), finalUrl).href;
    } catch {
      // an unusable <base>: the final URL
    }
  }
  return finalUrl;
}

export function absoluteUrl(value: string, base: string): string | null {
  try {
    return new URL(value.trim(), base).href;
  } catch {
    return null;
  }
}

export function collapse(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/** Removed from the cleaned content: code, styles and what never shows as the page's content. */
const STRIPPED = 'script, style, noscript, template, link, meta, base, iframe, object, embed, frame, frameset';
const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'poster', 'cite', 'longdesc', 'background'];
const COMMENT_NODE = 8;

function removeComments(node: Node): void {
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === COMMENT_NODE) (child).remove();
    else if (child.childNodes?.length) removeComments(child);
  }
}

/**
 * Cleans `root` in place (the `html` format): scripts, styles, comments and embedded frames
 * removed, every URL attribute (and `srcset` candidate) absolute against `base`.
 */
export function cleanTree(root: El, base: string): void {
  for (const el of Array.from(root.querySelectorAll(STRIPPED))) el.remove();
  removeComments(root);
  for (const el of Array.from(root.querySelectorAll('*'))) {
    for (const name of URL_ATTRIBUTES) {
      const value = el.getAttribute(name);
      if (value === null || /^(#|javascript:|data:|mailto:|tel:)/i.test(value.trim())) continue;
      const absolute = absoluteUrl(value, base);
      if (absolute) el.setAttribute(name, absolute);
    }
    const srcset = el.getAttribute('srcset');
    if (srcset) {
      el.setAttribute(
        'srcset',
        srcset
          .split(',')
          .map((candidate) => {
            const [url, ...descriptor] = candidate.trim().split(/\s+/);
            const absolute = url ? absoluteUrl(url, base) : null;
            return [absolute ?? url, ...descriptor].join(' ');
          })
          .join(', '),
      );
    }
    // Event handlers are script too.
    for (const attr of Array.from(el.attributes)) if (/^on/i.test(attr.name)) el.removeAttribute(attr.name);
  }
}

const PARAGRAPH_BLOCKS = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote', 'table', 'ul', 'ol', 'dl', 'figure', 'section', 'article',
  'header', 'footer', 'main', 'aside', 'nav', 'form', 'hr', 'fieldset', 'details', 'address',
]);
const LINE_BLOCKS = new Set(['div', 'li', 'tr', 'dt', 'dd', 'caption', 'figcaption', 'summary', 'legend', 'option']);
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/**
 * The `text` format: the content's text as a reader sees it laid out, without a layout engine:
 * paragraphs and headings apart by a blank line, list items and rows one a line, table cells
 * apart by a tab, whitespace collapsed except inside <pre>.
 */
export function textOf(root: El): string {
  // Boundaries are marked while walking, then each run of them becomes one break: a blank line
  // when a paragraph-like block is in the run, else a line break (so rows do not double up).
  const LINE = '\u0004';
  const PARAGRAPH = '\u0005';
  const out: string[] = [];
  const walk = (node: Node, pre: boolean): void => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === TEXT_NODE) {
        const data = (child as Text).data;
        // Inside <pre> every space, tab and line break is kept (masked from the collapsing below).
        out.push(pre ? data.replace(/\n/g, '\u0001').replace(/ /g, '\u0002').replace(/\t/g, '\u0003') : data.replace(/\s+/g, ' '));
      } else if (child.nodeType === ELEMENT_NODE) {
        const tag = (child as Element).localName;
        if (tag === 'br') {
          out.push(LINE);
          continue;
        }
        const mark = PARAGRAPH_BLOCKS.has(tag) ? PARAGRAPH : LINE_BLOCKS.has(tag) ? LINE : '';
        out.push(mark);
        walk(child, pre || tag === 'pre');
        out.push(mark || (tag === 'td' || tag === 'th' ? '\t' : ''));
      }
    }
  };
  walk(root, false);
  return out
    .join('')
    .replace(/[ \t]*(?:[\u0004\u0005][ \t]*)+/g, (run) => (run.includes(PARAGRAPH) ? '\n\n' : '\n'))
    .split('\n')
    .map((line) => line.replace(/ *\t */g, '\t').replace(/ +/g, ' ').trim().replace(/\u0001/g, '\n').replace(/\u0002/g, ' ').replace(/\u0003/g, '\t'))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
