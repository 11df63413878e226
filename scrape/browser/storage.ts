/**
 * A browser scrape's cookies and local storage (docs/scraping.md, "Cookies and headers" and
 * "Sessions"): the session's stored state with the request's own cookies laid over it (its
 * `cookies` and its `cookie` header, both for the request URL's host: scrape/cookies.ts) go into
 * the scrape's fresh context before the page loads; the context's state is read back at the end
 * for a session that is saved. A pre-warmed context takes them with `setStorageState`, which
 * writes local storage without loading the origins' pages.
 */
import type { BrowserContext } from 'playwright-core';
import { EMPTY_STORAGE_STATE, type StorageState, requestStateCookies, withCookies } from '../cookies';
import type { EngineRequest } from '../request';
import type { ScrapeCallOptions } from '../types';

/** The state the scrape starts from, or undefined when it has neither cookies nor local storage. */
export function startingState(req: EngineRequest, call: ScrapeCallOptions): StorageState | undefined {
  const state = withCookies(call.storage?.state ?? EMPTY_STORAGE_STATE, requestStateCookies(req.url, req.cookies, req.headers));
  return state.cookies.length || state.origins.length ? state : undefined;
}

export async function applyStartingState(context: BrowserContext, state: StorageState | undefined): Promise<void> {
  if (state) await context.setStorageState(state);
}

/** The context's cookies and local storage (Playwright's snapshot, without IndexedDB or credentials). */
export async function contextState(context: BrowserContext): Promise<StorageState> {
  const snapshot = await context.storageState();
  return {
    cookies: snapshot.cookies.map(({ name, value, domain, path, expires, httpOnly, secure, sameSite }) => ({ name, value, domain, path, expires, httpOnly, secure, sameSite })),
    origins: snapshot.origins.map(({ origin, localStorage }) => ({ origin, localStorage: localStorage.map(({ name, value }) => ({ name, value })) })),
  };
}
