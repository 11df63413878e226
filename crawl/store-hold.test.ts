/**
 * The crawl store keeping pages back (real PostgreSQL; docs/crawl.md "How a crawl runs",
 * "robots.txt"): a claim leaves in the frontier the origins the workflow names (politeness) and,
 * when asked, the origins whose robots.txt cannot be read yet, and says what it left and when the
 * next held robots.txt is due.
 */
import { randomUUID } from 'node:crypto';
import { createTestDatabase } from '../test/helpers/database';
import { createCrawlStore } from './store';
import { createDatabase, type Database } from '../platform/db';

describe('crawl store: pages kept back', () => {
  let db: Database;
  let store: ReturnType<typeof createCrawlStore>;

  beforeAll(async () => {
    db = createDatabase(await createTestDatabase());
    store = createCrawlStore(db);
  });

  afterAll(async () => {
    await db?.$disconnect();
  });

  const A = 'http://a.test';
  const B = 'http://b.test:8080';
  const C = 'http://[::1]:9000';

  /** A crawl whose frontier is, in order: A/0, B/0, C/0, A/1, B/1, C/1. */
  async function crawl() {
    const userId = randomUUID();
    await db.user.create({ data: { id: userId, name: 'T', email: `${userId}@example.test`, emailVerified: false } });
    const id = randomUUID();
    const workflowId = `crawl-${id}`;
    await store.create({ id, userId, apiKeyId: null, kind: 'crawl', request: { kind: 'crawl', url: `${A}/` }, workflowId, pageCost: 1 });
    const urls = [0, 1].flatMap((n) => [A, B, C].map((origin) => `${origin}/${n}`));
    await store.addPages(id, urls.map((url) => ({ url, depth: 1 })), 100);
    return { id, run: { userId, apiKeyId: null, workflowId, mode: 'http', cost: 1, request: { mode: 'http' } } };
  }
  const ids = (n: number) => Array.from({ length: n }, () => randomUUID());

  it('origins to avoid (ports and IPv6 literals included) are left in the frontier, in order, for a later claim', async () => {
    const { id, run } = await crawl();
    const claimed = await store.claim(id, ids(6), run, { avoid: [A, C], robots: false });
    expect(claimed.map((page) => page.url)).toEqual([`${B}/0`, `${B}/1`]);
    expect(await store.frontierHeld(id, false)).toEqual({ held: true, robotsDue: [], robotsDueInMs: null });
    expect((await store.claim(id, ids(6), run, { avoid: [], robots: false })).map((page) => page.url)).toEqual([`${A}/0`, `${C}/0`, `${A}/1`, `${C}/1`]);
    expect((await store.frontierHeld(id, false)).held).toBe(false);
  });

  it('an origin whose robots.txt cannot be read is held until due (when robots are respected), then named due; read again, it is released', async () => {
    const { id, run } = await crawl();
    await store.saveHost(id, A, { status: 503, body: null, crawlDelayMs: null, retryInMs: 60_000 });
    await store.saveHost(id, B, { status: 200, body: 'User-agent: *\nDisallow: /1', crawlDelayMs: null });
    // Not respecting robots.txt: nothing held.
    expect(await store.claim(id, ids(1), run, { avoid: [], robots: false })).toHaveLength(1);
    const claimed = await store.claim(id, ids(6), run, { avoid: [], robots: true });
    expect(claimed.map((page) => page.url).sort()).toEqual([`${B}/0`, `${B}/1`, `${C}/0`, `${C}/1`].sort());
    const held = await store.frontierHeld(id, true);
    expect(held).toMatchObject({ held: true, robotsDue: [] });
    expect(held.robotsDueInMs).toBeGreaterThan(50_000);
    expect(held.robotsDueInMs).toBeLessThanOrEqual(60_000);
    expect(await store.queuedUrlsOf(id, A)).toEqual([`${A}/1`]);

    // Due now (as if the wait were over): named due, still held.
    await db.$executeRawUnsafe(`UPDATE crawl_host SET "robotsRetryAt" = now() - interval '1 second' WHERE "crawlId" = $1 AND origin = $2`, id, A);
    expect(await store.frontierHeld(id, true)).toEqual({ held: true, robotsDue: [A], robotsDueInMs: null });
    expect(await store.claim(id, ids(2), run, { avoid: [], robots: true })).toEqual([]);
    expect((await store.host(id, A))!.robotsDue).toBe(true);
    // Still unreadable: held again, robotsFailedSince kept.
    const since = (await store.host(id, A))!.robotsFailedSince;
    expect(await store.robotsFetchedAgain(id, A, { status: 500, body: null, crawlDelayMs: null, retryInMs: 1000 })).toBe(true);
    expect(await store.host(id, A)).toMatchObject({ robotsStatus: 500, robotsFailedSince: since, robotsDue: false });
    // Read at last: released, and claimed.
    expect(await store.robotsFetchedAgain(id, A, { status: 200, body: 'User-agent: *', crawlDelayMs: null })).toBe(true);
    expect(await store.host(id, A)).toMatchObject({ robotsStatus: 200, robots: 'User-agent: *', robotsRetryAt: null, robotsFailedSince: null });
    expect(await store.robotsFetchedAgain(id, A, { status: 503, body: null, crawlDelayMs: null, retryInMs: 1000 })).toBe(false);
    expect((await store.claim(id, ids(2), run, { avoid: [], robots: true })).map((page) => page.url)).toEqual([`${A}/1`]);
  });

  it('given up on: no longer held, its queued pages skipped with the reason', async () => {
    const { id } = await crawl();
    await store.saveHost(id, C, { status: null, body: null, crawlDelayMs: null, retryInMs: 1 });
    expect(await store.giveUpRobots(id, C, null)).toBe(true);
    expect(await store.host(id, C)).toMatchObject({ robotsRetryAt: null, robotsFailedSince: expect.any(Date) });
    const reason = { code: 'ROBOTS_DISALLOWED', message: 'robots.txt could not be read' };
    expect(await store.skipQueued(id, await store.queuedUrlsOf(id, C), reason)).toBe(2);
    expect(await store.page(id, `${C}/0`)).toMatchObject({ status: 'skipped', error: reason });
    expect((await store.counts(id)).skipped).toBe(2);
  });
});
