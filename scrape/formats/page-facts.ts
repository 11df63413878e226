/** The `links` and `metadata` formats, read from the whole document (not only its main content). */
import type { PageLink, PageMetadata } from '../types';
import { type Doc, absoluteUrl, collapse } from './dom';

/** Every `<a href>` / `<area href>` of the page: absolute http(s) URLs without fragment, once each (the first's text and rel). */
export function linksOf(doc: Doc, base: string): PageLink[] {
  const links = new Map<string, PageLink>();
  for (const el of Array.from(doc.querySelectorAll('a[href], area[href]'))) {
    const absolute = absoluteUrl(el.getAttribute('href')!, base);
    if (!absolute) continue;
    const url = new URL(absolute);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    url.hash = '';
    const text =
      collapse(el.textContent) ||
      collapse(el.getAttribute('aria-label')) ||
      collapse(el.getAttribute('title')) ||
      collapse(el.querySelector('img[alt]')?.getAttribute('alt')) ||
      collapse(el.getAttribute('alt'));
    const existing = links.get(url.href);
    if (!existing) links.set(url.href, { url: url.href, text, rel: el.getAttribute('rel') });
    else if (!existing.text && text) existing.text = text;
  }
  return Array.from(links.values());
}

export interface ResponseFacts {
  status: number;
  headers: Record<string, string>;
  finalUrl: string;
}

const PUBLISHED = [
  'meta[property="article:published_time"]',
  'meta[property="og:published_time"]',
  'meta[name="article:published_time"]',
  'meta[itemprop="datePublished"]',
  'meta[name="date"]',
  'meta[name="pubdate"]',
  'meta[name="publish-date"]',
  'meta[name="dc.date"]',
  'meta[name="DC.date.issued"]',
];

function metaContent(doc: Doc, selector: string): string | null {
  const value = doc.querySelector(selector)?.getAttribute('content');
  return value === null || value === undefined || value.trim() === '' ? null : value.trim();
}

/**
 * The page's metadata: title, description, language, canonical URL, favicon (declared, else
 * /favicon.ico of the final URL's origin, where browsers look), published time, the response's
 * status, content type and final URL, then every `og:*` and `twitter:*` meta tag.
 */
export function metadataOf(doc: Doc, base: string, response: ResponseFacts): PageMetadata {
  const canonical = doc.querySelector('link[rel~="canonical" i][href]')?.getAttribute('href');
  const icon = doc.querySelector('link[rel~="icon" i][href], link[rel="shortcut icon" i][href], link[rel~="apple-touch-icon" i][href]')?.getAttribute('href');
  const language = doc.documentElement?.getAttribute('lang') || metaContent(doc, 'meta[http-equiv="content-language" i]');
  const metadata: PageMetadata = {
    title: collapse(doc.querySelector('title')?.textContent) || null,
    description: metaContent(doc, 'meta[name="description" i]'),
    language: language ? language.trim() : null,
    canonical: canonical ? absoluteUrl(canonical, base) : null,
    favicon: icon ? absoluteUrl(icon, base) : absoluteUrl('/favicon.ico', response.finalUrl),
    published_time: PUBLISHED.map((selector) => metaContent(doc, selector)).find((v) => v !== null) ?? null,
    status: response.status,
    content_type: response.headers['content-type'] ?? null,
    final_url: response.finalUrl,
  };
  for (const el of Array.from(doc.querySelectorAll('meta[property], meta[name]'))) {
    const key = (el.getAttribute('property') || el.getAttribute('name') || '').trim().toLowerCase();
    if (!key.startsWith('og:') && !key.startsWith('twitter:')) continue;
    const raw = el.getAttribute('content');
    if (raw === null) continue;
    // URL-valued tags (og:image, og:url, twitter:image, og:video:secure_url …) made absolute.
    const value = /(?:^|:)(?:image|url|video|audio|secure_url)$/.test(key) ? (absoluteUrl(raw, base) ?? raw) : raw;
    const name = key as `og:${string}`;
    const existing = metadata[name];
    metadata[name] = existing === undefined ? value : [existing, value].flat();
  }
  return metadata;
}
