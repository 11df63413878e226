/**
 * Cookies a scrape sends (docs/scraping.md, "Cookies and headers" and "Sessions"), in the shape of
 * Playwright's storage state, which both engines and the session store share: the browser engine
 * hands it to its context as is, the http engine reads and writes it through a cookie jar
 * (scrape/http/cookie-jar.ts).
 *
 * A request's `cookies` may leave out `domain` (then the cookie belongs to the request URL's host
 * alone, as a `Set-Cookie` without `Domain` would) and `path` ("/"). A `cookie` header becomes
 * cookies of the request URL's host the same way, so neither engine sends it to another host.
 */
import { z } from 'zod';

export const SAME_SITE_VALUES = ['Strict', 'Lax', 'None'] as const;
export type SameSite = (typeof SAME_SITE_VALUES)[number];

/** At most this many cookies on one request. */
export const MAX_REQUEST_COOKIES = 100;

/** A cookie as Playwright's storage state holds it: a leading dot on `domain` = the domain and its subdomains. */
export interface StateCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** Unix seconds; -1: a session cookie (no expiry). */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: SameSite;
}

export interface StateOrigin {
  origin: string;
  localStorage: Array<{ name: string; value: string }>;
}

/** Playwright's storage state: cookies and the local storage of each origin. */
export interface StorageState {
  cookies: StateCookie[];
  origins: StateOrigin[];
}

export const EMPTY_STORAGE_STATE: StorageState = { cookies: [], origins: [] };

/** RFC 6265 cookie-name (a token) and cookie-value characters (no space, quote, comma, semicolon, backslash, control). */
const COOKIE_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const COOKIE_VALUE = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;
const DOMAIN = /^\.?[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/;

const cookieFields = {
  name: z.string().min(1).max(256).regex(COOKIE_NAME, { error: 'must be a cookie name (letters, digits and !#$%&\'*+.^_`|~-)' }),
  value: z.string().max(4096).regex(COOKIE_VALUE, { error: 'must not contain spaces, quotes, commas, semicolons, backslashes or control characters' }),
  domain: z.string().min(1).max(253).regex(DOMAIN, { error: 'must be a host name, optionally with a leading dot' }),
  path: z.string().max(1024).startsWith('/', { error: 'must start with /' }),
  expires: z.number().refine((n) => n === -1 || n > 0, { error: 'must be Unix seconds, or -1 for a session cookie' }),
  httpOnly: z.boolean(),
  secure: z.boolean(),
  sameSite: z.enum(SAME_SITE_VALUES, { error: 'must be Strict, Lax or None' }),
};

/** One entry of a request's `cookies`: name and value required. */
export const requestCookieSchema = z.strictObject({
  name: cookieFields.name,
  value: cookieFields.value,
  domain: cookieFields.domain.optional(),
  path: cookieFields.path.optional(),
  expires: cookieFields.expires.optional(),
  httpOnly: z.boolean().optional(),
  secure: z.boolean().optional(),
  sameSite: cookieFields.sameSite.optional(),
});
export type RequestCookie = z.output<typeof requestCookieSchema>;

/**
 * A Playwright storage state as `PUT /sessions/:name` imports it (the file `storageState({ path })`
 * writes). Unknown keys are ignored (newer Playwright versions add IndexedDB and credentials,
 * which a session does not keep).
 */
export const storageStateSchema = z.object({
  cookies: z.array(z.object({ ...cookieFields, httpOnly: cookieFields.httpOnly.default(false), secure: cookieFields.secure.default(false), sameSite: cookieFields.sameSite.default('Lax'), expires: cookieFields.expires.default(-1), path: cookieFields.path.default('/') })).default([]),
  origins: z
    .array(z.object({ origin: z.url({ protocol: /^https?$/, error: 'must be an http(s) origin' }), localStorage: z.array(z.object({ name: z.string().max(4096), value: z.string() })).default([]) }))
    .default([]),
});

/** A request cookie completed for the request URL: host-only on its host without `domain`, path "/". */
export function completeCookie(cookie: RequestCookie, url: URL): StateCookie {
  const secure = cookie.secure ?? false;
  // Chromium refuses SameSite=None without Secure; such a cookie behaves as Lax in a browser anyway.
  const sameSite = cookie.sameSite === 'None' && !secure ? 'Lax' : (cookie.sameSite ?? 'Lax');
  return {
    name: cookie.name,
    value: cookie.value,
    domain: cookie.domain ?? url.hostname,
    path: cookie.path ?? '/',
    expires: cookie.expires ?? -1,
    httpOnly: cookie.httpOnly ?? false,
    secure,
    sameSite,
  };
}

/** `a=1; b=2` (a request's `cookie` header) as cookies of the URL's host. Pairs without `=` are skipped. */
export function cookiesFromHeader(header: string, url: URL): StateCookie[] {
  const cookies: StateCookie[] = [];
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (name) cookies.push(completeCookie({ name, value }, url));
  }
  return cookies;
}

/** The request's cookies (`cookies` and a `cookie` header), completed for its URL. */
export function requestStateCookies(url: string, cookies: readonly RequestCookie[] | undefined, headers: Record<string, string> | undefined): StateCookie[] {
  const target = new URL(url);
  const out = (cookies ?? []).map((c) => completeCookie(c, target));
  for (const [name, value] of Object.entries(headers ?? {})) if (name.toLowerCase() === 'cookie') out.push(...cookiesFromHeader(value, target));
  return out;
}

/** The identity of a cookie in a jar or a session: a later one with the same (name, domain, path) replaces it. */
export function cookieKey(c: Pick<StateCookie, 'name' | 'domain' | 'path'>): string {
  return `${c.name}\u0000${c.domain.toLowerCase()}\u0000${c.path}`;
}

/** `state` with `extra` cookies laid over it (same key: the extra one wins). */
export function withCookies(state: StorageState, extra: readonly StateCookie[]): StorageState {
  if (extra.length === 0) return state;
  const byKey = new Map(state.cookies.map((c) => [cookieKey(c), c]));
  for (const c of extra) byKey.set(cookieKey(c), c);
  return { cookies: [...byKey.values()], origins: state.origins };
}

/** A session's name (docs/scraping.md, "Sessions"): what `session.name` and the /sessions routes take. */
export const SESSION_NAME_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;
export const sessionNameSchema = z.string().regex(SESSION_NAME_PATTERN, { error: 'must be 1 to 100 letters, digits, "-" or "_"' });

/** A scrape's `session`: start from the stored state of that name; `save` writes the end state back. */
export const scrapeSessionSchema = z.strictObject({
  name: sessionNameSchema,
  save: z.boolean().default(false),
});
