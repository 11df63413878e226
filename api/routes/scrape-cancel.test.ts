/**
 * POST /webhook/runs/:id/cancel end to end (docs/scraping.md "Cancelling a run"): real API and
 * worker processes, Temporal, PostgreSQL, Chromium and the fixture site, whose /hold pages answer
 * only when the test releases them (so "running" is a state the test holds, not a race).
 *
 * The stack starts WITHOUT its worker process: a browser run then stays queued (no process serves
 * the browser queue) until the first test starts the worker. Every other path runs in the API
 * process's own worker (standalone http scrapes, template runs) or in either.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance, sql } from '../../test/helpers/accounts';
import { call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';
import { parseScrapeRequest } from '../../scrape/request';
import { type ScrapeBatchWorkflowInput, type ScrapeJob, taskQueues } from '../../workflows/definitions';
import { scrapeLaneWorkflow } from '../../workflows/scrape.workflow';
import { testDataConverter } from '../../test/helpers/temporal-codec';

jest.setTimeout(180_000);

let stack: Stack;
let fixtures: FixtureServer;
let owner: TestAccount;
let stranger: TestAccount;
let connection: Connection;
let temporal: Client;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  stack = await startStack({ worker: false });
  [owner, stranger] = await Promise.all([createAccount(stack.baseUrl), createAccount(stack.baseUrl)]);
  connection = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS! });
  temporal = new Client({ connection, dataConverter: testDataConverter() });
});

afterAll(async () => {
  await connection?.close();
  await stack?.stop();
  await fixtures?.close();
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, owner.userId, 1000);
});

const key = (a: TestAccount) => ({ 'x-api-key': a.apiKey });
const api = (method: string, path: string, account: TestAccount, body?: unknown) => call(stack.baseUrl, method, path, key(account), body);
const cancel = (id: string, account = owner) => api('POST', `/webhook/runs/${id}/cancel`, account);

interface RunRow {
  status: string;
  attempts: number;
  workflowId: string;
  error: { code: string; message: string; refunded: boolean } | null;
}
const rowOf = async (id: string) =>
  (await sql<RunRow>(stack.databaseUrl, 'SELECT status::text AS status, attempts, "workflowId", error FROM scrape_run WHERE id = $1', [id]))[0]!;
/** The run's ledger rows, in order: [reason, amount]. */
const ledgerFor = async (account: TestAccount, runId: string) => (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.runId === runId).map((row) => [row.reason, row.amount]);
/** The log lines of every process of the stack so far. */
const logLines = () => [...stack.output.api, ...stack.output.worker].join('').split('\n');
/** The attempt of `runId` stopped by its cancel (activities/scrape/run-scrape.ts logs it with code CANCELLED). */
const attemptStoppedByCancel = (runId: string) => logLines().some((line) => line.includes(`"runId":"${runId}"`) && line.includes('"code":"CANCELLED"') && line.includes('scrape attempt failed'));
const holdCount = () => fixtures.hits.get('/hold') ?? 0;

describe('POST /webhook/runs/:id/cancel', () => {
  it('a queued run (no worker has taken its lane yet): cancelled uncharged, and never fetched once a worker takes the lane', async () => {
    const path = `/page/queued-${randomUUID()}`;
    const started = await api('POST', '/webhook/unblocker', owner, { url: `${fixtures.url}${path}`, mode: 'browser', async: true });
    expect(started.status).toBe(202);
    const id = started.body.id as string;
    expect((await rowOf(id)).status).toBe('queued');

    const cancelled = await cancel(id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id, status: 'cancelled', attempts: 0, error: { code: 'CANCELLED', refunded: false } });
    expect(await balanceOf(stack.databaseUrl, owner.userId)).toBe(1000);

    // A worker now takes the lane: its first workflow task holds the batch and the cancel Signal.
    await stack.startWorker();
    const lane = temporal.workflow.getHandle((await rowOf(id)).workflowId);
    await waitFor('the lane ran its first workflow task', async () => (await lane.fetchHistory()).events?.some((event) => event.workflowTaskCompletedEventAttributes));
    expect(fixtures.hits.get(path) ?? 0).toBe(0);
    expect(await rowOf(id)).toMatchObject({ status: 'cancelled', attempts: 0, error: { code: 'CANCELLED', refunded: false } });
    expect(await ledgerFor(owner, id)).toEqual([]);
    expect(await balanceOf(stack.databaseUrl, owner.userId)).toBe(1000);
  });

  it('a running async run: its fetch stopped, recorded cancelled, refunded once; a repeat answers the same and GET shows it', async () => {
    const hold = `running-${randomUUID()}`;
    const holdsBefore = holdCount();
    const started = await api('POST', '/webhook/unblocker', owner, { url: `${fixtures.url}/hold?key=${hold}`, async: true, options: { retry_count: 0 } });
    expect(started.status).toBe(202);
    const id = started.body.id as string;
    await waitFor('the run debited and its page requested', async () => (await rowOf(id)).status === 'running' && holdCount() > holdsBefore && (await ledgerFor(owner, id)).length === 1);
    expect(await balanceOf(stack.databaseUrl, owner.userId)).toBe(999);

    const cancelled = await cancel(id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id, status: 'cancelled', attempts: 1, error: { code: 'CANCELLED', message: 'the run was cancelled by its owner', refunded: true }, links: { self: `/webhook/runs/${id}` } });
    expect(cancelled.body.finishedAt).toEqual(expect.any(String));
    expect(await ledgerFor(owner, id)).toEqual([
      ['debit', -1],
      ['refund', 1],
    ]);
    expect(await balanceOf(stack.databaseUrl, owner.userId)).toBe(1000);
    // The page never answered: the attempt was aborted by the cancel, not ended by the target.
    await waitFor('the attempt stopped by the cancel', () => Promise.resolve(attemptStoppedByCancel(id)));

    const again = await cancel(id);
    expect(again).toEqual({ status: 200, body: cancelled.body });
    const shown = await api('GET', `/webhook/runs/${id}`, owner);
    expect(shown).toEqual({ status: 200, body: cancelled.body });
    expect(await ledgerFor(owner, id)).toHaveLength(2);
    fixtures.release(hold);
  });

  it('one run of a lane is cancelled while its neighbour in the same lane (and the same first-attempt activity) goes on and succeeds', async () => {
    // Two runs recorded and handed to one lane as the dispatcher does (api/scrape-dispatch.ts):
    // the test starts the lane itself so that the two share it for certain.
    const queues = taskQueues(stack.env.TASK_QUEUE_PREFIX);
    const laneId = `scrape-lane-cancel-test-${randomUUID().slice(0, 8)}`;
    const [holdA, holdB] = [`lane-a-${randomUUID()}`, `lane-b-${randomUUID()}`];
    const job = (hold: string): ScrapeJob => {
      const { async: _async, ...request } = parseScrapeRequest({ url: `${fixtures.url}/hold?key=${hold}`, options: { retry_count: 0 } });
      return { runId: randomUUID(), userId: owner.userId, apiKeyId: owner.apiKeyId, cost: 1, request, acceptedAt: Date.now() };
    };
    const [a, b] = [job(holdA), job(holdB)];
    for (const j of [a, b]) {
      await sql(stack.databaseUrl, 'INSERT INTO scrape_run (id, "userId", "apiKeyId", "workflowId", mode, url, request, cost) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)', [
        j.runId, j.userId, j.apiKeyId, laneId, 'http', j.request.url, JSON.stringify(j.request), j.cost,
      ]);
    }
    const holdsBefore = holdCount();
    const input: ScrapeBatchWorkflowInput = { scrapes: [a, b], browserQueue: queues.browser };
    const lane = await temporal.workflow.start(scrapeLaneWorkflow, { taskQueue: queues.sync, workflowId: laneId, args: [input] });
    await waitFor('both runs debited and their pages requested', async () =>
      (await rowOf(a.runId)).status === 'running' && (await rowOf(b.runId)).status === 'running' && holdCount() >= holdsBefore + 2 && (await ledgerFor(owner, b.runId)).length === 1,
    );

    // Through another API replica: the attempt does not run there, so only the lane's Signal can stop it.
    const replica = await stack.startSecondApi();
    try {
      const cancelled = await call(replica.baseUrl, 'POST', `/webhook/runs/${a.runId}/cancel`, key(owner));
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({ status: 'cancelled', error: { code: 'CANCELLED', refunded: true } });
    } finally {
      await replica.stop();
    }
    await waitFor('the cancelled run\'s attempt stopped (by its lane)', () => Promise.resolve(attemptStoppedByCancel(a.runId)));
    // The neighbour is untouched: still running, its lane still open; released, it succeeds.
    expect((await rowOf(b.runId)).status).toBe('running');
    expect((await lane.describe()).status.name).toBe('RUNNING');
    fixtures.release(holdB);
    await waitFor('the neighbour succeeded', async () => (await rowOf(b.runId)).status === 'succeeded');
    expect(await ledgerFor(owner, b.runId)).toEqual([['debit', -1]]);
    expect(await ledgerFor(owner, a.runId)).toEqual([
      ['debit', -1],
      ['refund', 1],
    ]);
    expect(await rowOf(a.runId)).toMatchObject({ status: 'cancelled', error: { code: 'CANCELLED', refunded: true } });
    // The lane heard the Signal naming the run (its history records it).
    const signals = (await lane.fetchHistory()).events?.filter((event) => event.workflowExecutionSignaledEventAttributes?.signalName === 'cancelRun') ?? [];
    expect(signals).toHaveLength(1);
    fixtures.release(holdA);
  });

  it('a template run (an execution of its own): its execution is cancelled, the waiting request answers 409 CANCELLED, refunded once', async () => {
    const template = await api('POST', '/user-templates', owner, { name: 'held page', request: { url: '{{target}}', options: { retry_count: 0 } }, params: [{ name: 'target', type: 'url', required: true }] });
    expect(template.status).toBe(201);
    const hold = `template-${randomUUID()}`;
    const target = `${fixtures.url}/hold?key=${hold}`;
    const pending = api('POST', `/user-templates/${String(template.body.id)}/run`, owner, { params: { target } });
    const row = await waitFor('the template run under way', async () =>
      (await sql<{ id: string; workflowId: string; status: string }>(stack.databaseUrl, 'SELECT id, "workflowId", status::text AS status FROM scrape_run WHERE url = $1 AND status = \'running\'', [target]))[0],
    );
    expect(row.workflowId).toBe(`template-${String(template.body.id)}-${row.id}`);
    await waitFor('the template run debited', async () => (await ledgerFor(owner, row.id)).length === 1);

    expect((await cancel(row.id)).status).toBe(200);
    const answered = await pending;
    expect(answered.status).toBe(409);
    expect(answered.body).toMatchObject({ code: 'CANCELLED', id: row.id, refunded: true });
    const execution = temporal.workflow.getHandle(row.workflowId);
    await waitFor('the template run\'s execution closed', async () => (await execution.describe()).status.name !== 'RUNNING');
    expect((await execution.describe()).status.name).toBe('CANCELLED');
    expect(await ledgerFor(owner, row.id)).toEqual([
      ['debit', -1],
      ['refund', 1],
    ]);
    fixtures.release(hold);
  });

  it("a flow run's scrape: 409 naming the flow run's cancel, the scrape left running (a flow run is cancelled whole)", async () => {
    // Flows run on the worker processes' queue.
    if (!stack.workerProcess()) await stack.startWorker();
    const hold = `flow-${randomUUID()}`;
    const flow = await api('POST', '/flows', owner, { name: 'held page', nodes: [{ id: 'page', type: 'scrape', config: { url: `${fixtures.url}/hold?key=${hold}`, options: { retry_count: 0 } } }] });
    expect(flow.status).toBe(201);
    const run = await api('POST', `/flows/${String(flow.body.id)}/runs`, owner);
    expect(run.status).toBe(202);
    const flowRunId = run.body.id as string;
    const scrape = await waitFor("the flow's scrape under way", async () =>
      (await sql<{ id: string }>(stack.databaseUrl, `SELECT id FROM scrape_run WHERE "flowRunId" = $1 AND status = 'running'`, [flowRunId]))[0],
    );
    const refused = await cancel(scrape.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CONFLICT', id: scrape.id, flow_run_id: flowRunId, links: { cancel: `/flows/${String(flow.body.id)}/runs/${flowRunId}/cancel` } });
    expect((await rowOf(scrape.id)).status).toBe('running');
    expect([200, 202]).toContain((await api('POST', `/flows/${String(flow.body.id)}/runs/${flowRunId}/cancel`, owner)).status);
    fixtures.release(hold);
  });

  it("another account's run is 403, an unknown one 404, a finished one 409 (left as it was)", async () => {
    const done = await api('POST', '/webhook/unblocker', owner, { url: `${fixtures.url}/page/1` });
    expect(done.status).toBe(200);
    const id = done.body.id as string;

    const foreign = await cancel(id, stranger);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    const unknown = await cancel(randomUUID());
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'NOT_FOUND' });

    const finished = await cancel(id);
    expect(finished.status).toBe(409);
    expect(finished.body).toMatchObject({ statusCode: 409, error: 'Conflict', code: 'CONFLICT', id, status: 'succeeded' });
    expect((await rowOf(id)).status).toBe('succeeded');
    expect(await ledgerFor(owner, id)).toEqual([['debit', -1]]);
    const shown = (await api('GET', `/webhook/runs/${id}`, owner)).body;
    expect(shown.status).toBe('succeeded');
  });
});
