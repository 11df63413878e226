/**
 * `/api/consent` (session cookie): consent history and current state per kind; grant or
 * withdraw (a new append-only record each time). `GET /api/users/export`: the account's own data
 * as one JSON document (no secrets: no key values or hashes, no session tokens, no password hash).
 */
import { Router } from 'express';
import { z } from 'zod';
import { consentRecord, consentState, currentVersions, recordConsent } from '../../accounts/consent';
import { AppError } from '../../platform/errors';
import { type Route, mountRoutes, reply, route, unprocessable } from '../route-table';
import { CONSENT_KINDS, consentSchema } from '../schemas/account-functions';
import { anyObject, consentRecordSchema } from '../schemas/responses';
import { keyRecord } from './users';
import type { AppDeps } from '../deps';

const currentConsent = z.record(z.enum(CONSENT_KINDS), z.unknown());

export function consentRouteTable(deps: AppDeps): Route[] {
  return [
  route({
    method: 'get',
    path: '/api/consent',
    credential: 'session',
    tag: 'account',
    summary: 'Consent: the current document versions, the state per kind and the history',
    responses: { 200: z.looseObject({ versions: z.record(z.string(), z.string()), current: currentConsent, history: z.array(consentRecordSchema) }) },
    errors: [],
    handler: async ({ auth }) => reply(200, { versions: currentVersions(deps.config), ...(await consentState(deps.db, auth.userId)) }),
  }),
  route({
    method: 'post',
    path: '/api/consent',
    credential: 'session',
    tag: 'account',
    summary: 'Grant or withdraw one kind of consent (a new record each time)',
    body: unprocessable(consentSchema, { kind: 'marketing', granted: false }),
    responses: { 201: z.object({ record: consentRecordSchema, current: currentConsent }) },
    errors: ['VALIDATION_FAILED'],
    handler: async ({ auth, body, req }) => {
    const userId = auth.userId;
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
    return reply(201, { record: consentRecord(row), current });
    },
  }),
  route({
    method: 'get',
    path: '/api/users/export',
    credential: 'session',
    tag: 'account',
    summary: "The account's own data as one JSON document (no secrets)",
    responses: { 200: anyObject },
    errors: [],
    handler: async ({ auth }) => {
    const userId = auth.userId;
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
    return reply(200, {
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
    }, { 'content-disposition': `attachment; filename="account-${userId}.json"` });
    },
  }),
  ];
}

export function consentRoutes(deps: AppDeps): Router {
  return mountRoutes(Router(), deps, consentRouteTable(deps));
}
