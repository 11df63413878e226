/**
 * Event webhooks end to end (docs/webhooks.md): real API and worker processes, Temporal,
 * PostgreSQL, the fixture site, and a local receiver that verifies every signature with the
 * Stripe SDK's helper. Per-request webhooks on async scrapes and flow runs; registered endpoints
 * (secret shown once, events filter, SSRF guard and blacklist, ownership); retries with the same
 * event id, every attempt recorded; redelivery; a receiver that never accepts leaves the run and
 * its billing alone. Retry waits are short through configuration (WEBHOOK_RETRY_*).
 */
import { Client, Connection } from '@temporalio/client';
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { sql } from '../../test/helpers/database';
import { testEnv } from '../../test/helpers/env';
import { type TestAccount, balanceOf, createAccount, setBalance } from '../../test/helpers/accounts';
import { type Json, call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';
import { type EventReceiver, type ReceivedDelivery, startEventReceiver } from '../../test/helpers/webhook-receiver';
import { waitForFlowRun } from '../../test/helpers/flows';
import { testDataConverter } from '../../test/helpers/temporal-codec';

let stack: Stack;
let fixtures: FixtureServer;
let receiver: EventReceiver;
let owner: TestAccount;
let other: TestAccount;
let requestSecret: string;

beforeAll(async () => {
  [fixtures, receiver] = await Promise.all([startFixtureServer(), startEventReceiver()]);
  stack = await startStack({
    env: {
      WEBHOOK_RETRY_INITIAL_MS: '100',
      WEBHOOK_RETRY_MAX_INTERVAL_MS: '200',
      WEBHOOK_RETRY_WINDOW_MS: '8000',
      WEBHOOK_TIMEOUT_MS: '5000',
      // The receiver is on loopback; every other private address stays refused.
      WEBHOOK_PRIVATE_ALLOWLIST: '127.0.0.1',
      BLACKLIST_HOSTS: '*.blocked.test',
    },
  });
  [owner, other] = await Promise.all([createAccount(stack.baseUrl), createAccount(stack.baseUrl)]);
  const secret = await api('GET', '/api/webhook-secret', session(owner));
  expect(secret.status).toBe(200);
  requestSecret = secret.body.secret as string;
  expect(requestSecret).toMatch(/^whsec_/);
});

afterAll(async () => {
  await stack?.stop();
  await Promise.all([fixtures?.close(), receiver?.close()]);
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, owner.userId, 1000);
});

const key = (a: TestAccount) => ({ 'x-api-key': a.apiKey });
const session = (a: TestAccount) => ({ cookie: a.cookie });
const api = (method: string, path: string, auth: Record<string, string>, body?: unknown) => call(stack.baseUrl, method, path, auth, body);

let paths = 0;
/** A receiver path of its own, verified with `secret`. */
function hookPath(secret: string): { path: string; url: string } {
  const path = `/hook-${++paths}`;
  receiver.setSecret(path, secret);
  return { path, url: `${receiver.origin}${path}` };
}

const at = (path: string) => receiver.received.filter((r) => r.path === path);
const waitForDeliveries = (path: string, count: number, what = `${count} deliveries on ${path}`) =>
  waitFor(what, () => Promise.resolve(at(path).length >= count ? at(path) : undefined), 90_000);

async function asyncScrape(account: TestAccount, body: Json): Promise<string> {
  const started = await api('POST', '/webhook/unblocker', key(account), { async: true, options: { retry_count: 0 }, ...body });
  expect(started.status).toBe(202);
  return started.body.id as string;
}

function expectVerified(delivery: ReceivedDelivery) {
  expect(delivery.verified).toBe(true);
  expect(delivery.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  expect(delivery.headers['content-type']).toBe('application/json');
  expect(Object.keys(delivery.event).sort()).toEqual(['created_at', 'data', 'id', 'type']);
}

async function registerEndpoint(account: TestAccount, body: Json): Promise<Json> {
  const created = await api('POST', '/api/webhooks', session(account), body);
  expect(created.status).toBe(201);
  return created.body;
}

describe('per-request webhooks on async scrapes', () => {
  it('delivers scrape.completed, signed with the account secret, with the metadata echoed', async () => {
    const hook = hookPath(requestSecret);
    const runId = await asyncScrape(owner, { url: `${fixtures.url}/`, webhook: { url: hook.url, metadata: { order: 42 } } });
    const [delivery] = await waitForDeliveries(hook.path, 1);
    expectVerified(delivery!);
    expect(delivery!.event).toMatchObject({ type: 'scrape.completed', data: { object: 'scrape_run', id: runId, status: 'succeeded', http_status: 200, metadata: { order: 42 }, links: { self: `/webhook/runs/${runId}` } } });
    expect(delivery!.event.id).toMatch(/^evt_/);
    expect(delivery!.headers['x-webhook-event-id']).toBe(delivery!.event.id);

    // The delivery and its attempt are listed with the account's deliveries.
    const listed = await waitFor('the delivery recorded succeeded', async () => {
      const answer = await api('GET', '/api/webhook-deliveries', session(owner));
      const found = (answer.body.deliveries as Json[]).find((d) => d.eventId === delivery!.event.id);
      return found?.status === 'succeeded' ? found : undefined;
    });
    expect(listed).toMatchObject({ endpointId: null, url: hook.url, eventType: 'scrape.completed', redeliveryOf: null });
    expect(listed.attempts).toEqual([expect.objectContaining({ attempt: 1, statusCode: 200, error: null })]);
    expect(listed.attempts[0].durationMs).toBeGreaterThanOrEqual(0);
  });

  it('delivers scrape.failed for a failing target, and a request filter keeps other types out', async () => {
    const hook = hookPath(requestSecret);
    const failedRun = await asyncScrape(owner, { url: `${fixtures.url}/status/500`, webhook: { url: hook.url, events: ['scrape.failed'] } });
    const [delivery] = await waitForDeliveries(hook.path, 1);
    expectVerified(delivery!);
    expect(delivery!.event).toMatchObject({ type: 'scrape.failed', data: { id: failedRun, status: 'failed', error: { refunded: true } } });

    // A success on a scrape.failed-only webhook makes no event at all.
    const okRun = await asyncScrape(owner, { url: `${fixtures.url}/`, webhook: { url: hook.url, events: ['scrape.failed'] } });
    await waitFor('the successful run finished', async () => (await api('GET', `/webhook/runs/${okRun}`, key(owner))).body.status === 'succeeded');
    // The batch emits after its runs finish: once its workflow has completed, no event exists for the run.
    const [row] = await sql<{ workflowId: string }>(stack.databaseUrl, 'SELECT "workflowId" FROM scrape_run WHERE id = $1', [okRun]);
    const connection = await Connection.connect({ address: testEnv('temporalAddress') });
    try {
      await new Client({ connection, dataConverter: testDataConverter() }).workflow.getHandle(row!.workflowId).result();
    } finally {
      await connection.close();
    }
    expect(await sql(stack.databaseUrl, 'SELECT id FROM webhook_event WHERE subject = $1', [`scrape_run:${okRun}`])).toEqual([]);
    expect(at(hook.path)).toHaveLength(1);
  });

  it('refuses a webhook on a synchronous request, and a private or blacklisted webhook URL, with the standard body', async () => {
    const sync = await api('POST', '/webhook/unblocker', key(owner), { url: `${fixtures.url}/`, webhook: { url: `${receiver.origin}/x` } });
    expect(sync.status).toBe(400);
    expect(sync.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'BAD_REQUEST' });
    expect(String(sync.body.message)).toContain('webhook');

    const privateHook = await api('POST', '/webhook/unblocker', key(owner), { url: `${fixtures.url}/`, async: true, webhook: { url: 'http://10.20.30.40/hook' } });
    expect(privateHook.status).toBe(403);
    expect(privateHook.body).toMatchObject({ statusCode: 403, error: 'Forbidden', code: 'PRIVATE_TARGET' });

    const badEvents = await api('POST', '/webhook/unblocker', key(owner), { url: `${fixtures.url}/`, async: true, webhook: { url: `${receiver.origin}/x`, events: ['scrape.exploded'] } });
    expect(badEvents.status).toBe(400);
  });
});

describe('the scrape path without webhooks', () => {
  /** The batch workflow of a run, once completed: its history's event types and the local activities it recorded. */
  async function batchHistory(runId: string): Promise<{ types: string[]; text: string }> {
    const [row] = await sql<{ workflowId: string }>(stack.databaseUrl, 'SELECT "workflowId" FROM scrape_run WHERE id = $1', [runId]);
    const connection = await Connection.connect({ address: testEnv('temporalAddress') });
    try {
      const handle = new Client({ connection, dataConverter: testDataConverter() }).workflow.getHandle(row!.workflowId);
      await handle.result();
      const history = await handle.fetchHistory();
      const texts: string[] = [];
      const walk = (value: unknown): void => {
        if (value instanceof Uint8Array) texts.push(Buffer.from(value).toString('utf8'));
        else if (Array.isArray(value)) value.forEach(walk);
        else if (value && typeof value === 'object') Object.values(value).forEach(walk);
      };
      walk(history.events);
      // Each event's kind by its attributes' field (`startChildWorkflowExecutionInitiatedEventAttributes`, …).
      const types = (history.events ?? []).map((e) => Object.entries(e).find(([k, v]) => k.endsWith('EventAttributes') && v)?.[0] ?? 'unknown');
      return { types, text: texts.join('\n') };
    } finally {
      await connection.close();
    }
  }

  it('adds no step to a batch when the account has no endpoints and the request no webhook', async () => {
    const account = await createAccount(stack.baseUrl);
    const plain = await asyncScrape(account, { url: `${fixtures.url}/` });
    const hook = hookPath(requestSecret);
    const withHook = await asyncScrape(owner, { url: `${fixtures.url}/`, webhook: { url: hook.url } });
    await waitForDeliveries(hook.path, 1);
    const [without, withWebhook] = await Promise.all([batchHistory(plain), batchHistory(withHook)]);
    expect(without.text).not.toContain('emitWebhookEvents');
    expect(without.types.filter((t) => /ChildWorkflow/.test(t))).toEqual([]);
    expect(withWebhook.text).toContain('emitWebhookEvents');
    expect(withWebhook.types.filter((t) => t === 'startChildWorkflowExecutionInitiatedEventAttributes')).toHaveLength(1);
    expect(withWebhook.types.length).toBeGreaterThan(without.types.length);
    expect(await sql(stack.databaseUrl, 'SELECT id FROM webhook_event WHERE "userId" = $1', [account.userId])).toEqual([]);
  });
});

describe('retries and redelivery', () => {
  it('retries a receiver answering 500 twice, then 200: three attempts recorded, the same event id each time; redelivery sends it again', async () => {
    const hook = hookPath(requestSecret);
    receiver.failNext(hook.path, 2, 500);
    const runId = await asyncScrape(owner, { url: `${fixtures.url}/`, webhook: { url: hook.url } });
    const three = await waitForDeliveries(hook.path, 3);
    expect(three.map((d) => d.answered)).toEqual([500, 500, 200]);
    expect(new Set(three.map((d) => d.event.id)).size).toBe(1);
    expect(new Set(three.map((d) => d.body)).size).toBe(1);
    for (const d of three) expectVerified(d);
    expect(three.map((d) => d.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
    expect(three[0]!.event.data.id).toBe(runId);

    const delivery = await waitFor('the delivery recorded succeeded', async () => {
      const answer = await api('GET', '/api/webhook-deliveries', session(owner));
      const found = (answer.body.deliveries as Json[]).find((d) => d.eventId === three[0]!.event.id && d.redeliveryOf === null);
      return found?.status === 'succeeded' ? found : undefined;
    });
    expect((delivery.attempts as Json[]).map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(delivery.attempts[0].error).toContain('500');

    const again = await api('POST', `/api/webhook-deliveries/${delivery.id}/redeliver`, session(owner));
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ eventId: delivery.eventId, redeliveryOf: delivery.id, url: hook.url });
    const four = await waitForDeliveries(hook.path, 4);
    expect(four[3]!.event.id).toBe(three[0]!.event.id);
    expect(four[3]!.body).toBe(three[0]!.body);
    expectVerified(four[3]!);

    // Another account can neither see nor redeliver it.
    expect((await api('POST', `/api/webhook-deliveries/${delivery.id}/redeliver`, session(other))).status).toBe(403);
    expect(((await api('GET', '/api/webhook-deliveries', session(other))).body.deliveries as Json[]).length).toBe(0);
  });

  it('a receiver that never accepts fails the delivery, not the run, and changes no billing', async () => {
    const hook = hookPath(requestSecret);
    receiver.failNext(hook.path, 1000, 503);
    const before = await balanceOf(stack.databaseUrl, owner.userId);
    const runId = await asyncScrape(owner, { url: `${fixtures.url}/`, webhook: { url: hook.url } });
    const failed = await waitFor('the delivery recorded failed', async () => {
      const answer = await api('GET', '/api/webhook-deliveries?limit=100', session(owner));
      const found = (answer.body.deliveries as Json[]).find((d) => d.url === hook.url);
      return found?.status === 'failed' ? found : undefined;
    });
    expect((failed.attempts as Json[]).length).toBeGreaterThanOrEqual(2);
    expect(new Set(at(hook.path).map((d) => d.event.id)).size).toBe(1);
    const run = await api('GET', `/webhook/runs/${runId}`, key(owner));
    expect(run.body.status).toBe('succeeded');
    expect(await balanceOf(stack.databaseUrl, owner.userId)).toBe(before - (run.body.result.credits.cost as number));
  });
});

describe('registered endpoints', () => {
  it('shows the secret once, filters by event type, and lists each endpoint’s deliveries', async () => {
    const all = await registerEndpoint(owner, { url: `${receiver.origin}/ep-all`, description: 'everything' });
    expect(all.secret).toMatch(/^whsec_/);
    expect(all).toMatchObject({ url: `${receiver.origin}/ep-all`, events: [], description: 'everything' });
    const failedOnly = await registerEndpoint(owner, { url: `${receiver.origin}/ep-failed`, events: ['scrape.failed'] });
    receiver.setSecret('/ep-all', all.secret as string);
    receiver.setSecret('/ep-failed', failedOnly.secret as string);

    const listed = await api('GET', '/api/webhooks', session(owner));
    expect(listed.status).toBe(200);
    const mine = listed.body.endpoints as Json[];
    expect(mine.map((e) => e.id).sort()).toEqual([all.id, failedOnly.id].sort());
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    expect((await api('GET', '/api/webhooks', session(other))).body.endpoints).toEqual([]);

    // A success: to the endpoint taking every type only (no request webhook: the account's endpoints alone).
    const okRun = await asyncScrape(owner, { url: `${fixtures.url}/` });
    const [okEvent] = await waitForDeliveries('/ep-all', 1);
    expectVerified(okEvent!);
    expect(okEvent!.event).toMatchObject({ type: 'scrape.completed', data: { id: okRun } });
    // Both endpoints' deliveries of an event are recorded together, before either is sent.
    expect((await api('GET', `/api/webhooks/${failedOnly.id}/deliveries`, session(owner))).body.deliveries).toEqual([]);

    const failedRun = await asyncScrape(owner, { url: `${fixtures.url}/status/500` });
    const [failedEvent] = await waitForDeliveries('/ep-failed', 1);
    expectVerified(failedEvent!);
    expect(failedEvent!.event).toMatchObject({ type: 'scrape.failed', data: { id: failedRun } });
    await waitForDeliveries('/ep-all', 2);
    expect(at('/ep-all')[1]!.event.id).toBe(failedEvent!.event.id);

    const deliveries = await waitFor('the endpoint delivery listed as succeeded', async () => {
      const answer = await api('GET', `/api/webhooks/${failedOnly.id}/deliveries`, session(owner));
      const rows = answer.body.deliveries as Json[];
      return rows.length === 1 && rows[0]!.status === 'succeeded' ? rows : undefined;
    });
    expect(deliveries[0]).toMatchObject({ endpointId: failedOnly.id, eventId: failedEvent!.event.id, eventType: 'scrape.failed' });

    // Redelivery through the endpoint's route; another account gets 403 on every route of it.
    const again = await api('POST', `/api/webhooks/${failedOnly.id}/deliveries/${deliveries[0]!.id}/redeliver`, session(owner));
    expect(again.status).toBe(202);
    const [, second] = await waitForDeliveries('/ep-failed', 2);
    expect(second!.event.id).toBe(failedEvent!.event.id);
    expectVerified(second!);
    expect((await api('GET', `/api/webhooks/${failedOnly.id}/deliveries`, session(other))).status).toBe(403);
    expect((await api('POST', `/api/webhooks/${failedOnly.id}/deliveries/${deliveries[0]!.id}/redeliver`, session(other))).status).toBe(403);
    expect((await api('DELETE', `/api/webhooks/${failedOnly.id}`, session(other))).status).toBe(403);

    // Deleted: listed no more, receives nothing more; its deliveries stay readable.
    expect((await api('DELETE', `/api/webhooks/${all.id}`, session(owner))).status).toBe(204);
    expect((await api('DELETE', `/api/webhooks/${failedOnly.id}`, session(owner))).status).toBe(204);
    expect((await api('GET', '/api/webhooks', session(owner))).body.endpoints).toEqual([]);
    expect((await api('GET', `/api/webhooks/${all.id}/deliveries`, session(owner))).body.deliveries).toHaveLength(2);
    expect((await api('DELETE', `/api/webhooks/${all.id}`, session(owner))).status).toBe(404);
  });

  it('refuses a private, loopback-named or blacklisted endpoint with the standard body, and bad input with 422', async () => {
    for (const [url, code] of [
      ['http://10.0.0.7/hook', 'PRIVATE_TARGET'],
      ['http://169.254.169.254/latest', 'PRIVATE_TARGET'],
      ['http://localhost:8080/hook', 'PRIVATE_TARGET'],
      ['http://api.blocked.test/hook', 'BLACKLISTED'],
    ] as const) {
      const refused = await api('POST', '/api/webhooks', session(owner), { url });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ statusCode: 403, error: 'Forbidden', code });
    }
    const invalid = await api('POST', '/api/webhooks', session(owner), { url: 'ftp://example.com/', events: ['nope'] });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toMatchObject({ statusCode: 422, code: 'VALIDATION_FAILED' });
    expect((invalid.body.message as string[]).length).toBe(2);
    // Session only.
    expect((await api('POST', '/api/webhooks', key(owner), { url: `${receiver.origin}/k` })).status).toBe(401);
    expect((await api('GET', '/api/webhooks', session(owner))).body.endpoints).toEqual([]);
  });
});

describe('flow runs', () => {
  async function flowOf(url: string): Promise<string> {
    const created = await api('POST', '/flows', key(owner), { name: 'one page', nodes: [{ id: 'page', type: 'scrape', config: { url, options: { retry_count: 0 } } }] });
    expect(created.status).toBe(201);
    return created.body.id as string;
  }

  it('delivers flow.run.completed and flow.run.failed to the run’s webhook', async () => {
    const hook = hookPath(requestSecret);
    const okFlow = await flowOf(`${fixtures.url}/`);
    const ok = await api('POST', `/flows/${okFlow}/runs`, key(owner), { webhook: { url: hook.url, metadata: { batch: 'a' } } });
    expect(ok.status).toBe(202);
    const [completed] = await waitForDeliveries(hook.path, 1);
    expectVerified(completed!);
    expect(completed!.event).toMatchObject({ type: 'flow.run.completed', data: { object: 'flow_run', id: ok.body.id, flow_id: okFlow, status: 'succeeded', metadata: { batch: 'a' } } });
    expect(completed!.event.data.credits).toBeGreaterThan(0);

    const badFlow = await flowOf(`${fixtures.url}/status/500`);
    const bad = await api('POST', `/flows/${badFlow}/runs`, key(owner), { webhook: { url: hook.url } });
    expect(bad.status).toBe(202);
    const [, failed] = await waitForDeliveries(hook.path, 2);
    expectVerified(failed!);
    expect(failed!.event).toMatchObject({ type: 'flow.run.failed', data: { id: bad.body.id, status: 'failed', error: { code: 'NODE_FAILED' } } });
    expect((await waitForFlowRun(stack.baseUrl, key(owner), badFlow, bad.body.id as string)).status).toBe('failed');

    // A run without a body still starts (the body is optional); a bad webhook is a 422.
    expect((await api('POST', `/flows/${okFlow}/runs`, key(owner))).status).toBe(202);
    expect((await api('POST', `/flows/${okFlow}/runs`, key(owner), { webhook: { url: 'not a url' } })).status).toBe(422);
  });
});
