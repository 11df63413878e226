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

/**
 * Headers only one engine refuses, with why. Chromium (through Playwright's extra headers) fails
 * the navigation on some (net::ERR_INVALID_ARGUMENT) and overwrites others with its own values:
 * found by sending each name through the browser engine to a server that echoes what it got
 * (docs/scraping.md, "Cookies and headers"). `cookie` is accepted in both modes: it becomes
 * cookies of the request URL's host (scrape/cookies.ts), so the browser sends them to no other host.
 */
const BROWSER_SETS_IT = 'is set by the browser itself in browser mode (use http mode to send your own)';
const REFUSED_BY_MODE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  browser: {
    cookie2: 'cannot be sent by the browser (Chromium refuses it)',
    'set-cookie': 'cannot be sent by the browser (Chromium refuses it; use cookies to send cookies)',
    accept: BROWSER_SETS_IT,
    'sec-fetch-site': BROWSER_SETS_IT,
    'sec-fetch-dest': BROWSER_SETS_IT,
    'sec-fetch-user': BROWSER_SETS_IT,
    'sec-fetch-storage-access': BROWSER_SETS_IT,
  },
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
