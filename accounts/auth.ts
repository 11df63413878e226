/**
 * The auth library (better-auth 1.7) over Prisma/PostgreSQL, with its API-key plugin.
 *
 * - Email + password accounts and database sessions; cookie `better-auth.session_token`
 *   (HttpOnly, SameSite=Lax; Secure, with the browser-enforced `__Secure-` prefix, when
 *   BETTER_AUTH_URL is https).
 * - The API-key plugin stores, hashes, verifies, expires and disables keys. It never touches
 *   credit: keys are created with `remaining: null` (unlimited for the plugin) and its per-key
 *   rate limit is off, so verifying a key never decrements, deletes or throttles it. The credit
 *   balance is the account's (`user.creditBalance`, accounts/credit.ts) and every key reports it.
 * - A new account gets FREE_CREDITS as a 'grant' ledger row (`grant:signup:<userId>`).
 * - The plugin's own HTTP endpoints (/api/auth/api-key/*) are disabled: keys are managed through
 *   /api/users/* (our validation, ownership and "revoked is final" rules); only server-side calls
 *   (`auth.api.*`) reach the plugin.
 * - Its rate limiter is on by default in every environment, with storage in PostgreSQL
 *   (`authRateLimit`); api/routes/auth.ts answers its 429 in our error shape.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiKey } from '@better-auth/api-key';
import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { toNodeHandler } from 'better-auth/node';
import {
  CLIENT_IP_HEADER,
  DISABLED_AUTH_PATHS,
  KEY_DEFAULT_PREFIX,
  KEY_NAME_MAX_LENGTH,
  KEY_PREFIX_MAX_LENGTH,
  KEY_RANDOM_LENGTH,
  KEY_START_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  authBaseUrl,
  resolveAuthSecret,
  trustedOrigins,
} from './auth-config';
import type { Config } from '../platform/config';
import { recordConsent } from './consent';
import { grantCredit, signupGrantKey } from './credit';
import type { Database } from '../platform/db';
import type { Logger } from '../platform/logger';

export interface AuthDeps {
  config: Config;
  db: Database;
  logger: Logger;
}

/** Only an error's name and message reach our logs: the library's extra arguments may carry request data. */
function describeArgs(args: unknown[]): Record<string, unknown> {
  const errors = args.filter((a): a is Error => a instanceof Error).map((e) => ({ name: e.name, message: e.message }));
  return errors.length ? { errors } : {};
}

/**
 * The library instance plus `nodeHandler`, its Node/Express adapter. Only this module imports the
 * (ESM-only) library at run time, so modules that tests load under Jest stay free of it.
 */
export function createAuth(deps: AuthDeps) {
  const auth = createBetterAuth(deps);
  /** Serves a request; `after`, when given, sees (and may replace or throw instead of) the library's answer. */
  const nodeHandler = (req: IncomingMessage, res: ServerResponse, after?: AuthAnswerHook): Promise<void> =>
    toNodeHandler(after ? async (request: Request) => after(await auth.handler(request)) : auth)(req, res);
  return Object.assign(auth, { nodeHandler });
}

export type AuthAnswerHook = (response: Response) => Response | Promise<Response>;

/**
 * The library's rate limiter (docs/operations.md, "Limits"): per client address (Express's
 * `req.ip`, passed as CLIENT_IP_HEADER) and auth path, counted in PostgreSQL (`rate_limit`) so
 * that it holds across API replicas and restarts. Sign-in and sign-up have limits of their own per
 * minute; reading the session is not limited (every dashboard page does it); other auth paths keep
 * the library's defaults (sign-in variants 3 per 10 s, the rest 100 per 10 s).
 */
export function authRateLimit(config: Pick<Config, 'AUTH_RATE_LIMIT' | 'SIGN_IN_PER_MINUTE' | 'SIGN_UP_PER_MINUTE'>) {
  return {
    enabled: config.AUTH_RATE_LIMIT,
    storage: 'database' as const,
    customRules: {
      '/sign-in/email': { window: 60, max: config.SIGN_IN_PER_MINUTE },
      '/sign-up/email': { window: 60, max: config.SIGN_UP_PER_MINUTE },
      '/get-session': false as const,
    },
  };
}

function createBetterAuth(deps: AuthDeps) {
  const { config, db, logger } = deps;
  const log = logger.child({ component: 'auth' });
  return betterAuth({
    appName: 'scrape-api',
    baseURL: authBaseUrl(config),
    basePath: '/api/auth',
    secret: resolveAuthSecret(config),
    trustedOrigins: trustedOrigins(config),
    database: prismaAdapter(db, { provider: 'postgresql' }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      autoSignIn: true,
    },
    disabledPaths: DISABLED_AUTH_PATHS,
    rateLimit: authRateLimit(config),
    telemetry: { enabled: false },
    advanced: {
      // better-auth turns its origin/CSRF checks OFF when NODE_ENV=test; keep them on everywhere
      // so tests exercise what production runs.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      useSecureCookies: authBaseUrl(config).startsWith('https://'),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    logger: {
      level: config.LOG_LEVEL === 'debug' || config.LOG_LEVEL === 'trace' ? 'debug' : 'warn',
      log: (level, message, ...args) => {
        const pinoLevel = level === 'debug' ? 'debug' : level === 'info' ? 'info' : level === 'warn' ? 'warn' : 'error';
        // An invalid API key is a client mistake, not a server error.
        const demoted = pinoLevel === 'error' && message.startsWith('Failed to validate API key') ? 'debug' : pinoLevel;
        log[demoted](describeArgs(args), message.slice(0, 300));
      },
    },
    databaseHooks: {
      user: {
        create: {
          // Runs after the user row is committed; the grant is idempotent by its key.
          after: async (user, context) => {
            // Signing up accepts the terms in force (TERMS_VERSION): recorded like any consent.
            const headers = context?.headers ?? context?.request?.headers;
            await recordConsent(db, {
              userId: user.id,
              kind: 'terms',
              version: config.TERMS_VERSION,
              granted: true,
              ip: headers?.get(CLIENT_IP_HEADER) ?? null,
              userAgent: headers?.get('user-agent') ?? null,
              source: 'signup',
            });
            if (config.FREE_CREDITS <= 0) return;
            await grantCredit(db, { userId: user.id, amount: config.FREE_CREDITS, idempotencyKey: signupGrantKey(user.id), reason: 'grant' });
          },
        },
      },
    },
    plugins: [
      apiKey({
        apiKeyHeaders: 'x-api-key',
        defaultPrefix: KEY_DEFAULT_PREFIX,
        defaultKeyLength: KEY_RANDOM_LENGTH,
        minimumPrefixLength: 1,
        maximumPrefixLength: KEY_PREFIX_MAX_LENGTH,
        minimumNameLength: 1,
        maximumNameLength: KEY_NAME_MAX_LENGTH,
        requireName: true,
        enableMetadata: false,
        rateLimit: { enabled: false },
        startingCharactersConfig: { shouldStore: true, charactersLength: KEY_START_LENGTH },
        keyExpiration: { defaultExpiresIn: null, disableCustomExpiresTime: false, minExpiresIn: 1, maxExpiresIn: 365 },
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
