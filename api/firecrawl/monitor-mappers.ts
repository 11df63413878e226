/**
 * Firecrawl's monitors (docs/firecrawl.md "Monitors") ↔ ours (docs/monitors.md): the request
 * shapes the SDKs send (firecrawl-py 4.55.0 `create_monitor`/`update_monitor`,
 * @mendable/firecrawl-js 4.42.0 `createMonitor`/`updateMonitor`) read into our monitor
 * definition, and our monitor and check rows answered in the shapes the SDKs parse (`Monitor`,
 * `MonitorCheck`, `MonitorCheckDetail`).
 *
 * One Firecrawl monitor is one of ours: one scrape target with one URL. Our monitor checks one
 * page per check (its scrape run, its snapshot, its diff); a Firecrawl monitor of several URLs
 * is several of ours (one create per URL), refused here with that advice rather than answered as
 * something it is not. Crawl and search targets are refused (a monitor here checks a page).
 */
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { parseBody } from '../../platform/validate';
import type { MonitorCheckRow, MonitorRow } from '../../monitors/store';
import { type MonitorCompare, type MonitorSchedule, everyMs } from '../../monitors/request';
import { firecrawlScrapeOptionsSchema, toScrapeRequest } from './scrape-options';
import { asSentScrapeRequest } from '../../scrape/request';

const scheduleSchema = z.looseObject({
  cron: z.string().max(200).nullish(),
  text: z.string().max(200).nullish(),
  timezone: z.string().max(64).nullish(),
});

const targetSchema = z.looseObject({
  id: z.string().max(200).nullish(),
  type: z.enum(['scrape', 'crawl', 'search']),
  urls: z.array(z.string()).nullish(),
  url: z.string().nullish(),
  scrapeOptions: firecrawlScrapeOptionsSchema.nullish(),
});

export const monitorWebhookSchema = z.looseObject({
  url: z.string().max(2048),
  headers: z.record(z.string(), z.string()).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  events: z.array(z.string()).nullish(),
});
export type FirecrawlMonitorWebhook = z.output<typeof monitorWebhookSchema>;

const notificationSchema = z.looseObject({ email: z.looseObject({ enabled: z.boolean().nullish(), recipients: z.array(z.string()).nullish() }).nullish() });

const common = {
  webhook: monitorWebhookSchema.nullish(),
  notification: notificationSchema.nullish(),
  retentionDays: z.int().min(1).max(3650).nullish(),
  goal: z.string().max(10_000).nullish(),
  judgeEnabled: z.boolean().nullish(),
};

export const createMonitorSchema = z
  .looseObject({ name: z.string().trim().min(1).max(200), schedule: scheduleSchema, targets: z.array(targetSchema).min(1).max(100), ...common })
  .meta({ id: 'FirecrawlCreateMonitorRequest' });

export const updateMonitorSchema = z
  .looseObject({
    name: z.string().trim().min(1).max(200).nullish(),
    status: z.enum(['active', 'paused']).nullish(),
    schedule: scheduleSchema.nullish(),
    targets: z.array(targetSchema).min(1).max(100).nullish(),
    ...common,
  })
  .meta({ id: 'FirecrawlUpdateMonitorRequest' });

export type FirecrawlCreateMonitor = z.output<typeof createMonitorSchema>;
export type FirecrawlUpdateMonitor = z.output<typeof updateMonitorSchema>;

/** `every N minutes`, `every 2 hours`, `every day`, `hourly`, `daily`, `daily at 9:30`, `every minute`. */
const EVERY_TEXT = /^every\s+(?:(\d{1,4})\s*)?(minute|min|m|hour|hr|h|day|d)s?$/;
const DAILY_AT = /^(?:daily|every\s+day)\s+at\s+(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/;
const UNIT: Record<string, 'm' | 'h' | 'd'> = { minute: 'm', min: 'm', m: 'm', hour: 'h', hr: 'h', h: 'h', day: 'd', d: 'd' };

/**
 * A natural-language schedule (`schedule.text`) as a cron expression where one says the same
 * (`every 30 minutes` → `*\/30 * * * *`), else as our interval (`every 7 minutes` → 7m).
 * Anything else is refused naming what is understood: no model guesses a schedule here.
 */
export function scheduleOfText(text: string, timezone: string): MonitorSchedule {
  const said = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const named: Record<string, string> = { hourly: '0 * * * *', daily: '0 0 * * *', weekly: '0 0 * * 0', 'every hour': '0 * * * *', 'every day': '0 0 * * *', 'every week': '0 0 * * 0', 'every minute': '* * * * *' };
  if (named[said]) return { cron: named[said], timezone };
  const at = DAILY_AT.exec(said);
  if (at) {
    let hour = Number(at[1]);
    const minute = Number(at[2] ?? 0);
    if (at[3] === 'pm' && hour < 12) hour += 12;
    if (at[3] === 'am' && hour === 12) hour = 0;
    if (hour <= 23 && minute <= 59) return { cron: `${minute} ${hour} * * *`, timezone };
  }
  const every = EVERY_TEXT.exec(said);
  if (every) {
    const n = Number(every[1] ?? 1);
    const unit = UNIT[every[2]!]!;
    if (n >= 1) {
      if (unit === 'm' && 60 % n === 0) return { cron: n === 1 ? '* * * * *' : `*/${n} * * * *`, timezone };
      if (unit === 'h' && 24 % n === 0) return { cron: n === 1 ? '0 * * * *' : `0 */${n} * * *`, timezone };
      if (unit === 'd' && n === 1) return { cron: '0 0 * * *', timezone };
      return { every: `${n}${unit}` };
    }
  }
  throw new AppError('BAD_REQUEST', `schedule.text "${text}" is not understood: send schedule.cron (five fields), or a text such as "every 30 minutes", "every 6 hours", "hourly", "daily", "daily at 9:00"`);
}

/** Firecrawl's `schedule` → ours: exactly one of `cron` or `text`; `timezone` (default UTC) goes with a cron. */
export function scheduleOf(schedule: z.output<typeof scheduleSchema>): MonitorSchedule {
  const timezone = schedule.timezone ?? 'UTC';
  const cron = schedule.cron?.trim();
  const text = schedule.text?.trim();
  if (cron && text) throw new AppError('BAD_REQUEST', 'schedule: send one of cron or text, not both');
  if (cron) return { cron, timezone };
  if (text) return scheduleOfText(text, timezone);
  throw new AppError('BAD_REQUEST', 'schedule needs cron (five fields, e.g. "*/30 * * * *") or text (e.g. "every 30 minutes")');
}

/** Our schedule as Firecrawl's: a cron as it is; an interval as its text (no cron says it at the same phase). */
export function firecrawlSchedule(schedule: MonitorSchedule): { cron: string | null; text?: string; timezone: string } {
  if ('cron' in schedule) return { cron: schedule.cron, timezone: schedule.timezone };
  return { cron: null, text: `every ${schedule.every}`, timezone: 'UTC' };
}

export interface MappedTarget {
  request: Record<string, unknown>;
  compare: MonitorCompare;
}

/** `targets`: one scrape target of one URL → our scrape request and what is compared. */
export function targetOf(targets: z.output<typeof targetSchema>[]): MappedTarget {
  if (targets.length !== 1) {
    throw new AppError('BAD_REQUEST', `targets: a monitor here has one target (${targets.length} given); create one monitor per URL`);
  }
  const target = targets[0]!;
  if (target.type !== 'scrape') {
    throw new AppError('BAD_REQUEST', `targets[0].type "${target.type}" is not supported: a monitor here checks one page (type "scrape" with one URL)`);
  }
  const urls = [...(target.urls ?? []), ...(target.url ? [target.url] : [])];
  if (urls.length !== 1) {
    throw new AppError('BAD_REQUEST', `targets[0].urls: a monitor here checks one URL (${urls.length} given); create one monitor per URL`);
  }
  const options = target.scrapeOptions ?? {};
  const mapped = toScrapeRequest(urls[0], options, 'targets[0].scrapeOptions.');
  const compare: MonitorCompare = mapped.wanted.formats.includes('json') ? 'json' : 'markdown';
  // An `auto` request (the Firecrawl routes' default) goes as `mode: "auto"`: the monitor keeps its
  // starting engine, and a check does not escalate (docs/firecrawl.md "Monitors").
  return { request: asSentScrapeRequest(mapped.request), compare };
}

/** What we cannot do is refused, never dropped: per-monitor e-mail, the model judge, custom webhook headers. */
export function refuseUnsupported(body: Pick<FirecrawlCreateMonitor, 'notification' | 'judgeEnabled' | 'webhook'>): void {
  if (body.notification?.email?.enabled === true) {
    throw new AppError('BAD_REQUEST', "notification.email is not supported: a monitor's events go to the account's notification list and webhook endpoints (docs/monitors.md); send enabled: false or leave it out");
  }
  if (body.judgeEnabled === true) throw new AppError('BAD_REQUEST', 'judgeEnabled is not supported: every change is reported (no model judges whether it is meaningful); send false or leave it out');
  if (body.webhook?.headers && Object.keys(body.webhook.headers).length > 0) {
    throw new AppError('BAD_REQUEST', 'webhook.headers is not supported: monitor events are signed (X-Signature, docs/webhooks.md) and sent without custom headers; leave it out');
  }
}

/** Parses a body (400 naming the field). */
export const parseCreateMonitor = (body: unknown): FirecrawlCreateMonitor => parseBody(createMonitorSchema, body);
export const parseUpdateMonitor = (body: unknown): FirecrawlUpdateMonitor => parseBody(updateMonitorSchema, body ?? {});

// ---------------------------------------------------------------------------------------------
// Answers

type CheckStatus = 'running' | 'new' | 'same' | 'changed' | 'removed' | 'failed';

/** A check's page status in Firecrawl's words (`failed` is its `error`). */
const pageStatus = (status: string) => (status === 'failed' ? 'error' : status);

export function summaryOf(check: MonitorCheckRow | null | undefined) {
  const summary = { totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 };
  if (!check || check.status === 'running') return summary;
  summary.totalPages = 1;
  summary[pageStatus(check.status) as 'same' | 'changed' | 'new' | 'removed' | 'error'] = 1;
  return summary;
}

export interface CheckRun {
  cost: number;
  status: string;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const errorText = (check: MonitorCheckRow) => {
  const error = check.error as { code?: string; message?: string } | null;
  return error ? `${error.code ?? 'ERROR'}: ${error.message ?? ''}`.trim() : null;
};

/**
 * A check as Firecrawl's `MonitorCheck`. Its credits are its scrape run's: reserved while it
 * runs, confirmed when the page was served, released when the scrape failed (refunded).
 */
export function firecrawlCheck(check: MonitorCheckRow, run: CheckRun | null) {
  const status = check.status as CheckStatus;
  const served = run && ['succeeded', 'cached'].includes(run.status);
  const billingStatus = !run ? 'not_applicable' : status === 'running' || ['queued', 'running'].includes(run.status) ? 'reserved' : served ? 'confirmed' : 'released';
  return {
    id: check.id,
    monitorId: check.monitorId,
    status: status === 'running' ? 'running' : status === 'failed' ? 'failed' : 'completed',
    trigger: check.workflowId.includes('-now-') ? 'manual' : 'scheduled',
    scheduledFor: iso(check.scheduledAt),
    startedAt: iso(check.createdAt),
    finishedAt: iso(check.finishedAt),
    estimatedCredits: run?.cost ?? null,
    reservedCredits: run?.cost ?? null,
    actualCredits: billingStatus === 'confirmed' ? run!.cost : billingStatus === 'reserved' ? null : 0,
    billingStatus,
    summary: summaryOf(check),
    targetResults: [{ targetId: check.monitorId, type: 'scrape', expectedJobs: [check.scrapeRunId] }],
    notificationStatus: null,
    error: status === 'failed' ? errorText(check) : null,
    createdAt: check.createdAt.toISOString(),
    updatedAt: (check.finishedAt ?? check.createdAt).toISOString(),
    // Ours beside Firecrawl's: the page's own status.
    pageStatus: status === 'running' ? null : pageStatus(status),
  };
}

/** Our diff as Firecrawl's page diff: the markdown's unified diff as `text`; a JSON diff per path. */
function pageDiff(diff: unknown): { text?: string; json?: Record<string, { previous: unknown; current: unknown }> } | null {
  if (!diff || typeof diff !== 'object') return null;
  const d = diff as { markdown?: string; changes?: Array<{ path: string; before?: unknown; after?: unknown }> };
  if (typeof d.markdown === 'string') return { text: d.markdown };
  if (Array.isArray(d.changes)) return { json: Object.fromEntries(d.changes.map((c) => [c.path, { previous: c.before ?? null, current: c.after ?? null }])) };
  return null;
}

/** A check with its one page (`MonitorCheckDetail`); `status` filters the pages as Firecrawl's query does. */
export function firecrawlCheckDetail(check: MonitorCheckRow, run: CheckRun | null, url: string, wanted?: string) {
  const settled = check.status !== 'running';
  const page = settled
    ? {
        id: check.id,
        targetId: check.monitorId,
        url,
        status: pageStatus(check.status),
        previousScrapeId: null,
        currentScrapeId: check.scrapeRunId,
        statusCode: check.httpStatus,
        error: check.status === 'failed' ? errorText(check) : null,
        metadata: null,
        diff: pageDiff(check.diff),
        snapshot: null,
        judgment: null,
        createdAt: (check.finishedAt ?? check.createdAt).toISOString(),
      }
    : null;
  const pages = page && (!wanted || page.status === wanted) ? [page] : [];
  return { ...firecrawlCheck(check, run), pages, next: null };
}

export interface MonitorExtras {
  retentionDays: number;
  webhook: { url: string; events: string[] } | null;
  nextRunAt: string | null;
}

/** A monitor as Firecrawl's `Monitor`. */
export function firecrawlMonitor(row: MonitorRow, lastCheck: MonitorCheckRow | null | undefined, extras: MonitorExtras) {
  const request = row.request as { url: string };
  const schedule = row.schedule as unknown as MonitorSchedule;
  return {
    id: row.id,
    name: row.name,
    status: row.paused ? 'paused' : 'active',
    schedule: firecrawlSchedule(schedule),
    nextRunAt: extras.nextRunAt,
    lastRunAt: iso(lastCheck?.createdAt),
    currentCheckId: lastCheck?.status === 'running' ? lastCheck.id : null,
    targets: [{ id: row.id, type: 'scrape', urls: [request.url] }],
    webhook: extras.webhook,
    notification: null,
    retentionDays: extras.retentionDays,
    estimatedCreditsPerMonth: null,
    lastCheckSummary: lastCheck ? summaryOf(lastCheck) : null,
    goal: null,
    judgeEnabled: false,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    // Ours beside Firecrawl's: the native monitor's compare and interval (docs/monitors.md).
    compare: row.compare,
    ...('every' in schedule ? { intervalMs: everyMs(schedule.every) ?? null } : {}),
  };
}

/** OpenAPI: the answers (loose: the SDKs parse the fields they know). */
export const firecrawlMonitorSchema = z
  .looseObject({ id: z.string(), name: z.string(), status: z.enum(['active', 'paused']), schedule: z.looseObject({}), targets: z.array(z.looseObject({})), retentionDays: z.int(), createdAt: z.string(), updatedAt: z.string() })
  .meta({ id: 'FirecrawlMonitor' });
export const firecrawlCheckSchema = z
  .looseObject({ id: z.string(), monitorId: z.string(), status: z.string(), trigger: z.enum(['scheduled', 'manual']), billingStatus: z.string(), summary: z.looseObject({}), createdAt: z.string(), updatedAt: z.string() })
  .meta({ id: 'FirecrawlMonitorCheck' });
export const firecrawlCheckDetailSchema = firecrawlCheckSchema.extend({ pages: z.array(z.looseObject({})), next: z.string().nullable() }).meta({ id: 'FirecrawlMonitorCheckDetail' });
