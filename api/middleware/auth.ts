/**
 * Authentication of our own routes.
 *
 * API key: header `x-api-key`, or query `apiKey` (on `/v1/*`, `/v2/*` and `/mcp` also
 * `Authorization: Bearer`: `bearerApiKey` below). Verified by the auth library's API-key plugin
 * (hash lookup, enabled, expiry), through a cache that every revocation clears at once
 * (api/api-key-cache.ts); the plugin never changes credit and never throttles.
 * Session: the cookie `better-auth.session_token`, checked by the auth library.
 *
 * 401 bodies:
 * - the credential is missing or sent the wrong way (key in `Authorization`): the standard shape
 *   with a message saying how to send it (it depends on the request only, never on the key);
 * - a key was sent but is unknown, revoked, expired or malformed: the alternative shape
 *   `{statusCode: 401, message: 'Unauthorized', error: 'Unauthorized', code: 'UNAUTHORIZED'}`, the same for every
 *   cause, so a response never tells whether a key exists;
 * - no valid session on a session route: the standard shape.
 *
 * Unsafe methods authenticated by a session cookie also pass the cross-site check below.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { trustedOrigins } from '../../accounts/auth-config';
import { errorBody } from '../../platform/errors';
import type { VerifiedKey } from '../api-key-cache';
import type { AppDeps } from '../deps';

export interface AuthContext {
  userId: string;
  apiKeyId: string | null;
  method: 'api-key' | 'session';
  /** Session id when method is 'session'. */
  sessionId?: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    auth?: AuthContext;
  }
}

/** The alternative 401 shape: identical for every rejected key. */
export const UNAUTHORIZED_BODY = Object.freeze({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized', code: 'UNAUTHORIZED' });

export const MESSAGES = {
  keyMissing: 'An API key is required: send it in the x-api-key header (or the apiKey query parameter)',
  keyInAuthorization: 'Send the API key in the x-api-key header, not in Authorization',
  noCredential: 'An API key (x-api-key header) or a session cookie is required',
  noSession: 'No valid session: sign in at POST /api/auth/sign-in/email',
  crossSite: 'Cross-site request refused',
} as const;

/** Keys are the prefix (≤16) plus 64 letters; anything far outside that is not sent to the database. */
const MAX_KEY_LENGTH = 200;
const KEY_SHAPE = /^[\x21-\x7e]+$/;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type OriginVerdict = 'trusted' | 'script' | 'refused';

/**
 * Who sent a state-changing request that carries (or creates) a session:
 * - an `Origin` (or, without one, a `Referer`) is checked against the trusted origins;
 * - without either, `Sec-Fetch-Site` other than same-origin/none marks a browser's cross-site
 *   request: refused;
 * - with none of these headers it is a script (curl, Node's fetch, an SDK): browsers always send
 *   `Origin` on cross-origin POST/DELETE and `Sec-Fetch-Site` on every request, so a cross-site
 *   page cannot produce such a request. Scripts are allowed.
 */
export function originVerdict(headers: Record<string, string | string[] | undefined>, trusted: readonly string[]): OriginVerdict {
  const first = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  let origin = first('origin');
  if (origin === undefined) {
    const referer = first('referer');
    if (referer) {
      try {
        origin = new URL(referer).origin;
      } catch {
        return 'refused';
      }
    }
  }
  if (origin !== undefined) {
    if (origin === 'null' || origin === '') return 'refused';
    return trusted.includes(origin.replace(/\/+$/, '').toLowerCase()) ? 'trusted' : 'refused';
  }
  const site = first('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin' || site === 'none' ? 'trusted' : 'refused';
  return 'script';
}

/** Node's header record as Fetch Headers (what the auth library's server API takes). */
function toHeaders(nodeHeaders: Request['headers']): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(nodeHeaders)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  return headers;
}

function presentedKey(req: Request): { key?: string; malformed: boolean } {
  const header = req.headers['x-api-key'];
  const query: unknown = req.query.apiKey;
  const fromHeader = Array.isArray(header) ? undefined : header;
  if (Array.isArray(header)) return { malformed: true };
  if (fromHeader !== undefined) return { key: fromHeader.trim(), malformed: fromHeader.trim() === '' };
  if (query === undefined) return { malformed: false };
  if (typeof query !== 'string' || query.trim() === '') return { malformed: true };
  return { key: query.trim(), malformed: false };
}

/** The token of `Authorization: Bearer <token>` (empty when blank); undefined for any other header. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = authorization === undefined ? null : /^Bearer[ \t]+(\S*)[ \t]*$/i.exec(authorization);
  return match?.[1];
}

/**
 * The account of a presented key, or null: unknown, revoked, expired, or a shape no key has
 * (that one is not sent to the database). Every surface that takes a key (routes, `/mcp`) asks here.
 */
export async function verifyApiKey(deps: Pick<AppDeps, 'apiKeys'>, key: string | undefined): Promise<VerifiedKey | null> {
  if (!key || key.length > MAX_KEY_LENGTH || !KEY_SHAPE.test(key)) return null;
  return deps.apiKeys.verify(key);
}

/**
 * Verifies a presented key and sets `req.auth`, or answers the alternative 401 (the same for
 * every cause). Counts the key's request (api/limits.ts: a 429 before anything is done).
 */
async function acceptKey(deps: AppDeps, key: string | undefined, req: Request, res: Response): Promise<boolean> {
  const verified = await verifyApiKey(deps, key);
  if (!verified) {
    res.status(401).json(UNAUTHORIZED_BODY);
    return false;
  }
  req.auth = { userId: verified.userId, apiKeyId: verified.apiKeyId, method: 'api-key' };
  await deps.limits?.countRequest(verified.apiKeyId);
  return true;
}

/**
 * The API key as a Bearer token (`Authorization: Bearer <key>`), for the path groups whose
 * clients send it that way (the Firecrawl-compatible `/v1/*`, `/v2/*` and `/mcp`: their SDKs
 * never send `x-api-key`; docs/firecrawl.md "Credentials"). Mounted on those groups only, before
 * their routes: a Bearer key is verified here (401 for a bad one), and the route's own
 * `authenticate` then passes the request straight through. Without a Bearer token the request
 * goes on unchanged (`x-api-key` is checked by the route). Every other group keeps the rule of
 * `authenticate`: a key in `Authorization` → 401.
 */
export function bearerApiKey(deps: AppDeps): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const token = bearerToken(req.headers.authorization);
    if (token === undefined) {
      next();
      return;
    }
    acceptKey(deps, token, req, res)
      .then((accepted) => accepted && next())
      .catch(next);
  };
}

function standard401(res: Response, message: string) {
  res.status(401).json(errorBody('UNAUTHORIZED', message));
}

/**
 * Sets `req.auth` or answers 401 (403 for a cross-site session request). Accepts what `accept`
 * allows; an API key, when present, is the credential used. Idempotent: a request already
 * authenticated by a router-level guard passes straight through.
 */
export function authenticate(deps: AppDeps, accept: { apiKey: boolean; session: boolean }): RequestHandler {
  const trusted = trustedOrigins(deps.config).map((o) => o.toLowerCase());
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.auth) {
      const allowed = req.auth.method === 'api-key' ? accept.apiKey : accept.session;
      if (allowed) return next();
    }
    void (async () => {
      const presented = accept.apiKey ? presentedKey(req) : { malformed: false };
      if (accept.apiKey && (presented.key !== undefined || presented.malformed)) {
        if (await acceptKey(deps, presented.malformed ? undefined : presented.key, req, res)) next();
        return;
      }
      if (accept.apiKey && req.headers.authorization !== undefined) {
        standard401(res, MESSAGES.keyInAuthorization);
        return;
      }
      if (accept.session) {
        const { headers, response: session } = await deps.auth.api.getSession({
          headers: toHeaders(req.headers),
          query: { disableCookieCache: true },
          returnHeaders: true,
        });
        // A session the library extended (sliding expiry) comes with a refreshed cookie.
        const refreshed = headers.getSetCookie();
        if (refreshed.length) res.append('set-cookie', refreshed);
        if (session) {
          if (!SAFE_METHODS.has(req.method) && originVerdict(req.headers, trusted) === 'refused') {
            res.status(403).json(errorBody('INVALID_ORIGIN', MESSAGES.crossSite));
            return;
          }
          req.auth = { userId: session.user.id, apiKeyId: null, method: 'session', sessionId: session.session.id };
          next();
          return;
        }
        standard401(res, accept.apiKey ? MESSAGES.noCredential : MESSAGES.noSession);
        return;
      }
      standard401(res, MESSAGES.keyMissing);
    })().catch(next);
  };
}
