/**
 * runIdempotent through an outage (api/idempotency.ts), its store on a real PostgreSQL test
 * database, the route's operation stubbed: what a repeat does when its first request's run never
 * started, and when the first request could not release its key because PostgreSQL was down.
 */
import { createLogger } from '../platform/logger';
import { DatabaseUnreachableError, type SqlPool, createSqlPool } from '../platform/sql';
import { createTestDatabase } from '../test/helpers/database';
import { waitFor } from '../test/helpers/wait';
import { type IdempotentOperation, ResourceNeverStarted, createIdempotencyStore, runIdempotent } from './idempotency';

const logger = createLogger({ level: 'silent', name: 'test' });

interface Run {
  id: string;
  status: 'queued' | 'succeeded' | 'failed';
  attempts: number;
}

let pool: SqlPool;
/** While true, every statement of the store and of the operation fails as an unreachable PostgreSQL would. */
let databaseDown = false;
const outage = () => Promise.reject(new DatabaseUnreachableError('PostgreSQL cannot be reached (ECONNREFUSED)'));
const flakyQuery: Pick<SqlPool, 'query'> = { query: (text, values) => (databaseDown ? outage() : pool.query(text, values)) };

beforeAll(async () => {
  pool = createSqlPool(await createTestDatabase());
});

afterAll(async () => {
  await pool?.close();
});

afterEach(() => {
  databaseDown = false;
});

let requests = 0;
const request = () => ({ userId: 'user-1', key: `key-${++requests}`, hash: 'hash', deadline: Date.now() + 30_000 });

/** The scrape route's operation over an in-memory run table; `started` lists the run ids started. */
function operation(runs: Map<string, Run>, overrides: Partial<IdempotentOperation<Run, string>> = {}) {
  const started: string[] = [];
  const op: IdempotentOperation<Run, string> = {
    start: (id) => {
      started.push(id);
      runs.set(id, { id, status: 'succeeded', attempts: 1 });
      return Promise.resolve(`answer of ${id}`);
    },
    find: (id) => (databaseDown ? outage() : Promise.resolve(runs.get(id) ?? null)),
    neverStarted: (run) => run.status === 'failed' && run.attempts === 0,
    replay: (run) => Promise.resolve(`replay of ${run.id}`),
    ...overrides,
  };
  return { op, started };
}

describe('runIdempotent through an outage', () => {
  it('a repeat that waited for a run which then turned out never started starts afresh, instead of answering that run\'s failure', async () => {
    const store = createIdempotencyStore(pool);
    const runs = new Map<string, Run>();
    const req = request();
    // The first request recorded its run and died before starting it (an API replica SIGKILLed).
    const first = operation(runs, { start: (id) => (runs.set(id, { id, status: 'queued', attempts: 0 }), new Promise<string>(() => undefined)) });
    void runIdempotent({ store, logger }, req, first.op);
    const stillborn = await waitFor('the first run recorded', () => Promise.resolve([...runs.values()][0]));

    // The repeat finds it queued and waits for it; the orphan sweep then fails it, uncharged.
    const repeat = operation(runs, {
      replay: (run) => {
        runs.set(run.id, { ...run, status: 'failed' });
        return Promise.reject(new ResourceNeverStarted(`run ${run.id} never started`));
      },
    });
    const answer = await runIdempotent({ store, logger }, req, repeat.op);
    expect(repeat.started).toHaveLength(1);
    expect(repeat.started[0]).not.toBe(stillborn.id);
    expect(answer).toBe(`answer of ${repeat.started[0]}`);
    // The key now names the new run: a later repeat answers from it.
    expect((await store.read(req.userId, req.key))?.resourceId).toBe(repeat.started[0]);
    expect(await runIdempotent({ store, logger }, req, operation(runs).op)).toBe(`replay of ${repeat.started[0]}`);
  });

  it('a first request that failed while PostgreSQL was down frees its key as soon as PostgreSQL answers, not when the claim is abandoned a minute later', async () => {
    const store = createIdempotencyStore(flakyQuery);
    const runs = new Map<string, Run>();
    const req = request();
    // The claim is written, then PostgreSQL stops: the run cannot be recorded, nor the key released.
    const first = operation(runs, {
      start: () => {
        databaseDown = true;
        return outage();
      },
    });
    await expect(runIdempotent({ store, logger }, req, first.op)).rejects.toBeInstanceOf(DatabaseUnreachableError);
    expect(await createIdempotencyStore(pool).read(req.userId, req.key)).not.toBeNull();

    databaseDown = false;
    await waitFor('the key released once PostgreSQL answers', async () => (await createIdempotencyStore(pool).read(req.userId, req.key)) === null, 10_000);
    // A repeat is then a new first request, at once.
    const retry = operation(runs);
    expect(await runIdempotent({ store, logger }, { ...req, deadline: Date.now() + 30_000 }, retry.op)).toBe(`answer of ${retry.started[0]}`);
  });
});
