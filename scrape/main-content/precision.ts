/**
 * Precision passes over the chosen content, by structure (issue 38): link lists at the content's
 * ends, link-dense blocks, and "Related"/"Mehr zum Thema" sections. Each was measured alone on
 * every development set (docs/scraping.md, "Main content, second pass").
 */
import { linkDensity, textLength } from './text';

const BLOCK = /^(p|ul|ol|dl|table|h[1-6]|pre|blockquote|figure|li|dd|dt|tr)$/;
const CONTAINER = /^(div|section|article|main|header|span|center|font|form|tbody|thead)$/;

/** The first or last block with text of the content, descending through wrappers. */
function edgeBlock(root: Element, fromEnd: boolean): Element | null {
  let el: Element | null = root;
  for (;;) {
    const kids: Element[] = Array.from(el.children).filter((c) => textLength(c) > 0 || c.localName === 'img');
    if (kids.length === 0) return el === root ? null : el;
    const next: Element = fromEnd ? kids[kids.length - 1]! : kids[0]!;
    if (BLOCK.test(next.localName) || !CONTAINER.test(next.localName)) return next;
    el = next;
  }
}

const isHeading = (el: Element): boolean => /^h[1-6]$/.test(el.localName);

/**
 * (a) The content's ends: link lists and link-heavy blocks at its end (more stories, tags, share
 * lines) and at its start (breadcrumbs, section menus) go, with a heading left dangling at the end.
 * Never more than a third of the content's text.
 */
export function dropLinkEdges(content: Element): void {
  const total = Math.max(1, textLength(content));
  let removed = 0;
  for (const fromEnd of [true, false]) {
    for (let guard = 0; guard < 30; guard++) {
      const el = edgeBlock(content, fromEnd);
      if (!el) break;
      const len = textLength(el);
      // A heading at the start stays (the page's <h1> is put back on top anyway).
      const linkHeavy = el.querySelector('a') !== null && linkDensity(el) > 0.5 && (fromEnd || !isHeading(el));
      const dangling = fromEnd && isHeading(el) && len < 100;
      if (!(linkHeavy || dangling) || removed + len > total / 3) break;
      removed += len;
      // The block goes with the wrappers that hold nothing else.
      let gone: Element = el;
      while (gone.parentElement && gone.parentElement !== content && textLength(gone.parentElement) === len) gone = gone.parentElement;
      gone.remove();
    }
  }
}

/** (d) Link-dense blocks anywhere in the content: three or more links, mostly link text. */
export function dropLinkBlocks(content: Element): void {
  const total = Math.max(1, textLength(content));
  for (const el of Array.from(content.querySelectorAll('ul, ol, dl, div, section, table'))) {
    if (!content.contains(el)) continue;
    if (el.querySelectorAll('a').length >= 3 && linkDensity(el) > 0.6 && textLength(el) < total * 0.25) el.remove();
  }
}

/** Headings that open a list of other articles, in the languages of the sets. */
export const RELATED_HEADING = new RegExp(
  '^(' +
    [
      'mehr zu(m|r)? ', 'mehr (artikel|nachrichten|news|aus|von|zum)', 'weitere (artikel|beiträge|nachrichten|meldungen|themen|links)', 'lesen sie (auch|mehr|weiter)', 'auch interessant',
      'das könnte sie (auch )?interessieren', 'verwandte (artikel|themen|beiträge)', 'ähnliche (artikel|beiträge|themen)', 'empfehlungen', 'zum thema',
      'related', 'more (from|stories|on|articles|news|like this)', 'read (more|next|also)', 'you (may|might) (also )?(like|be interested)', 'recommended', 'see also', 'further reading', 'most (read|popular|viewed)', 'top stories', 'trending',
      'à lire aussi', 'a lire aussi', 'lire aussi', 'sur le même sujet', 'articles similaires', 'vous aimerez aussi',
      'leer más', 'lee también', 'te puede interesar', 'noticias relacionadas', 'artículos relacionados',
      'leggi anche', 'potrebbe interessarti', 'articoli correlati', 'notizie correlate',
    ].join('|') +
    ')',
  'iu',
);

/** (c) A heading such as "Related" or "Mehr zum Thema" and the link blocks after it. */
export function dropRelatedSections(content: Element): void {
  for (const h of Array.from(content.querySelectorAll('h2, h3, h4, h5, h6, strong, b'))) {
    if (!content.contains(h)) continue;
    const text = (h.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (text.length === 0 || text.length > 60 || !RELATED_HEADING.test(text)) continue;
    // <strong>/<b> only when it is the whole of its block (a heading in all but name)
    let head: Element = h;
    if (!isHeading(h)) {
      const parent = h.parentElement;
      if (!parent || parent === content || textLength(parent) !== textLength(h)) continue;
      head = parent;
    }
    const following: Element[] = [];
    let next = head.nextElementSibling;
    while (next && !isHeading(next)) {
      if (linkDensity(next) > 0.5 && next.querySelector('a')) following.push(next);
      else break;
      next = next.nextElementSibling;
    }
    if (following.length === 0) continue;
    head.remove();
    for (const f of following) f.remove();
  }
}
