/**
 * Boilerplate known by its element or its class/id names: removed before the main content is
 * looked for (preClean), and furniture inside the found content removed after (postClean).
 */
import { dropLinkBlocks, dropLinkEdges, dropRelatedSections } from './precision';
import { linkDensity, textLength } from './text';

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

export function classTokens(value: string): string[] {
  return value
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * Navigation, menu, ad and legal names in German, French, Spanish, Italian and more English ones
 * (issue 38). Applied only inside the chosen content (postClean), never before the choice:
 * removing the menus they name from the page before Readability scores it changed the container
 * Readability chose on some pages (modern-article dev 0.981 → 0.967, daniel-pl 0.863 → 0.861),
 * though every element removed was a menu. `teaser` is not among them: German sites name the
 * article's lead paragraph so.
 */
const CONTENT_NAV_TOKENS = new Set([
  'nav', 'navigation', 'navbar', 'menu', 'megamenu', 'pagination', 'pager', 'sitemap',
  'teilen', 'partager', 'compartir', 'condividi', 'werbung', 'anzeige', 'anzeigen', 'publicite', 'publicidad', 'pubblicita',
  'impressum', 'datenschutz', 'cookiehinweis', 'brotkrumen', 'ariane',
  'abonnieren', 'newsletteranmeldung', 'popup', 'modal', 'paywall',
]);

function isBoilerplateName(value: string): boolean {
  const tokens = classTokens(value);
  for (const t of tokens) {
    if (!BOILERPLATE_TOKENS.has(t)) continue;
    const partners = NEEDS_PARTNER[t];
    if (!partners || tokens.some((o) => partners.includes(o))) return true;
  }
  return false;
}

export interface Doc { body: Element | null; querySelectorAll(s: string): ArrayLike<Element> }

/**
 * Remove boilerplate before Readability scores the page. An element is kept whatever its name
 * when it holds an <article>/<main>, an <h1>, or a large share of the page's text: a class such
 * as `has-ads` on the page wrapper must not delete the page.
 */
export function preClean(document: Doc): void {
  const body = document.body;
  if (!body) return;
  unwrapNoscriptContent(document, body);
  const bodyText = Math.max(1, textLength(body));
  const protect = (el: Element): boolean =>
    el === body || el.querySelector('article, main, h1, [itemprop="articleBody"]') !== null || textLength(el) > bodyText * 0.3;
  keepArticleNotes(document);
  for (const el of Array.from(document.querySelectorAll(DROP_TAGS.join(',')))) {
    if (el.isConnected && !protect(el)) el.remove();
  }
  for (const el of Array.from(document.querySelectorAll('[class], [id]'))) {
    if (!el.isConnected) continue;
    const name = `${el.getAttribute('id') ?? ''} ${el.getAttribute('class') ?? ''}`;
    if (isBoilerplateName(name) && !protect(el)) el.remove();
    // A comments section goes before the choice even when it outweighs the post (a short blog post
    // under a long thread of comments, where both extractions took the comments): issue 38.
    else if (isCommentsName(name) && el.querySelector('article, main, h1, [itemprop="articleBody"]') === null) el.remove();
  }
}

/**
 * A page's comments section (not one comment: a forum's posts are named so), in English, German,
 * French, Spanish, Italian and Polish; kept when it holds the article, its <main> or the <h1>.
 */
const COMMENTS_TOKENS = new Set(['comments', 'commentlist', 'disqus', 'kommentare', 'commentaires', 'comentarios', 'commenti', 'komentarze', 'trackbacks']);
function isCommentsName(value: string): boolean {
  const tokens = classTokens(value);
  return tokens.some((t) => COMMENTS_TOKENS.has(t)) || (tokens.includes('comment') && tokens.some((t) => t === 'list' || t === 'section' || t === 'area' || t === 'form'));
}

/**
 * A note inside the article (a margin note, a box of facts: `<aside>` within `<article>`) is part of
 * it: it becomes a <div> so that neither the aside rule above nor Readability (which drops every
 * <aside>) removes it. An aside of links (related stories) or named as boilerplate stays an aside.
 */
function keepArticleNotes(document: Doc): void {
  for (const aside of Array.from(document.querySelectorAll('article aside, [itemprop="articleBody"] aside'))) {
    if (!aside.isConnected || linkDensity(aside) > 0.3 || textLength(aside) === 0) continue;
    if (isBoilerplateName(`${aside.getAttribute('id') ?? ''} ${aside.getAttribute('class') ?? ''}`)) continue;
    const div = aside.ownerDocument.createElement('div');
    for (const a of Array.from(aside.attributes)) div.setAttribute(a.name, a.value);
    div.append(...Array.from(aside.childNodes));
    aside.replaceWith(div);
  }
}

/**
 * Some sites (Discourse forums, for one) serve their content inside <noscript> for clients
 * without JavaScript, which an http scrape is, and render it with scripts otherwise. When the
 * <noscript> elements hold most of the page's text, they are the page: their content is kept in
 * place (Readability would drop it with the element). Otherwise they are an "enable JavaScript"
 * notice or a tracking pixel, left for the cleaning to drop; in browser mode the rendered content
 * sits outside them, so it is not doubled.
 */
function unwrapNoscriptContent(document: Doc, body: Element): void {
  const noscripts = Array.from(document.querySelectorAll('noscript')).filter((el) => !el.parentElement?.closest('noscript'));
  if (noscripts.length === 0) return;
  const inside = noscripts.reduce((n, el) => n + textLength(el), 0);
  if (inside <= textLength(body) / 2) return;
  for (const el of noscripts) el.replaceWith(...Array.from(el.childNodes));
}

/**
 * Class/id tokens of furniture that sits inside the article container, which Readability keeps:
 * image captions and credits, bylines and datelines, "related"/"trending" link boxes.
 */
const FURNITURE_TOKENS = new Set([
  'caption', 'captions', 'figcaption', 'credit', 'credits', 'copyright',
  'byline', 'bylines', 'dateline', 'timestamp', 'published', 'updated', 'author', 'authors',
  'related', 'trending', 'recommended', 'recirc', 'more', 'comments', 'comment', 'tags',
]);
/** Furniture names in German, Italian, Spanish and French: related, recommendations, comments, tags. */
const FURNITURE_VOCAB = new Set(['verwandt', 'verwandte', 'empfehlung', 'empfehlungen', 'weiterlesen', 'kommentar', 'kommentare', 'schlagworte', 'schlagwoerter', 'correlati', 'relacionados', 'similaires']);
/** Tokens of those that only count next to a partner ("more stories", "read more"). */
const FURNITURE_PARTNERS: Record<string, string[]> = { more: ['stories', 'articles', 'news', 'links', 'from', 'like'], author: ['info', 'name', 'bio', 'box', 'byline'], authors: ['list', 'info'], tags: ['list', 'links'] };

function isFurnitureName(value: string): boolean {
  const tokens = classTokens(value);
  for (const t of tokens) {
    if (FURNITURE_VOCAB.has(t) || CONTENT_NAV_TOKENS.has(t)) return true;
    if (!FURNITURE_TOKENS.has(t)) continue;
    const partners = FURNITURE_PARTNERS[t];
    if (!partners || tokens.some((o) => partners.includes(o))) return true;
  }
  return false;
}

export function postClean(article: Element): void {
  const total = Math.max(1, textLength(article));
  for (const el of Array.from(article.querySelectorAll('[class], [id]'))) {
    // The article is a detached tree (isConnected is false throughout): test membership instead.
    if (!article.contains(el)) continue;
    // A <figcaption> stays (issue 38: what the article holds is kept); one named as a credit goes.
    const named = isFurnitureName(`${el.getAttribute('id') ?? ''} ${el.getAttribute('class') ?? ''}`);
    // Never more than a small part of the article: a wrapper named "post-author-content" is content.
    if (named && textLength(el) < total * 0.15) el.remove();
  }
  // Then by structure, whatever the names (precision.ts, each pass measured alone on every set).
  dropLinkEdges(article);
  dropLinkBlocks(article);
  dropRelatedSections(article);
}
