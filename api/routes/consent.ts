/**
 * `/api/consent` (session cookie): consent history and current state per kind; grant or
 * withdraw (a new append-only record each time). `GET /api/users/export`: the account's own data
 * as one JSON document (no secrets: no key values or hashes, no session tokens, no password hash).
 */
import { Router } from 'express';
import { consentRecord, consentState, currentVersions, recordConsent } from '../../lib/consent';
import { AppError } from '../../lib/errors';
import type { AppDeps } from '../app';
import { authenticate } from '../middleware/auth';
import { consentSchema } from '../schemas/account-functions';
import { parseOrUnprocessable } from '../validate';
import { keyRecord } from './users';

export function consentRoutes(deps: AppDeps): Router {
  const router = Router();
  const session = authenticate(deps, { apiKey: false, session: true });

  router.get('/api/consent', session, async (req, res) => {
    res.json({ versions: currentVersions(deps.config), ...(await consentState(deps.db, req.auth!.userId)) });
  });

  router.post('/api/consent', session, async (req, res) => {
    const body = parseOrUnprocessable(consentSchema, req.body);
    const userId = req.auth!.userId;
    const row = await recordConsent(deps.db, {
      userId,
      kind: body.kind,
      granted: body.granted,
      version: body.version ?? currentVersions(deps.config)[body.kind],
      ip: req.ip ?? null,
      userAgent: req.get('user-agent') ?? null,
      source: 'api',
    });
    const { current } = await consentState(deps.db, userId);
    res.status(201).json({ record: consentRecord(row), current });
  });

  router.get('/api/users/export', session, async (req, res) => {
    const userId = req.auth!.userId;
    const db = deps.db;
    const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, email: true, name: true, emailVerified: true, image: true, createdAt: true, updatedAt: true, creditBalance: true } });
    if (!user) throw new AppError('UNAUTHORIZED', 'No valid session: sign in at POST /api/auth/sign-in/email');
    const [keys, sessions, ledger, runs, templates, flows, flowRuns, payments, subscriptions, consent, notifications] = await Promise.all([
      db.apikey.findMany({
        where: { referenceId: userId },
        select: { id: true, name: true, start: true, prefix: true, enabled: true, createdAt: true, expiresAt: true, lastRequest: true },
        orderBy: { createdAt: 'asc' },
      }),
      db.session.findMany({ where: { userId }, select: { id: true, createdAt: true, expiresAt: true, ipAddress: true, userAgent: true }, orderBy: { createdAt: 'asc' } }),
      db.creditLedger.findMany({ where: { userId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
      db.scrapeRun.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } }),
      db.userTemplate.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } }),
      // Deleted flows too: their runs and ledger rows are the account's data as well.
      db.flow.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } }),
      db.flowRun.findMany({ where: { userId }, orderBy: { createdAt: 'asc' }, include: { nodes: true } }),
      db.payment.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } }),
      db.subscription.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } }),
      consentState(db, userId),
      db.notification.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } }),
    ]);
    res.setHeader('content-disposition', `attachment; filename="account-${userId}.json"`);
    res.json({
      exportedAt: new Date().toISOString(),
      account: user,
      apiKeys: keys.map((k) => keyRecord(k, user.creditBalance)),
      sessions,
      creditLedger: ledger,
      scrapeRuns: runs,
      userTemplates: templates,
      flows,
      flowRuns,
      payments: payments.map(({ checkoutUrl: _checkoutUrl, ...p }) => p),
      subscriptions,
      consent: consent.history,
      notifications,
    });
  });

  return router;
}
