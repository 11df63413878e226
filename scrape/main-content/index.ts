/**
 * Main-content extraction behind the scrape option `only_main_content` (docs/scraping.md,
 * "Main content", gives the choices, the measured quality and how to re-measure it).
 *
 * A cascade on one linkedom document: a pre-clean of well-known boilerplate (boilerplate.ts),
 * then two extractions compared by what they extract: Mozilla's Readability (the Firefox Reader
 * View algorithm), right on articles, and the densest text region (regions.ts: text against link
 * text, block by block), right on forum threads, product, service and listing pages where
 * Readability takes a fragment or nothing. Then a post-clean of furniture, the page's heading
 * (heading.ts) on top, absolute URLs (urls.ts), and bounds on the work for hostile input
 * (bounds.ts).
 */
import { Readability } from '@mozilla/readability';
import { load as loadWithParse5 } from 'cheerio';
import { parseHTML } from 'linkedom';
import { type Doc, postClean, preClean } from './boilerplate';
import { MAX_DEPTH, MAX_ELEMENTS, MAX_INPUT_CHARS, deeperThan, estimatedDepth, stripScripts } from './bounds';
import { pageHeading, placeHeading } from './heading';
import { densestRegion } from './regions';
import { linkDensity, textLength } from './text';
import { documentBase, resolveUrls } from './urls';

export { MAX_DEPTH, MAX_ELEMENTS, MAX_INPUT_CHARS, estimatedDepth, stripScripts } from './bounds';

/** An extraction with less text than this is not an article. */
const MIN_TEXT_CHARS = 140;
/** An extraction whose text is mostly link text is a link list (navigation), not an article. */
const MAX_LINK_DENSITY = 0.5;
/**
 * The densest region replaces Readability's article when it holds that article (this share of its
 * words) and this many times its text: Readability then took one part of the content (one post of
 * a thread, one box of a product or service page). Less text, or elsewhere, it is rather the
 * article with its comments and sidebars, or the comments alone.
 */
const REGION_OVER_ARTICLE = 4;
const REGION_HOLDS_ARTICLE = 0.9;
/**
 * A page that says it is an article (schema.org JSON-LD, Open Graph, microdata) keeps Readability's
 * article whenever it found one: a region four times its size there is the article with its
 * comments, related stories or sidebars, which Readability is right to leave out.
 */
const ARTICLE_JSON_LD = /"@type"\s*:\s*\[?\s*"(?:Article|NewsArticle|ReportageNewsArticle|AnalysisNewsArticle|OpinionNewsArticle|BackgroundNewsArticle|TechArticle|ScholarlyArticle|BlogPosting|LiveBlogPosting|Report)"/;

export interface MainContentOptions {
  /** The page's heading as an <h1> at the top of the content (default true); false leaves it out. */
  heading?: boolean;
}

/**
 * The main content of an HTML document as an HTML fragment whose links and image sources are
 * absolute (resolved against baseUrl), with navigation, headers, footers, ads, share widgets and
 * cookie banners removed, the page's heading on top (unless `heading: false`); null when the
 * document has nothing content-like (the caller then falls back to the cleaned <body>).
 */
export function extractMainContent(html: string, baseUrl: string, options: MainContentOptions = {}): string | null {
  try {
    const stripped = stripScripts(html);
    const input = stripped.length > MAX_INPUT_CHARS ? stripped.slice(0, MAX_INPUT_CHARS) : stripped;
    if (estimatedDepth(input) > MAX_DEPTH) return null;
    const { document } = parseDocument(input);
    if (!document.body || deeperThan(document.documentElement, MAX_DEPTH)) return null;
    if (document.querySelectorAll('*').length > MAX_ELEMENTS) return null;
    const base = documentBase(document, baseUrl);
    const heading = pageHeading(document);
    // JSON-LD is read from the raw input: its <script> is gone from the parsed one.
    const isArticle = declaresArticle(document) || ARTICLE_JSON_LD.test(html.length > MAX_INPUT_CHARS ? html.slice(0, MAX_INPUT_CHARS) : html);
    preClean(document);
    // A copy taken before Readability, which rewrites the document as it scores it.
    const region = densestRegion(document.body);
    const content = choose(readabilityArticle(document), region, isArticle);
    if (!content) return null;
    postClean(content);
    for (const el of Array.from(content.querySelectorAll('[class]'))) el.removeAttribute('class');
    if (textLength(content) < MIN_TEXT_CHARS) return null;
    placeHeading(content, heading, options.heading !== false);
    resolveUrls(content, base);
    return content.innerHTML.trim();
  } catch {
    // Malformed input that trips the DOM or Readability, or a document over MAX_ELEMENTS.
    return null;
  }
}

/**
 * linkedom's parser is not the HTML5 tree builder: on some real pages (no <body> tag, a stray
 * `</noscript>` before it, the page wrapped in an unknown element) it leaves the page's text
 * outside <body>, and on a page without <html> (CleanEval's old sites) it keeps only the first
 * element: the extraction finds nothing. When the root is not <html>, or most of the text lies outside
 * <body>, the page is re-serialised by parse5 (through cheerio, a dependency already: the
 * standard tree builder, which puts every such text in <body> as a browser does) and parsed again.
 * Only those pages pay for the second parse.
 */
function parseDocument(input: string): { document: Document } {
  const parsed = parseHTML(input);
  const { document } = parsed;
  // A page without <html> (old sites serve bare fragments): linkedom makes its first element the
  // root and drops what follows it.
  if (document.documentElement?.localName !== 'html') return parseHTML(loadWithParse5(input).html());
  const all = textLength(document.documentElement);
  const inBody = document.body ? textLength(document.body) : 0;
  if (all - inBody < MISPLACED_TEXT_CHARS || inBody >= all / 2) return parsed;
  return parseHTML(loadWithParse5(input).html());
}
/** Text outside <body> beyond a <title>'s: the parser misplaced the page. */
const MISPLACED_TEXT_CHARS = 500;

/**
 * Readability's article: the element holding its content (without Readability's page wrapper);
 * null when it finds none, or trips on the document (it does on a few real pages on linkedom):
 * the region is then the answer.
 */
function readabilityArticle(document: Doc): Element | null {
  let article: Element | null = null;
  try {
    new Readability(document as unknown as Document, {
      maxElemsToParse: MAX_ELEMENTS,
      // Classes are needed by postClean; they are dropped after it, as Readability would.
      keepClasses: true,
      // Readability serialises its own wrapper <div id="readability-page-1">: keep the element
      // itself, finish it in extractMainContent.
      serializer: (node) => {
        article = node as Element;
        return '';
      },
    }).parse();
  } catch {
    return null;
  }
  const found = article as Element | null;
  return found?.querySelector('#readability-page-1') ?? found;
}

/** Whether an extraction has enough text, not mostly link text, to be content. */
const contentLike = (el: Element | null): el is Element => el !== null && textLength(el) >= MIN_TEXT_CHARS && linkDensity(el) <= MAX_LINK_DENSITY;

/** Readability's article, unless the densest region is clearly the better extraction (or Readability found nothing). Exported for its test. */
export function choose(article: Element | null, region: Element | null, isArticle: boolean): Element | null {
  if (!contentLike(region)) return contentLike(article) ? article : null;
  if (!contentLike(article)) return region;
  if (isArticle) return article;
  const held = shareOfWordsIn(article, region);
  return held >= REGION_HOLDS_ARTICLE && textLength(region) >= REGION_OVER_ARTICLE * textLength(article) ? region : article;
}

/** Whether the page's Open Graph type or microdata say it is an article. */
function declaresArticle(document: Doc): boolean {
  const ogType = document.querySelectorAll('meta[property="og:type"]')[0]?.getAttribute('content') ?? '';
  return ogType.trim().toLowerCase() === 'article' || document.querySelectorAll('[itemprop="articleBody"]').length > 0;
}

const wordsOf = (el: Element): string[] => (el.textContent ?? '').toLowerCase().split(/[^\p{L}\p{M}\p{N}]+/u).filter(Boolean);

/** The share of a's words (with repeats) that occur in b. */
function shareOfWordsIn(a: Element, b: Element): number {
  const words = wordsOf(a);
  if (words.length === 0) return 0;
  const inB = new Set(wordsOf(b));
  return words.filter((w) => inB.has(w)).length / words.length;
}
