/**
 * How a fetched HTML document's bytes become text, the way Chromium decodes the same bytes, so
 * both engines read the same characters (docs/scraping.md "Charset"). The WHATWG encoding
 * sniffing algorithm is html-encoding-sniffer's (jsdom's): BOM, then the Content-Type charset,
 * then the `<meta>` prescan of the first 1024 bytes; the decoding is whatwg-encoding's (the
 * Encoding Standard's names and mappings over iconv-lite: windows-1252 for "iso-8859-1" too).
 *
 * Beyond the algorithm's 1024 bytes, Chromium keeps looking: measured with Debian's Chromium 156,
 * a `<meta charset>` 50 KB into the <head>, or in the <body>, still decides the page's encoding.
 * So when the prescan finds nothing, the same prescan runs again from each later `<meta` of the
 * first MAX_LATE_META_BYTES. With no declaration at all: UTF-8 when the bytes are valid UTF-8
 * (Chromium alone would show windows-1252 mojibake there), else windows-1252 (Chromium's default
 * for an English locale). Browser mode hands Chromium this answer for every HTML document whose
 * Content-Type names no charset (scrape/browser/document-charset.ts).
 */
import sniffHTMLEncoding from 'html-encoding-sniffer';
import { decode, labelToName } from 'whatwg-encoding';

/** How far a late `<meta charset>` is looked for (the whole head of a real page fits). */
export const MAX_LATE_META_BYTES = 64 * 1024;

/** The charset label of a Content-Type header, when it names one the Encoding Standard knows. */
export function contentTypeCharset(contentType: string | undefined): string | undefined {
  const label = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  return label && labelToName(label) ? label : undefined;
}

/** The first `<meta charset>` past the first 1024 bytes, found by the same prescan, or null. */
function lateMetaCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, MAX_LATE_META_BYTES));
  // latin1: one character per byte, so string positions are byte positions.
  const lower = head.toString('latin1').toLowerCase();
  for (let at = lower.indexOf('<meta', 1024 - 5); at !== -1; at = lower.indexOf('<meta', at + 5)) {
    const found = sniffHTMLEncoding(head.subarray(at, at + 1024), { defaultEncoding: null });
    if (found) return found;
  }
  return null;
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The encoding (Encoding Standard name, e.g. "Shift_JIS", "windows-1252", "UTF-8") of an HTML
 * document. Non-HTML bodies (JSON, text) follow their Content-Type charset, else UTF-8 when
 * valid, else windows-1252.
 */
export function sniffCharset(bytes: Uint8Array, contentType: string | undefined): string {
  const ct = (contentType ?? '').toLowerCase();
  const html = ct === '' || ct.includes('html') || ct.includes('xml');
  const label = contentTypeCharset(contentType);
  const sniffed = sniffHTMLEncoding(html ? bytes : bytes.subarray(0, 4), {
    transportLayerEncodingLabel: label,
    defaultEncoding: null,
  });
  if (sniffed) return sniffed;
  const late = html ? lateMetaCharset(bytes) : null;
  if (late) return late;
  return isUtf8(bytes) ? 'UTF-8' : 'windows-1252';
}

/** The document's text (its BOM removed). */
export function decodeHtml(bytes: Uint8Array, contentType: string | undefined): string {
  return decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), sniffCharset(bytes, contentType));
}
