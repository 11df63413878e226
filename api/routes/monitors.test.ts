/**
 * Monitors end to end (docs/monitors.md): real API and worker processes, a file-backed Temporal
 * dev server of this file's own (its Schedules; so it can be killed and restarted on its store),
 * PostgreSQL, a fixture page the test changes between checks, and a local receiver that verifies
 * every webhook signature with the Stripe SDK's helper. Checks are driven by "check now" (the
 * schedule's action, triggered) so each one is deterministic; the crash case (the worker and the
 * Temporal server SIGKILLed between ticks) lets the schedule's own ticks run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection, ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import { freePort, listenOnLoopback } from '../../platform/free-port';
import { type RunningTemporal, startTemporalDevServer } from '../../scripts/runtime/temporal-server';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance } from '../../test/helpers/accounts';
import { testEnv } from '../../test/helpers/env';
import { type Json, call } from '../../test/helpers/http';
import { auditRunsAndLedger } from '../../test/helpers/run-ledger';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';
import { type EventReceiver, startEventReceiver } from '../../test/helpers/webhook-receiver';
import { testDataConverter } from '../../test/helpers/temporal-codec';

// Worker and Temporal restarts and several schedule ticks on a loaded machine take longer than jest's default.
jest.setTimeout(300_000);
const WAIT_MS = 90_000;

/** The page under watch: the test sets its status, its content and a timestamp that is ignored. */
const page = { status: 200, price: '10 EUR', stamp: 'Updated at 09:00:00' };
let fixture: http.Server;
let fixtureUrl: string;
let stack: Stack;
let temporalServer: RunningTemporal;
let temporalPort: number;
let dbFile: string;
let receiver: EventReceiver;
let connection: Connection;
let temporal: Client;
let owner: TestAccount;
let other: TestAccount;

const startTemporal = () => startTemporalDevServer({ cliPath: testEnv('temporalCli'), port: temporalPort, dbFile });

beforeAll(async () => {
  dbFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'monitors-')), 'temporal.db');
  temporalPort = await freePort();
  temporalServer = await startTemporal();
  fixture = http.createServer((_req, res) => {
    res.writeHead(page.status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Prices</title></head><body><main><h1>Prices</h1><p>Widget: ${page.price}</p><p>Gadget: 5 EUR</p><p class="stamp">${page.stamp}</p></main></body></html>`);
  });
  const port = await listenOnLoopback(fixture);
  fixtureUrl = `http://127.0.0.1:${port}/prices`;
  receiver = await startEventReceiver();
  stack = await startStack({
    env: {
      TEMPORAL_ADDRESS: temporalServer.address,
      MONITOR_MIN_INTERVAL_MS: '1000',
      MONITOR_MAX_PER_ACCOUNT: '3',
      WEBHOOK_RETRY_INITIAL_MS: '100',
      WEBHOOK_RETRY_MAX_INTERVAL_MS: '200',
      WEBHOOK_RETRY_WINDOW_MS: '20000',
      WEBHOOK_PRIVATE_ALLOWLIST: '127.0.0.1',
    },
  });
  connection = await Connection.connect({ address: temporalServer.address });
  temporal = new Client({ connection, dataConverter: testDataConverter() });
  [owner, other] = await Promise.all([createAccount(stack.baseUrl), createAccount(stack.baseUrl)]);
  await setBalance(stack.databaseUrl, owner.userId, 1000);
  const endpoint = await api('POST', '/api/webhooks', { cookie: owner.cookie }, { url: `${receiver.origin}/monitors`, events: ['monitor.changed', 'monitor.removed', 'monitor.failed'] });
  expect(endpoint.status).toBe(201);
  receiver.setSecret('/monitors', endpoint.body.secret as string);
});

afterAll(async () => {
  await connection?.close();
  await stack?.stop();
  await temporalServer?.stop();
  if (dbFile) rmSync(path.dirname(dbFile), { recursive: true, force: true });
  await receiver?.close();
  await new Promise((resolve) => fixture?.close(resolve));
});

const api = (method: string, path: string, headers: Record<string, string>, body?: unknown) => call(stack.baseUrl, method, path, headers, body);
const key = (a: TestAccount) => ({ 'x-api-key': a.apiKey });

async function createMonitor(body: Json): Promise<Json> {
  const created = await api('POST', '/monitors', key(owner), body);
  expect(created.status).toBe(201);
  return created.body;
}

async function checks(monitorId: string): Promise<Json[]> {
  const listed = await api('GET', `/monitors/${monitorId}/checks?limit=200`, key(owner));
  expect(listed.status).toBe(200);
  return listed.body.checks as Json[];
}

/** No check workflow open in this file's Temporal (false while it cannot answer, e.g. restarting). */
async function noCheckRunning(): Promise<boolean> {
  try {
    for await (const open of temporal.workflow.list({ query: 'WorkflowType = "monitorCheckWorkflow" AND ExecutionStatus = "Running"' })) return !open;
    return true;
  } catch {
    return false;
  }
}

/**
 * Check now, once the previous check's workflow has closed (it still emits its events after the
 * check is settled): Temporal names a triggered start by the second it is taken and drops it when
 * a workflow of that id is still open, so a check asked in the same second would be lost. Retries
 * a 503 (the API's Temporal connection coming back after a restart).
 */
async function askCheck(monitorId: string): Promise<void> {
  await waitFor('the previous check workflow closed', noCheckRunning, WAIT_MS);
  const asked = await waitFor('check now answered', async () => {
    const answer = await api('POST', `/monitors/${monitorId}/check`, key(owner));
    return answer.status === 503 ? undefined : answer;
  }, WAIT_MS);
  expect(asked.status).toBe(202);
}

/** Check now, and wait for that check to be settled (the newest of n + 1 checks). */
async function checkNow(monitorId: string): Promise<Json> {
  const before = (await checks(monitorId)).length;
  await askCheck(monitorId);
  return waitFor(
    `check ${before + 1} of ${monitorId}`,
    async () => {
      const list = await checks(monitorId);
      return list.length > before && list[0]!.status !== 'running' ? list[0] : undefined;
    },
    WAIT_MS,
  );
}

// Each test starts from an account without monitors (the limit counts them).
beforeEach(async () => {
  const listed = await api('GET', '/monitors?limit=200', key(owner));
  for (const m of listed.body.monitors as Json[]) await api('DELETE', `/monitors/${m.id}`, key(owner));
  page.status = 200;
});

const delivered = () => receiver.received.filter((d) => d.path === '/monitors' && d.answered === 200);

describe('checks of a monitor', () => {
  it('reports new, same (an ignored timestamp changed), changed with its diff, then removed; each event once, signed, in order', async () => {
    const startBalance = await balanceOf(stack.databaseUrl, owner.userId);
    const monitor = await createMonitor({
      name: 'prices',
      request: { url: fixtureUrl },
      schedule: { every: '1h' },
      compare: 'markdown',
      ignore: { patterns: ['Updated at [0-9:]+'] },
    });
    expect(monitor).toMatchObject({ name: 'prices', compare: 'markdown', paused: false, scheduleId: `monitor-${monitor.id}`, lastCheck: null });

    // The operator's view: the schedule, its overlap policy, the account as a search attribute.
    const described = await temporal.schedule.getHandle(`monitor-${monitor.id}`).describe();
    expect(described.policies.overlap).toBe(ScheduleOverlapPolicy.SKIP);
    expect(described.spec.intervals?.[0]?.every).toBe(3_600_000);
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'monitorCheckWorkflow' });
    expect(described.typedSearchAttributes.getAll().find((p) => p.key.name === 'AccountId')?.value).toBe(owner.userId);

    const first = await checkNow(monitor.id as string);
    expect(first).toMatchObject({ status: 'new', httpStatus: 200, diff: null });

    page.stamp = 'Updated at 09:05:17';
    const same = await checkNow(monitor.id as string);
    expect(same).toMatchObject({ status: 'same', diff: null });

    page.price = '12 EUR';
    const changed = await checkNow(monitor.id as string);
    expect(changed).toMatchObject({ status: 'changed', diff: { added: 1, removed: 1 } });
    const lines = ((changed.diff as Json).markdown as string).split('\n');
    expect(lines).toEqual(expect.arrayContaining(['-Widget: 10 EUR', '+Widget: 12 EUR', ' Gadget: 5 EUR']));
    expect(lines.filter((l) => /^[-+]Updated/.test(l))).toEqual([]);
    const alone = await api('GET', `/monitors/${monitor.id}/checks/${changed.id}/diff`, key(owner));
    expect(alone.status).toBe(200);
    expect(alone.body).toEqual({ checkId: changed.id, monitorId: monitor.id, status: 'changed', diff: changed.diff });
    expect((await api('GET', `/monitors/${monitor.id}/checks/${changed.id}/diff`, key(other))).status).toBe(403);

    page.status = 404;
    expect(await checkNow(monitor.id as string)).toMatchObject({ status: 'removed', httpStatus: 404 });

    // Two events: the change (with its diff) and the removal, each once, signed, in order.
    const events = await waitFor('two monitor events', () => Promise.resolve(delivered().length >= 2 ? delivered() : undefined), WAIT_MS);
    expect(events.map((d) => d.event.type)).toEqual(['monitor.changed', 'monitor.removed']);
    for (const d of events) expect(d.verified).toBe(true);
    expect(events[0]!.event.data).toMatchObject({ id: changed.id, monitor_id: monitor.id, status: 'changed', diff: changed.diff, diff_truncated: false, previous_check_id: same.id });
    expect(new Set(events.map((d) => d.event.id)).size).toBe(2);

    // Each check is one scrape, debited once (1 credit), none refunded.
    const listed = await checks(monitor.id as string);
    expect(listed.map((c) => c.status)).toEqual(['removed', 'changed', 'same', 'new']);
    const ledger = await ledgerOf(stack.databaseUrl, owner.userId);
    for (const check of listed) expect(ledger.filter((row) => row.runId === check.scrapeRunId).map((row) => row.reason)).toEqual(['debit']);
    expect(await balanceOf(stack.databaseUrl, owner.userId)).toBe(startBalance - 4);

    // The account's notifications list them too.
    const notes = await api('GET', '/api/notifications', { cookie: owner.cookie });
    expect((notes.body.notifications as Json[]).map((n) => n.type)).toEqual(expect.arrayContaining(['monitor.changed', 'monitor.removed']));

    const got = await api('GET', `/monitors/${monitor.id}`, key(owner));
    expect(got.body).toMatchObject({ id: monitor.id, lastCheck: { status: 'removed' } });
    await api('DELETE', `/monitors/${monitor.id}`, key(owner));
    page.status = 200;
  });
});

describe('the Temporal Schedule of a monitor', () => {
  it('reflects pause, resume, a new interval and deletion; refuses what breaks the rules', async () => {
    const monitor = await createMonitor({ name: 'lifecycle', request: { url: fixtureUrl }, schedule: { every: '2h' } });
    const handle = temporal.schedule.getHandle(`monitor-${monitor.id}`);
    expect((await handle.describe()).state.paused).toBe(false);

    expect((await api('POST', `/monitors/${monitor.id}/pause`, key(owner))).body).toMatchObject({ paused: true });
    expect((await handle.describe()).state).toMatchObject({ paused: true });
    expect((await api('POST', `/monitors/${monitor.id}/resume`, key(owner))).body).toMatchObject({ paused: false });
    expect((await handle.describe()).state.paused).toBe(false);

    const patched = await api('PATCH', `/monitors/${monitor.id}`, key(owner), { schedule: { every: '3h' }, name: 'renamed' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'renamed', schedule: { every: '3h' } });
    expect((await handle.describe()).spec.intervals?.[0]?.every).toBe(3 * 3_600_000);

    expect((await api('POST', `/monitors/${monitor.id}/pause`, key(other))).status).toBe(403);
    expect((await api('PATCH', `/monitors/${monitor.id}`, key(owner), { schedule: { every: '1s' }, compare: 'data' })).body).toMatchObject({ code: 'VALIDATION_FAILED' });
    // A cron schedule in its time zone (Temporal keeps it as a calendar).
    const cron = await createMonitor({ name: 'cron', request: { url: fixtureUrl }, schedule: { cron: '*/5 * * * *', timezone: 'Europe/Paris' } });
    const cronSpec = (await temporal.schedule.getHandle(`monitor-${cron.id}`).describe()).spec;
    expect(cronSpec.timezone).toBe('Europe/Paris');
    expect(cronSpec.calendars).toHaveLength(1);

    // The limit (3 per account in this stack): a fourth is refused in the error body's shape, and no schedule is left for it.
    expect((await api('POST', '/monitors', key(owner), { name: 'x', request: { url: fixtureUrl }, schedule: { every: '1h' } })).status).toBe(201);
    const refused = await api('POST', '/monitors', key(owner), { name: 'y', request: { url: fixtureUrl }, schedule: { every: '1h' } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ statusCode: 409, code: 'MONITOR_LIMIT_REACHED' });

    expect((await api('DELETE', `/monitors/${monitor.id}`, key(owner))).status).toBe(204);
    await expect(handle.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    expect((await api('GET', `/monitors/${monitor.id}`, key(owner))).status).toBe(404);
    const listed = await api('GET', '/monitors', key(owner));
    for (const m of listed.body.monitors as Json[]) await api('DELETE', `/monitors/${m.id}`, key(owner));
    expect((await api('GET', '/monitors', key(owner))).body.monitors).toEqual([]);
  });
});

describe('the worker and the Temporal server killed between ticks', () => {
  it('the schedule goes on; no tick is charged twice and each change is reported once', async () => {
    page.price = '20 EUR';
    const before = delivered().length;
    const monitor = await createMonitor({ name: 'ticks', request: { url: fixtureUrl }, schedule: { every: '2s' } });
    const id = monitor.id as string;
    const handle = temporal.schedule.getHandle(`monitor-${id}`);
    // Describing waits out the test's own connection coming back after the restart.
    const describe = () => handle.describe().catch(() => undefined);
    // The schedule's own ticks: a first check.
    await waitFor('a first scheduled check', async () => (await checks(id)).find((c) => c.status === 'new'), WAIT_MS);

    // Crash both between ticks: the worker, then the Temporal server (its file-backed store kept).
    await stack.killWorker();
    const actionsAtKill = (await handle.describe()).info.numActionsTaken;
    temporalServer.process.kill('SIGKILL');
    await new Promise((resolve) => temporalServer.process.once('exit', resolve));
    page.price = '21 EUR';
    temporalServer = await startTemporal();

    // The schedule survived the restart as it was, and ticks go on without a worker (the check
    // started waits for one; SKIP skips the rest meanwhile).
    const after = await waitFor('the schedule described after the restart', describe, WAIT_MS);
    expect(after.state.paused).toBe(false);
    expect(after.spec.intervals?.[0]?.every).toBe(2000);
    expect(after.action).toMatchObject({ type: 'startWorkflow', workflowType: 'monitorCheckWorkflow' });
    await waitFor('a tick after the restart, while the worker is down', async () => ((await describe())?.info.numActionsTaken ?? 0) > actionsAtKill, WAIT_MS);
    await stack.startWorker();

    const found = await waitFor('the change found after the restarts', async () => (await checks(id)).find((c) => c.status === 'changed'), WAIT_MS);
    expect(((found.diff as Json).markdown as string).split('\n')).toEqual(expect.arrayContaining(['-Widget: 20 EUR', '+Widget: 21 EUR']));
    // A tick taken by the restarted server itself (the count it read back from its store grows).
    await waitFor('a tick of the restarted server', async () => ((await describe())?.info.numActionsTaken ?? 0) > after.info.numActionsTaken, WAIT_MS);
    await api('POST', `/monitors/${id}/pause`, key(owner));
    await waitFor('no check running', async () => (await handle.describe()).info.runningActions.length === 0 && !(await checks(id)).some((c) => c.status === 'running'), WAIT_MS);

    // A check asked after the restarts runs through the route.
    page.price = '22 EUR';
    const checked = await checkNow(id);
    expect(checked).toMatchObject({ status: 'changed' });
    expect(((checked.diff as Json).markdown as string).split('\n')).toEqual(expect.arrayContaining(['-Widget: 21 EUR', '+Widget: 22 EUR']));

    const all = await checks(id);
    expect(all.filter((c) => c.status === 'changed').map((c) => c.id)).toEqual([checked.id, found.id]);
    expect(all.filter((c) => c.status === 'new')).toHaveLength(1);
    const ledger = await ledgerOf(stack.databaseUrl, owner.userId);
    for (const check of all) {
      const rows = ledger.filter((row) => row.runId === check.scrapeRunId).map((row) => row.reason);
      // A succeeded check's scrape is debited once; a failed one is refunded once.
      expect(check.status === 'failed' ? rows.sort() : rows).toEqual(check.status === 'failed' ? ['debit', 'refund'] : ['debit']);
    }
    // The account's whole ledger against its runs: nothing debited twice, no debit without its run.
    const audit = await auditRunsAndLedger(stack.databaseUrl, owner.userId, all.flatMap((c) => (c.scrapeRunId ? [c.scrapeRunId as string] : [])));
    expect({ missing: audit.missing, doubleDebits: audit.doubleDebits, debitsWithoutRun: audit.debitsWithoutRun, wrongRefunds: audit.wrongRefunds }).toEqual({ missing: [], doubleDebits: [], debitsWithoutRun: [], wrongRefunds: [] });

    // Each change reported once, in order: one monitor.changed per changed check.
    const mine = () => delivered().slice(before).filter((d) => (d.event.data as Json).monitor_id === id);
    const changeEvents = await waitFor('both changes delivered', () => Promise.resolve(mine().length >= 2 ? mine() : undefined), WAIT_MS);
    expect(changeEvents.map((d) => [d.event.type, (d.event.data as Json).id])).toEqual([
      ['monitor.changed', found.id],
      ['monitor.changed', checked.id],
    ]);
    for (const d of changeEvents) expect(d.verified).toBe(true);
    await api('DELETE', `/monitors/${id}`, key(owner));
  });
});

describe('the changeTracking format of one-off scrapes', () => {
  it('compares with the account\'s previous scrape of the URL: new, same, changed with its diff, removed; Firecrawl\'s field too', async () => {
    const url = fixtureUrl.replace('/prices', '/tracked');
    page.price = '30 EUR';
    const scrape = async () => {
      const answer = await api('POST', '/webhook/unblocker', key(owner), { url, formats: ['markdown', 'changeTracking'] });
      expect(answer.status).toBe(200);
      return answer.body.changeTracking as Json;
    };
    expect(await scrape()).toEqual({ changeStatus: 'new', previousScrapeAt: null, diff: null });
    const same = await scrape();
    expect(same).toMatchObject({ changeStatus: 'same', diff: null });
    expect(typeof same.previousScrapeAt).toBe('string');

    page.price = '31 EUR';
    const changed = await scrape();
    expect(changed.changeStatus).toBe('changed');
    expect((changed.diff as string).split('\n')).toEqual(expect.arrayContaining(['-Widget: 30 EUR', '+Widget: 31 EUR']));

    // Without markdown it is refused, naming the rule.
    expect((await api('POST', '/webhook/unblocker', key(owner), { url, formats: ['changeTracking'] })).body).toMatchObject({ statusCode: 400, code: 'BAD_REQUEST' });

    // The Firecrawl-compatible scrape: Firecrawl's field, the diff in git-diff mode.
    page.price = '32 EUR';
    const firecrawl = await api('POST', '/v2/scrape', { authorization: `Bearer ${owner.apiKey}` }, { url, formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }] });
    expect(firecrawl.status).toBe(200);
    const tracking = (firecrawl.body.data as Json).changeTracking as Json;
    expect(tracking).toMatchObject({ changeStatus: 'changed', visibility: 'visible', previousScrapeAt: expect.any(String) });
    expect(((tracking.diff as Json).text as string).split('\n')).toEqual(expect.arrayContaining(['-Widget: 31 EUR', '+Widget: 32 EUR']));

    page.status = 404;
    expect(await scrape()).toMatchObject({ changeStatus: 'removed', diff: null });
  });
});
