/**
 * The server-side DOM of the output formats: cheerio, the one the selectors already use
 * (docs/scraping.md "Output formats"). Its documents come from parse5, the HTML standard's own
 * parsing algorithm (implied <html>/<body>, misnested tags, tables fixed up as a browser does),
 * so an http page without <body> or with broken markup gives the tree Chromium would build; and
 * selectors, links and content all read the same tree. One parse per scrape serves links,
 * metadata and the content; nothing here runs when a request names no format.
 */
import { type Cheerio, type CheerioAPI, load } from 'cheerio';
import { selectAll } from 'css-select';
import { type AnyNode, type Element, isComment, isDocument, isTag, isText } from 'domhandler';
import { removeElement } from 'domutils';

export type { CheerioAPI } from 'cheerio';

export function parseDocument(html: string): CheerioAPI {
  return load(html);
}

/** A fragment (the main content, picked elements) as a tree of its own, not wrapped in <html><body>. */
export function parseFragment(fragment: string): CheerioAPI {
  return load(fragment, null, false);
}

/** The document's base for relative URLs: its `<base href>` resolved against the final URL, else the final URL. */
export function baseUrlOf($: CheerioAPI, finalUrl: string): string {
  const href = $('base[href]').first().attr('href');
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

/**
 * The elements matching `selector` under `roots`, in document order. css-select directly: cheerio's
 * `.find()` sorts its matches by document position, which costs O(n²) on a page with thousands
 * of siblings (measured: 1 s for 15 000 paragraphs, minutes for 2 MiB).
 */
export function select(selector: string, roots: AnyNode | AnyNode[]): Element[] {
  return selectAll(selector, roots);
}

export function removeAll(elements: readonly Element[]): void {
  for (const el of elements) removeElement(el);
}

/** Removed from the cleaned content: code, styles and what never shows as the page's content. */
const STRIPPED = new Set(['script', 'style', 'noscript', 'template', 'link', 'meta', 'base', 'iframe', 'object', 'embed', 'frame', 'frameset']);
const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'poster', 'cite', 'longdesc', 'background'];
const NOT_RESOLVED = /^(#|javascript:|data:|mailto:|tel:)/i;

function cleanAttributes(el: Element, base: string): void {
  const attribs = el.attribs;
  for (const name of Object.keys(attribs)) {
    const value = attribs[name]!;
    if (/^on/i.test(name)) delete attribs[name];
    else if (URL_ATTRIBUTES.includes(name) && !NOT_RESOLVED.test(value.trim())) attribs[name] = absoluteUrl(value, base) ?? value;
    else if (name === 'srcset') {
      attribs[name] = value
        .split(',')
        .map((candidate) => {
          const [url, ...descriptor] = candidate.trim().split(/\s+/);
          return [(url && absoluteUrl(url, base)) ?? url, ...descriptor].join(' ');
        })
        .join(', ');
    }
  }
}

/**
 * Cleans `root` in place (the `html` format), in one walk: scripts, styles, comments and
 * embedded frames removed, event handler attributes dropped, every URL attribute (and `srcset`
 * candidate) absolute against `base`.
 */
export function cleanTree(root: Cheerio<AnyNode>, base: string): void {
  const walk = (node: AnyNode): void => {
    if (!('children' in node)) return;
    node.children = node.children.filter((child) => !isComment(child) && !(isTag(child) && STRIPPED.has(child.name)));
    node.children.forEach((child, i) => {
      child.prev = node.children[i - 1] ?? null;
      child.next = node.children[i + 1] ?? null;
      if (isTag(child)) cleanAttributes(child, base);
      walk(child);
    });
  };
  for (const node of root.toArray()) walk(node);
}

const PARAGRAPH_BLOCKS = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote', 'table', 'ul', 'ol', 'dl', 'figure', 'section', 'article',
  'header', 'footer', 'main', 'aside', 'nav', 'form', 'hr', 'fieldset', 'details', 'address',
]);
const LINE_BLOCKS = new Set(['div', 'li', 'tr', 'dt', 'dd', 'caption', 'figcaption', 'summary', 'legend', 'option']);
const LINE = '\u0004';
const PARAGRAPH = '\u0005';

/**
 * The `text` format: the content's text as a reader sees it laid out, without a layout engine:
 * paragraphs and headings apart by a blank line, list items and rows one a line, table cells
 * apart by a tab, whitespace collapsed except inside <pre>.
 */
export function textOf(roots: readonly AnyNode[]): string {
  // Boundaries are marked while walking, then each run of them becomes one break: a blank line
  // when a paragraph-like block is in the run, else a line break (so rows do not double up).
  const out: string[] = [];
  const walk = (nodes: readonly AnyNode[], pre: boolean): void => {
    for (const node of nodes) {
      if (isText(node)) {
        // Inside <pre> every space, tab and line break is kept (masked from the collapsing below).
        out.push(pre ? node.data.replace(/\n/g, '\u0001').replace(/ /g, '\u0002').replace(/\t/g, '\u0003') : node.data.replace(/\s+/g, ' '));
      } else if (isTag(node)) {
        const tag = node.name;
        // domhandler counts <script> and <style> as tags: no text of theirs.
        if (tag === 'script' || tag === 'style') continue;
        if (tag === 'br') {
          out.push(LINE);
          continue;
        }
        const mark = PARAGRAPH_BLOCKS.has(tag) ? PARAGRAPH : LINE_BLOCKS.has(tag) ? LINE : '';
        out.push(mark);
        walk(node.children, pre || tag === 'pre');
        out.push(mark || (tag === 'td' || tag === 'th' ? '\t' : ''));
      } else if (isDocument(node)) {
        walk(node.children, pre);
      }
      // scripts, styles, comments, directives: no text
    }
  };
  walk(roots, false);
  return out
    .join('')
    .replace(/[ \t]*(?:[\u0004\u0005][ \t]*)+/g, (run) => (run.includes(PARAGRAPH) ? '\n\n' : '\n'))
    .split('\n')
    .map((line) => line.replace(/ *\t */g, '\t').replace(/ +/g, ' ').trim().replace(/\u0001/g, '\n').replace(/\u0002/g, ' ').replace(/\u0003/g, '\t'))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
