/**
 * `capture_network`: records every request a scrape's page makes (URL, method, status, resource
 * type, headers) and the text bodies of at most 64 KiB, for the result's `network` array.
 */
import type { BrowserContext, Request } from 'playwright-core';
import type { NetworkEntry } from '../types';

const NETWORK_ENTRY_LIMIT = 500;
const NETWORK_BODY_LIMIT = 64 * 1024;

function isTextLike(contentType: string): boolean {
  const ct = contentType.toLowerCase();
  return (
    ct.startsWith('text/') ||
    /(json|javascript|ecmascript|xml|x-www-form-urlencoded|graphql)/.test(ct)
  );
}

/**
 * `serverHeaders`: the server's own headers of a document whose Content-Type the worker gave a
 * charset (document-charset.ts); recorded instead of the ones Chromium was handed.
 */
export function captureNetwork(context: BrowserContext, serverHeaders: (url: string) => Record<string, string> | undefined = () => undefined) {
  const entries: NetworkEntry[] = [];
  const byRequest = new Map<Request, NetworkEntry>();
  const pending: Array<Promise<void>> = [];

  context.on('request', (r) => {
    if (entries.length >= NETWORK_ENTRY_LIMIT) return;
    const entry: NetworkEntry = {
      url: r.url(),
      method: r.method(),
      status: null,
      resource_type: r.resourceType(),
      request_headers: r.headers(),
      response_headers: {},
    };
    entries.push(entry);
    byRequest.set(r, entry);
  });
  const finish = async (r: Request) => {
    const entry = byRequest.get(r);
    if (!entry) return;
    const response = await r.response();
    entry.request_headers = await r.allHeaders().catch(() => entry.request_headers);
    if (!response) return;
    entry.status = response.status();
    const relabelled = r.resourceType() === 'document' ? serverHeaders(response.url()) : undefined;
    const received = await response.allHeaders();
    entry.response_headers = relabelled ?? received;
    // The body's decoding follows the charset Chromium used, the one it was handed.
    const ct = received['content-type'] ?? '';
    if (entry.status >= 300 && entry.status < 400) return;
    if (!isTextLike(ct)) return;
    const sizes = await r.sizes().catch(() => null);
    if (sizes && sizes.responseBodySize > NETWORK_BODY_LIMIT) return;
    const body = await response.body();
    if (body.length > NETWORK_BODY_LIMIT) return;
    const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(ct)?.[1];
    let text: string;
    try {
      text = new TextDecoder(charset ?? 'utf-8').decode(body);
    } catch {
      text = body.toString('utf8');
    }
    entry.body = text;
  };
  context.on('requestfinished', (r) => {
    pending.push(finish(r).catch(() => undefined));
  });
  context.on('requestfailed', (r) => {
    const entry = byRequest.get(r);
    if (entry) entry.error = r.failure()?.errorText ?? 'failed';
  });

  return {
    /** Waits for the bodies being read, then returns the entries in request order. */
    async collect(): Promise<NetworkEntry[]> {
      let seen = 0;
      while (seen < pending.length) {
        const batch = pending.slice(seen);
        seen = pending.length;
        await Promise.all(batch);
      }
      return entries;
    },
  };
}
