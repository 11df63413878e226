/**
 * Settings of the auth layer that do not need the auth library itself (which is ESM-only and
 * loaded by accounts/auth.ts alone): password and key rules, origins, the secret.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../platform/config';

/** Password rule, shared by our validation and the library: "longer than 8 characters" = 9 or more. */
export const PASSWORD_MIN_LENGTH = 9;
export const PASSWORD_MAX_LENGTH = 128;
/** API key names and prefixes (docs/accounts.md, "Validation rules"). */
export const KEY_NAME_MAX_LENGTH = 64;
export const KEY_PREFIX_MAX_LENGTH = 16;
export const KEY_DEFAULT_PREFIX = 'sk_';
/** Random part of a key: 64 letters (about 365 bits). */
export const KEY_RANDOM_LENGTH = 64;
/** Characters of a key kept in clear as `start` (prefix included) to recognise it in a list. */
export const KEY_START_LENGTH = 20;
/** Header the auth mount sets from Express's `req.ip` (client-supplied values are overwritten). */
export const CLIENT_IP_HEADER = 'x-client-ip';

/** Auth paths of the plugin's own HTTP endpoints, answered 404 (keys are managed under /api/users). */
export const DISABLED_AUTH_PATHS = ['/api-key/create', '/api-key/get', '/api-key/update', '/api-key/delete', '/api-key/list', '/api-key/verify', '/api-key/delete-all-expired-api-keys'];


/** The service's public origin: BETTER_AUTH_URL, else http://localhost:<PORT>. */
export function authBaseUrl(config: Config): string {
  return config.BETTER_AUTH_URL ?? `http://localhost:${config.PORT}`;
}

/**
 * Origins whose browser requests may use the auth and session routes: our own, plus TRUSTED_ORIGINS.
 * Without BETTER_AUTH_URL (a local install) "our own" is this machine on PORT under both loopback
 * names: `npm start` prints http://127.0.0.1:PORT, and the console (/dashboard) is opened there.
 */
export function trustedOrigins(config: Config): string[] {
  const own = config.BETTER_AUTH_URL ? [new URL(config.BETTER_AUTH_URL).origin] : [`http://localhost:${config.PORT}`, `http://127.0.0.1:${config.PORT}`];
  return [...new Set([...own, ...config.TRUSTED_ORIGINS.map((o) => new URL(o).origin)])];
}

/**
 * BETTER_AUTH_SECRET, or (outside production) a random secret kept in DATA_DIR/auth-secret so
 * sessions survive restarts of a local install. Production refuses to start without one.
 */
export function resolveAuthSecret(config: Config): string {
  if (config.BETTER_AUTH_SECRET) return config.BETTER_AUTH_SECRET;
  if (config.NODE_ENV === 'production') throw new Error('BETTER_AUTH_SECRET is required in production (32+ random characters).');
  const file = path.join(config.dataDir, 'auth-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

