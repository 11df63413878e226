/**
 * The page's heading: what a reader sees as its title. Readability keeps it apart from the content
 * (and removes the <h1> that repeats it); the formats put it back at the top of the content
 * (docs/scraping.md, "Main content", the heading).
 */

/** Longer than this, an <h1> is a paragraph styled big, not a heading. */
const MAX_HEADING_CHARS = 300;
/** Separators between a page's title and its site's name in <title>. */
const TITLE_SEPARATORS = /\s+[|\-–—:·•»«/]\s+|\s+::\s+/;

const collapse = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim();
const words = (text: string): Set<string> => new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean));

/** The share of a's words found in b. */
function overlap(a: string, b: string): number {
  const wa = words(a);
  if (wa.size === 0) return 0;
  const wb = words(b);
  let n = 0;
  for (const w of wa) if (wb.has(w)) n++;
  return n / wa.size;
}

interface HeadingDoc { querySelectorAll(selector: string): ArrayLike<Element>; title?: string }

/**
 * The page's heading, read before anything is removed: its <h1> (of several, those inside an
 * article or main element first, and of those the one the og:title or <title> names, else the
 * first); without
 * an <h1>, og:title, else the <title> without the site's name (its longest part).
 */
export function pageHeading(document: HeadingDoc): string | null {
  const meta = (name: string): string => collapse(document.querySelectorAll(`meta[property="${name}"], meta[name="${name}"]`)[0]?.getAttribute('content'));
  const title = collapse(document.querySelectorAll('title')[0]?.textContent);
  const named = meta('og:title') || title;
  const h1s = Array.from(document.querySelectorAll('h1'))
    .map((el) => ({ el, text: collapse(el.textContent) }))
    .filter((h) => h.text.length > 0 && h.text.length <= MAX_HEADING_CHARS);
  if (h1s.length === 1) return h1s[0]!.text;
  if (h1s.length > 1) {
    // A site's logo is often an <h1> too: the article's own comes first, then the one the title names.
    const inArticle = h1s.filter((h) => h.el.closest('article, main, [role="main"]') !== null);
    const pool = inArticle.length > 0 ? inArticle : h1s;
    return (pool.find((h) => named && overlap(h.text, named) >= 0.6) ?? pool[0]!).text;
  }
  if (meta('og:title')) return meta('og:title');
  if (!title) return null;
  const parts = title.split(TITLE_SEPARATORS).map((p) => p.trim()).filter(Boolean);
  return parts.reduce((a, b) => (b.length > a.length ? b : a), '') || null;
}

/**
 * Put the heading at the top of the content: an <h1> of its text, after removing any heading
 * element of the content that repeats it (so it is there once); with `keep` false, only removed.
 */
export function placeHeading(content: Element, heading: string | null, keep: boolean): void {
  if (!heading) return;
  const same = heading.toLowerCase();
  for (const h of Array.from(content.querySelectorAll('h1, h2, h3'))) {
    if (collapse(h.textContent).toLowerCase() === same) h.remove();
  }
  if (!keep) return;
  const h1 = content.ownerDocument.createElement('h1');
  h1.textContent = heading;
  content.insertBefore(h1, content.firstChild);
}
