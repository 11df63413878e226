/**
 * Flow input nodes (a person in the loop, docs/flows.md "The input node") end to end: real API and
 * worker processes, PostgreSQL, a file-backed Temporal dev server of this file's own (so it can
 * be killed), the fixture site, and a receiver of the account's event webhooks.
 *   - scrape → input → scrape whose URL uses `{{ nodes.code.value }}`: the run waits
 *     (`waiting_input`, the prompt rendered), flow.input_required reaches the account's endpoint
 *     and its notifications, the answer goes through the route, the run completes with it;
 *     a second answer 409, another account 403, an unknown node 404, a bad body 400;
 *   - a timeout fails the node (INPUT_TIMEOUT), skips its dependant, fails the run, nothing open;
 *   - the worker SIGKILLed and Temporal SIGKILLed and restarted while the run waits: it still
 *     completes with one debit per scrape node.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../platform/free-port';
import { type RunningTemporal, startTemporalDevServer } from '../../scripts/runtime/temporal-server';
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestAccount, createAccount, setBalance, sql } from '../../test/helpers/accounts';
import { testEnv } from '../../test/helpers/env';
import { nodeOf, waitForFlowRun } from '../../test/helpers/flows';
import { type Json, call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';
import { type EventReceiver, startEventReceiver } from '../../test/helpers/webhook-receiver';

jest.setTimeout(300_000);

let temporal: RunningTemporal;
let temporalPort: number;
let dbFile: string;
let stack: Stack;
let fixtures: FixtureServer;
let receiver: EventReceiver;
let owner: TestAccount;
let other: TestAccount;

const HOOK_PATH = '/flow-input-events';
const startTemporal = () => startTemporalDevServer({ cliPath: testEnv('temporalCli'), port: temporalPort, dbFile });

beforeAll(async () => {
  dbFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'flow-input-')), 'temporal.db');
  temporalPort = await freePort();
  [fixtures, receiver, temporal] = await Promise.all([startFixtureServer(), startEventReceiver(), startTemporal()]);
  // The receiver is on loopback; every other private address stays refused.
  stack = await startStack({ env: { TEMPORAL_ADDRESS: temporal.address, WEBHOOK_PRIVATE_ALLOWLIST: '127.0.0.1' } });
  [owner, other] = await Promise.all([createAccount(stack.baseUrl), createAccount(stack.baseUrl)]);
  await setBalance(stack.databaseUrl, owner.userId, 1000);
  const endpoint = await api('POST', '/api/webhooks', session(owner), { url: `${receiver.origin}${HOOK_PATH}`, events: ['flow.input_required'] });
  expect(endpoint.status).toBe(201);
  receiver.setSecret(HOOK_PATH, endpoint.body.secret as string);
});

afterAll(async () => {
  await stack?.stop();
  await temporal?.stop();
  await Promise.all([fixtures?.close(), receiver?.close()]);
});

const key = (a: TestAccount) => ({ 'x-api-key': a.apiKey });
const session = (a: TestAccount) => ({ cookie: a.cookie });
const api = (method: string, p: string, auth: Record<string, string>, body?: unknown) => call(stack.baseUrl, method, p, auth, body);

/** scrape /page/1 → input `code` (its prompt names the page's h1) → scrape /page/<the answer>. */
function codeFlow(timeout?: number) {
  return {
    name: 'Needs a code',
    nodes: [
      { id: 'first', type: 'scrape', config: { url: `${fixtures.url}/page/1`, selectors: [{ name: 'title', selector: 'h1' }], options: { retry_count: 1 } } },
      { id: 'code', type: 'input', needs: ['first'], config: { prompt: 'Which page after {{ nodes.first.data.0.results.0.text }}?', ...(timeout ? { timeout } : {}) } },
      { id: 'after', type: 'scrape', needs: ['code'], config: { url: `${fixtures.url}/page/{{ nodes.code.value }}`, selectors: [{ name: 'title', selector: 'h1' }], options: { retry_count: 1 } } },
    ],
  };
}

async function startCodeFlow(timeout?: number): Promise<{ flowId: string; runId: string; workflowId: string }> {
  const flow = await api('POST', '/flows', key(owner), codeFlow(timeout));
  expect(flow.status).toBe(201);
  const started = await api('POST', `/flows/${flow.body.id}/runs`, key(owner));
  expect(started.status).toBe(202);
  return { flowId: flow.body.id as string, runId: started.body.id as string, workflowId: started.body.workflowId as string };
}

const waitingFor = (ids: { flowId: string; runId: string }) => waitForFlowRun(stack.baseUrl, key(owner), ids.flowId, ids.runId, (r) => r.status === 'waiting_input' && nodeOf(r, 'code').status === 'waiting_input');

/** Each scrape of the run has one debit and no refund; the scrape nodes that ran. */
async function debitsPerScrape(runId: string): Promise<Record<string, number>> {
  const rows = await sql<{ node: string; debits: number; refunds: number }>(
    stack.databaseUrl,
    `SELECT s."flowNodeId" AS node,
            (SELECT count(*)::int FROM credit_ledger l WHERE l."runId" = s.id AND l.reason = 'debit') AS debits,
            (SELECT count(*)::int FROM credit_ledger l WHERE l."runId" = s.id AND l.reason = 'refund') AS refunds
       FROM scrape_run s WHERE s."flowRunId" = $1`,
    [runId],
  );
  expect(rows.every((r) => r.refunds === 0)).toBe(true);
  return Object.fromEntries(rows.map((r) => [r.node, r.debits]));
}

describe('a flow input node', () => {
  it('waits for a person, announces it, takes the answer through the route and goes on with it', async () => {
    const ids = await startCodeFlow();
    const waiting = await waitingFor(ids);
    expect(nodeOf(waiting, 'first').status).toBe('succeeded');
    expect(nodeOf(waiting, 'after').status).toBe('pending');
    const asked = nodeOf(waiting, 'code').output as Json;
    expect(asked.prompt).toBe('Which page after Page 1?');
    expect(Date.parse(asked.expires_at as string)).toBeGreaterThan(Date.now());
    expect(waiting.credits).toEqual({ spent: 1 });

    // The account's endpoint gets flow.input_required, signed, with the link to answer.
    const [delivery] = await waitFor('flow.input_required delivered', () => {
      const found = receiver.received.filter((d) => d.path === HOOK_PATH && d.event.data?.id === ids.runId);
      return Promise.resolve(found.length ? found : undefined);
    });
    expect(delivery!.verified).toBe(true);
    expect(delivery!.event).toMatchObject({
      type: 'flow.input_required',
      data: { object: 'flow_run', id: ids.runId, flow_id: ids.flowId, status: 'waiting_input', node: 'code', prompt: 'Which page after Page 1?', links: { input: `/flows/${ids.flowId}/runs/${ids.runId}/input` } },
    });
    // ... and a notification.
    const notifications = (await api('GET', '/api/notifications', session(owner))).body.notifications as Json[];
    expect(notifications.filter((n) => n.data?.runId === ids.runId)).toEqual([
      expect.objectContaining({ type: 'flow.input_required', data: expect.objectContaining({ node: 'code', prompt: 'Which page after Page 1?', answer: `/flows/${ids.flowId}/runs/${ids.runId}/input` }) }),
    ]);
    // The dashboard's list of runs waiting for input, by session; another account sees none.
    const listed = await api('GET', '/flows/runs/waiting', session(owner));
    expect(listed.status).toBe(200);
    expect((listed.body.runs as Json[]).find((r) => r.id === ids.runId)).toMatchObject({ status: 'waiting_input', flowName: 'Needs a code', waiting: [{ node: 'code', prompt: 'Which page after Page 1?' }] });
    expect((await api('GET', '/flows/runs/waiting', key(other))).body.runs).toEqual([]);

    const inputPath = `/flows/${ids.flowId}/runs/${ids.runId}/input`;
    const otherAnswer = await api('POST', inputPath, key(other), { node: 'code', value: '7' });
    expect(otherAnswer.status).toBe(403);
    const badBodies: unknown[] = [{ node: 'code' }, { node: 'code', value: 7 }, { node: 'code', value: '7', extra: true }, 'not json'];
    for (const body of badBodies) {
      const bad = await api('POST', inputPath, key(owner), body);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    expect((await api('POST', inputPath, key(owner), { node: 'nope', value: '7' })).status).toBe(404);
    const notInput = await api('POST', inputPath, key(owner), { node: 'first', value: '7' });
    expect(notInput.status).toBe(409);
    expect(notInput.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    // Nothing above reached the run: it still waits.
    expect(nodeOf((await api('GET', `/flows/${ids.flowId}/runs/${ids.runId}`, key(owner))).body, 'code').status).toBe('waiting_input');

    const answered = await api('POST', inputPath, session(owner), { node: 'code', value: '42' });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ id: ids.runId, node: 'code', accepted: true });
    const again = await api('POST', inputPath, key(owner), { node: 'code', value: '43' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Node "code" is not waiting for input');

    const run = await waitForFlowRun(stack.baseUrl, key(owner), ids.flowId, ids.runId);
    expect(run.status).toBe('succeeded');
    expect(nodeOf(run, 'code')).toMatchObject({ status: 'succeeded', output: { value: '42' } });
    expect(nodeOf(run, 'after').output).toMatchObject({ url: `${fixtures.url}/page/42`, data: [{ results: [{ text: 'Page 42' }] }] });
    expect(await debitsPerScrape(ids.runId)).toEqual({ first: 1, after: 1 });
    expect((await api('GET', '/flows/runs/waiting', key(owner))).body.runs.find((r: Json) => r.id === ids.runId)).toBeUndefined();
  });

  it('fails the run cleanly when no answer comes within its timeout', async () => {
    const ids = await startCodeFlow(1);
    const run = await waitForFlowRun(stack.baseUrl, key(owner), ids.flowId, ids.runId);
    expect(run.status).toBe('failed');
    expect(run.error).toEqual({ code: 'NODE_FAILED', message: 'failed nodes: code' });
    expect(nodeOf(run, 'code')).toMatchObject({ status: 'failed', error: { code: 'INPUT_TIMEOUT', message: 'no answer within 1 s' } });
    expect(nodeOf(run, 'after').status).toBe('skipped');
    expect(await debitsPerScrape(ids.runId)).toEqual({ first: 1 });
    const open = await sql<{ nodeId: string }>(stack.databaseUrl, `SELECT "nodeId" FROM flow_run_node WHERE "runId" = $1 AND status IN ('pending', 'running', 'waiting_input')`, [ids.runId]);
    expect(open).toEqual([]);
    const late = await api('POST', `/flows/${ids.flowId}/runs/${ids.runId}/input`, key(owner), { node: 'code', value: '42' });
    expect(late.status).toBe(409);
  });

  it('survives the worker killed and Temporal killed and restarted while it waits, with one debit per scrape node', async () => {
    const ids = await startCodeFlow();
    await waitingFor(ids);
    // How an operator sees a waiting run: open, with no activity pending (it waits on a timer and the Update).
    const described = execFileSync(testEnv('temporalCli'), ['workflow', 'describe', '--address', temporal.address, '--workflow-id', ids.workflowId], { encoding: 'utf8' });
    expect(described).toMatch(/Pending Activities: 0/);
    console.log(`[flow-input] temporal workflow describe --workflow-id ${ids.workflowId} (waiting)\n${described}`);
    await stack.killWorker();
    temporal.process.kill('SIGKILL');
    await new Promise((r) => temporal.process.once('exit', r));
    temporal = await startTemporal();
    await stack.startWorker();
    const answered = await waitFor('the answer taken after the restarts', async () => {
      const answer = await api('POST', `/flows/${ids.flowId}/runs/${ids.runId}/input`, key(owner), { node: 'code', value: '5' });
      // 503 while the API's Temporal connection comes back.
      return answer.status === 503 ? undefined : answer;
    });
    expect(answered.status).toBe(200);
    const run = await waitForFlowRun(stack.baseUrl, key(owner), ids.flowId, ids.runId, undefined, 180_000);
    expect(run.status).toBe('succeeded');
    expect(nodeOf(run, 'after').output).toMatchObject({ data: [{ results: [{ text: 'Page 5' }] }] });
    expect(await debitsPerScrape(ids.runId)).toEqual({ first: 1, after: 1 });

    // How an operator sees it: the Update in the run's history (quoted in docs/flows.md).
    const history = execFileSync(testEnv('temporalCli'), ['workflow', 'show', '--address', temporal.address, '--workflow-id', ids.workflowId], { encoding: 'utf8' });
    expect(history).toMatch(/WorkflowExecutionUpdateAccepted/);
    console.log(`[flow-input] temporal workflow show --workflow-id ${ids.workflowId}\n${history}`);
  });
});
