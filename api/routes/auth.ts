/**
 * The auth library's routes under /api/auth/* (sign-up, sign-in, sign-out, get-session), mounted
 * before `express.json()` because the library reads the raw request. In front of it:
 *
 * 1. the cross-site rule (api/middleware/auth.ts `originVerdict`) for every state-changing
 *    request: a browser page of another site is refused (403 `{code, message}`, the library's
 *    shape on its routes); a script (curl, Node's fetch: no Origin, no Referer, no
 *    Sec-Fetch-Site) is let through by presenting the service's own origin to the library, whose
 *    own origin/CSRF checks would otherwise refuse a cookie or `Sec-Fetch-Mode` without Origin;
 * 2. validation of the sign-in and sign-up bodies: 422 with every failed item listed;
 * 3. the client address from Express (`req.ip`, proxies per `trust proxy`) for the library's
 *    per-IP rate limit, instead of a client-supplied X-Forwarded-For;
 * 4. the API-key plugin's own endpoints answer 404: keys are managed under /api/users;
 * 5. throttling (docs/operations.md, "Limits"): the library's per-address 429 is answered in the
 *    standard error body with Retry-After; a sign-in of an account with too many failed sign-ins
 *    is refused 429 before the library sees it, and each 401 of a sign-in is counted.
 */
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { CLIENT_IP_HEADER, authBaseUrl, trustedOrigins } from '../../accounts/auth-config';
import { AppError, errorBody } from '../../platform/errors';
import { MESSAGES, originVerdict } from '../middleware/auth';
import { type Route, customRoute, mountRoutes, parsedBy } from '../route-table';
import { signInSchema, signUpSchema } from '../schemas/accounts';
import { errorBodySchema } from '../schemas/responses';
import { parseOrUnprocessable } from '../../platform/validate';
import type { AppDeps } from '../deps';

/** Route labels for metrics: the known paths, else one pattern (never a raw path). */
const KNOWN_PATHS = new Set(['/api/auth/sign-in/email', '/api/auth/sign-up/email', '/api/auth/sign-out', '/api/auth/get-session']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Methods the Fetch standard forbids in a Request (found by the schema fuzz: TRACE answered 500). */
const FETCH_FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** The auth library's router, as it always was: the table declares it (`authRouteTable`). */
function authLibraryRouter(deps: AppDeps): Router {
  const router = Router();
  const handler = deps.auth.nodeHandler;
  const trusted = trustedOrigins(deps.config).map((o) => o.toLowerCase());
  const ownOrigin = new URL(authBaseUrl(deps.config)).origin;
  const json = express.json({ limit: '64kb' });

  router.use('/api/auth', (req: Request, res: Response, next: NextFunction) => {
    const full = `/api/auth${req.path}`.replace(/\/+$/, '');
    res.locals.route = KNOWN_PATHS.has(full) ? full : '/api/auth/*';
    req.headers[CLIENT_IP_HEADER] = req.ip ?? '';
    if (!SAFE_METHODS.has(req.method)) {
      const verdict = originVerdict(req.headers, trusted);
      if (verdict === 'refused') {
        res.status(403).json({ code: 'INVALID_ORIGIN', message: MESSAGES.crossSite });
        return;
      }
      if (verdict === 'script') req.headers.origin = ownOrigin;
    }
    next();
  });

  router.all('/api/auth/api-key/*splat', (req: Request, res: Response) => {
    res.status(404).json(errorBody('NOT_FOUND', `Cannot ${req.method} ${req.path}`));
  });

  const validated = (schema: typeof signInSchema | typeof signUpSchema) => (req: Request, _res: Response, next: NextFunction) => {
    req.body = parseOrUnprocessable(schema, req.body);
    // The library re-reads the (now parsed and cleaned) body: keep the length header true.
    const length = Buffer.byteLength(JSON.stringify(req.body));
    req.headers['content-length'] = String(length);
    delete req.headers['transfer-encoding'];
    next();
  };
  router.post('/api/auth/sign-in/email', json, validated(signInSchema));
  router.post('/api/auth/sign-up/email', json, validated(signUpSchema));

  router.all('/api/auth/*splat', (req: Request, res: Response, next: NextFunction) => {
    // The library builds a fetch Request, which refuses these methods (a TypeError: was a 500);
    // no route of ours serves them, so they fall through to the 404 of any unknown route.
    if (FETCH_FORBIDDEN_METHODS.has(req.method)) {
      next();
      return;
    }
    const signIn = req.method === 'POST' && res.locals.route === '/api/auth/sign-in/email';
    const email = signIn ? String((req.body as { email: string }).email) : undefined;
    const serve = async () => {
      // Too many failed sign-ins of this account → 429 before the library checks the password.
      if (email !== undefined) await deps.limits?.checkSignIn(email);
      await handler(req, res, async (answer) => {
        if (answer.status === 429) throw libraryRateLimited(deps, answer);
        if (email !== undefined && answer.status === 401) await deps.limits?.countFailedSignIn(email);
        return answer;
      });
    };
    serve().catch(next);
  });
  return router;
}

/**
 * The library's rate limiter answers 429 `{message}` with `X-Retry-After`; ours is the standard
 * error body with `Retry-After` (the error handler sets it from `retryAfter`).
 */
function libraryRateLimited(deps: AppDeps, answer: globalThis.Response): AppError {
  const seconds = Number(answer.headers.get('x-retry-after'));
  const retryAfter = Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 60;
  deps.metrics.requestsLimited.inc({ limit: 'auth_address' });
  return new AppError('RATE_LIMITED', `Too many requests from this address; retry after ${retryAfter} s`, { retryAfter });
}

/** The library's answers: its own shape, `{code, message}` on errors. */
const libraryError = z.object({ code: z.string(), message: z.string() }).meta({ id: 'AuthLibraryError' });
const userSchema = z.looseObject({ id: z.string(), email: z.string(), name: z.string() });
const sessionAnswer = z.looseObject({ token: z.string().nullable().optional(), user: userSchema });
/**
 * 403 on the library's routes: our cross-site refusal (`INVALID_ORIGIN`) and the library's own
 * (`INVALID_CALLBACK_URL` for a `callbackURL` off the trusted origins), both `{code, message}`.
 */
const refused = { 403: libraryError } as const;
/** 422 on sign-up: our validation (`ErrorBody`, every item listed) or the library's (`USER_ALREADY_EXISTS`). */
const signUpUnprocessable = z.union([errorBodySchema, libraryError]);

/**
 * The auth library's routes, delegated (its own handler reads the raw request): the first entry
 * mounts the whole router above; the others declare, for the document, the paths it serves.
 */
export function authRouteTable(deps: AppDeps): Route[] {
  const doc = { credential: 'none', tag: 'auth', errors: ['VALIDATION_FAILED', 'INVALID_ORIGIN', 'RATE_LIMITED'] } as const;
  return [
    customRoute({
      ...doc,
      method: 'post',
      path: '/api/auth/sign-up/email',
      summary: 'Sign up with email and password (sets the session cookie)',
      body: parsedBy(signUpSchema, (body) => body, { email: 'me@example.com', password: 'a-long-password', name: 'Me' }),
      responses: { 200: sessionAnswer, ...refused, 422: signUpUnprocessable },
      serves: ['/api/auth/api-key/*splat', '/api/auth/*splat'],
      mount: (router) => router.use(authLibraryRouter(deps)),
    }),
    customRoute({
      ...doc,
      method: 'post',
      path: '/api/auth/sign-in/email',
      summary: 'Sign in with email and password (sets the session cookie `better-auth.session_token`)',
      body: parsedBy(signInSchema, (body) => body, { email: 'me@example.com', password: 'a-long-password' }),
      responses: { 200: sessionAnswer, 401: libraryError, ...refused },
    }),
    customRoute({ ...doc, errors: ['INVALID_ORIGIN', 'RATE_LIMITED'], method: 'post', path: '/api/auth/sign-out', summary: 'Sign out (clears the session)', responses: { 200: z.object({ success: z.boolean() }), ...refused } }),
    customRoute({
      ...doc,
      errors: [],
      method: 'get',
      path: '/api/auth/get-session',
      summary: 'The current session and user (null when signed out)',
      responses: { 200: z.object({ session: z.looseObject({ id: z.string() }), user: userSchema }).nullable() },
    }),
  ];
}

export function authRoutes(deps: AppDeps): Router {
  return mountRoutes(Router(), deps, authRouteTable(deps));
}
