/**
 * How a waiting request learns its run finished (api/run-waiters.ts), with a stand-in store and
 * listener: a notification is read, unless the run's attempt is still running in this process
 * (it hands its run over itself, and the read would be a wasted statement); when that hand-over
 * never comes, the sweep still reads the run.
 */
import type { PgListener } from '../platform/pg-listener';
import type { FinishedRun, ScrapeRunStore } from '../scrape/runs';
import { createRunWaiters } from './run-waiters';

function fakeListener() {
  const handlers = new Map<string, (payload: string) => void>();
  const listener: PgListener = {
    listening: () => true,
    on: (channel, handler) => void handlers.set(channel, handler),
    onState: () => undefined,
    close: () => Promise.resolve(),
  };
  return { listener, notify: (runId: string) => handlers.get('scrape_run_finished')!(runId) };
}

const run = (id: string): FinishedRun =>
  ({ id, url: 'http://127.0.0.1/', mode: 'http', status: 'succeeded', attempts: 1, cost: 1, request: {}, result: {}, error: null, httpStatus: 200, elapsedMs: 1 }) as unknown as FinishedRun;

function fakeRuns() {
  const reads: string[][] = [];
  const store = {
    finished: (ids: readonly string[]) => {
      reads.push([...ids]);
      return Promise.resolve(ids.map(run));
    },
  } as unknown as ScrapeRunStore;
  return { store, reads };
}

test('a notification of a run finished elsewhere reads the run and answers its waiter', async () => {
  const { listener, notify } = fakeListener();
  const { store, reads } = fakeRuns();
  const waiters = createRunWaiters({ runs: store, listener, sweepMs: 60_000, runningHere: () => false });
  try {
    const answer = waiters.wait('run-a', Date.now() + 60_000);
    notify('run-a');
    expect((await answer)?.run.id).toBe('run-a');
    expect(reads).toEqual([['run-a']]);
  } finally {
    waiters.close();
  }
});

test('a notification of a run still running here is not read: the attempt hands the run over itself', async () => {
  const { listener, notify } = fakeListener();
  const { store, reads } = fakeRuns();
  const waiters = createRunWaiters({ runs: store, listener, sweepMs: 60_000, runningHere: (id) => id === 'run-b' });
  try {
    const answer = waiters.wait('run-b', Date.now() + 60_000);
    notify('run-b');
    waiters.finished(run('run-b'), 41);
    expect(await answer).toEqual({ run: run('run-b'), remaining: 41 });
    expect(reads).toEqual([]);
  } finally {
    waiters.close();
  }
});

test('when the in-process hand-over never comes, the sweep reads the run', async () => {
  const { listener, notify } = fakeListener();
  const { store, reads } = fakeRuns();
  const waiters = createRunWaiters({ runs: store, listener, sweepMs: 20, runningHere: () => true });
  try {
    const answer = waiters.wait('run-c', Date.now() + 60_000);
    notify('run-c');
    expect((await answer)?.run.id).toBe('run-c');
    expect(reads.flat()).toContain('run-c');
  } finally {
    waiters.close();
  }
});
