/**
 * Bounds on the work main-content extraction does for hostile input (docs/scraping.md, "Main
 * content"): the input's size, its nesting depth (estimated before parsing, checked after) and
 * its element count.
 */
/** Documents are cut at this many characters (after removing scripts and styles) before parsing. */
export const MAX_INPUT_CHARS = 2_000_000;
/**
 * Documents with more elements than this are not extracted (null). Checked here: Readability's
 * own maxElemsToParse counts getElementsByTagName('*'), which is empty on linkedom. The largest
 * benchmark page has under 10,000.
 */
export const MAX_ELEMENTS = 30_000;
/**
 * Readability's work grows with nodes × nesting depth (it walks every node's ancestors):
 * 4,000 nested <div>s already take over a second. Real pages stay far below this depth.
 */
export const MAX_DEPTH = 500;
/**
 * The text of <script>/<style> elements removed from raw HTML, so that MAX_INPUT_CHARS counts
 * markup and text rather than inline bundles (pages carry megabytes of them). One forward pass:
 * each regular expression resumes where the previous match ended, so the work is linear.
 */
export function stripScripts(html: string): string {
  const open = /<(script|style)\b[^<>]*>/gi;
  const parts: string[] = [];
  let at = 0;
  for (;;) {
    open.lastIndex = at;
    const m = open.exec(html);
    if (!m) break;
    parts.push(html.slice(at, m.index));
    const close = new RegExp(`</${m[1]}\\s*>`, 'gi');
    close.lastIndex = m.index + m[0].length;
    const c = close.exec(html);
    if (!c) return parts.join(''); // unterminated: a browser treats the rest as script text
    at = c.index + c[0].length;
  }
  parts.push(html.slice(at));
  return parts.join('');
}

/** Elements without an end tag, or whose end tag is optional: they do not nest in practice. */
const NON_NESTING = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'p', 'li', 'td', 'th', 'tr', 'option', 'dd', 'dt', 'param']);

/**
 * The deepest nesting of raw HTML estimated on its tags (opens minus closes), in one linear pass:
 * linkedom's parser and Readability both slow down badly on documents nested tens of thousands deep.
 */
export function estimatedDepth(html: string): number {
  const tag = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^<>]*?(\/?)>/g;
  let depth = 0;
  let max = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    if (NON_NESTING.has(m[2]!.toLowerCase()) || m[3]) continue;
    depth = m[1] ? Math.max(0, depth - 1) : depth + 1;
    if (depth > max) max = depth;
  }
  return max;
}

export /** Whether the element tree under root is deeper than limit (iterative: no recursion to overflow). */
function deeperThan(root: Element, limit: number): boolean {
  const stack: Array<[Element, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [el, depth] = stack.pop()!;
    if (depth > limit) return true;
    for (let child = el.firstElementChild; child; child = child.nextElementSibling) stack.push([child, depth + 1]);
  }
  return false;
}
