/**
 * Chromium decodes an HTML document the way the http engine does (scrape/charset.ts,
 * docs/scraping.md "Charset"): an HTML document whose Content-Type names no charset is held at
 * the response stage, its bytes are sniffed by `sniffCharset`, and it is handed to the renderer
 * with that charset added to its Content-Type. Nothing is fetched a second time: the bytes are
 * the ones Chromium's own network stack received (proxy, egress guard, TLS, cookies, redirects
 * as before), read with `Fetch.getResponseBody` and given back with `Fetch.fulfillRequest`.
 *
 * Why not Playwright's `route.fetch()` + `route.fulfill()`: `route.fetch()` is Playwright's own
 * Node HTTP client, not Chromium's. It does not go through the egress proxy a launched Chromium
 * is pointed at with `--proxy-server` (pool.ts, guard layer 3), so the document would leave the
 * guard's DNS-rebinding protection, and it would reach the site with another TLS and header
 * fingerprint. Why not `Fetch.continueResponse` with the new header: measured with Debian's
 * chromium-headless-shell 156, it changes the headers the page reports, not how the document
 * is decoded; `Fetch.fulfillRequest` (with the body: without one it behaves as continueResponse) does.
 *
 * Interception runs on the page's own CDP session (context.ts), beside Playwright's
 * request-stage routes on its session: the guard still decides at the request stage, and what
 * it refuses never reaches this one. The answer keeps the server's headers: `serverHeaders`
 * gives them back for page.ts and `capture_network` (the fulfilled ones carry the added charset),
 * all but Set-Cookie, which Chromium's network service never shows the Fetch domain (the cookie
 * itself is stored: the network stack did that before the pause).
 */
import type { CDPSession } from 'playwright-core';
import { contentTypeCharset, sniffCharset } from '../charset';

interface HeaderEntry {
  name: string;
  value: string;
}

/** The fields of DevTools' `Fetch.requestPaused` used here (playwright-core does not export its Protocol types). */
interface Paused {
  requestId: string;
  request: { url: string };
  responseErrorReason?: string;
  responseStatusCode?: number;
  responseStatusText?: string;
  responseHeaders?: HeaderEntry[];
}

/**
 * A document announced larger than this is left to Chromium (it would be held in memory twice
 * here); a document without Content-Length is read whatever its size, within the scrape's deadline.
 */
export const MAX_RELABELLED_BYTES = 32 * 1024 * 1024;

/** Headers that describe the bytes on the wire, not the decoded body handed back to Chromium. */
const WIRE_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding']);

export interface DocumentCharsets {
  /** The headers the server sent for a document whose Content-Type was given a charset, by URL. */
  serverHeaders(url: string): Record<string, string> | undefined;
}

/** Starts labelling the page's HTML documents (main frame and iframes); resolves once interception is on. */
export async function labelDocumentCharsets(cdp: CDPSession): Promise<DocumentCharsets> {
  const relabelled = new Map<string, Record<string, string>>();
  cdp.on('Fetch.requestPaused', (event) => {
    void relabel(cdp, event, relabelled);
  });
  await cdp.send('Fetch.enable', { patterns: [{ resourceType: 'Document', requestStage: 'Response' }] });
  // By URL without its fragment, as the paused request names it.
  return { serverHeaders: (url) => relabelled.get(url.replace(/#.*$/s, '')) };
}

/** Lets one paused response go on, with its charset named when it named none. */
async function relabel(cdp: CDPSession, event: Paused, relabelled: Map<string, Record<string, string>>): Promise<void> {
  const { requestId } = event;
  try {
    const contentType = charsetToName(event);
    if (contentType === undefined) {
      // A later answer at a URL relabelled before reports its own headers.
      if (event.responseStatusCode !== undefined && (event.responseStatusCode < 300 || event.responseStatusCode >= 400)) relabelled.delete(event.request.url);
      return void (await cdp.send('Fetch.continueRequest', { requestId }));
    }
    const { body, base64Encoded } = await cdp.send('Fetch.getResponseBody', { requestId });
    const bytes = Buffer.from(body, base64Encoded ? 'base64' : 'utf8');
    // An unknown charset label (the only kind left here) is replaced, as the sniffer ignores it.
    const bare = contentType.replace(/;\s*charset\s*=[^;]*/gi, '');
    const headers = event.responseHeaders ?? [];
    const responseHeaders = headers.filter((h) => !WIRE_HEADERS.has(h.name.toLowerCase()) && h.name.toLowerCase() !== 'content-type');
    responseHeaders.push({ name: 'Content-Type', value: `${bare}; charset=${sniffCharset(bytes, contentType)}` });
    relabelled.set(event.request.url, headerRecord(headers));
    await cdp.send('Fetch.fulfillRequest', {
      requestId,
      responseCode: event.responseStatusCode!,
      ...(event.responseStatusText ? { responsePhrase: event.responseStatusText } : {}),
      responseHeaders,
      body: base64Encoded ? body : bytes.toString('base64'),
    });
  } catch {
    // The page or its context closed meanwhile, or the body could not be read: let it go on as is.
    await cdp.send('Fetch.continueRequest', { requestId }).catch(() => undefined);
  }
}

/**
 * The response's Content-Type when it is an HTML document with a body and no charset the
 * Encoding Standard knows (the only case where Chromium's decoding and the http engine's can
 * differ), else undefined. A response without Content-Type is left alone: naming one would
 * override Chromium's MIME sniffing.
 */
function charsetToName(event: Paused): string | undefined {
  const status = event.responseStatusCode;
  if (event.responseErrorReason || status === undefined) return undefined;
  // Redirects (their body is not available here), 204/304 and informational answers: nothing to decode.
  if (status < 200 || status === 204 || (status >= 300 && status < 400)) return undefined;
  const header = (name: string) => event.responseHeaders?.find((h) => h.name.toLowerCase() === name)?.value;
  const contentType = header('content-type')?.trim();
  if (!contentType || !/^text\/html\s*(;|$)/i.test(contentType) || contentTypeCharset(contentType)) return undefined;
  if (Number(header('content-length') ?? 0) > MAX_RELABELLED_BYTES) return undefined;
  return contentType;
}

/** Header entries as Playwright's `allHeaders()` gives them: lower-case names, repeats joined. */
function headerRecord(entries: HeaderEntry[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (const { name, value } of entries) {
    const key = name.toLowerCase();
    record[key] = key in record ? `${record[key]}${key === 'set-cookie' ? '\n' : ', '}${value}` : value;
  }
  return record;
}
