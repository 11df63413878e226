/**
 * The densest text region of a page, found with language-independent signals only: how much text
 * each block holds, how much of it is link text, and where the blocks sit in the tree. It is the
 * second opinion beside Readability (index.ts compares the two by what they extract): Readability
 * looks for one article container and takes a single post of a forum thread, a fragment of a
 * product or service page, or nothing at all on a page that is not an article; this finds the
 * element whose text outweighs its boilerplate the most, whatever kind of page it is.
 *
 * Each block (the nearest block-level ancestor of a text) is valued by its own text: a block whose
 * text is mostly link text (menus, link lists, tag clouds) counts against, a very short one (a
 * button, a label) a little against, any other for its text less twice its link text. An element
 * scores the sum of the values of the blocks inside it; the region is the best-scoring element,
 * narrowed to the smallest one that keeps nearly all of that score. One post-order walk.
 */
import { linkDensity } from './text';

/** Elements whose boundaries start a new block of text. */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul',
]);
/** Whose text is never content (preClean removed most; the rest are skipped). */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'select', 'button', 'option', 'iframe']);
/** Text shorter than this (in weighted characters) is a label or a button, not a paragraph. */
const SHORT_TEXT = 25;
/** A block whose text is more than this share of link text is navigation. */
const LINK_BLOCK = 0.5;
/** The region is narrowed to the smallest element keeping this share of the best score. */
const KEEP_SCORE = 0.9;

/**
 * Characters of text, those of scripts written without spaces counted thrice (a Chinese
 * character carries about what three letters of an alphabetic script do).
 */
function weightedLength(text: string): number {
  const compact = text.replace(/\s+/g, '');
  const unspaced = compact.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/gu)?.length ?? 0;
  return compact.length + 2 * unspaced;
}

interface Walk { score: Map<Element, number>; order: Element[] }

/** Each element's score (the sum of the values of the blocks in it), in post-order. */
function scoreElements(root: Element): Walk {
  const own = new Map<Element, { text: number; links: number }>();
  const score = new Map<Element, number>();
  const order: Element[] = [];
  // Iterative walk (no recursion to overflow): [node, nearest block, inside a link, exit marker].
  const stack: Array<[Node, Element, boolean, boolean]> = [[root, root, false, false]];
  while (stack.length > 0) {
    const [node, block, inLink, exit] = stack.pop()!;
    if (exit) {
      const el = node as Element;
      const mine = own.get(el);
      let value = 0;
      if (mine && mine.text > 0) {
        if (mine.links > mine.text * LINK_BLOCK) value = -mine.text;
        else if (mine.text < SHORT_TEXT) value = -mine.text / 2;
        else value = mine.text - 2 * mine.links;
      }
      let total = value;
      for (let c = el.firstElementChild; c; c = c.nextElementSibling) total += score.get(c) ?? 0;
      score.set(el, total);
      order.push(el);
      continue;
    }
    if (node.nodeType === 3) {
      const n = weightedLength(node.nodeValue ?? '');
      if (n === 0) continue;
      const o = own.get(block) ?? { text: 0, links: 0 };
      o.text += n;
      if (inLink) o.links += n;
      own.set(block, o);
      continue;
    }
    if (node.nodeType !== 1) continue;
    const el = node as Element;
    const tag = el.localName;
    if (SKIPPED.has(tag)) continue;
    const myBlock = BLOCKS.has(tag) ? el : block;
    stack.push([el, myBlock, inLink, true]);
    const link = inLink || tag === 'a';
    // Children in any order: an element's value is a sum, and its exit comes after all of them.
    for (let c = el.firstChild; c; c = c.nextSibling) stack.push([c, myBlock, link, false]);
  }
  return { score, order };
}

/** Marks, for the time of the copy, the elements the region's copy leaves out. */
const DROP_MARK = 'data-region-drop';

/**
 * A copy of the densest text region under root, without its link lists; null when nothing scores
 * above zero. The document itself is left as it was (Readability reads it next).
 */
export function densestRegion(root: Element): Element | null {
  const { score, order } = scoreElements(root);
  let best: Element | null = null;
  let bestScore = 0;
  for (const el of order) {
    const s = score.get(el) ?? 0;
    if (s > bestScore) {
      best = el;
      bestScore = s;
    }
  }
  if (!best) return null;
  // Narrow: while one child alone keeps nearly all of the score, the region is that child.
  for (;;) {
    let next: Element | null = null;
    for (let c: Element | null = best.firstElementChild; c; c = c.nextElementSibling) {
      if ((score.get(c) ?? 0) >= bestScore * KEEP_SCORE) next = c;
    }
    if (!next) break;
    best = next;
  }
  const dropped = markLinkLists(best, score);
  const copy = best.cloneNode(true) as Element;
  for (const el of dropped) el.removeAttribute(DROP_MARK);
  for (const el of Array.from(copy.querySelectorAll(`[${DROP_MARK}]`))) el.remove();
  return copy;
}

/** Marks the link lists and link-heavy boxes (related articles, tag lists, pagers) and forms inside the region, outermost only. */
function markLinkLists(region: Element, score: Map<Element, number>): Element[] {
  const marked: Element[] = [];
  for (const el of Array.from(region.querySelectorAll('ul, ol, dl, div, section, table, form'))) {
    if ((score.get(el) ?? 0) >= 0 || el.parentElement?.closest(`[${DROP_MARK}]`)) continue;
    if (el.localName === 'form' || linkDensity(el) > LINK_BLOCK) {
      el.setAttribute(DROP_MARK, '');
      marked.push(el);
    }
  }
  return marked;
}
