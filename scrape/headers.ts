/**
 * Request headers a scrape may not set (docs/scraping.md, "Request"). The request schema refuses
 * them with 400 naming the header and why: a header dropped in silence leaves the caller
 * wondering why the target answered otherwise. Both engines skip the same names too, for requests
 * stored before this rule (a flow's or template's saved request, a crawl's page request).
 */

/**
 * Hop-by-hop headers (RFC 9110, section 7.6.1) describe one connection, ours to the target,
 * which the engine manages; the others the engine sets itself.
 */
const REFUSED: Readonly<Record<string, string>> = {
  connection: 'is a hop-by-hop header (the engine manages its own connection to the target)',
  'keep-alive': 'is a hop-by-hop header (the engine manages its own connection to the target)',
  'proxy-connection': 'is a hop-by-hop header (the engine manages its own connection to the target)',
  te: 'is a hop-by-hop header (the engine manages its own connection to the target)',
  trailer: 'is a hop-by-hop header (the engine manages its own connection to the target)',
  'transfer-encoding': 'is a hop-by-hop header (the engine frames the body itself)',
  upgrade: 'is a hop-by-hop header (a scrape cannot switch protocols)',
  host: 'is set by the engine from the url',
  'content-length': 'is set by the engine from the body',
  expect: 'is set by the engine (it sends the body at once)',
  'http2-settings': 'is set by the engine (HTTP/2 negotiation)',
  'accept-encoding': 'is set by the engine (it asks only for the encodings it decodes)',
};

/** Headers only one engine refuses, with why. */
const REFUSED_BY_MODE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  browser: { cookie: 'is not supported in browser mode (the browser would send it to every host the page loads, third parties included)' },
};

/**
 * Why a scrape in `mode` may not set the header `name` (any case), or undefined when it may.
 * Said after the header's path: `headers.Connection is a hop-by-hop header (...)`.
 */
export function refusedHeaderReason(name: string, mode: string): string | undefined {
  const key = name.toLowerCase();
  if (key.startsWith('proxy-')) return 'is for an outbound proxy, which the service configures (PROXY_URLS), not the request';
  return REFUSED[key] ?? REFUSED_BY_MODE[mode]?.[key];
}
