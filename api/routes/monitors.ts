/**
 * `/monitors/*` (API key or session; docs/monitors.md): monitors (a scrape request checked on a
 * Temporal Schedule, compared with its previous successful check) and their checks.
 *
 *   POST   /monitors                              create (201); its schedule starts at once
 *   GET    /monitors                              the account's monitors, newest first, each with its last check
 *   GET    /monitors/:id                          one monitor
 *   PATCH  /monitors/:id                          change any of name, request, schedule, compare, ignore
 *   DELETE /monitors/:id                          delete it, its schedule and its checks (204)
 *   POST   /monitors/:id/pause | /resume          pause or resume its schedule
 *   POST   /monitors/:id/check                    check now (202): the schedule's action, triggered
 *   GET    /monitors/:id/checks                   its checks, newest first (status, diff)
 *   GET    /monitors/:id/checks/:checkId          one check, with the compared snapshot
 *   GET    /monitors/:id/checks/:checkId/diff     a check's diff alone
 *
 * Another account's monitor → 403; unknown → 404 (api/ownership.ts).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { parseOrUnprocessable } from '../../platform/validate';
import { type Route, parsedBy, reply, route } from '../route-table';
import { ownedBy } from '../ownership';
import { precheck } from '../scrape-run';
import { getBalance } from '../../accounts/credit';
import { NEWEST_FIRST, afterCursor, decodeCursor, page } from './pagination';
import { listRunsQuery } from '../schemas/flows';
import { anyObject, pageOf } from '../schemas/responses';
import { createMonitorSchedules } from '../monitor-schedules';
import { type MonitorCheckRow, type MonitorRow, type MonitorStore, createMonitorStore, monitorDefinition } from '../../monitors/store';
import { type MonitorDefinition, checkRequest, monitorBodySchema, monitorPatchSchema, parseMonitorBody, validateDefinition } from '../../monitors/request';
import { type MonitorSchedules, monitorIds } from '../../monitors/schedules';
import { scrapeCost } from '../../scrape/request';
import type { AppDeps } from '../deps';
import { redactRequestSecrets } from '../../scrape/request-redaction';
import { configuredKeyring } from '../../sessions/keys';
import { sealRequestSecrets } from '../../sessions/request-secrets';

const time = z.iso.datetime();

const checkSummarySchema = z
  .looseObject({
    id: z.string(),
    monitorId: z.string(),
    status: z.enum(['running', 'new', 'same', 'changed', 'removed', 'failed']),
    httpStatus: z.int().nullable(),
    scrapeRunId: z.string(),
    scheduledAt: time,
    createdAt: time,
    finishedAt: time.nullable(),
    diff: anyObject.nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .meta({ id: 'MonitorCheck' });

const checkSchema = checkSummarySchema.extend({ snapshot: z.string().nullable() }).meta({ id: 'MonitorCheckWithSnapshot' });

const monitorSchema = z
  .looseObject({
    id: z.string(),
    name: z.string(),
    request: anyObject,
    schedule: anyObject,
    compare: z.enum(['markdown', 'data', 'json']),
    ignore: z.object({ selectors: z.array(z.string()), patterns: z.array(z.string()) }),
    paused: z.boolean(),
    scheduleId: z.string(),
    failuresInARow: z.int(),
    createdAt: time,
    updatedAt: time,
    lastCheck: checkSummarySchema.nullable(),
  })
  .meta({ id: 'Monitor' });

const diffSchema = z.object({ checkId: z.string(), monitorId: z.string(), status: z.string(), diff: anyObject.nullable() }).meta({ id: 'MonitorCheckDiff' });

const MONITOR_EXAMPLE = {
  name: 'pricing page',
  request: { url: 'https://example.com/pricing' },
  schedule: { every: '6h' },
  compare: 'markdown',
  ignore: { selectors: ['.ad'], patterns: ['Updated \\d+ minutes ago'] },
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function checkBody(row: MonitorCheckRow) {
  return {
    id: row.id,
    monitorId: row.monitorId,
    status: row.status,
    httpStatus: row.httpStatus,
    scrapeRunId: row.scrapeRunId,
    scheduledAt: row.scheduledAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    finishedAt: iso(row.finishedAt),
    diff: (row.diff ?? null) as Record<string, unknown> | null,
    error: (row.error ?? null) as { code: string; message: string } | null,
  };
}

function monitorBody(row: MonitorRow, lastCheck: MonitorCheckRow | undefined | null) {
  const definition = monitorDefinition(row);
  return {
    id: row.id,
    name: row.name,
    // Secrets masked, never the ciphertext nor the clear value (sessions/request-secrets.ts).
    request: redactRequestSecrets(definition.request),
    schedule: definition.schedule,
    compare: definition.compare,
    ignore: definition.ignore,
    paused: row.paused,
    scheduleId: row.scheduleId,
    failuresInARow: row.failureStreak,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastCheck: lastCheck ? checkBody(lastCheck) : null,
  };
}

/** A cron schedule may not fire more often than MONITOR_MIN_INTERVAL_MS: read from the times Temporal computes. */
async function holdToMinimum(schedules: MonitorSchedules, monitorId: string, definition: MonitorDefinition, minMs: number): Promise<void> {
  if ('every' in definition.schedule) return;
  const times = (await schedules.nextTimes(monitorId)).map((t) => t.getTime());
  for (let i = 1; i < times.length; i++) {
    if (times[i]! - times[i - 1]! < minMs) {
      throw new AppError('VALIDATION_FAILED', [`schedule.cron fires more often than every ${minMs / 1000}s (MONITOR_MIN_INTERVAL_MS)`]);
    }
  }
}

export function monitorRouteTable(deps: AppDeps): Route[] {
  const store = createMonitorStore(deps.db);
  const schedules = createMonitorSchedules(deps);
  const minMs = deps.config.MONITOR_MIN_INTERVAL_MS;
  const keyring = configuredKeyring(deps.config);
  /** The definition as the row keeps it: request secrets sealed; one sent back masked keeps the stored one (`stored`). */
  const sealed = (definition: MonitorDefinition, userId: string, stored?: unknown): MonitorDefinition => ({
    ...definition,
    request: sealRequestSecrets(keyring, { userId, kind: 'monitor' }, definition.request, stored),
  });

  async function own(id: string, userId: string): Promise<MonitorRow> {
    return ownedBy(await store.findMonitor(id), userId, 'monitor');
  }

  async function answer(row: MonitorRow) {
    return monitorBody(row, (await store.lastChecks([row.id])).get(row.id));
  }

  const spec = (row: MonitorRow) => ({ monitorId: row.id, userId: row.userId, name: row.name, schedule: monitorDefinition(row).schedule, paused: row.paused });

  return [
    route({
      method: 'post',
      path: '/monitors',
      credential: 'either',
      tag: 'monitors',
      summary: 'Create a monitor: a scrape request checked on a schedule, each check compared with the previous one',
      description: 'Each check is a scrape, debited as that scrape and refunded when it fails. `monitor.changed`, `monitor.removed` and `monitor.failed` go to the account\'s webhook endpoints (docs/monitors.md).',
      body: parsedBy(monitorBodySchema, (body) => parseMonitorBody(body, minMs), MONITOR_EXAMPLE),
      responses: { 201: monitorSchema },
      errors: ['VALIDATION_FAILED', 'BAD_REQUEST', 'INVALID_URL', 'INVALID_SELECTOR', 'PRIVATE_TARGET', 'BLACKLISTED', 'MONITOR_LIMIT_REACHED'],
      handler: async ({ auth, body: definition }) => {
        await precheck(deps, definition.request);
        const limit = deps.config.MONITOR_MAX_PER_ACCOUNT;
        if (limit > 0 && (await store.countMonitors(auth.userId)) >= limit) {
          throw new AppError('MONITOR_LIMIT_REACHED', `The account has ${limit} monitors (MONITOR_MAX_PER_ACCOUNT); delete one first`, { limit });
        }
        const id = randomUUID();
        const row = await store.createMonitor({ id, userId: auth.userId, apiKeyId: auth.apiKeyId, scheduleId: monitorIds.schedule(id), definition: sealed(definition, auth.userId), maxPerAccount: limit });
        try {
          await schedules.create(spec(row));
          await holdToMinimum(schedules, id, definition, minMs);
        } catch (error) {
          // Nothing is left behind: no schedule without its monitor, no monitor without its schedule.
          await schedules.delete(id).catch(() => undefined);
          await store.deleteMonitor(id);
          throw error;
        }
        return reply(201, monitorBody(row, null));
      },
    }),
    route({
      method: 'get',
      path: '/monitors',
      credential: 'either',
      tag: 'monitors',
      summary: "The account's monitors, newest first, each with its last check",
      query: parsedBy(listRunsQuery, (query) => listRunsQuery.parse(query)),
      responses: { 200: pageOf('monitors', monitorSchema) },
      errors: ['BAD_REQUEST'],
      handler: async ({ auth, query: { limit, cursor } }) => {
        const rows = await store.listMonitors(auth.userId, { after: afterCursor(decodeCursor(cursor)), orderBy: NEWEST_FIRST, take: limit + 1 });
        const { items, nextCursor } = page(rows, limit);
        const last = await store.lastChecks(items.map((r) => r.id));
        return reply(200, { monitors: items.map((r) => monitorBody(r, last.get(r.id))), nextCursor });
      },
    }),
    route({
      method: 'get',
      path: '/monitors/:id',
      params: ['id'],
      credential: 'either',
      tag: 'monitors',
      summary: 'One monitor, with its last check',
      responses: { 200: monitorSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => reply(200, await answer(await own(params.id, auth.userId))),
    }),
    route({
      method: 'patch',
      path: '/monitors/:id',
      params: ['id'],
      credential: 'either',
      tag: 'monitors',
      summary: 'Change any of name, request, schedule, compare, ignore (the next check uses them)',
      body: parsedBy(monitorPatchSchema, (body) => parseOrUnprocessable(monitorPatchSchema, body)),
      responses: { 200: monitorSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'VALIDATION_FAILED', 'BAD_REQUEST', 'INVALID_URL', 'INVALID_SELECTOR', 'PRIVATE_TARGET', 'BLACKLISTED'],
      handler: async ({ auth, params, body }) => {
        const row = await own(params.id, auth.userId);
        const current = monitorDefinition(row);
        const definition = validateDefinition(
          {
            name: body.name ?? current.name,
            // Validated as the caller sees it (secrets masked); sealed below with the stored ones kept.
            request: body.request ?? redactRequestSecrets(current.request),
            schedule: body.schedule ?? current.schedule,
            compare: body.compare ?? current.compare,
            ignore: body.ignore ?? current.ignore,
          },
          minMs,
        );
        await precheck(deps, definition.request);
        const updated = await store.updateMonitor(row.id, sealed(definition, auth.userId, row.request));
        if (body.schedule) {
          try {
            await schedules.update(spec(updated));
            await holdToMinimum(schedules, row.id, definition, minMs);
          } catch (error) {
            // The schedule goes back to the timing the monitor had.
            await store.updateMonitor(row.id, current);
            await schedules.update(spec(row)).catch(() => undefined);
            throw error;
          }
        }
        return reply(200, await answer(updated));
      },
    }),
    route({
      method: 'delete',
      path: '/monitors/:id',
      params: ['id'],
      credential: 'either',
      tag: 'monitors',
      summary: 'Delete a monitor, its schedule and its checks (a check under way finds it gone and reports nothing)',
      responses: { 204: null },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => {
        const row = await own(params.id, auth.userId);
        await schedules.delete(row.id);
        await store.deleteMonitor(row.id);
        return reply(204);
      },
    }),
    ...monitorActionRoutes(deps, { store, schedules, own, answer }),
    ...monitorCheckRoutes(store, own),
  ];
}

/** Pause, resume, check now. */
function monitorActionRoutes(
  deps: AppDeps,
  ctx: { store: MonitorStore; schedules: MonitorSchedules; own: (id: string, userId: string) => Promise<MonitorRow>; answer: (row: MonitorRow) => Promise<unknown> },
): Route[] {
  const { store, schedules, own, answer } = ctx;
  return [
    route({
      method: 'post',
      path: '/monitors/:id/pause',
      params: ['id'],
      credential: 'either',
      tag: 'monitors',
      summary: 'Pause the schedule (no tick starts a check until resumed; "check now" still does)',
      responses: { 200: monitorSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => {
        const row = await own(params.id, auth.userId);
        await schedules.pause(row.id, `paused by the account at ${new Date().toISOString()}`);
        return reply(200, await answer(await store.setPaused(row.id, true)));
      },
    }),
    route({
      method: 'post',
      path: '/monitors/:id/resume',
      params: ['id'],
      credential: 'either',
      tag: 'monitors',
      summary: 'Resume the schedule',
      responses: { 200: monitorSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => {
        const row = await own(params.id, auth.userId);
        await schedules.resume(row.id, `resumed by the account at ${new Date().toISOString()}`);
        return reply(200, await answer(await store.setPaused(row.id, false)));
      },
    }),
    route({
      method: 'post',
      path: '/monitors/:id/check',
      params: ['id'],
      credential: 'either',
      tag: 'monitors',
      summary: 'Check now: starts the schedule\'s check workflow at once (202); the check appears in GET /monitors/:id/checks',
      responses: { 202: monitorSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'INSUFFICIENT_CREDIT', 'RATE_LIMITED'],
      handler: async ({ auth, params }) => {
        const row = await own(params.id, auth.userId);
        // A check now is a scrape asked now: the account's runs in flight and its balance are checked as for one.
        const cost = scrapeCost(checkRequest(monitorDefinition(row)));
        const balance = deps.limits ? await deps.limits.balanceForNewRun(auth.userId) : await getBalance(deps.sql, auth.userId);
        if (balance < cost) throw new AppError('INSUFFICIENT_CREDIT', `A check costs ${cost} credit${cost === 1 ? '' : 's'}; ${balance} remaining`, { remaining: balance, cost });
        await schedules.trigger(row.id, row.userId);
        return reply(202, await answer(row));
      },
    }),
  ];
}

/** A monitor's checks: the list, one check, its diff. */
function monitorCheckRoutes(store: MonitorStore, own: (id: string, userId: string) => Promise<MonitorRow>): Route[] {
  async function ownCheck(params: { id: string; checkId: string }, userId: string): Promise<MonitorCheckRow> {
    await own(params.id, userId);
    const check = await store.findCheck(params.checkId);
    if (!check || check.monitorId !== params.id) throw new AppError('NOT_FOUND', 'No check with that id');
    return check;
  }

  return [
    route({
      method: 'get',
      path: '/monitors/:id/checks',
      params: ['id'],
      credential: 'either',
      tag: 'monitors',
      summary: "A monitor's checks, newest first: status and diff",
      query: parsedBy(listRunsQuery, (query) => listRunsQuery.parse(query)),
      responses: { 200: pageOf('checks', checkSummarySchema) },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'BAD_REQUEST'],
      handler: async ({ auth, params, query: { limit, cursor } }) => {
        const row = await own(params.id, auth.userId);
        const rows = await store.listChecks(row.id, { after: afterCursor(decodeCursor(cursor)), orderBy: NEWEST_FIRST, take: limit + 1 });
        const { items, nextCursor } = page(rows, limit);
        return reply(200, { checks: items.map(checkBody), nextCursor });
      },
    }),
    route({
      method: 'get',
      path: '/monitors/:id/checks/:checkId',
      params: ['id', 'checkId'],
      credential: 'either',
      tag: 'monitors',
      summary: 'One check, with the snapshot it compared',
      responses: { 200: checkSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => {
        const check = await ownCheck(params, auth.userId);
        return reply(200, { ...checkBody(check), snapshot: check.snapshot });
      },
    }),
    route({
      method: 'get',
      path: '/monitors/:id/checks/:checkId/diff',
      params: ['id', 'checkId'],
      credential: 'either',
      tag: 'monitors',
      summary: "A check's diff alone (the link a webhook gives when the diff is too large for its body)",
      responses: { 200: diffSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => {
        const check = await ownCheck(params, auth.userId);
        return reply(200, { checkId: check.id, monitorId: check.monitorId, status: check.status, diff: (check.diff ?? null) as Record<string, unknown> | null });
      },
    }),
  ];
}
