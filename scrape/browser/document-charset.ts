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
 *
 * The same pause takes PDF and DOCX documents (scrape/documents) from the network: see
 * `takeDocument` and `CapturedDocument`.
 */
import type { CDPSession } from 'playwright-core';
import { contentTypeCharset, sniffCharset } from '../charset';
import { type DocumentKind, documentKind, isDocumentType } from '../documents';

interface HeaderEntry {
  name: string;
  value: string;
}

/** The fields of DevTools' `Fetch.requestPaused` used here (playwright-core does not export its Protocol types). */
interface Paused {
  requestId: string;
  frameId?: string;
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
  /** A PDF or DOCX answered at this URL (held from Chromium, which would only download it), by URL. */
  capturedDocument?(url: string): CapturedDocument | undefined;
}

/**
 * A document response (PDF, DOCX: scrape/documents) taken from the network: Chromium is handed an
 * empty HTML page in its place (it would start a download and the navigation would fail), and
 * page.ts converts these bytes. The request stage's guard and the egress proxy applied to it as
 * to any document: the bytes are the ones Chromium's own network stack received.
 */
export type CapturedDocument = { kind: DocumentKind; bytes: Buffer } | { kind: 'too_large'; limit: number };

/** The largest document taken from the network (the http engine's response cap). */
export const MAX_CAPTURED_DOCUMENT_BYTES = 10 * 1024 * 1024;

/** Types a server sends a file with when it names none of its own: their bytes are looked at. */
const UNNAMED_FILE_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/force-download', 'application/x-download', 'application/download', 'text/plain']);

const EMPTY_PAGE = Buffer.from('<!doctype html><html><head><title></title></head><body></body></html>').toString('base64');

/**
 * Starts labelling the page's HTML documents (main frame and iframes) and taking its PDF and DOCX
 * documents from the network; resolves once interception is on. `labelCharsets: false` leaves
 * HTML documents to Chromium's own decoding (documents are still taken).
 */
export async function labelDocumentCharsets(cdp: CDPSession, options: { labelCharsets?: boolean } = {}): Promise<DocumentCharsets> {
  const relabelled = new Map<string, Record<string, string>>();
  const documents = new Map<string, CapturedDocument>();
  const label = options.labelCharsets !== false;
  // The main frame keeps its id across the page's navigations: only its documents are sniffed (sniffMainDocument).
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const mainFrameId = frameTree.frame.id;
  cdp.on('Fetch.requestPaused', (event) => {
    void relabel(cdp, event, relabelled, documents, label, event.frameId === mainFrameId);
  });
  await cdp.send('Fetch.enable', { patterns: [{ resourceType: 'Document', requestStage: 'Response' }] });
  // By URL without its fragment, as the paused request names it.
  const key = (url: string) => url.replace(/#.*$/s, '');
  return { serverHeaders: (url) => relabelled.get(key(url)), capturedDocument: (url) => documents.get(key(url)) };
}

/** Lets one paused response go on, with its charset named when it named none, or takes it when it is a document. */
async function relabel(cdp: CDPSession, event: Paused, relabelled: Map<string, Record<string, string>>, documents: Map<string, CapturedDocument>, label: boolean, mainFrame: boolean): Promise<void> {
  const { requestId } = event;
  try {
    if (await takeDocument(cdp, event, relabelled, documents, mainFrame)) return;
    const contentType = label ? charsetToName(event) : undefined;
    if (contentType === undefined) {
      // A later answer at a URL relabelled before reports its own headers.
      if (event.responseStatusCode !== undefined && (event.responseStatusCode < 300 || event.responseStatusCode >= 400)) relabelled.delete(event.request.url);
      return void (await cdp.send('Fetch.continueRequest', { requestId }));
    }
    const { body, base64Encoded } = await cdp.send('Fetch.getResponseBody', { requestId });
    const bytes = Buffer.from(body, base64Encoded ? 'base64' : 'utf8');
    // A PDF or DOCX sent as HTML: taken as takeDocument takes the others.
    const kind = documentKind(undefined, bytes);
    if (kind && bytes.length <= MAX_CAPTURED_DOCUMENT_BYTES) {
      documents.set(event.request.url, { kind, bytes });
      relabelled.set(event.request.url, headerRecord(event.responseHeaders ?? []));
      return void (await cdp.send('Fetch.fulfillRequest', { requestId, responseCode: event.responseStatusCode!, responseHeaders: [{ name: 'Content-Type', value: 'text/html; charset=utf-8' }], body: EMPTY_PAGE }));
    }
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
 * Takes a PDF or DOCX response (announced as one, or a file sent under a type that names none and
 * whose bytes are one) and hands Chromium an empty page instead; true when it did.
 */
async function takeDocument(cdp: CDPSession, event: Paused, relabelled: Map<string, Record<string, string>>, documents: Map<string, CapturedDocument>, mainFrame: boolean): Promise<boolean> {
  const status = event.responseStatusCode;
  if (event.responseErrorReason || status === undefined || status < 200 || status === 204 || (status >= 300 && status < 400)) return false;
  const header = (name: string) => event.responseHeaders?.find((h) => h.name.toLowerCase() === name)?.value;
  const contentType = header('content-type')?.trim() ?? '';
  const announced = isDocumentType(contentType);
  const attachment = /^\s*attachment/i.test(header('content-disposition') ?? '');
  if (!announced && !attachment && !UNNAMED_FILE_TYPES.has(contentType.split(';')[0]!.trim().toLowerCase()) && !sniffMainDocument(event, contentType, mainFrame)) return false;
  const headers = event.responseHeaders ?? [];
  let captured: CapturedDocument;
  if (Number(header('content-length') ?? 0) > MAX_CAPTURED_DOCUMENT_BYTES) {
    if (!announced) return false;
    captured = { kind: 'too_large', limit: MAX_CAPTURED_DOCUMENT_BYTES };
  } else {
    const { body, base64Encoded } = await cdp.send('Fetch.getResponseBody', { requestId: event.requestId });
    const bytes = Buffer.from(body, base64Encoded ? 'base64' : 'utf8');
    const kind = documentKind(contentType, bytes);
    if (!kind) {
      // Not a document after all: Chromium gets the bytes it would have had; the answer reports the server's headers.
      relabelled.set(event.request.url, headerRecord(headers));
      await cdp.send('Fetch.fulfillRequest', {
        requestId: event.requestId,
        responseCode: status,
        ...(event.responseStatusText ? { responsePhrase: event.responseStatusText } : {}),
        responseHeaders: headers.filter((h) => !WIRE_HEADERS.has(h.name.toLowerCase())),
        body: base64Encoded ? body : bytes.toString('base64'),
      });
      return true;
    }
    captured = bytes.length > MAX_CAPTURED_DOCUMENT_BYTES ? { kind: 'too_large', limit: MAX_CAPTURED_DOCUMENT_BYTES } : { kind, bytes };
  }
  documents.set(event.request.url, captured);
  relabelled.set(event.request.url, headerRecord(headers));
  await cdp.send('Fetch.fulfillRequest', {
    requestId: event.requestId,
    responseCode: status,
    responseHeaders: [{ name: 'Content-Type', value: 'text/html; charset=utf-8' }],
    body: EMPTY_PAGE,
  });
  return true;
}

/**
 * An HTML main document that names its charset, with a Content-Length within the capture cap: its
 * bytes are looked at (a PDF or DOCX sent as a web page is read as one in both engines: the http
 * engine sniffs every body). One that names no charset is read, and sniffed, by the labelling
 * (relabel). Only with a Content-Length: a body of known, bounded size is read whole here, while a
 * streamed (chunked) page goes to Chromium at once, so `wait_until: commit` never waits for the
 * end of a streamed body (CDP can hand Chromium a body only whole: a peek at its first bytes
 * would hold the page as long as reading it all). Iframes are never held.
 */
function sniffMainDocument(event: Paused, contentType: string, mainFrame: boolean): boolean {
  if (!mainFrame || !/^text\/html\s*;/i.test(contentType) || contentTypeCharset(contentType) === undefined) return false;
  const length = event.responseHeaders?.find((h) => h.name.toLowerCase() === 'content-length')?.value;
  return length !== undefined && /^\d+$/.test(length.trim()) && Number(length) <= MAX_CAPTURED_DOCUMENT_BYTES;
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
