/**
 * Firecrawl's monitors, `/v2/monitor` (docs/firecrawl.md "Monitors"), on our monitors
 * (docs/monitors.md): every route here maps Firecrawl's shapes (api/firecrawl/monitor-mappers.ts)
 * and calls the native route's own handler (api/routes/monitors.ts), so a Firecrawl monitor is
 * created, changed, paused, checked and deleted exactly as a native one (the same validation,
 * per-account limit, schedule and its rollback, balance and concurrency checks of "check now").
 *
 *   POST   /v2/monitor                           create
 *   GET    /v2/monitor?limit&offset              list, newest first
 *   GET    /v2/monitor/:id                       one
 *   PATCH  /v2/monitor/:id                       name, status (active | paused), schedule, targets, webhook
 *   DELETE /v2/monitor/:id                       delete (its schedule and checks)
 *   POST   /v2/monitor/:id/run                   check now: answers the check once it is recorded
 *   GET    /v2/monitor/:id/checks?limit&offset   its checks, newest first
 *   GET    /v2/monitor/:id/checks/:checkId       one check with its page (status, diff)
 */
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { parseBody } from '../../platform/validate';
import { type MonitorCheckRow, type MonitorRow, type MonitorStore, createMonitorStore } from '../../monitors/store';
import { monitorScheduleSchema, validateDefinition } from '../../monitors/request';
import { type Route, type RouteInput, type TableRoute, badRequest, parsedBy, reply, route } from '../route-table';
import { ownedBy } from '../ownership';
import { NEWEST_FIRST } from '../routes/pagination';
import { monitorRouteTable } from '../routes/monitors';
import { createMonitorSchedules } from '../monitor-schedules';
import { redactRequestSecrets } from '../../scrape/request-redaction';
import type { AppDeps } from '../deps';
import { FIRECRAWL_CREDENTIALS, FIRECRAWL_ERROR_RESPONSES } from './schemas';
import { ensureMonitorEndpoint, monitorEndpoint } from './monitor-webhook';
import { asSentScrapeRequest } from '../../scrape/request';
import {
  type CheckRun,
  createMonitorSchema,
  firecrawlCheck,
  firecrawlCheckDetail,
  firecrawlCheckDetailSchema,
  firecrawlCheckSchema,
  firecrawlMonitor,
  firecrawlMonitorSchema,
  parseCreateMonitor,
  parseUpdateMonitor,
  refuseUnsupported,
  scheduleOf,
  targetOf,
  updateMonitorSchema,
} from './monitor-mappers';

const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(25), offset: z.coerce.number().int().min(0).max(100_000).default(0) });
const checkQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  skip: z.coerce.number().int().min(0).optional(),
  status: z.enum(['same', 'new', 'changed', 'removed', 'error']).optional(),
});

const ok = <S extends z.ZodType>(data: S) => z.object({ success: z.literal(true), data });

/** How long `run` waits for the check it started to be recorded (its workflow's first step). */
const RUN_RECORDED_WITHIN_MS = 60_000;

const CREATE_EXAMPLE = { name: 'pricing page', schedule: { cron: '0 9 * * *', timezone: 'UTC' }, targets: [{ type: 'scrape', urls: ['https://example.com/pricing'] }] };

export function firecrawlMonitorRouteTable(deps: AppDeps): Route[] {
  const store = createMonitorStore(deps.db);
  const schedules = createMonitorSchedules(deps);
  const native = monitorRouteTable(deps);
  const nativeRoute = (method: string, path: string): TableRoute => {
    const found = native.find((r): r is TableRoute => r.kind === 'table' && r.method === method && r.path === path);
    if (!found) throw new Error(`api/routes/monitors.ts has no ${method.toUpperCase()} ${path}`);
    return found;
  };
  const [nativeCreate, nativePatch, nativeDelete, nativePause, nativeResume, nativeCheck] = [
    nativeRoute('post', '/monitors'),
    nativeRoute('patch', '/monitors/:id'),
    nativeRoute('delete', '/monitors/:id'),
    nativeRoute('post', '/monitors/:id/pause'),
    nativeRoute('post', '/monitors/:id/resume'),
    nativeRoute('post', '/monitors/:id/check'),
  ];
  const call = (r: TableRoute, input: RouteInput<string, unknown, unknown>, id?: string, body?: unknown) =>
    Promise.resolve(r.handler({ ...input, params: id ? { id } : {}, query: undefined, body }));

  const own = async (id: string, userId: string): Promise<MonitorRow> => ownedBy(await store.findMonitor(id), userId, 'monitor');
  const runOf = async (check: MonitorCheckRow): Promise<CheckRun | null> => deps.db.scrapeRun.findUnique({ where: { id: check.scrapeRunId }, select: { cost: true, status: true } });

  async function monitorAnswer(row: MonitorRow, userId: string) {
    const last = (await store.lastChecks([row.id])).get(row.id);
    const nextRunAt = row.paused ? null : ((await schedules.nextTimes(row.id).catch(() => []))[0]?.toISOString() ?? null);
    return firecrawlMonitor(row, last, { retentionDays: deps.config.MONITOR_CHECK_RETENTION_DAYS, webhook: await monitorEndpoint(deps, userId), nextRunAt });
  }

  const common = { credential: 'apiKey' as const, tag: 'firecrawl', description: FIRECRAWL_CREDENTIALS };
  return [
    route({
      ...common,
      method: 'post',
      path: '/v2/monitor',
      summary: 'Firecrawl v2: create a monitor (one page checked on a cron schedule; our monitor, docs/monitors.md)',
      body: parsedBy(createMonitorSchema, parseCreateMonitor, CREATE_EXAMPLE),
      responses: { 200: ok(firecrawlMonitorSchema), ...FIRECRAWL_ERROR_RESPONSES },
      errors: ['BAD_REQUEST', 'INVALID_URL', 'INVALID_SELECTOR', 'VALIDATION_FAILED', 'PRIVATE_TARGET', 'BLACKLISTED', 'MONITOR_LIMIT_REACHED', 'CONFLICT'],
      handler: async (input) => {
        const { body, auth } = input;
        refuseUnsupported(body);
        const schedule = parseBody(monitorScheduleSchema, scheduleOf(body.schedule));
        const target = targetOf(body.targets);
        const definition = validateDefinition({ name: body.name, request: target.request, schedule, compare: target.compare, ignore: { selectors: [], patterns: [] } }, deps.config.MONITOR_MIN_INTERVAL_MS);
        const created = await call(nativeCreate, input, undefined, definition);
        const id = (created.body as { id: string }).id;
        if (body.webhook) {
          try {
            await ensureMonitorEndpoint(deps, auth.userId, body.webhook.url);
          } catch (error) {
            // Nothing is left behind: the monitor goes with its refused webhook.
            await call(nativeDelete, input, id).catch(() => undefined);
            throw error;
          }
        }
        return reply(200, { success: true, data: await monitorAnswer(await own(id, auth.userId), auth.userId) });
      },
    }),
    route({
      ...common,
      method: 'get',
      path: '/v2/monitor',
      summary: "Firecrawl v2: the account's monitors, newest first",
      query: badRequest(listQuery),
      responses: { 200: ok(z.array(firecrawlMonitorSchema)), ...FIRECRAWL_ERROR_RESPONSES },
      errors: ['BAD_REQUEST'],
      handler: async ({ auth, query: { limit, offset } }) => {
        const rows = (await store.listMonitors(auth.userId, { after: {}, orderBy: NEWEST_FIRST, take: offset + limit })).slice(offset);
        const last = await store.lastChecks(rows.map((r) => r.id));
        const webhook = await monitorEndpoint(deps, auth.userId);
        const retentionDays = deps.config.MONITOR_CHECK_RETENTION_DAYS;
        return reply(200, { success: true, data: rows.map((r) => firecrawlMonitor(r, last.get(r.id), { retentionDays, webhook, nextRunAt: null })) });
      },
    }),
    route({
      ...common,
      method: 'get',
      path: '/v2/monitor/:id',
      params: ['id'],
      summary: 'Firecrawl v2: one monitor',
      responses: { 200: ok(firecrawlMonitorSchema), ...FIRECRAWL_ERROR_RESPONSES },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => reply(200, { success: true, data: await monitorAnswer(await own(params.id, auth.userId), auth.userId) }),
    }),
    route({
      ...common,
      method: 'patch',
      path: '/v2/monitor/:id',
      params: ['id'],
      summary: 'Firecrawl v2: change a monitor (name, status active|paused, schedule, targets, webhook)',
      body: parsedBy(updateMonitorSchema, parseUpdateMonitor, { status: 'paused' }),
      responses: { 200: ok(firecrawlMonitorSchema), ...FIRECRAWL_ERROR_RESPONSES },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'BAD_REQUEST', 'INVALID_URL', 'INVALID_SELECTOR', 'VALIDATION_FAILED', 'PRIVATE_TARGET', 'BLACKLISTED', 'CONFLICT'],
      handler: async (input) => {
        const { auth, params, body } = input;
        const row = await own(params.id, auth.userId);
        refuseUnsupported(body);
        const schedule = body.schedule ? parseBody(monitorScheduleSchema, scheduleOf(body.schedule)) : undefined;
        const target = body.targets ? targetOf(body.targets) : undefined;
        const patch = {
          ...(body.name ? { name: body.name } : {}),
          ...(schedule ? { schedule } : {}),
          // The request always goes: the native route validates the whole definition again (an `auto` request as `mode: "auto"`: asSentScrapeRequest),
          // its secrets masked as the native PATCH keeps the stored ones where it finds them masked.
          ...(target ? { request: target.request, compare: target.compare } : { request: asSentScrapeRequest(redactRequestSecrets(row.request as Record<string, unknown>)) }),
        };
        if (body.webhook) await ensureMonitorEndpoint(deps, auth.userId, body.webhook.url);
        await call(nativePatch, input, row.id, patch);
        if (body.status === 'paused' && !row.paused) await call(nativePause, input, row.id);
        if (body.status === 'active' && row.paused) await call(nativeResume, input, row.id);
        return reply(200, { success: true, data: await monitorAnswer(await own(row.id, auth.userId), auth.userId) });
      },
    }),
    route({
      ...common,
      method: 'delete',
      path: '/v2/monitor/:id',
      params: ['id'],
      summary: 'Firecrawl v2: delete a monitor, its schedule and its checks',
      responses: { 200: z.object({ success: z.literal(true) }), ...FIRECRAWL_ERROR_RESPONSES },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async (input) => {
        await call(nativeDelete, input, input.params.id);
        return reply(200, { success: true });
      },
    }),
    ...checkRoutes({ deps, store, own, runOf, call, nativeCheck, common }),
  ];
}

interface CheckRouteContext {
  deps: AppDeps;
  store: MonitorStore;
  own: (id: string, userId: string) => Promise<MonitorRow>;
  runOf: (check: MonitorCheckRow) => Promise<CheckRun | null>;
  call: (r: TableRoute, input: RouteInput<string, unknown, unknown>, id?: string, body?: unknown) => Promise<unknown>;
  nativeCheck: TableRoute;
  common: { credential: 'apiKey'; tag: string; description: string };
}

/** Run, and the checks: the list, one check with its page. */
function checkRoutes({ deps, store, own, runOf, call, nativeCheck, common }: CheckRouteContext): Route[] {
  /** The check `run` started: a new manual check of the monitor, once its workflow has recorded it. */
  async function startedCheck(monitorId: string, before: Set<string>, since: Date): Promise<MonitorCheckRow> {
    const deadline = Date.now() + RUN_RECORDED_WITHIN_MS;
    for (;;) {
      const found = (await deps.db.monitorCheck.findMany({ where: { monitorId, createdAt: { gte: since }, workflowId: { contains: '-now-' } }, orderBy: [{ createdAt: 'asc' }] })).find((c) => !before.has(c.id));
      if (found) return found;
      if (Date.now() > deadline) throw new AppError('DEPENDENCY_UNAVAILABLE', 'The check was started but not recorded in time; it will appear in GET /v2/monitor/:id/checks');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const ownCheck = async (params: { id: string; checkId: string }, userId: string) => {
    await own(params.id, userId);
    const check = await store.findCheck(params.checkId);
    if (!check || check.monitorId !== params.id) throw new AppError('NOT_FOUND', 'No check with that id');
    return check;
  };

  return [
    route({
      ...common,
      method: 'post',
      path: '/v2/monitor/:id/run',
      params: ['id'],
      summary: 'Firecrawl v2: check a monitor now (a scrape, priced as one); answers the check once recorded',
      responses: { 200: ok(firecrawlCheckSchema), ...FIRECRAWL_ERROR_RESPONSES },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'INSUFFICIENT_CREDIT', 'RATE_LIMITED'],
      handler: async (input) => {
        const row = await own(input.params.id, input.auth.userId);
        // The checks of the last moments, so the new one is told apart (the clock of the database and ours may differ a little).
        const since = new Date(Date.now() - 60_000);
        const before = new Set((await deps.db.monitorCheck.findMany({ where: { monitorId: row.id, createdAt: { gte: since } }, select: { id: true } })).map((c) => c.id));
        await call(nativeCheck, input, row.id);
        const check = await startedCheck(row.id, before, since);
        return reply(200, { success: true, data: firecrawlCheck(check, await runOf(check)) });
      },
    }),
    route({
      ...common,
      method: 'get',
      path: '/v2/monitor/:id/checks',
      params: ['id'],
      summary: "Firecrawl v2: a monitor's checks, newest first",
      query: badRequest(listQuery),
      responses: { 200: ok(z.array(firecrawlCheckSchema)), ...FIRECRAWL_ERROR_RESPONSES },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'BAD_REQUEST'],
      handler: async ({ auth, params, query: { limit, offset } }) => {
        const row = await own(params.id, auth.userId);
        const rows = (await store.listChecks(row.id, { after: {}, orderBy: NEWEST_FIRST, take: offset + limit })).slice(offset);
        const data = await Promise.all(rows.map(async (c) => firecrawlCheck(c, await runOf(c))));
        return reply(200, { success: true, data });
      },
    }),
    route({
      ...common,
      method: 'get',
      path: '/v2/monitor/:id/checks/:checkId',
      params: ['id', 'checkId'],
      summary: 'Firecrawl v2: one check with its page (status, status code, diff)',
      query: badRequest(checkQuery),
      responses: { 200: ok(firecrawlCheckDetailSchema), ...FIRECRAWL_ERROR_RESPONSES },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'BAD_REQUEST'],
      handler: async ({ auth, params, query }) => {
        const check = await ownCheck(params, auth.userId);
        const url = ((await own(params.id, auth.userId)).request as { url: string }).url;
        const detail = firecrawlCheckDetail(check, await runOf(check), url, query.status);
        if ((query.skip ?? 0) > 0 || query.limit === 0) detail.pages = [];
        return reply(200, { success: true, data: detail });
      },
    }),
  ];
}
