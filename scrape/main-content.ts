/**
 * MINIMAL stand-in (the formats branch): the extraction work replaces this file with the real
 * extractor and its benchmark (bench/extraction/). Mozilla's Readability on a linkedom document.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

/** Readability gives up (throws) on documents with more elements than this: the work is bounded. */
const MAX_ELEMENTS = 50_000;

/**
 * The main content (article body) of an HTML document as an HTML fragment whose links and image
 * sources are absolute (resolved against baseUrl), with navigation, headers, footers, ads, share
 * widgets and cookie banners removed; null when the document has nothing article-like (the
 * caller then falls back to the cleaned <body>).
 */
export function extractMainContent(html: string, baseUrl: string): string | null {
  try {
    const { document } = parseHTML(html);
    const article = new Readability(document, { maxElemsToParse: MAX_ELEMENTS }).parse();
    const content = article?.content?.trim();
    if (!content) return null;
    const { document: fragment } = parseHTML(`<!doctype html><html><body>${content}</body></html>`);
    for (const el of Array.from(fragment.querySelectorAll('[href], [src]'))) {
      for (const name of ['href', 'src']) {
        const value = el.getAttribute(name);
        if (value === null) continue;
        try {
          el.setAttribute(name, new URL(value, baseUrl).href);
        } catch {
          // left as written
        }
      }
    }
    return fragment.body.innerHTML;
  } catch {
    return null;
  }
}
