/**
 * Account routes (session cookie): the current session, API keys (create, list, revoke) and
 * usage statistics. Every key of an account reports the account's credit balance as `remaining`.
 */
import { Router } from 'express';
import { getBalance } from '../../lib/credit';
import { AppError } from '../../lib/errors';
import { notify } from '../../lib/notifications';
import type { AppDeps } from '../app';
import { authenticate } from '../middleware/auth';
import { createApiKeySchema, parseAccountBody, statsQuerySchema } from '../schemas/accounts';
import { parseBody } from '../validate';
import { usageStats } from './usage-stats';
import { rejectMalformedIds } from '../params';

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

export function userRoutes(deps: AppDeps): Router {
  const router = Router();
  rejectMalformedIds(router, 'id');
  const session = authenticate(deps, { apiKey: false, session: true });

  router.get('/api/users/session', session, async (req, res) => {
    const auth = req.auth!;
    const [user, current] = await Promise.all([
      deps.db.user.findUnique({ where: { id: auth.userId }, select: { id: true, email: true, name: true } }),
      deps.db.session.findUnique({ where: { id: auth.sessionId ?? '' }, select: { id: true, expiresAt: true } }),
    ]);
    if (!user || !current) throw new AppError('UNAUTHORIZED', 'No valid session: sign in at POST /api/auth/sign-in/email');
    res.json({ user, session: { id: current.id, expiresAt: current.expiresAt.toISOString() } });
  });

  router.post('/api/users/create-api-keys', session, async (req, res) => {
    const auth = req.auth!;
    const input = parseAccountBody(createApiKeySchema, req.body);
    // Server-side call: the plugin takes userId from the body; remaining stays null (no plugin
    // usage counting) and its rate limit is off by configuration.
    const created = await deps.auth.api.createApiKey({
      body: { name: input.name, prefix: input.prefix, userId: auth.userId, ...(input.expiresIn ? { expiresIn: input.expiresIn } : {}) },
    });
    const remaining = await getBalance(deps.db, auth.userId);
    res.status(201).json({
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
  });

  router.get('/api/users/api-keys', session, async (req, res) => {
    const auth = req.auth!;
    const [keys, remaining] = await Promise.all([
      deps.db.apikey.findMany({ where: { referenceId: auth.userId }, select: KEY_COLUMNS, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] }),
      getBalance(deps.db, auth.userId),
    ]);
    res.json({ remaining, keys: keys.map((k) => keyRecord(k, remaining)) });
  });

  router.get('/api/users/api-keys/stats', session, async (req, res) => {
    const auth = req.auth!;
    const { days } = parseBody(statsQuerySchema, req.query);
    res.json(await usageStats(deps.db, auth.userId, days));
  });

  /** Revoke: enabled → false, final (nothing re-enables a key). Repeating it answers the same record. */
  router.delete('/api/users/api-keys/:id', session, async (req, res) => {
    const auth = req.auth!;
    const id = String(req.params.id);
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
    res.json(keyRecord(revoked, await getBalance(deps.db, auth.userId)));
  });

  return router;
}
