/** The crawl store on real PostgreSQL: what a cancel leaves claimed, and claims after the crawl ended. */
import { randomUUID } from 'node:crypto';
import { createTestDatabase } from '../test/helpers/database';
import { createCrawlStore } from './store';
import { createDatabase, type Database } from '../platform/db';

describe('crawl store', () => {
  let db: Database;
  let store: ReturnType<typeof createCrawlStore>;

  beforeAll(async () => {
    db = createDatabase(await createTestDatabase());
    store = createCrawlStore(db);
  });

  afterAll(async () => {
    await db?.$disconnect();
  });

  async function crawlWithPages(count: number) {
    const userId = randomUUID();
    await db.user.create({ data: { id: userId, name: 'T', email: `${userId}@example.test`, emailVerified: false } });
    const id = randomUUID();
    const workflowId = `crawl-${id}`;
    await store.create({ id, userId, apiKeyId: null, kind: 'crawl', request: { kind: 'crawl', url: 'http://site.test/' }, workflowId, pageCost: 1 });
    await store.addPages(id, Array.from({ length: count }, (_, i) => ({ url: `http://site.test/${i}`, depth: 1 })), 100);
    const run = { userId, apiKeyId: null, workflowId, mode: 'http', cost: 1, request: { mode: 'http' } };
    return { id, run };
  }

  it('a claim that completed as the cancel arrived: its pages are failed CANCELLED with their run ids, none left running', async () => {
    const { id, run } = await crawlWithPages(5);
    const launched = await store.claim(id, [randomUUID()], run);
    const neverLaunched = await store.claim(id, [randomUUID(), randomUUID()], run);
    expect(await store.finish(id, 'cancelled', { code: 'CANCELLED', message: 'the crawl was cancelled' })).toBe(true);
    // The workflow records the page it ran itself; the other two only the sweep of claimed pages finds.
    await store.finishPage(launched[0]!.runId, { status: 'failed', error: { code: 'CANCELLED', message: 'the crawl was cancelled' } });
    const left = await store.failClaimedPages(id, { code: 'CANCELLED', message: 'the crawl was cancelled' });
    expect(left.sort()).toEqual(neverLaunched.map((page) => page.runId).sort());
    expect((await store.counts(id)).running).toBe(0);
  });

  it('an ended crawl takes no more pages: a claim arriving after the cancel claims nothing', async () => {
    const { id, run } = await crawlWithPages(3);
    await store.finish(id, 'cancelled', { code: 'CANCELLED', message: 'the crawl was cancelled' });
    expect(await store.claim(id, [randomUUID(), randomUUID()], run)).toEqual([]);
    expect((await store.counts(id)).queued).toBe(3);
  });
});
