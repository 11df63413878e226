/**
 * A flow input node's promises (docs/flows.md "The input node"), end to end on the real API and
 * worker, Temporal, PostgreSQL and the fixture site:
 *   - two answers sent at once: one wins (200), the other is refused 409, and the run goes on
 *     with the winner's value;
 *   - the timeout ends when `expires_at` says: the timer the workflow starts for the wait runs for
 *     what is left of the timeout (not the whole timeout again after the wait's bookkeeping), and
 *     ends at the advertised instant give or take its workflow task's latency. Read from the
 *     run's history (the timer's start and duration).
 */
import { Client, Connection } from '@temporalio/client';
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestAccount, createAccount, setBalance } from '../../test/helpers/accounts';
import { testEnv } from '../../test/helpers/env';
import { nodeOf, waitForFlowRun } from '../../test/helpers/flows';
import { type Json, call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { testDataConverter } from '../../test/helpers/temporal-codec';
import { waitFor } from '../../test/helpers/wait';

jest.setTimeout(300_000);

let stack: Stack;
let fixtures: FixtureServer;
let owner: TestAccount;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  stack = await startStack();
  owner = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, owner.userId, 1000);
});

afterAll(async () => {
  await stack?.stop();
  await fixtures?.close();
});

const api = (method: string, p: string, body?: unknown) => call(stack.baseUrl, method, p, { 'x-api-key': owner.apiKey }, body);

/** scrape /page/1 → input `code` → scrape /page/<the answer>. */
async function startCodeFlow(timeout?: number): Promise<{ flowId: string; runId: string; workflowId: string }> {
  const flow = await api('POST', '/flows', {
    name: 'Needs a code',
    nodes: [
      { id: 'first', type: 'scrape', config: { url: `${fixtures.url}/page/1`, selectors: [{ name: 'title', selector: 'h1' }], options: { retry_count: 1 } } },
      { id: 'code', type: 'input', needs: ['first'], config: { prompt: 'Which page?', ...(timeout ? { timeout } : {}) } },
      { id: 'after', type: 'scrape', needs: ['code'], config: { url: `${fixtures.url}/page/{{ nodes.code.value }}`, selectors: [{ name: 'title', selector: 'h1' }], options: { retry_count: 1 } } },
    ],
  });
  expect(flow.status).toBe(201);
  const started = await api('POST', `/flows/${flow.body.id}/runs`);
  expect(started.status).toBe(202);
  return { flowId: flow.body.id as string, runId: started.body.id as string, workflowId: started.body.workflowId as string };
}

/** A protobuf Timestamp or Duration (seconds a Long or a number) in milliseconds, as the workflow SDK reads one. */
function millisOf(value: { seconds?: unknown; nanos?: number | null } | null | undefined): number {
  const seconds = value?.seconds;
  const whole = typeof seconds === 'number' ? seconds : seconds ? Number((seconds as { toString(): string }).toString()) : 0;
  return whole * 1000 + Math.floor((value?.nanos ?? 0) / 1_000_000);
}

it('two answers at once: one wins, the other gets 409, and the run goes on with the winner', async () => {
  const ids = await startCodeFlow();
  await waitForFlowRun(stack.baseUrl, { 'x-api-key': owner.apiKey }, ids.flowId, ids.runId, (r) => r.status === 'waiting_input' && nodeOf(r, 'code').status === 'waiting_input');
  const inputPath = `/flows/${ids.flowId}/runs/${ids.runId}/input`;
  const answers = await Promise.all(['3', '4'].map((value) => api('POST', inputPath, { node: 'code', value }).then((answer) => ({ value, answer }))));
  expect(answers.map((a) => a.answer.status).sort()).toEqual([200, 409]);
  const winner = answers.find((a) => a.answer.status === 200)!;
  const loser = answers.find((a) => a.answer.status === 409)!;
  expect(winner.answer.body).toMatchObject({ id: ids.runId, node: 'code', accepted: true });
  expect(loser.answer.body).toMatchObject({ statusCode: 409, error: 'Conflict', message: 'Node "code" is not waiting for input' });

  const run = await waitForFlowRun(stack.baseUrl, { 'x-api-key': owner.apiKey }, ids.flowId, ids.runId);
  expect(run.status).toBe('succeeded');
  expect(nodeOf(run, 'code')).toMatchObject({ status: 'succeeded', output: { value: winner.value } });
  expect(nodeOf(run, 'after').output).toMatchObject({ data: [{ results: [{ text: `Page ${winner.value}` }] }] });
});

it('times out at the advertised expires_at: the wait\'s timer ends at that instant', async () => {
  const ids = await startCodeFlow(5);
  const run = await waitForFlowRun(stack.baseUrl, { 'x-api-key': owner.apiKey }, ids.flowId, ids.runId);
  expect(run.status).toBe('failed');
  expect(nodeOf(run, 'code')).toMatchObject({ status: 'failed', error: { code: 'INPUT_TIMEOUT' } });

  // What was advertised: flow.input_required's expiry, as the account's notification carries it.
  const notification = await waitFor('the flow.input_required notification', async () => {
    const listed = (await call(stack.baseUrl, 'GET', '/api/notifications', { cookie: owner.cookie })).body.notifications as Json[];
    return listed.find((n) => n.type === 'flow.input_required' && n.data?.runId === ids.runId);
  });
  const advertised = Date.parse(notification.data.expiresAt as string);
  expect(Number.isFinite(advertised)).toBe(true);

  const connection = await Connection.connect({ address: testEnv('temporalAddress') });
  try {
    const history = await new Client({ connection, dataConverter: testDataConverter() }).workflow.getHandle(ids.workflowId).fetchHistory();
    const events = history.events ?? [];
    const timerAt = events.map((e, i) => (e.timerStartedEventAttributes ? i : -1)).filter((i) => i >= 0).pop();
    expect(timerAt).toBeDefined();
    const timer = events[timerAt!]!;
    const duration = millisOf(timer.timerStartedEventAttributes!.startToFireTimeout);
    // Not the whole timeout again after the wait was recorded and announced (that was the bug):
    // what was left of it.
    expect(duration).toBeGreaterThan(0);
    expect(duration).toBeLessThan(5000);
    // The timer ends at the advertised instant, give or take the latency of the workflow task that
    // started it (its commands are recorded when the task completes) and 100 ms of clock rounding.
    const taskStarted = events.slice(0, timerAt).filter((e) => e.workflowTaskStartedEventAttributes).pop()!;
    const taskLatency = millisOf(timer.eventTime) - millisOf(taskStarted.eventTime);
    const timerEnd = millisOf(timer.eventTime) + duration;
    expect(timerEnd - advertised).toBeGreaterThanOrEqual(-100);
    expect(timerEnd - advertised).toBeLessThanOrEqual(taskLatency + 100);
  } finally {
    await connection.close();
  }
});
