/**
 * Monitors and their checks in PostgreSQL (docs/monitors.md). A check is recorded in two steps,
 * each idempotent so Temporal may run either twice: `startCheck` (its scrape run and its row,
 * ids chosen by the check workflow) and `settleCheck` (compare with the previous successful
 * snapshot, record status, snapshot and diff, count failures in a row, prune old checks, decide
 * the one event of the check). The events a check decided are stored with it, so a retried
 * settle answers the same ones and nothing is reported twice.
 */
import { type Database, toJsonColumn } from '../platform/db';
import { AppError } from '../platform/errors';
import type { WebhookEventSource } from '../webhooks/types';
import type { ScrapeRequestPayload } from '../scrape/request';
import { restoreMaskedSecrets } from '../sessions/request-secrets';
import { type CheckDiff, type CheckStatus, REMOVED_HTTP_STATUSES, diffSnapshots, snapshotOf } from './compare';
import { type MonitorCompare, type MonitorDefinition, type MonitorIgnore, type MonitorSchedule, checkRequest } from './request';

export type MonitorRow = NonNullable<Awaited<ReturnType<Database['monitor']['findUnique']>>>;
export type MonitorCheckRow = NonNullable<Awaited<ReturnType<Database['monitorCheck']['findUnique']>>>;

export interface MonitorSettings {
  /** `monitor.failed` is emitted when this many checks in a row have failed (MONITOR_FAILURES_BEFORE_EVENT). */
  failuresBeforeEvent: number;
  /** Checks older than this are deleted (MONITOR_CHECK_RETENTION_DAYS), but for the latest successful one. */
  retentionMs: number;
  /** A diff larger than this (as JSON) is left out of the webhook body, which links to it (MONITOR_WEBHOOK_DIFF_MAX_BYTES). */
  webhookDiffMaxBytes: number;
}

/** The statuses of a successful check: its snapshot is what the next check compares with. */
export const SNAPSHOT_STATUSES: readonly CheckStatus[] = ['new', 'same', 'changed'];

export const monitorDefinition = (row: MonitorRow): MonitorDefinition => ({
  name: row.name,
  request: row.request as unknown as ScrapeRequestPayload,
  schedule: row.schedule as unknown as MonitorSchedule,
  compare: row.compare as MonitorCompare,
  ignore: row.ignore as unknown as MonitorIgnore,
});

export interface PreparedCheck {
  /** false: the monitor is gone (deleted between the tick and this step): nothing to do. */
  proceed: boolean;
  userId: string;
  apiKeyId: string | null;
  request: ScrapeRequestPayload;
}

export interface SettledCheck {
  status: CheckStatus | 'gone';
  events: WebhookEventSource[];
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

function insertMonitor(db: Pick<Database, 'monitor'>, input: { id: string; userId: string; apiKeyId: string | null; scheduleId: string; definition: MonitorDefinition }): Promise<MonitorRow> {
  const { definition } = input;
  return db.monitor.create({
    data: {
      id: input.id,
      userId: input.userId,
      apiKeyId: input.apiKeyId,
      scheduleId: input.scheduleId,
      name: definition.name,
      request: toJsonColumn(definition.request),
      schedule: toJsonColumn(definition.schedule),
      compare: definition.compare,
      ignore: toJsonColumn(definition.ignore),
    },
  });
}

export function createMonitorStore(db: Database) {
  return {
    async countMonitors(userId: string): Promise<number> {
      return db.monitor.count({ where: { userId } });
    },

    /**
     * Creates a monitor. With `maxPerAccount` (> 0), the database refuses one past the account's
     * limit (trigger `monitor_account_limit`, migration 20270120010000: a per-account lock, then a
     * count), so concurrent creates cannot exceed it: AppError MONITOR_LIMIT_REACHED.
     */
    async createMonitor(input: { id: string; userId: string; apiKeyId: string | null; scheduleId: string; definition: MonitorDefinition; maxPerAccount?: number }): Promise<MonitorRow> {
      const limit = input.maxPerAccount ?? 0;
      if (limit <= 0) return insertMonitor(db, input);
      try {
        return await db.$transaction(async (tx) => {
          await tx.$queryRaw`SELECT set_config('app.monitor_max_per_account', ${String(limit)}, true)`;
          return insertMonitor(tx, input);
        });
      } catch (error) {
        if (error instanceof Error && error.message.includes('MONITOR_LIMIT_REACHED')) {
          throw new AppError('MONITOR_LIMIT_REACHED', `The account has ${limit} monitors (MONITOR_MAX_PER_ACCOUNT); delete one first`, { limit });
        }
        throw error;
      }
    },

    async updateMonitor(id: string, definition: MonitorDefinition): Promise<MonitorRow> {
      return db.monitor.update({
        where: { id },
        data: {
          name: definition.name,
          request: toJsonColumn(definition.request),
          schedule: toJsonColumn(definition.schedule),
          compare: definition.compare,
          ignore: toJsonColumn(definition.ignore),
        },
      });
    },

    async setPaused(id: string, paused: boolean): Promise<MonitorRow> {
      return db.monitor.update({ where: { id }, data: { paused } });
    },

    async deleteMonitor(id: string): Promise<void> {
      await db.monitor.deleteMany({ where: { id } });
    },

    findMonitor: (id: string) => db.monitor.findUnique({ where: { id } }),
    findCheck: (id: string) => db.monitorCheck.findUnique({ where: { id } }),

    listMonitors: (userId: string, page: { after: object; orderBy: Array<{ createdAt?: 'asc' | 'desc'; id?: 'asc' | 'desc' }>; take: number }) =>
      db.monitor.findMany({ where: { userId, ...page.after }, orderBy: page.orderBy, take: page.take }),

    listChecks: (monitorId: string, page: { after: object; orderBy: Array<{ createdAt?: 'asc' | 'desc'; id?: 'asc' | 'desc' }>; take: number }) =>
      db.monitorCheck.findMany({ where: { monitorId, ...page.after }, orderBy: page.orderBy, take: page.take }),

    /** Checks still `running` created before `olderThanMs` ago, oldest first (index monitor_check_running_idx). */
    runningChecksSince: (olderThanMs: number, limit: number) =>
      db.monitorCheck.findMany({
        where: { status: 'running', createdAt: { lt: new Date(Date.now() - olderThanMs) } },
        select: { id: true, workflowId: true, scrapeRunId: true },
        orderBy: { createdAt: 'asc' },
        take: limit,
      }),

    /** The latest check of each monitor (the list's "last check"). */
    async lastChecks(monitorIds: string[]): Promise<Map<string, MonitorCheckRow>> {
      if (monitorIds.length === 0) return new Map();
      const rows = await db.monitorCheck.findMany({ where: { monitorId: { in: monitorIds } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], distinct: ['monitorId'] });
      return new Map(rows.map((r) => [r.monitorId, r]));
    },

    /**
     * Records a check's scrape run and its row (once each). The request is the monitor's as it is
     * now, with what comparing needs (checkRequest); its cost is the scrape's price.
     */
    async startCheck(
      input: { checkId: string; runId: string; monitorId: string; workflowId: string; scheduledAt: Date },
      insertRun: (run: { id: string; userId: string; apiKeyId: string | null; workflowId: string; mode: string; url: string; request: ScrapeRequestPayload; cost: number }) => Promise<void>,
      cost: (request: ScrapeRequestPayload) => number,
      /** The request with its sealed secrets opened (sessions/request-secrets.ts): this activity turns the row into a scrape. */
      openSecrets: (request: ScrapeRequestPayload, userId: string) => ScrapeRequestPayload,
    ): Promise<PreparedCheck & { cost: number }> {
      const existing = await db.monitorCheck.findUnique({ where: { id: input.checkId } });
      const monitor = await db.monitor.findUnique({ where: { id: input.monitorId } });
      if (!monitor) return { proceed: false, userId: '', apiKeyId: null, request: {} as ScrapeRequestPayload, cost: 0 };
      const current = openSecrets(checkRequest(monitorDefinition(monitor)), monitor.userId);
      let request = current;
      if (existing) {
        // A retried step: the run recorded the first time is the one that runs; its record has
        // the secrets masked, so they come from the monitor.
        const run = await db.scrapeRun.findUnique({ where: { id: existing.scrapeRunId } });
        if (run) request = restoreMaskedSecrets(run.request as unknown as ScrapeRequestPayload, current);
      }
      const price = cost(request);
      await insertRun({ id: input.runId, userId: monitor.userId, apiKeyId: monitor.apiKeyId, workflowId: input.workflowId, mode: request.mode, url: request.url, request, cost: price });
      await db.monitorCheck.createMany({
        data: [{ id: input.checkId, monitorId: monitor.id, userId: monitor.userId, scrapeRunId: input.runId, workflowId: input.workflowId, scheduledAt: input.scheduledAt }],
        skipDuplicates: true,
      });
      return { proceed: true, userId: monitor.userId, apiKeyId: monitor.apiKeyId, request, cost: price };
    },

    settleCheck: (checkId: string, settings: MonitorSettings, now: Date) => settleCheck(db, checkId, settings, now),
  };
}

export type MonitorStore = ReturnType<typeof createMonitorStore>;

  /**
   * Settles a check whose scrape has finished: its status, snapshot and diff against the
   * previous successful snapshot, the monitor's failures in a row, old checks pruned, and the
   * event it reports (at most one: monitor.changed, monitor.removed on the page's going, or
   * monitor.failed when the failures in a row reach the setting). Under the monitor's row lock,
   * so two checks of one monitor settle one after the other; a settled check answers what it
   * decided the first time.
   */
export async function settleCheck(db: Database, checkId: string, settings: MonitorSettings, now: Date): Promise<SettledCheck> {
  return db.$transaction(async (tx) => {
    const first = await tx.monitorCheck.findUnique({ where: { id: checkId }, select: { monitorId: true } });
    if (!first) return { status: 'gone' as const, events: [] };
    const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM monitor WHERE id = ${first.monitorId} FOR UPDATE`;
    const check = await tx.monitorCheck.findUnique({ where: { id: checkId } });
    const monitor = await tx.monitor.findUnique({ where: { id: first.monitorId } });
    if (!locked.length || !check || !monitor) return { status: 'gone' as const, events: [] };
    if (check.status !== 'running') return { status: check.status as CheckStatus, events: (check.events ?? []) as unknown as WebhookEventSource[] };

    const definition = monitorDefinition(monitor);
    const run = await tx.scrapeRun.findUnique({ where: { id: check.scrapeRunId } });
    // Checks compare in the order their pages were fetched, not the order they settle in: a
    // "check now" beside a scheduled check may settle first with the newer page, and the older
    // page must then not be reported as a change back (docs/monitors.md "Checks").
    const fetchedAt = run?.finishedAt ?? now;
    const fetchedBefore = { OR: [{ fetchedAt: { lt: fetchedAt } }, { fetchedAt, id: { lt: check.id } }] };
    const fetchedOrder = [{ fetchedAt: 'desc' as const }, { id: 'desc' as const }];
    const previous = await tx.monitorCheck.findFirst({
      where: { monitorId: monitor.id, status: { in: [...SNAPSHOT_STATUSES] }, id: { not: check.id }, ...fetchedBefore },
      orderBy: fetchedOrder,
    });
    // What the page last was: a failed check says nothing of it (a page gone, then a failed
    // check, then gone again is one disappearance: one monitor.removed).
    const lastSeen = await tx.monitorCheck.findFirst({
      where: { monitorId: monitor.id, status: { notIn: ['running', 'failed'] }, id: { not: check.id }, ...fetchedBefore },
      orderBy: fetchedOrder,
    });
    // A check whose page is older than one already settled records what it saw but tells nobody:
    // the newer check has already reported the page as it is now.
    const superseded = await tx.monitorCheck.findFirst({
      where: { monitorId: monitor.id, status: { not: 'running' }, id: { not: check.id }, NOT: fetchedBefore },
      orderBy: fetchedOrder,
    });

    let status: CheckStatus;
    let snapshot: string | null = null;
    let diff: CheckDiff | null = null;
    let error: { code: string; message: string } | null = null;
    const httpStatus = run?.httpStatus ?? null;
    if (!run || run.status !== 'succeeded') {
      status = 'failed';
      const runError = run?.error as { code?: string; message?: string } | null;
      error = { code: runError?.code ?? 'SCRAPE_FAILED', message: runError?.message ?? `the scrape ended ${run?.status ?? 'unrecorded'}` };
    } else if (REMOVED_HTTP_STATUSES.includes(run.httpStatus ?? 0)) {
      status = 'removed';
    } else if ((run.httpStatus ?? 0) >= 400) {
      // Any other error answer (a block page, a server error) says nothing of the content: never a change.
      status = 'failed';
      error = { code: 'TARGET_ERROR', message: `the target answered ${run.httpStatus}` };
    } else {
      snapshot = snapshotOf((run.result ?? {}) as Record<string, unknown>, definition.compare, definition.ignore) ?? null;
      if (snapshot === null) {
        status = 'failed';
        error = { code: 'SCRAPE_FAILED', message: `the result has no ${definition.compare} to compare` };
      } else if (!previous?.snapshot) {
        status = 'new';
      } else if (previous.snapshot === snapshot) {
        status = 'same';
      } else {
        status = 'changed';
        diff = diffSnapshots(previous.snapshot, snapshot, definition.compare, { before: iso(previous.finishedAt) ?? '', after: now.toISOString() });
      }
    }

    const failureStreak = status === 'failed' ? monitor.failureStreak + 1 : 0;
    const events: WebhookEventSource[] = [];
    const eventType = superseded
      ? null
      : status === 'changed'
        ? 'monitor.changed'
        : status === 'removed' && lastSeen?.status !== 'removed'
          ? 'monitor.removed'
          : status === 'failed' && failureStreak === settings.failuresBeforeEvent
            ? 'monitor.failed'
            : null;
    if (eventType) {
      const diffFits = diff !== null && JSON.stringify(diff).length <= settings.webhookDiffMaxBytes;
      const links = { self: `/monitors/${monitor.id}/checks/${check.id}`, diff: `/monitors/${monitor.id}/checks/${check.id}/diff`, monitor: `/monitors/${monitor.id}` };
      events.push({
        kind: 'custom',
        userId: monitor.userId,
        type: eventType,
        subject: `monitor_check:${check.id}`,
        data: {
          object: 'monitor_check',
          id: check.id,
          monitor_id: monitor.id,
          monitor_name: monitor.name,
          url: definition.request.url,
          status,
          http_status: httpStatus,
          scrape_run_id: check.scrapeRunId,
          scheduled_at: iso(check.scheduledAt),
          checked_at: now.toISOString(),
          previous_check_id: previous?.id ?? null,
          previous_checked_at: iso(previous?.finishedAt),
          ...(status === 'changed' ? { diff: diffFits ? diff : null, diff_truncated: !diffFits } : {}),
          ...(status === 'failed' ? { error, failures_in_a_row: failureStreak } : {}),
          links,
        },
      });
    }

    await tx.monitorCheck.update({
      where: { id: check.id },
      data: {
        status,
        httpStatus,
        snapshot,
        diff: diff ? toJsonColumn(diff) : undefined,
        error: error ? toJsonColumn(error) : undefined,
        events: toJsonColumn(events),
        finishedAt: now,
        fetchedAt,
      },
    });
    await tx.monitor.update({ where: { id: monitor.id }, data: { failureStreak } });
    // Retention: older checks go, but the snapshot the next check compares with stays.
    const keep = [SNAPSHOT_STATUSES.includes(status) ? check.id : previous?.id, superseded ? await latestSnapshotId(tx, monitor.id) : undefined].filter((id): id is string => !!id);
    await tx.monitorCheck.deleteMany({
      where: { monitorId: monitor.id, createdAt: { lt: new Date(now.getTime() - settings.retentionMs) }, status: { not: 'running' }, id: { notIn: keep } },
    });
    return { status, events };
  });
}

/** The latest successful check by fetch time: the snapshot the next check compares with. */
async function latestSnapshotId(tx: Pick<Database, 'monitorCheck'>, monitorId: string): Promise<string | undefined> {
  const latest = await tx.monitorCheck.findFirst({ where: { monitorId, status: { in: [...SNAPSHOT_STATUSES] } }, orderBy: [{ fetchedAt: 'desc' }, { id: 'desc' }], select: { id: true } });
  return latest?.id;
}
