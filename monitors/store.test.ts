/**
 * Settling a monitor's checks against a real PostgreSQL (docs/monitors.md "Checks", "Events"):
 * the order a check compares in, whatever order the checks settle in, and the events the account
 * is told of. Each check goes through the store as the check workflow drives it (startCheck, the
 * scrape run's outcome written as the scrape steps write it, settleCheck); the scrape itself is
 * covered end to end in api/routes/monitors.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { createTestDatabase } from '../test/helpers/database';
import { type Database, createDatabase, toJsonColumn } from '../platform/db';
import { type MonitorSettings, createMonitorStore } from './store';
import { monitorIds } from './schedules';
import type { ScrapeRequestPayload } from '../scrape/request';

const SETTINGS: MonitorSettings = { failuresBeforeEvent: 3, retentionMs: 30 * 86_400_000, webhookDiffMaxBytes: 65_536 };

describe('monitor store: settling checks', () => {
  let db: Database;
  let store: ReturnType<typeof createMonitorStore>;

  beforeAll(async () => {
    db = createDatabase(await createTestDatabase());
    store = createMonitorStore(db);
  });

  afterAll(async () => {
    await db?.$disconnect();
  });

  async function monitor(): Promise<string> {
    const userId = randomUUID();
    await db.user.create({ data: { id: userId, name: 'T', email: `${userId}@example.test`, emailVerified: false } });
    const id = randomUUID();
    await store.createMonitor({
      id,
      userId,
      apiKeyId: null,
      scheduleId: monitorIds.schedule(id),
      definition: { name: 'prices', request: { url: 'http://127.0.0.1/prices' } as ScrapeRequestPayload, schedule: { every: '1h' }, compare: 'markdown', ignore: { selectors: [], patterns: [] } },
    });
    return id;
  }

  /** A check started as its workflow starts it (its scrape run and its row), not yet scraped. */
  async function start(monitorId: string): Promise<{ checkId: string; runId: string }> {
    const checkId = randomUUID();
    const runId = randomUUID();
    const started = await store.startCheck(
      { checkId, runId, monitorId, workflowId: `monitor-check-${monitorId}-now-${checkId}`, scheduledAt: new Date() },
      async (run) => {
        await db.scrapeRun.create({ data: { id: run.id, userId: run.userId, apiKeyId: run.apiKeyId, workflowId: run.workflowId, mode: 'http', url: run.url, request: toJsonColumn(run.request), cost: run.cost } });
      },
      () => 1,
      (request) => request,
    );
    expect(started.proceed).toBe(true);
    return { checkId, runId };
  }

  /** The scrape's outcome, recorded as the scrape steps record it: when the page was fetched, what it answered. */
  async function scraped(runId: string, outcome: { at: Date; httpStatus?: number; markdown?: string; failed?: boolean }) {
    await db.scrapeRun.update({
      where: { id: runId },
      data: outcome.failed
        ? { status: 'failed', error: { code: 'SCRAPE_FAILED', message: 'every attempt failed' }, startedAt: outcome.at, finishedAt: outcome.at }
        : { status: 'succeeded', httpStatus: outcome.httpStatus ?? 200, result: { markdown: outcome.markdown ?? '' }, startedAt: outcome.at, finishedAt: outcome.at },
    });
  }

  // Times from now on (retention counts from the settle time against each row's creation).
  const base = Date.now();
  const at = (second: number) => new Date(base + second * 1000);
  const page = (price: string) => `# Prices\n\nWidget: ${price}\n\nGadget: 5 EUR`;

  it('two overlapping checks settled out of order report the change once, forwards (ordered by when each page was fetched)', async () => {
    const id = await monitor();
    const first = await start(id);
    await scraped(first.runId, { at: at(0), markdown: page('10 EUR') });
    expect((await store.settleCheck(first.checkId, SETTINGS, at(1))).status).toBe('new');

    // A scheduled check and a "check now" overlap: the older one fetched the page before it
    // changed, the newer one after; the newer one settles first.
    const older = await start(id);
    const newer = await start(id);
    await scraped(older.runId, { at: at(10), markdown: page('10 EUR') });
    await scraped(newer.runId, { at: at(12), markdown: page('12 EUR') });
    const settledNewer = await store.settleCheck(newer.checkId, SETTINGS, at(13));
    const settledOlder = await store.settleCheck(older.checkId, SETTINGS, at(14));

    // The next check fetches the page as it now is: nothing changed since the newer fetch.
    const next = await start(id);
    await scraped(next.runId, { at: at(20), markdown: page('12 EUR') });
    const settledNext = await store.settleCheck(next.checkId, SETTINGS, at(21));

    const events = [...settledNewer.events, ...settledOlder.events, ...settledNext.events].map((e) => e as { type: string; data: unknown });
    expect(events.map((e) => e.type)).toEqual(['monitor.changed']);
    const diff = (events[0]!.data as { diff: { markdown: string } }).diff.markdown;
    expect(diff).toContain('-Widget: 10 EUR');
    expect(diff).toContain('+Widget: 12 EUR');
    expect(settledNewer.status).toBe('changed');
    expect(settledOlder.status).toBe('same');
    expect(settledNext.status).toBe('same');
  });

  it('monitor.removed is sent once per disappearance, even with a failed check in between', async () => {
    const id = await monitor();
    const outcomes = [
      { markdown: page('10 EUR') },
      { httpStatus: 404 },
      { failed: true },
      { httpStatus: 404 },
      { httpStatus: 410 },
      { markdown: page('10 EUR') },
      { httpStatus: 404 },
    ];
    const statuses: string[] = [];
    const events: string[] = [];
    for (const [i, outcome] of outcomes.entries()) {
      const check = await start(id);
      await scraped(check.runId, { at: at(100 + i * 10), ...outcome });
      const settled = await store.settleCheck(check.checkId, SETTINGS, at(101 + i * 10));
      statuses.push(settled.status);
      events.push(...settled.events.map((e) => (e as { type: string }).type));
    }
    expect(statuses).toEqual(['new', 'removed', 'failed', 'removed', 'removed', 'same', 'removed']);
    // Once when the page went, once when it went again after coming back.
    expect(events).toEqual(['monitor.removed', 'monitor.removed']);
  });

  it('concurrent creates never take an account past its limit (enforced in the database)', async () => {
    const userId = randomUUID();
    await db.user.create({ data: { id: userId, name: 'T', email: `${userId}@example.test`, emailVerified: false } });
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, () => {
        const id = randomUUID();
        const input = {
          id,
          userId,
          apiKeyId: null,
          scheduleId: monitorIds.schedule(id),
          definition: { name: 'race', request: { url: 'http://127.0.0.1/race' } as ScrapeRequestPayload, schedule: { every: '1h' }, compare: 'markdown' as const, ignore: { selectors: [], patterns: [] } },
          maxPerAccount: 3,
        };
        return store.createMonitor(input);
      }),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(3);
    for (const refused of attempts.filter((a) => a.status === 'rejected')) expect((refused.reason as { code?: string }).code).toBe('MONITOR_LIMIT_REACHED');
    expect(await store.countMonitors(userId)).toBe(3);
  });
});
