/**
 * Account routes (session cookie): the current session, API keys (create, list, revoke) and
 * usage statistics. Every key of an account reports the account's credit balance as `remaining`.
 */
import { Router } from 'express';
import { z } from 'zod';
import { getBalance } from '../../accounts/credit';
import { AppError } from '../../platform/errors';
import { notify } from '../../notifications/notifications';
import { type Route, badRequest, mountRoutes, parsedBy, reply, route } from '../route-table';
import { createApiKeySchema, parseAccountBody, statsQuerySchema } from '../schemas/accounts';
import { anyObject, apiKeySchema } from '../schemas/responses';
import { usageStats } from './usage-stats';
import type { AppDeps } from '../deps';

interface KeyRow {
  id: string;
  name: string | null;
  start: string | null;
  prefix: string | null;
  enabled: boolean | null;
  createdAt: Date;
  expiresAt: Date | null;
  lastRequest: Date | null;
}

/** The listed form of a key: never the secret (nor its hash). */
export function keyRecord(key: KeyRow, remaining: number) {
  return {
    id: key.id,
    name: key.name,
    start: key.start,
    prefix: key.prefix,
    remaining,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt ? key.expiresAt.toISOString() : null,
    enabled: key.enabled !== false,
    lastUsedAt: key.lastRequest ? key.lastRequest.toISOString() : null,
  };
}

const KEY_COLUMNS = { id: true, name: true, start: true, prefix: true, enabled: true, createdAt: true, expiresAt: true, lastRequest: true, referenceId: true } as const;

const sessionResponse = z.object({ user: z.object({ id: z.string(), email: z.string(), name: z.string() }), session: z.object({ id: z.string(), expiresAt: z.iso.datetime() }) });
const createdKeyResponse = apiKeySchema.omit({ lastUsedAt: true }).extend({ key: z.string().meta({ description: 'The secret: shown once, here.' }) });

export function userRouteTable(deps: AppDeps): Route[] {
  return [
    route({
      method: 'get',
      path: '/api/users/session',
      credential: 'session',
      tag: 'account',
      summary: 'The signed-in user and the current session',
      responses: { 200: sessionResponse },
      errors: [],
      handler: async ({ auth }) => {
        const [user, current] = await Promise.all([
          deps.db.user.findUnique({ where: { id: auth.userId }, select: { id: true, email: true, name: true } }),
          deps.db.session.findUnique({ where: { id: auth.sessionId ?? '' }, select: { id: true, expiresAt: true } }),
        ]);
        if (!user || !current) throw new AppError('UNAUTHORIZED', 'No valid session: sign in at POST /api/auth/sign-in/email');
        return reply(200, { user, session: { id: current.id, expiresAt: current.expiresAt.toISOString() } });
      },
    }),
    route({
      method: 'post',
      path: '/api/users/create-api-keys',
      credential: 'session',
      tag: 'account',
      summary: 'Create an API key (its secret is answered once)',
      // A missing field or a body that is not an object → 400; a broken rule → 422 (parseAccountBody).
      body: parsedBy(createApiKeySchema, (body) => parseAccountBody(createApiKeySchema, body), { name: 'laptop', prefix: 'sk_' }),
      responses: { 201: createdKeyResponse },
      errors: ['BAD_REQUEST', 'VALIDATION_FAILED'],
      handler: async ({ auth, body: input }) => {
        // Server-side call: the plugin takes userId from the body; remaining stays null (no plugin
        // usage counting) and its rate limit is off by configuration.
        const created = await deps.auth.api.createApiKey({
          body: { name: input.name, prefix: input.prefix, userId: auth.userId, ...(input.expiresIn ? { expiresIn: input.expiresIn } : {}) },
        });
        const remaining = await getBalance(deps.db, auth.userId);
        return reply(201, {
          id: created.id,
          name: created.name,
          key: created.key,
          start: created.start,
          prefix: created.prefix,
          remaining,
          createdAt: new Date(created.createdAt).toISOString(),
          expiresAt: created.expiresAt ? new Date(created.expiresAt).toISOString() : null,
          enabled: created.enabled,
        });
      },
    }),
    route({
      method: 'get',
      path: '/api/users/api-keys',
      credential: 'session',
      tag: 'account',
      summary: "The account's API keys (never their secrets) and its balance",
      responses: { 200: z.object({ remaining: z.int(), keys: z.array(apiKeySchema) }) },
      errors: [],
      handler: async ({ auth }) => {
        const [keys, remaining] = await Promise.all([
          deps.db.apikey.findMany({ where: { referenceId: auth.userId }, select: KEY_COLUMNS, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] }),
          getBalance(deps.db, auth.userId),
        ]);
        return reply(200, { remaining, keys: keys.map((k) => keyRecord(k, remaining)) });
      },
    }),
    route({
      method: 'get',
      path: '/api/users/api-keys/stats',
      credential: 'session',
      tag: 'account',
      summary: 'Usage over the last N days: requests and credits, per key and per day',
      query: badRequest(statsQuerySchema),
      responses: { 200: anyObject },
      errors: ['BAD_REQUEST'],
      handler: async ({ auth, query }) => reply(200, await usageStats(deps.db, auth.userId, query.days)),
    }),
    /** Revoke: enabled → false, final (nothing re-enables a key). Repeating it answers the same record. */
    route({
      method: 'delete',
      path: '/api/users/api-keys/:id',
      params: ['id'],
      credential: 'session',
      tag: 'account',
      summary: 'Revoke an API key (final; repeating it answers the same record)',
      responses: { 200: apiKeySchema },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params: { id } }) => {
        const key = await deps.db.apikey.findUnique({ where: { id }, select: KEY_COLUMNS });
        if (!key) throw new AppError('NOT_FOUND', 'No API key with that id');
        if (key.referenceId !== auth.userId) throw new AppError('FORBIDDEN', 'That API key belongs to another account');
        let revoked = key;
        if (key.enabled !== false) {
          await deps.auth.api.updateApiKey({ body: { keyId: id, enabled: false, userId: auth.userId } });
          revoked = { ...key, enabled: false };
        }
        // Also on a repeated revoke: the dedupe key makes it once, and a crash after the update cannot lose it.
        await notify(deps.db, auth.userId, { type: 'key.revoked', apiKeyId: id, name: key.name }, { dedupeKey: `key.revoked:${id}` });
        return reply(200, keyRecord(revoked, await getBalance(deps.db, auth.userId)));
      },
    }),
  ];
}

export function userRoutes(deps: AppDeps): Router {
  return mountRoutes(Router(), deps, userRouteTable(deps));
}
