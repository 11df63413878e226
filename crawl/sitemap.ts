/**
 * Sitemaps (docs/crawl.md "Sitemaps"): `<urlset>` and `<sitemapindex>` documents (sitemaps.org),
 * plain or gzip, parsed by `fast-xml-parser`; plain-text sitemaps (one URL a line) too.
 * Pure and bounded: a sitemap that is not valid XML, is too large once decompressed, or carries a
 * DTD (entity expansion) is skipped — `parseSitemap` never throws. Fetching and following
 * indexes is crawl/fetch.ts `discoverSitemapUrls`.
 */
import zlib from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { normalizeUrl } from './url';

export const SITEMAP_LIMITS = {
  /** Decompressed bytes of one sitemap (sitemaps.org allows 50 MB; the http engine's body cap is 10 MiB). */
  maxBytes: 10 * 1024 * 1024,
  /** URLs read from one sitemap (sitemaps.org: 50,000). */
  maxUrlsPerSitemap: 50_000,
  /** Sitemap documents fetched for one discovery (the start ones and every nested one). */
  maxSitemaps: 50,
  /** Levels of indexes followed below the start sitemaps (an index of indexes of urlsets = 2). */
  maxDepth: 3,
} as const;

export type SitemapKind = 'urlset' | 'sitemapindex' | 'text';

export type ParsedSitemap =
  | { ok: true; kind: SitemapKind; /** page URLs (urlset, text) */ urls: string[]; /** nested sitemaps (index) */ sitemaps: string[] }
  | { ok: false; reason: 'too_large' | 'bad_gzip' | 'invalid_xml' | 'dtd' | 'not_a_sitemap' };

export interface ParseSitemapOptions {
  /** Decompressed size cap; default SITEMAP_LIMITS.maxBytes. */
  maxBytes?: number;
  /** URLs kept from this document; default SITEMAP_LIMITS.maxUrlsPerSitemap. */
  maxUrls?: number;
}

/** gzip magic bytes (RFC 1952): a `.xml.gz` served without Content-Encoding arrives as such. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Gunzips with an output cap (a gzip bomb stops at `maxBytes`): null when too large or not gzip. */
export function gunzipBounded(bytes: Uint8Array, maxBytes: number): { ok: true; bytes: Buffer } | { ok: false; reason: 'too_large' | 'bad_gzip' } {
  try {
    return { ok: true, bytes: zlib.gunzipSync(bytes, { maxOutputLength: maxBytes }) };
  } catch (error) {
    const code = (error as { code?: string }).code;
    return { ok: false, reason: error instanceof RangeError || code === 'ERR_BUFFER_TOO_LARGE' ? 'too_large' : 'bad_gzip' };
  }
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  // Only the five XML entities (&amp; in URLs): no DTD reaches here (refused before parsing).
  htmlEntities: false,
  isArray: (_name, jpath) => jpath === 'urlset.url' || jpath === 'sitemapindex.sitemap',
});

function locs(entries: unknown, max: number): string[] {
  if (!Array.isArray(entries)) return [];
  const out: string[] = [];
  for (const entry of entries) {
    if (out.length >= max) break;
    const loc = (entry as { loc?: unknown } | null)?.loc;
    if (typeof loc !== 'string') continue;
    const url = normalizeUrl(loc);
    if (url !== null) out.push(url);
  }
  return out;
}

/**
 * One sitemap document as bytes (gzip recognised by its magic bytes, whatever its name): its page
 * URLs or nested sitemaps, normalised (http(s) only), in document order, deduplicated.
 */
export function parseSitemap(raw: Uint8Array, options: ParseSitemapOptions = {}): ParsedSitemap {
  const maxBytes = options.maxBytes ?? SITEMAP_LIMITS.maxBytes;
  const maxUrls = options.maxUrls ?? SITEMAP_LIMITS.maxUrlsPerSitemap;
  let bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  if (isGzip(bytes)) {
    const inflated = gunzipBounded(bytes, maxBytes);
    if (!inflated.ok) return inflated;
    bytes = inflated.bytes;
  }
  if (bytes.length > maxBytes) return { ok: false, reason: 'too_large' };
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const head = text.trimStart();
  if (!head.startsWith('<')) {
    // sitemaps.org text format: one absolute URL a line.
    const urls = head.split(/\r?\n/).map((l) => l.trim()).filter((l) => /^https?:\/\//i.test(l));
    if (urls.length === 0) return { ok: false, reason: 'not_a_sitemap' };
    return { ok: true, kind: 'text', urls: dedupe(urls.map((u) => normalizeUrl(u)).filter((u): u is string => u !== null)).slice(0, maxUrls), sitemaps: [] };
  }
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return { ok: false, reason: 'dtd' };
  if (XMLValidator.validate(text) !== true) return { ok: false, reason: 'invalid_xml' };
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(text) as Record<string, unknown>;
  } catch {
    return { ok: false, reason: 'invalid_xml' };
  }
  const urlset = doc.urlset as { url?: unknown } | undefined;
  if (urlset !== undefined) return { ok: true, kind: 'urlset', urls: dedupe(locs(urlset?.url, maxUrls)), sitemaps: [] };
  const index = doc.sitemapindex as { sitemap?: unknown } | undefined;
  if (index !== undefined) return { ok: true, kind: 'sitemapindex', urls: [], sitemaps: dedupe(locs(index?.sitemap, maxUrls)) };
  return { ok: false, reason: 'not_a_sitemap' };
}

function dedupe(urls: string[]): string[] {
  return [...new Set(urls)];
}
