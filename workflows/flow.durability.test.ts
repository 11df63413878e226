/**
 * Durability of flow runs (issue 5): the 4-node flow (scrape → foreach over links → delay →
 * webhook) keeps going, and completes with each scrape debited exactly once, when
 *   - the worker process is SIGKILLed in the middle of the foreach and a new one started;
 *   - the API process is SIGKILLed and restarted while the run is in flight;
 *   - the Temporal dev server (file-backed, like `npm start`'s) is SIGKILLed and restarted.
 * Real processes throughout: API and worker entry points, PostgreSQL, the Temporal CLI's server.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../platform/free-port';
import { type RunningTemporal, startTemporalDevServer } from '../scripts/runtime/temporal-server';
import { type FixtureServer, startFixtureServer } from '../test/fixtures/server';
import { type TestAccount, createAccount, setBalance, sql } from '../test/helpers/accounts';
import { testEnv } from '../test/helpers/env';
import { type WebhookReceiver, fourNodeFlow, nodeOf, startWebhookReceiver, waitForFlowRun } from '../test/helpers/flows';
import { type Json, call } from '../test/helpers/http';
import { type Stack, startStack } from '../test/helpers/stack';

jest.setTimeout(240_000);

const LINKS = 6;
let temporal: RunningTemporal;
let temporalPort: number;
let dbFile: string;
let stack: Stack;
let fixtures: FixtureServer;
let receiver: WebhookReceiver;
let account: TestAccount;

const startTemporal = () => startTemporalDevServer({ cliPath: testEnv('temporalCli'), port: temporalPort, dbFile });

beforeAll(async () => {
  dbFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'flow-durable-')), 'temporal.db');
  temporalPort = await freePort();
  [fixtures, receiver, temporal] = await Promise.all([startFixtureServer(), startWebhookReceiver(), startTemporal()]);
  stack = await startStack({ env: { TEMPORAL_ADDRESS: temporal.address } });
  account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 1000);
});

afterAll(async () => {
  await stack?.stop();
  await temporal?.stop();
  await Promise.all([fixtures?.close(), receiver?.close()]);
});

const auth = () => ({ 'x-api-key': account.apiKey });

/** Starts the flow with slow linked pages (1.5 s each, two at a time) and waits until the foreach is half-way. */
async function startMidForeach(): Promise<{ flowId: string; runId: string }> {
  const flow = await call(stack.baseUrl, 'POST', '/flows', auth(), fourNodeFlow(fixtures.url, receiver.url, { links: LINKS, pageDelayMs: 1500, concurrency: 2 }));
  expect(flow.status).toBe(201);
  const started = await call(stack.baseUrl, 'POST', `/flows/${flow.body.id}/runs`, auth());
  expect(started.status).toBe(202);
  const ids = { flowId: flow.body.id as string, runId: started.body.id as string };
  const mid = await waitForFlowRun(stack.baseUrl, auth(), ids.flowId, ids.runId, (r) => nodeOf(r, 'pages').items.succeeded >= 1);
  expect(nodeOf(mid, 'pages').items.succeeded).toBeLessThan(LINKS);
  return ids;
}

/**
 * The run succeeded with every output, the webhook was called once for it, and each of its
 * scrapes (the list page and each item) has exactly one scrape_run and one debit, no refund.
 */
async function expectCompletedOnce(ids: { flowId: string; runId: string }, label: string): Promise<void> {
  const run = await waitForFlowRun(stack.baseUrl, auth(), ids.flowId, ids.runId, undefined, 180_000);
  expect(run.status).toBe('succeeded');
  const pages = nodeOf(run, 'pages');
  expect(pages.output).toMatchObject({ total: LINKS, succeeded: LINKS, failed: 0 });
  expect((pages.items.list as Json[]).map((i) => i.data[0].results[0].text)).toEqual(Array.from({ length: LINKS }, (_, i) => `Page ${i + 1}`));
  expect(nodeOf(run, 'notify').status).toBe('succeeded');
  expect(receiver.received.filter((p) => p.run?.id === ids.runId)).toHaveLength(1);

  const scrapes = await sql<{ id: string; node: string; item: number | null }>(
    stack.databaseUrl,
    'SELECT id, "flowNodeId" AS node, "flowItemIndex" AS item FROM scrape_run WHERE "flowRunId" = $1 ORDER BY "flowNodeId", "flowItemIndex"',
    [ids.runId],
  );
  expect(scrapes).toHaveLength(1 + LINKS);
  const ledger = await sql<{ runId: string; reason: string; amount: number }>(
    stack.databaseUrl,
    'SELECT "runId", reason::text AS reason, amount FROM credit_ledger WHERE "runId" = ANY($1::text[])',
    [scrapes.map((s) => s.id)],
  );
  const debitsPerScrape = scrapes.map((s) => ledger.filter((l) => l.runId === s.id && l.reason === 'debit').length);
  expect(debitsPerScrape).toEqual(Array(1 + LINKS).fill(1));
  expect(ledger.filter((l) => l.reason === 'refund')).toEqual([]);
  expect(run.credits).toEqual({ spent: 1 + LINKS });
  // The figures the closing note quotes.
  console.log(
    `[durability] ${label}: run ${ids.runId} ${run.status}; node credits ${(run.nodes as Json[]).map((n) => `${n.id}=${n.credits}`).join(' ')}; ` +
      `ledger rows: ${ledger.length} debits over ${scrapes.length} scrapes (${debitsPerScrape.join(',')} per scrape), 0 refunds; webhook calls for the run: 1`,
  );
}

describe('a flow run survives', () => {
  it('the worker killed in the middle of the foreach, and a new worker started', async () => {
    const ids = await startMidForeach();
    await stack.killWorker();
    await new Promise((r) => setTimeout(r, 1000));
    await stack.startWorker();
    await expectCompletedOnce(ids, 'worker SIGKILLed mid-foreach');
  });

  it('the API process killed and restarted while the run is in flight', async () => {
    const ids = await startMidForeach();
    await stack.killApi();
    await stack.restartApi();
    await expectCompletedOnce(ids, 'API SIGKILLed and restarted');
  });

  it('the Temporal dev server killed and restarted (file-backed history)', async () => {
    const ids = await startMidForeach();
    temporal.process.kill('SIGKILL');
    await new Promise((r) => temporal.process.once('exit', r));
    temporal = await startTemporal();
    await expectCompletedOnce(ids, 'Temporal dev server SIGKILLed and restarted');
  });
});
