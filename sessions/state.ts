/**
 * What a session keeps and how concurrent saves combine (docs/scraping.md, "Sessions").
 *
 * The rule for two scrapes saving the same session at once: each save applies only what its own
 * scrape changed, cookie by cookie (and local storage item by item), to the state stored at the
 * time of the save, under the row's lock (sessions/store.ts). A cookie is identified by
 * (name, domain, path): one the scrape set or changed replaces the stored one (last writer wins
 * per cookie), one it removed (present when it started, absent at the end) is removed, and every
 * other stored cookie stays, including those another scrape saved in the meantime.
 */
import { type StateCookie, type StateOrigin, type StorageState, cookieKey } from '../scrape/cookies';

export interface SessionFacts {
  /** Cookie domains (without the leading dot) and local-storage hosts, sorted, once each. */
  domains: string[];
  cookieCount: number;
  /** The latest expiry among its cookies; null when they are all session cookies (or none). */
  expiresAt: Date | null;
}

/** The state as stored: compact JSON (its length in bytes is what SESSION_MAX_BYTES bounds). */
export function serializeState(state: StorageState): string {
  return JSON.stringify({ cookies: state.cookies, origins: state.origins });
}

export function sessionFacts(state: StorageState): SessionFacts {
  const domains = new Set<string>();
  for (const c of state.cookies) domains.add(c.domain.replace(/^\./, '').toLowerCase());
  for (const o of state.origins) {
    try {
      domains.add(new URL(o.origin).hostname);
    } catch {
      // An origin that is not a URL names no domain.
    }
  }
  const expiries = state.cookies.map((c) => c.expires).filter((e) => e > 0);
  return { domains: [...domains].sort(), cookieCount: state.cookies.length, expiresAt: expiries.length ? new Date(Math.max(...expiries) * 1000) : null };
}

/** Cookies past their expiry are gone, as a browser forgets them. */
export function withoutExpired(state: StorageState, nowSeconds: number): StorageState {
  return { cookies: state.cookies.filter((c) => c.expires === -1 || c.expires > nowSeconds), origins: state.origins };
}

function sameCookie(a: StateCookie, b: StateCookie): boolean {
  return a.value === b.value && a.expires === b.expires && a.httpOnly === b.httpOnly && a.secure === b.secure && a.sameSite === b.sameSite;
}

function mergeCookies(stored: readonly StateCookie[], base: readonly StateCookie[], final: readonly StateCookie[]): StateCookie[] {
  const result = new Map(stored.map((c) => [cookieKey(c), c]));
  const before = new Map(base.map((c) => [cookieKey(c), c]));
  const after = new Map(final.map((c) => [cookieKey(c), c]));
  for (const [key, c] of after) {
    const was = before.get(key);
    if (!was || !sameCookie(was, c)) result.set(key, c);
  }
  for (const key of before.keys()) if (!after.has(key)) result.delete(key);
  return [...result.values()];
}

function items(origins: readonly StateOrigin[]): Map<string, Map<string, string>> {
  return new Map(origins.map((o) => [o.origin, new Map(o.localStorage.map((i) => [i.name, i.value]))]));
}

function mergeOrigins(stored: readonly StateOrigin[], base: readonly StateOrigin[], final: readonly StateOrigin[]): StateOrigin[] {
  const result = items(stored);
  const before = items(base);
  const after = items(final);
  for (const origin of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(origin) ?? new Map<string, string>();
    const now = after.get(origin) ?? new Map<string, string>();
    const target = result.get(origin) ?? new Map<string, string>();
    for (const [name, value] of now) if (was.get(name) !== value) target.set(name, value);
    for (const name of was.keys()) if (!now.has(name)) target.delete(name);
    if (target.size) result.set(origin, target);
    else result.delete(origin);
  }
  return [...result].map(([origin, entries]) => ({ origin, localStorage: [...entries].map(([name, value]) => ({ name, value })) }));
}

/** `stored` with what a scrape changed between `base` (its start) and `final` (its end) applied. */
export function mergeSessionState(stored: StorageState, base: StorageState, final: StorageState): StorageState {
  return { cookies: mergeCookies(stored.cookies, base.cookies, final.cookies), origins: mergeOrigins(stored.origins, base.origins, final.origins) };
}
