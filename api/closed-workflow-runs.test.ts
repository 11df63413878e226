/**
 * Workflows an operator terminates in Temporal (api/closed-workflow-runs.ts), end to end: real API
 * and worker processes, Temporal, PostgreSQL and the fixture site, whose /hold pages answer only
 * when the test releases them, so each scrape is `running` with its debit taken when the test
 * terminates its workflow. The sweep then closes what the workflow left live: the run cancelled
 * and refunded, a monitor check settled `failed` (by its settle workflow), a flow run cancelled
 * with its nodes, a crawl job cancelled, an extract job cancelled.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { type FixtureServer, startFixtureServer } from '../test/fixtures/server';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance, sql } from '../test/helpers/accounts';
import { call } from '../test/helpers/http';
import { type Stack, startStack } from '../test/helpers/stack';
import { waitFor } from '../test/helpers/wait';
import { testDataConverter } from '../test/helpers/temporal-codec';
import { type FakeLlm, startFakeLlm } from '../test/helpers/fake-llm';
import { workflowIds } from '../workflows/definitions';

jest.setTimeout(180_000);

let stack: Stack;
let fixtures: FixtureServer;
let owner: TestAccount;
let connection: Connection;
let temporal: Client;
/** A model is configured so that extract jobs can start; the tests never reach it. */
let llm: FakeLlm;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  llm = await startFakeLlm();
  // A short grace: the rows these tests leave are seconds old when their workflow is terminated.
  stack = await startStack({ env: { CLOSED_WORKFLOW_SWEEP_MS: '1000', CLOSED_WORKFLOW_GRACE_MS: '2000', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fixture-model' } });
  owner = await createAccount(stack.baseUrl);
  connection = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS! });
  temporal = new Client({ connection, dataConverter: testDataConverter() });
});

afterAll(async () => {
  await connection?.close();
  await stack?.stop();
  await fixtures?.close();
  await llm?.close();
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, owner.userId, 1000);
});

const api = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { 'x-api-key': owner.apiKey }, body);

interface RunRow {
  status: string;
  workflowId: string;
  error: { code: string; message: string; refunded: boolean } | null;
}
const runRow = async (id: string) => (await sql<RunRow>(stack.databaseUrl, 'SELECT status::text AS status, "workflowId", error FROM scrape_run WHERE id = $1', [id]))[0];
/** The run's ledger rows, in order: [reason, amount]. */
const ledgerFor = async (runId: string) => (await ledgerOf(stack.databaseUrl, owner.userId)).filter((row) => row.runId === runId).map((row) => [row.reason, row.amount]);

/** Waits until the run is fetching its held page with its credit taken. */
async function runningAndDebited(runId: string): Promise<RunRow> {
  return waitFor(`run ${runId} running and debited`, async () => {
    const row = await runRow(runId);
    return row?.status === 'running' && (await ledgerFor(runId)).length === 1 ? row : undefined;
  });
}

/** Waits until the sweep has cancelled the run and given its credit back. */
async function cancelledAndRefunded(runId: string) {
  const row = await waitFor(`run ${runId} cancelled by the sweep`, async () => {
    const found = await runRow(runId);
    return found?.status === 'cancelled' && found.error?.refunded === true ? found : undefined;
  });
  expect(row.error).toMatchObject({ code: 'CANCELLED', refunded: true });
  expect(row.error!.message).toContain('terminated in Temporal');
  const [debit, refund, ...more] = await ledgerFor(runId);
  expect(debit![0]).toBe('debit');
  expect(refund).toEqual(['refund', -Number(debit![1])]);
  expect(more).toEqual([]);
}

describe('rows whose workflow was terminated in Temporal', () => {
  it('a standalone run in a terminated lane: cancelled and refunded, once', async () => {
    const hold = `closed-lane-${randomUUID()}`;
    const started = await api('POST', '/webhook/unblocker', { url: `${fixtures.url}/hold?key=${hold}`, async: true, options: { retry_count: 0 } });
    expect(started.status).toBe(202);
    const id = started.body.id as string;
    const row = await runningAndDebited(id);
    await temporal.workflow.getHandle(row.workflowId).terminate('ended by the test');

    await cancelledAndRefunded(id);
    expect(await balanceOf(stack.databaseUrl, owner.userId)).toBe(1000);
    // The page answering now changes nothing: the run stays cancelled, nothing is debited again.
    fixtures.release(hold);
    const answered = await waitFor('the run answered by GET', async () => {
      const got = await api('GET', `/webhook/runs/${id}`);
      return got.status === 200 ? got : undefined;
    });
    expect(answered.body).toMatchObject({ id, status: 'cancelled' });
    expect(await ledgerFor(id)).toHaveLength(2);
  });

  it("a monitor check whose workflow was terminated: settled failed by its settle workflow, its run refunded", async () => {
    const hold = `closed-check-${randomUUID()}`;
    const created = await api('POST', '/monitors', { name: 'held', request: { url: `${fixtures.url}/hold?key=${hold}`, options: { retry_count: 0 } }, schedule: { every: '2h' } });
    expect(created.status).toBe(201);
    const monitorId = created.body.id as string;
    expect((await api('POST', `/monitors/${monitorId}/check`)).status).toBe(202);
    const check = await waitFor('the check recorded', async () => (await sql<{ id: string; workflowId: string; scrapeRunId: string }>(stack.databaseUrl, 'SELECT id, "workflowId", "scrapeRunId" FROM monitor_check WHERE "monitorId" = $1', [monitorId]))[0]);
    await runningAndDebited(check.scrapeRunId);
    await temporal.workflow.getHandle(check.workflowId).terminate('ended by the test');

    await cancelledAndRefunded(check.scrapeRunId);
    const settled = await waitFor('the check settled', async () => {
      const listed = await api('GET', `/monitors/${monitorId}/checks`);
      const found = (listed.body.checks as Array<{ id: string; status: string; error?: { code: string } }>).find((c) => c.id === check.id);
      return found && found.status !== 'running' ? found : undefined;
    });
    expect(settled).toMatchObject({ status: 'failed', error: { code: 'CANCELLED' } });
    const settle = await temporal.workflow.getHandle(workflowIds.monitorCheckSettle(check.id)).describe();
    expect(settle.type).toBe('monitorCheckSettleWorkflow');
    expect(await balanceOf(stack.databaseUrl, owner.userId)).toBe(1000);
    fixtures.release(hold);
    expect((await api('DELETE', `/monitors/${monitorId}`)).status).toBe(204);
  });

  it('a flow run whose workflow was terminated: cancelled with its open nodes, its scrape refunded', async () => {
    const hold = `closed-flow-${randomUUID()}`;
    const flow = await api('POST', '/flows', {
      name: 'held',
      nodes: [
        { id: 'page', type: 'scrape', config: { url: `${fixtures.url}/hold?key=${hold}`, selectors: ['h1'], options: { retry_count: 0 } } },
        { id: 'later', type: 'delay', needs: ['page'], config: { ms: 10 } },
      ],
    });
    expect(flow.status).toBe(201);
    const run = await api('POST', `/flows/${flow.body.id as string}/runs`);
    expect(run.status).toBe(202);
    const flowRunId = run.body.id as string;
    const scrapeRunId = await waitFor('the flow node scrape recorded', async () => (await sql<{ id: string }>(stack.databaseUrl, 'SELECT id FROM scrape_run WHERE "flowRunId" = $1', [flowRunId]))[0]?.id);
    await runningAndDebited(scrapeRunId);
    const { workflowId } = (await sql<{ workflowId: string }>(stack.databaseUrl, 'SELECT "workflowId" FROM flow_run WHERE id = $1', [flowRunId]))[0]!;
    await temporal.workflow.getHandle(workflowId).terminate('ended by the test');

    await cancelledAndRefunded(scrapeRunId);
    const ended = await waitFor('the flow run closed', async () => {
      const got = await api('GET', `/flows/${flow.body.id as string}/runs/${flowRunId}`);
      return got.body.status !== 'running' && got.body.status !== 'queued' ? got.body : undefined;
    });
    expect(ended).toMatchObject({ status: 'cancelled', error: { code: 'CANCELLED' } });
    const nodes = await sql<{ nodeId: string; status: string }>(stack.databaseUrl, 'SELECT "nodeId", status FROM flow_run_node WHERE "runId" = $1 ORDER BY "nodeId"', [flowRunId]);
    expect(nodes).toEqual([
      { nodeId: 'later', status: 'cancelled' },
      { nodeId: 'page', status: 'cancelled' },
    ]);
    expect(await balanceOf(stack.databaseUrl, owner.userId)).toBe(1000);
    fixtures.release(hold);
  });

  it('a crawl whose workflow was terminated: recorded cancelled, its page in flight refunded', async () => {
    const hold = `closed-crawl-${randomUUID()}`;
    const started = await api('POST', '/crawl', { url: `${fixtures.url}/hold?key=${hold}`, limit: 1, sitemap: 'skip', scrape: { options: { retry_count: 0 } } });
    expect(started.status).toBe(202);
    const crawlId = started.body.id as string;
    const workflowId = `crawl-${crawlId}`;
    const pageRunId = await waitFor('the crawl page scrape recorded', async () => (await sql<{ id: string }>(stack.databaseUrl, 'SELECT id FROM scrape_run WHERE "workflowId" = $1', [workflowId]))[0]?.id);
    await runningAndDebited(pageRunId);
    await temporal.workflow.getHandle(workflowId).terminate('ended by the test');

    await cancelledAndRefunded(pageRunId);
    const ended = await waitFor('the crawl closed', async () => {
      const got = await api('GET', `/crawl/${crawlId}`);
      return got.body.status !== 'running' && got.body.status !== 'queued' ? got.body : undefined;
    });
    expect(ended).toMatchObject({ status: 'cancelled' });
    const [row] = await sql<{ error: { code: string; message: string } }>(stack.databaseUrl, 'SELECT error FROM crawl WHERE id = $1', [crawlId]);
    expect(row!.error).toMatchObject({ code: 'CANCELLED' });
    expect(row!.error.message).toContain('terminated in Temporal');
    expect(await balanceOf(stack.databaseUrl, owner.userId)).toBe(1000);
    fixtures.release(hold);
  });

  it('an extract job whose workflow was terminated while it waited for its pages: recorded cancelled, nothing charged for the model', async () => {
    const hold = `closed-extract-${randomUUID()}`;
    const started = await call(stack.baseUrl, 'POST', '/v2/extract', { authorization: `Bearer ${owner.apiKey}` }, { urls: [`${fixtures.url}/hold?key=${hold}`], prompt: 'the title' });
    expect(started.status).toBe(200);
    const extractId = started.body.id as string;
    const job = await waitFor('the extract job recorded', async () => (await sql<{ workflowId: string; status: string }>(stack.databaseUrl, 'SELECT "workflowId", status FROM extract_job WHERE id = $1', [extractId]))[0]);
    expect(job.status).toBe('processing');
    await temporal.workflow.getHandle(job.workflowId).terminate('ended by the test');

    const ended = await waitFor('the extract job closed', async () => {
      const got = await call(stack.baseUrl, 'GET', `/v2/extract/${extractId}`, { authorization: `Bearer ${owner.apiKey}` });
      return got.body.status !== 'processing' ? got.body : undefined;
    });
    expect(ended).toMatchObject({ status: 'cancelled' });
    expect(llm.calls).toEqual([]);
    // Its batch job runs on under its own workflow; the page is released so it ends.
    fixtures.release(hold);
  });
});
