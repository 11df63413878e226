/** The `links` and `metadata` formats, read from the whole document (not only its main content). */
import type { PageLink, PageMetadata } from '../types';
import { type CheerioAPI, absoluteUrl, collapse, select } from './dom';

/** Every `<a href>` / `<area href>` of the page: absolute http(s) URLs without fragment, once each (the first's rel, the first non-empty text). */
export function linksOf($: CheerioAPI, base: string): PageLink[] {
  const links = new Map<string, PageLink>();
  for (const el of select('a[href], area[href]', $.root().toArray())) {
    const absolute = absoluteUrl(el.attribs.href!, base);
    if (!absolute) continue;
    const url = new URL(absolute);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    url.hash = '';
    const $el = $(el);
    const text =
      collapse($el.text()) || collapse(el.attribs['aria-label']) || collapse(el.attribs.title) || collapse($el.find('img[alt]').first().attr('alt')) || collapse(el.attribs.alt);
    const existing = links.get(url.href);
    if (!existing) links.set(url.href, { url: url.href, text, rel: el.attribs.rel ?? null });
    else if (!existing.text && text) existing.text = text;
  }
  return [...links.values()];
}

export interface ResponseFacts {
  status: number;
  headers: Record<string, string>;
  finalUrl: string;
}

/** Where a publication time is found, first match wins. */
const PUBLISHED = [
  'meta[property="article:published_time"]',
  'meta[property="og:published_time"]',
  'meta[name="article:published_time"]',
  'meta[itemprop="datePublished"]',
  'meta[name="date"]',
  'meta[name="pubdate"]',
  'meta[name="publish-date"]',
  'meta[name="dc.date" i]',
  'meta[name="dc.date.issued" i]',
];

/**
 * The page's metadata: title, description, language, canonical URL, favicon (declared, else
 * /favicon.ico of the final URL's origin, where browsers look), published time, the response's
 * status, content type and final URL, then every `og:*` and `twitter:*` meta tag (URL-valued
 * ones absolute; an array when repeated). Read from <head> (where parse5 puts what belongs there).
 */
export function metadataOf($: CheerioAPI, base: string, response: ResponseFacts): PageMetadata {
  const head = $('head');
  const content = (selector: string): string | null => {
    const value = head.find(selector).first().attr('content')?.trim();
    return value ? value : null;
  };
  const canonical = head.find('link[rel~="canonical" i][href]').first().attr('href');
  const icon = head.find('link[rel~="icon" i][href], link[rel~="apple-touch-icon" i][href]').first().attr('href');
  const language = $('html').attr('lang')?.trim() || content('meta[http-equiv="content-language" i]');
  const metadata: PageMetadata = {
    title: collapse(head.find('title').first().text()) || null,
    description: content('meta[name="description" i]'),
    language: language || null,
    canonical: canonical ? absoluteUrl(canonical, base) : null,
    favicon: icon ? absoluteUrl(icon, base) : absoluteUrl('/favicon.ico', response.finalUrl),
    published_time: PUBLISHED.map(content).find((v) => v !== null) ?? null,
    status: response.status,
    content_type: response.headers['content-type'] ?? null,
    final_url: response.finalUrl,
  };
  for (const el of head.find('meta[property], meta[name]').toArray()) {
    const key = (el.attribs.property || el.attribs.name || '').trim().toLowerCase();
    if (!key.startsWith('og:') && !key.startsWith('twitter:')) continue;
    const raw = el.attribs.content;
    if (raw === undefined) continue;
    // URL-valued tags (og:image, og:url, twitter:image, og:video:secure_url …) made absolute.
    const value = /(?:^|:)(?:image|url|video|audio|secure_url)$/.test(key) ? (absoluteUrl(raw, base) ?? raw) : raw;
    const name = key as `og:${string}`;
    const existing = metadata[name];
    metadata[name] = existing === undefined ? value : [existing, value].flat();
  }
  return metadata;
}
