/**
 * scrapeBatchWorkflow's browser path on the browser queue (real Temporal dev server binary; the
 * activities are stubs that record their calls — the real render is covered end to end in
 * api/routes/scrape.test.ts): each page is a local activity whose budget is what is left of the
 * request's 50 s, and a page no worker took in time is failed as TIMEOUT without rendering.
 */
import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { testEnv } from '../test/helpers/env';
import { SEARCH_ATTRIBUTE_KEYS } from '../api/scrape-dispatch';
import { LANE_MAX_RUNS, SCRAPE_SCHEDULE_TO_CLOSE_MS, type ScrapeBatchWorkflowInput, type ScrapeJob, scrapeLaneSignalName } from './definitions';
import type { FailedScrape } from './activities';
import { scrapeBatchWorkflow, scrapeLaneWorkflow } from './scrape.workflow';

describe('scrapeBatchWorkflow on the browser queue (real Temporal dev server binary)', () => {
  let env: TestWorkflowEnvironment;
  const renders: Array<{ runId: string; isLocal: boolean; scheduleToCloseTimeoutMs: number }> = [];
  const settled: FailedScrape[] = [];
  const taskQueue = `browser-batch-${randomUUID()}`;

  const activities = {
    renderPage(input: { runId: string }) {
      const { info } = Context.current();
      renders.push({ runId: input.runId, isLocal: info.isLocal, scheduleToCloseTimeoutMs: info.scheduleToCloseTimeoutMs });
      return Promise.resolve({ httpStatus: 200, finalUrl: 'http://127.0.0.1/', elapsedMs: 1 });
    },
    settleFailedScrapes(input: { failures: FailedScrape[] }) {
      settled.push(...input.failures);
      return Promise.resolve();
    },
  };

  beforeAll(async () => {
    env = await TestWorkflowEnvironment.createLocal({
      server: { executable: { type: 'existing-path', path: testEnv('temporalCli') }, searchAttributes: [SEARCH_ATTRIBUTE_KEYS.scrapeRunIds] },
    });
  });

  afterAll(async () => {
    await env?.teardown();
  });

  const job = (acceptedAt: number): ScrapeJob => ({
    runId: randomUUID(),
    userId: 'user-1',
    apiKeyId: null,
    cost: 5,
    acceptedAt,
    request: { url: 'http://127.0.0.1/page', mode: 'browser', options: { retry_count: 0 } } as ScrapeJob['request'],
  });

  async function run(jobs: ScrapeJob[]) {
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath: require.resolve('./index'), activities });
    const input: ScrapeBatchWorkflowInput = { scrapes: jobs, browserQueue: taskQueue, renderLocally: true };
    return worker.runUntil(env.client.workflow.execute(scrapeBatchWorkflow, { taskQueue, workflowId: `scrape-${jobs[0]!.runId}`, args: [input] }));
  }

  it('renders each page as a local activity within what is left of the 50 s', async () => {
    const acceptedAt = Date.now();
    const fresh = job(acceptedAt);
    const waited = job(Date.now() - 20_000);
    expect(await run([fresh, waited])).toEqual({ succeeded: 2, failed: 0 });
    // At most this long passed between acceptance and the render (a loaded machine makes it long).
    const elapsedAtMost = Date.now() - acceptedAt;
    const byRun = new Map(renders.map((r) => [r.runId, r]));
    expect(byRun.get(fresh.runId)).toMatchObject({ isLocal: true });
    expect(byRun.get(fresh.runId)!.scheduleToCloseTimeoutMs).toBeLessThanOrEqual(SCRAPE_SCHEDULE_TO_CLOSE_MS);
    expect(byRun.get(fresh.runId)!.scheduleToCloseTimeoutMs).toBeGreaterThanOrEqual(SCRAPE_SCHEDULE_TO_CLOSE_MS - elapsedAtMost);
    expect(byRun.get(waited.runId)!.scheduleToCloseTimeoutMs).toBeLessThanOrEqual(SCRAPE_SCHEDULE_TO_CLOSE_MS - 20_000);
    expect(settled).toEqual([]);
  });

  it('fails a page whose 50 s ran out before a worker took it as TIMEOUT, without rendering it', async () => {
    const late = job(Date.now() - SCRAPE_SCHEDULE_TO_CLOSE_MS - 5_000);
    const rendersBefore = renders.length;
    expect(await run([late])).toEqual({ succeeded: 0, failed: 1 });
    expect(renders.length).toBe(rendersBefore);
    expect(settled).toEqual([{ runId: late.runId, code: 'TIMEOUT', message: `no browser worker took the scrape within ${SCRAPE_SCHEDULE_TO_CLOSE_MS} ms` }]);
  });

  it('a lane takes later batches by Signal, runs a repeated run once, lists no run in a search attribute, fails uncharged what would pass LANE_MAX_RUNS and ends when full', async () => {
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath: require.resolve('./index'), activities });
    const batch = (jobs: ScrapeJob[]): ScrapeBatchWorkflowInput => ({ scrapes: jobs, browserQueue: taskQueue, renderLocally: true });
    const first = [job(Date.now())];
    const second = Array.from({ length: LANE_MAX_RUNS - 2 }, () => job(Date.now()));
    // The last run that fits, with a run of the first batch again (a repeated Signal) and one too many.
    const last = job(Date.now());
    const overflow = job(Date.now());
    const rendersBefore = renders.length;
    const settledBefore = settled.length;
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(scrapeLaneWorkflow, { taskQueue, workflowId: `scrape-lane-test-${randomUUID()}`, args: [batch(first)] });
      await handle.signal(scrapeLaneSignalName, batch(second));
      await handle.signal(scrapeLaneSignalName, batch([first[0]!, last, overflow]));
      await handle.result();
      // Its runs are in its history (api/orphan-runs.ts reads them there), not in ScrapeRunIds (issue 39).
      expect((await handle.describe()).typedSearchAttributes.get(SEARCH_ATTRIBUTE_KEYS.scrapeRunIds)).toBeUndefined();
    });
    const rendered = renders.slice(rendersBefore).map((r) => r.runId);
    expect(rendered.sort()).toEqual([...first, ...second, last].map((j) => j.runId).sort());
    expect(settled.slice(settledBefore)).toEqual([{ runId: overflow.runId, code: 'INTERNAL', message: `the lane was full (at most ${LANE_MAX_RUNS} runs); nothing was charged` }]);
  });
});
