/**
 * URL normalisation and crawl scope (docs/crawl.md "URL normalisation", "Scope").
 *
 * Normalisation starts from the WHATWG URL parser (Node's `URL`), which already lower-cases the
 * scheme and host, turns IDN hosts into punycode, drops default ports and resolves dot segments;
 * on top of it: no fragment, no credentials, a trailing dot of the host removed, percent-encoding
 * normalised (unreserved characters decoded, hex digits upper-case), query parameters sorted by
 * name (stable: repeated names keep their order), an empty query removed. The path keeps its
 * trailing slash or lack of one: `/a` and `/a/` are different resources to many servers.
 *
 * Scope regexes are user input run against every discovered URL, so they are compiled by re2js
 * (RE2: linear-time matching, no backtracking, so no catastrophic regex is possible), with caps
 * on their number, length and compiled size.
 */
import { RE2JS } from 're2js';

const MAX_URL_LENGTH = 8192;

/** Unreserved characters (RFC 3986 section 2.3): their percent-encoded form means the character itself. */
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Decodes percent-encoded unreserved characters and upper-cases the hex of the others. */
function normalizePercent(part: string): string {
  return part.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

/** `a=1&b=2` pairs sorted by their (normalised) name; stable, so repeated names keep their order; empty pairs dropped. */
function sortQuery(search: string): string {
  const pairs = search
    .replace(/^\?/, '')
    .split('&')
    .filter((p) => p !== '')
    .map((p) => normalizePercent(p));
  if (pairs.length === 0) return '';
  const keyed = pairs.map((p, i) => ({ p, i, k: p.split('=', 1)[0]! }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i));
  return `?${keyed.map((x) => x.p).join('&')}`;
}

/**
 * Absolute, normalised http(s) URL, or null (other schemes, unparsable, credentials in it).
 * Lower-case scheme/host, default port dropped, fragment dropped, query params sorted (stable),
 * path dot-segments resolved, percent-encoding normalised; the trailing slash is kept as written
 * (the empty path is `/`): docs/crawl.md "URL normalisation".
 */
export function normalizeUrl(raw: string, base?: string): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  if (text === '' || text.length > MAX_URL_LENGTH) return null;
  let url: URL;
  try {
    url = base === undefined ? new URL(text) : new URL(text, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  const host = url.hostname.replace(/\.+$/, '');
  if (host === '') return null;
  url.hostname = host;
  url.hash = '';
  // Setting pathname re-encodes what the parser would; decoding `%2F` is never done (it is not unreserved).
  url.pathname = normalizePercent(url.pathname);
  const search = sortQuery(url.search);
  url.search = search;
  const href = url.href;
  // `new URL('http://a/?')` keeps a bare "?" after an empty search was set: drop it.
  return search === '' && href.endsWith('?') ? href.slice(0, -1) : href;
}

/**
 * A normalised URL without its query (`ignore_query_parameters`, docs/crawl.md): `/p?x=1` and
 * `/p?x=2` are the page `/p`, fetched and paid once.
 */
export function withoutQuery(normalised: string): string {
  const cut = normalised.indexOf('?');
  return cut === -1 ? normalised : normalised.slice(0, cut);
}

// ---------------------------------------------------------------------------------------------
// Scope

export interface CrawlScopeOptions {
  startUrl: string;
  sameOrigin: boolean;
  allowSubdomains: boolean;
  includePaths: string[];
  excludePaths: string[];
}

export type ScopeVerdict = { ok: true } | { ok: false; reason: 'off_origin' | 'excluded' | 'not_included' };

/** Caps on the user's path regexes (docs/crawl.md "Scope"). */
export const SCOPE_LIMITS = { maxPatterns: 50, maxPatternLength: 1000, maxProgramSize: 10_000 } as const;

/** Thrown by `compileScope` for options `scopeProblems` rejects; `problems` is the 422 list. */
export class ScopeError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'ScopeError';
  }
}

function compilePattern(pattern: unknown, field: string): { regex?: RE2JS; problem?: string } {
  if (typeof pattern !== 'string') return { problem: `${field} must be a string` };
  if (pattern.length === 0) return { problem: `${field} must not be empty` };
  if (pattern.length > SCOPE_LIMITS.maxPatternLength) {
    return { problem: `${field} must be at most ${SCOPE_LIMITS.maxPatternLength} characters` };
  }
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(pattern);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    return { problem: `${field} must be a valid RE2 regular expression (no lookaround or backreferences): ${reason}` };
  }
  if (regex.programSize() > SCOPE_LIMITS.maxProgramSize) {
    return { problem: `${field} is too complex (its compiled program exceeds ${SCOPE_LIMITS.maxProgramSize} instructions)` };
  }
  return { regex };
}

function compileList(patterns: unknown, name: string): { regexes: RE2JS[]; problems: string[] } {
  if (patterns === undefined) return { regexes: [], problems: [] };
  if (!Array.isArray(patterns)) return { regexes: [], problems: [`${name} must be an array`] };
  const problems: string[] = [];
  if (patterns.length > SCOPE_LIMITS.maxPatterns) problems.push(`${name} must contain at most ${SCOPE_LIMITS.maxPatterns} items`);
  const regexes: RE2JS[] = [];
  patterns.slice(0, SCOPE_LIMITS.maxPatterns).forEach((p, i) => {
    const compiled = compilePattern(p, `${name}.${i}`);
    if (compiled.problem) problems.push(compiled.problem);
    else regexes.push(compiled.regex!);
  });
  return { regexes, problems };
}

/** Every problem of the path regexes, phrased as the API's 422 messages ("include_paths.0 must be …"); empty when they are fine. */
export function scopeProblems(options: Pick<CrawlScopeOptions, 'includePaths' | 'excludePaths'>): string[] {
  return [...compileList(options.includePaths, 'include_paths').problems, ...compileList(options.excludePaths, 'exclude_paths').problems];
}

/** True when `host` is `base` or a name under it. */
function isSameOrSubdomain(host: string, base: string): boolean {
  return host === base || host.endsWith(`.${base}`);
}

/**
 * Compiles the options once into a verdict function over URLs (normalised or not).
 * - `sameOrigin` (default of the API): same scheme, host and port as the start URL; with
 *   `allowSubdomains`, any http(s) URL whose host is the start host or under it (any port).
 *   A start host `www.x` counts as `x` there, so `blog.x` is in scope from `www.x`.
 * - `excludePaths`: any match on the path (pathname, without the query) → `excluded`.
 * - `includePaths` (when not empty): no match → `not_included`.
 * Regexes search (unanchored, like RegExp#test); anchor with `^` and `$`. Bad regexes throw a ScopeError.
 */
export function compileScope(options: CrawlScopeOptions): (url: string) => ScopeVerdict {
  const start = normalizeUrl(options.startUrl);
  if (start === null) throw new ScopeError(['url must be an absolute http(s) URL']);
  const include = compileList(options.includePaths, 'include_paths');
  const exclude = compileList(options.excludePaths, 'exclude_paths');
  const problems = [...include.problems, ...exclude.problems];
  if (problems.length > 0) throw new ScopeError(problems);
  const startUrl = new URL(start);
  const baseHost = startUrl.hostname.replace(/^www\./, '');

  return (raw: string): ScopeVerdict => {
    const normalised = normalizeUrl(raw);
    if (normalised === null) return { ok: false, reason: 'off_origin' };
    const url = new URL(normalised);
    if (options.sameOrigin) {
      const inScope = options.allowSubdomains ? isSameOrSubdomain(url.hostname, baseHost) : url.origin === startUrl.origin;
      if (!inScope) return { ok: false, reason: 'off_origin' };
    }
    const path = url.pathname;
    if (exclude.regexes.some((r) => r.test(path))) return { ok: false, reason: 'excluded' };
    if (include.regexes.length > 0 && !include.regexes.some((r) => r.test(path))) return { ok: false, reason: 'not_included' };
    return { ok: true };
  };
}

/** The origin (`scheme://host[:port]`) of a URL, or null when it is not an http(s) URL. */
export function originOf(raw: string): string | null {
  const n = normalizeUrl(raw);
  return n === null ? null : new URL(n).origin;
}
