/**
 * replayScrapeRun (the answer to an Idempotency-Key repeat), its collaborators stubbed: a run it
 * waited for that ended never started is not the request's outcome.
 */
import type { FinishedRun } from '../scrape/runs';
import { ResourceNeverStarted } from './idempotency';
import { replayScrapeRun } from './scrape-run';
import type { AppDeps } from './deps';

const auth = { userId: 'user-1', apiKeyId: 'key-1', method: 'api-key' as const };
const queued: FinishedRun = { id: 'run-1', url: 'http://127.0.0.1/page', mode: 'http', status: 'queued', attempts: 0, cost: 1, request: { url: 'http://127.0.0.1/page', mode: 'http' }, result: null, error: null, httpStatus: null, elapsedMs: null };

/** What replayScrapeRun reads of the app: the run it waits for ends as `finished`. */
const depsWhoseRunEnds = (finished: FinishedRun) =>
  ({ config: { SYNC_TIMEOUT_MS: 50_000 }, scrapes: { awaitRun: () => Promise.resolve({ run: finished, remaining: 7 }) } }) as unknown as AppDeps;

describe('replayScrapeRun', () => {
  it('throws ResourceNeverStarted when the run it waited for failed before its first attempt (the orphan sweep failed it, uncharged)', async () => {
    const stillborn: FinishedRun = { ...queued, status: 'failed', error: { code: 'INTERNAL', message: 'the run was never started', refunded: false } };
    await expect(replayScrapeRun(depsWhoseRunEnds(stillborn), auth, queued, { async: false, deadline: Date.now() + 50_000 })).rejects.toBeInstanceOf(ResourceNeverStarted);
  });

  it('answers a run it waited for that failed after starting with that failure, as the first answer did', async () => {
    const failed: FinishedRun = { ...queued, status: 'failed', attempts: 2, error: { code: 'TARGET_ERROR', message: 'the target answered 500', refunded: true } };
    const answer = await replayScrapeRun(depsWhoseRunEnds(failed), auth, queued, { async: false, deadline: Date.now() + 50_000 });
    expect(answer).toMatchObject({ status: 502, body: { code: 'TARGET_ERROR', id: 'run-1', attempts: 2, refunded: true } });
  });
});
