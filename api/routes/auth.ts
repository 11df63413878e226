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
 * 4. the API-key plugin's own endpoints answer 404: keys are managed under /api/users.
 */
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { CLIENT_IP_HEADER, authBaseUrl, trustedOrigins } from '../../lib/auth-config';
import { errorBody } from '../../lib/errors';
import type { AppDeps } from '../app';
import { MESSAGES, originVerdict } from '../middleware/auth';
import { signInSchema, signUpSchema } from '../schemas/accounts';
import { parseOrUnprocessable } from '../validate';

/** Route labels for metrics: the known paths, else one pattern (never a raw path). */
const KNOWN_PATHS = new Set(['/api/auth/sign-in/email', '/api/auth/sign-up/email', '/api/auth/sign-out', '/api/auth/get-session']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function authRoutes(deps: AppDeps): Router {
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
    handler(req, res).catch(next);
  });
  return router;
}
