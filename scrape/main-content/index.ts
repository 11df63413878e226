/**
 * Main-content extraction behind the scrape option `only_main_content` (docs/scraping.md,
 * "Main content", gives the choice of library, the measured quality and how to re-measure it).
 *
 * Mozilla's Readability (the Firefox Reader View algorithm) on linkedom, a light server-side
 * DOM: on the benchmark pages it gives the same output as on jsdom, Readability's reference DOM,
 * in a fraction of the time. Around it: a pre-clean of well-known boilerplate Readability keeps
 * (share bars, cookie banners, ad slots, navigation), absolute URLs, a "nothing article-like"
 * rule, and bounds on the work done for hostile input.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

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
/** An extraction with less text than this is not an article. */
const MIN_TEXT_CHARS = 140;
/** An extraction whose text is mostly link text is a link list (navigation), not an article. */
const MAX_LINK_DENSITY = 0.5;

// --- bounds on the raw input ------------------------------------------------------------------

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

// --- pre-cleaning -----------------------------------------------------------------------------

/** Elements that are never article body. */
const DROP_TAGS = ['nav', 'aside', 'footer', 'dialog', 'button', 'select', 'textarea', 'input', 'label'];

/**
 * Class/id tokens (a class or id split on "-", "_" and case changes) of well-known boilerplate:
 * cookie/consent banners, share and follow bars, ad slots, newsletter boxes, screen-reader skip
 * links. Matched on whole tokens, so "share" drops `post-share-bar` but not `shareholder-news`.
 */
const BOILERPLATE_TOKENS = new Set([
  // consent banners (incl. the common consent-management platforms)
  'cookie', 'cookies', 'cookiebanner', 'cookiebar', 'cookieconsent', 'consent', 'gdpr', 'onetrust', 'cookiebot', 'cybotcookiebot', 'cmp', 'qc', 'didomi', 'truste', 'usercentrics',
  // share / follow bars
  'share', 'shares', 'sharing', 'sharebar', 'sharedaddy', 'addthis', 'sharethis', 'addtoany', 'a2a', 'social', 'socials', 'follow',
  // ad slots
  'ad', 'ads', 'adv', 'advert', 'adverts', 'advertisement', 'advertising', 'adsbygoogle', 'adslot', 'adunit', 'dfp', 'gpt', 'taboola', 'outbrain', 'sponsored',
  // newsletter / subscription prompts
  'newsletter', 'subscribe', 'signup',
  // accessibility helpers that duplicate text
  'skip', 'skiplink', 'screen', 'sr', 'visually', 'visuallyhidden',
  // breadcrumbs and print-only furniture
  'breadcrumb', 'breadcrumbs',
]);
/** Tokens that only mean boilerplate next to another: "screen reader text", "sr only", "visually hidden", "skip link", "cmp container". */
const NEEDS_PARTNER: Record<string, string[]> = {
  screen: ['reader'], sr: ['only', 'text'], visually: ['hidden'], skip: ['link', 'links', 'to', 'content', 'nav'], cmp: ['container', 'banner', 'ui'], qc: ['cmp2'], gpt: ['ad'], follow: ['us', 'buttons', 'links'],
};

function classTokens(value: string): string[] {
  return value
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function isBoilerplateName(value: string): boolean {
  const tokens = classTokens(value);
  for (const t of tokens) {
    if (!BOILERPLATE_TOKENS.has(t)) continue;
    const partners = NEEDS_PARTNER[t];
    if (!partners || tokens.some((o) => partners.includes(o))) return true;
  }
  return false;
}

interface Doc { body: Element | null; querySelectorAll(s: string): ArrayLike<Element> }

function textLength(el: Element): number {
  return (el.textContent ?? '').replace(/\s+/g, ' ').length;
}

/**
 * Remove boilerplate before Readability scores the page. An element is kept whatever its name
 * when it holds an <article>/<main>, an <h1>, or a large share of the page's text: a class such
 * as `has-ads` on the page wrapper must not delete the page.
 */
function preClean(document: Doc): void {
  const body = document.body;
  if (!body) return;
  const bodyText = Math.max(1, textLength(body));
  const protect = (el: Element): boolean =>
    el === body || el.querySelector('article, main, h1, [itemprop="articleBody"]') !== null || textLength(el) > bodyText * 0.3;
  for (const el of Array.from(document.querySelectorAll(DROP_TAGS.join(',')))) {
    if (el.isConnected && !protect(el)) el.remove();
  }
  for (const el of Array.from(document.querySelectorAll('[class], [id]'))) {
    if (!el.isConnected) continue;
    const name = `${el.getAttribute('id') ?? ''} ${el.getAttribute('class') ?? ''}`;
    if (isBoilerplateName(name) && !protect(el)) el.remove();
  }
}

// --- post-cleaning ----------------------------------------------------------------------------

/**
 * Class/id tokens of furniture that sits inside the article container, which Readability keeps:
 * image captions and credits, bylines and datelines, "related"/"trending" link boxes.
 */
const FURNITURE_TOKENS = new Set([
  'caption', 'captions', 'figcaption', 'credit', 'credits', 'copyright',
  'byline', 'bylines', 'dateline', 'timestamp', 'published', 'updated', 'author', 'authors',
  'related', 'trending', 'recommended', 'recirc', 'more', 'comments', 'comment', 'tags',
]);
/** Tokens of those that only count next to a partner ("more stories", "read more"). */
const FURNITURE_PARTNERS: Record<string, string[]> = { more: ['stories', 'articles', 'news', 'links', 'from', 'like'], author: ['info', 'name', 'bio', 'box', 'byline'], authors: ['list', 'info'], tags: ['list', 'links'] };

function isFurnitureName(value: string): boolean {
  const tokens = classTokens(value);
  for (const t of tokens) {
    if (!FURNITURE_TOKENS.has(t)) continue;
    const partners = FURNITURE_PARTNERS[t];
    if (!partners || tokens.some((o) => partners.includes(o))) return true;
  }
  return false;
}

function postClean(article: Element): void {
  const total = Math.max(1, textLength(article));
  for (const el of Array.from(article.querySelectorAll('figcaption, [class], [id]'))) {
    // The article is a detached tree (isConnected is false throughout): test membership instead.
    if (!article.contains(el)) continue;
    const tag = el.tagName.toLowerCase();
    const named = tag === 'figcaption' || isFurnitureName(`${el.getAttribute('id') ?? ''} ${el.getAttribute('class') ?? ''}`);
    // Never more than a small part of the article: a wrapper named "post-author-content" is content.
    if (named && textLength(el) < total * 0.15) el.remove();
  }
}

// --- URLs -------------------------------------------------------------------------------------

const URL_ATTRIBUTES: Array<[string, string]> = [
  ['a', 'href'], ['area', 'href'], ['img', 'src'], ['video', 'src'], ['video', 'poster'], ['audio', 'src'],
  ['source', 'src'], ['track', 'src'], ['iframe', 'src'], ['embed', 'src'], ['object', 'data'], ['blockquote', 'cite'], ['q', 'cite'],
];

function absolute(value: string, base: string): string | null {
  try {
    return new URL(value.trim(), base).href;
  } catch {
    return null;
  }
}

function resolveUrls(root: Element, base: string): void {
  for (const [tag, attr] of URL_ATTRIBUTES) {
    for (const el of Array.from(root.querySelectorAll(`${tag}[${attr}]`))) {
      const abs = absolute(el.getAttribute(attr) ?? '', base);
      if (abs === null || /^(javascript|vbscript|data):/i.test(abs) && tag !== 'img') el.removeAttribute(attr);
      else el.setAttribute(attr, abs);
    }
  }
  for (const el of Array.from(root.querySelectorAll('img[srcset], source[srcset]'))) {
    const srcset = (el.getAttribute('srcset') ?? '')
      .split(',')
      .map((part) => {
        const [url, ...descriptor] = part.trim().split(/\s+/);
        const abs = url ? absolute(url, base) : null;
        return abs ? [abs, ...descriptor].join(' ') : null;
      })
      .filter((x): x is string => x !== null);
    if (srcset.length > 0) el.setAttribute('srcset', srcset.join(', '));
    else el.removeAttribute('srcset');
  }
}

/** The document's base URL: a <base href> resolved against the page URL, else the page URL. */
function documentBase(document: Doc, baseUrl: string): string {
  const href = document.querySelectorAll('base[href]')[0]?.getAttribute('href');
  return (href && absolute(href, baseUrl)) || baseUrl;
}

// --- the extractor ----------------------------------------------------------------------------

/** Whether the element tree under root is deeper than limit (iterative: no recursion to overflow). */
function deeperThan(root: Element, limit: number): boolean {
  const stack: Array<[Element, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [el, depth] = stack.pop()!;
    if (depth > limit) return true;
    for (let child = el.firstElementChild; child; child = child.nextElementSibling) stack.push([child, depth + 1]);
  }
  return false;
}

function linkDensity(el: Element): number {
  const total = textLength(el);
  if (total === 0) return 1;
  let links = 0;
  for (const a of Array.from(el.querySelectorAll('a'))) links += textLength(a);
  return links / total;
}

/**
 * The main content (article body) of an HTML document as an HTML fragment whose links and image
 * sources are absolute (resolved against baseUrl), with navigation, headers, footers, ads, share
 * widgets and cookie banners removed; null when the document has nothing article-like (the
 * caller then falls back to the cleaned <body>).
 */
export function extractMainContent(html: string, baseUrl: string): string | null {
  try {
    const stripped = stripScripts(html);
    const input = stripped.length > MAX_INPUT_CHARS ? stripped.slice(0, MAX_INPUT_CHARS) : stripped;
    if (estimatedDepth(input) > MAX_DEPTH) return null;
    const { document } = parseHTML(input);
    if (!document.body || deeperThan(document.documentElement, MAX_DEPTH)) return null;
    if (document.querySelectorAll('*').length > MAX_ELEMENTS) return null;
    const base = documentBase(document, baseUrl);
    preClean(document);
    let result: Element | null = null;
    new Readability(document, {
      maxElemsToParse: MAX_ELEMENTS,
      // Classes are needed by postClean; they are dropped after it, as Readability would.
      keepClasses: true,
      // Readability serialises its own wrapper <div id="readability-page-1">: keep the element
      // itself, finish it below.
      serializer: (node) => {
        result = node as Element;
        return '';
      },
    }).parse();
    const article = result as Element | null;
    if (!article) return null;
    if (textLength(article) < MIN_TEXT_CHARS || linkDensity(article) > MAX_LINK_DENSITY) return null;
    postClean(article);
    for (const el of Array.from(article.querySelectorAll('[class]'))) el.removeAttribute('class');
    if (textLength(article) < MIN_TEXT_CHARS) return null;
    resolveUrls(article, base);
    const page = article.querySelector('#readability-page-1');
    return (page ?? article).innerHTML.trim();
  } catch {
    // Malformed input that trips the DOM or Readability, or a document over MAX_ELEMENTS.
    return null;
  }
}
