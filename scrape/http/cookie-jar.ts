/**
 * The http engine's cookies (docs/scraping.md, "Sessions"): a storage state's cookies in a
 * tough-cookie jar, which decides which cookies each request and redirect hop carries (domain,
 * path, Secure, expiry: RFC 6265) and takes every hop's `Set-Cookie`; at the end the jar is read
 * back as a storage state. tough-cookie is the cookie jar of the Node ecosystem (request, got,
 * jsdom), kept up with the RFC; writing those matching rules by hand is how cookies leak across hosts.
 */
import { Cookie, CookieJar } from 'tough-cookie';
import type { SameSite, StateCookie, StorageState } from '../cookies';

const SAME_SITE_TO_JAR: Readonly<Record<SameSite, string>> = { Strict: 'strict', Lax: 'lax', None: 'none' };

function toJarCookie(c: StateCookie): Cookie {
  const hostOnly = !c.domain.startsWith('.');
  return new Cookie({
    key: c.name,
    value: c.value,
    domain: (hostOnly ? c.domain : c.domain.slice(1)).toLowerCase(),
    path: c.path,
    expires: c.expires > 0 ? new Date(c.expires * 1000) : 'Infinity',
    httpOnly: c.httpOnly,
    secure: c.secure,
    hostOnly,
    sameSite: SAME_SITE_TO_JAR[c.sameSite],
  });
}

/** When the cookie expires in ms (`Expires` or `Max-Age` from its creation); Infinity: a session cookie. */
function expiryMs(c: Cookie): number {
  return c.expiryTime() ?? Infinity;
}

function fromJarCookie(c: Cookie): StateCookie {
  const at = expiryMs(c);
  const expires = Number.isFinite(at) ? Math.floor(at / 1000) : -1;
  const sameSite: SameSite = c.sameSite === 'strict' ? 'Strict' : c.sameSite === 'none' ? 'None' : 'Lax';
  return {
    name: c.key,
    value: c.value,
    domain: c.hostOnly === false ? `.${c.domain ?? ''}` : (c.domain ?? ''),
    path: c.path ?? '/',
    expires,
    httpOnly: c.httpOnly,
    secure: c.secure,
    sameSite,
  };
}

export interface RequestCookieJar {
  /** The `Cookie` header for a request to `url` (empty when none applies). */
  headerFor(url: URL): string;
  /** Takes a response's `Set-Cookie` values (a cookie the URL may not set is ignored, as a browser would). */
  receive(url: URL, setCookie: string | string[] | undefined): void;
  /** The cookies now in the jar (expired ones dropped), with the state's local storage unchanged. */
  state(): StorageState;
}

export function createRequestCookieJar(initial: StorageState): RequestCookieJar {
  // Loopback fixture hosts and IP literals are legitimate cookie hosts here: no public-suffix refusal of those.
  const jar = new CookieJar(undefined, { rejectPublicSuffixes: true, allowSpecialUseDomain: true, looseMode: false });
  const store = jar.store;
  for (const c of initial.cookies) {
    // The memory store is synchronous; putCookie's promise is settled already.
    void store.putCookie(toJarCookie(c));
  }
  return {
    headerFor: (url) => jar.getCookieStringSync(url.href),
    receive(url, setCookie) {
      if (setCookie === undefined) return;
      for (const header of Array.isArray(setCookie) ? setCookie : [setCookie]) {
        jar.setCookieSync(header, url.href, { ignoreError: true });
      }
    },
    state() {
      const serialized = jar.serializeSync();
      const now = Date.now();
      const cookies = (serialized?.cookies ?? [])
        .map((json) => Cookie.fromJSON(json))
        .filter((c): c is Cookie => c !== undefined && expiryMs(c) > now)
        .map(fromJarCookie);
      return { cookies, origins: initial.origins };
    },
  };
}
