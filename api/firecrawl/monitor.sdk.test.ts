/**
 * Firecrawl's monitors (docs/firecrawl.md "Monitors") driven by the official SDKs, unchanged:
 * firecrawl-py 4.55.0 (`create_monitor`, `list_monitors`, `get_monitor`, `update_monitor`,
 * `run_monitor`, `list_monitor_checks`, `get_monitor_check`, `delete_monitor`) and
 * @mendable/firecrawl-js 4.42.0 (the same in camelCase), against real API and worker processes,
 * Temporal (the monitor's Schedule) and PostgreSQL; each check scrapes a local fixture page the
 * test changes, and its `monitor.changed` event reaches the webhook the monitor was created with.
 * The ledger: each check is its scrape's price; refused requests cost nothing and leave nothing.
 */
import http from 'node:http';
import Firecrawl from '@mendable/firecrawl-js';
import { listenOnLoopback } from '../../platform/free-port';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance, sql } from '../../test/helpers/accounts';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';
import { type EventReceiver, startEventReceiver } from '../../test/helpers/webhook-receiver';
import { type PyCall, type PyOutcome, firecrawlPython } from '../../test/helpers/firecrawl-py';

jest.setTimeout(600_000);

const START = 1000;
/** Once a year: no tick of the schedule comes during the test, every check is asked. */
const YEARLY = '0 0 1 1 *';

const page = { price: '10 EUR' };
let fixture: http.Server;
let pageUrl: string;
let receiver: EventReceiver;
let stack: Stack;
let account: TestAccount;
let runPy: (call: PyCall) => Promise<PyOutcome>;

beforeAll(async () => {
  runPy = firecrawlPython();
  fixture = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Prices</title></head><body><main><h1>Prices</h1><p>Widget: ${page.price}</p></main></body></html>`);
  });
  pageUrl = `http://127.0.0.1:${await listenOnLoopback(fixture)}/prices`;
  receiver = await startEventReceiver();
  stack = await startStack({ env: { MONITOR_MIN_INTERVAL_MS: '120000', WEBHOOK_PRIVATE_ALLOWLIST: '127.0.0.1', WEBHOOK_RETRY_INITIAL_MS: '100', WEBHOOK_RETRY_MAX_INTERVAL_MS: '200' } });
  account = await createAccount(stack.baseUrl);
}, 600_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  await new Promise((resolve) => fixture?.close(resolve));
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, account.userId, START);
});

/** One call of the Python SDK (test/firecrawl/py_sdk.py), its outcome parsed. */
function py(method: string, args: unknown[], kwargs: Record<string, unknown> = {}): Promise<PyOutcome> {
  return runPy({ apiUrl: stack.baseUrl, apiKey: account.apiKey, client: 'v2', method, args, kwargs });
}

const js = () => new Firecrawl({ apiKey: account.apiKey, apiUrl: stack.baseUrl });
const monitorCount = async () => Number((await sql<{ n: string }>(stack.databaseUrl, 'SELECT count(*) AS n FROM monitor WHERE "userId" = $1', [account.userId]))[0]!.n);
const runCost = async (checkId: string) =>
  (await sql<{ cost: number; status: string }>(stack.databaseUrl, 'SELECT r.cost, r.status FROM monitor_check c JOIN scrape_run r ON r.id = c."scrapeRunId" WHERE c.id = $1', [checkId]))[0]!;

/** The check settled, read with the Python SDK's get_monitor_check. */
async function settledCheck(monitorId: string, checkId: string) {
  return waitFor(`check ${checkId} settled`, async () => {
    const out = await py('get_monitor_check', [monitorId, checkId]);
    expect(out.ok).toBe(true);
    return out.value.status !== 'running' && out.value.status !== 'queued' ? out.value : undefined;
  }, 180_000);
}

describe('monitors through both SDKs', () => {
  it('create, list, get, run (new, then changed with a diff and its webhook), checks, update, delete; each check is its scrape’s price', async () => {
    page.price = '10 EUR';
    const created = await py('create_monitor', ['prices', { cron: YEARLY, timezone: 'Europe/Paris' }, [{ type: 'scrape', urls: [pageUrl], scrapeOptions: { formats: ['markdown'] } }]], {
      webhook: { url: `${receiver.origin}/fc-monitor`, events: ['monitor.page'] },
    });
    expect(created).toMatchObject({ ok: true, type: 'Monitor', value: { name: 'prices', status: 'active', schedule: { cron: YEARLY, timezone: 'Europe/Paris' }, retention_days: 30 } });
    const id = created.value.id as string;
    expect(created.value.targets).toEqual([{ id, type: 'scrape', urls: [pageUrl] }]);
    expect(created.value.webhook).toMatchObject({ url: `${receiver.origin}/fc-monitor` });
    expect(created.value.next_run_at).toMatch(/^\d{4}-(12-31|01-01)T/);
    // Our monitor behind it, with its Schedule.
    const native = await (await fetch(`${stack.baseUrl}/monitors/${id}`, { headers: { 'x-api-key': account.apiKey } })).json();
    expect(native).toMatchObject({ id, scheduleId: `monitor-${id}`, compare: 'markdown', request: { url: pageUrl }, schedule: { cron: YEARLY, timezone: 'Europe/Paris' } });

    expect((await js().listMonitors()).map((m) => m.id)).toEqual([id]);
    expect((await py('list_monitors', [], { limit: 10, offset: 0 })).value.map((m: { id: string }) => m.id)).toEqual([id]);
    expect((await py('list_monitors', [], { limit: 10, offset: 1 })).value).toEqual([]);
    expect(await js().getMonitor(id)).toMatchObject({ id, name: 'prices', status: 'active', lastCheckSummary: null });

    // First check (Python): "new".
    const run1 = await py('run_monitor', [id]);
    expect(run1).toMatchObject({ ok: true, type: 'MonitorCheck', value: { monitor_id: id, trigger: 'manual' } });
    const first = await settledCheck(id, run1.value.id as string);
    expect(first).toMatchObject({ status: 'completed', billing_status: 'confirmed', summary: { total_pages: 1, new: 1 } });
    expect(first.pages).toEqual([expect.objectContaining({ target_id: id, url: pageUrl, status: 'new', status_code: 200 })]);

    // Second check (JS) after the page changed: "changed", with the unified diff.
    page.price = '12 EUR';
    const run2 = await js().runMonitor(id);
    expect(run2).toMatchObject({ monitorId: id, trigger: 'manual' });
    await settledCheck(id, run2.id);
    const second = await js().getMonitorCheck(id, run2.id);
    expect(second).toMatchObject({ status: 'completed', summary: { totalPages: 1, changed: 1 } });
    expect(second.pages[0]).toMatchObject({ status: 'changed', url: pageUrl });
    expect(second.pages[0]!.diff?.text).toContain('+Widget: 12 EUR');
    expect(second.pages[0]!.diff?.text).toContain('-Widget: 10 EUR');
    expect((await js().getMonitorCheck(id, run2.id, { status: 'same' })).pages).toEqual([]);

    // The change reached the monitor's webhook (our monitor.changed event, signed).
    const delivered = await waitFor('monitor.changed delivered', () => Promise.resolve(receiver.received.find((d) => d.path === '/fc-monitor' && d.answered === 200)));
    expect(JSON.parse(delivered.body)).toMatchObject({ type: 'monitor.changed', data: { monitor_id: id, status: 'changed', url: pageUrl } });

    // The checks, newest first, in both SDKs.
    expect((await js().listMonitorChecks(id)).map((c) => c.id)).toEqual([run2.id, run1.value.id]);
    const listed = await py('list_monitor_checks', [id], { limit: 1, offset: 1 });
    expect(listed.value.map((c: { id: string }) => c.id)).toEqual([run1.value.id]);

    // Each check cost its scrape's price, once.
    const costs = [await runCost(run1.value.id as string), await runCost(run2.id)];
    expect(costs.every((c) => c.status === 'succeeded' && c.cost > 0)).toBe(true);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START - costs[0]!.cost - costs[1]!.cost);

    // Update: paused, a text schedule, a new name.
    const paused = await py('update_monitor', [id], { status: 'paused', schedule: { text: 'every 30 minutes' } });
    expect(paused).toMatchObject({ ok: true, value: { status: 'paused', schedule: { cron: '*/30 * * * *', timezone: 'UTC' }, next_run_at: null } });
    expect(await js().updateMonitor(id, { name: 'prices (EU)', status: 'active' })).toMatchObject({ name: 'prices (EU)', status: 'active', schedule: { cron: '*/30 * * * *' } });

    // Delete: gone for both SDKs (404 in Firecrawl's shape).
    expect(await js().deleteMonitor(id)).toBe(true);
    const gone = await py('get_monitor', [id]);
    expect(gone).toMatchObject({ ok: false, status: 404 });
    await expect(js().getMonitor(id)).rejects.toMatchObject({ status: 404 });
    expect(await monitorCount()).toBe(0);
  });

  it('bad input: a Firecrawl-shaped 400 naming the field, nothing created and nothing charged', async () => {
    const ledgerBefore = (await ledgerOf(stack.databaseUrl, account.userId)).length;
    const scrape = (urls: string[]) => [{ type: 'scrape', urls }];
    const cases: Array<[string, PyOutcome, RegExp]> = [
      ['two URLs', await py('create_monitor', ['m', { cron: YEARLY }, scrape([pageUrl, `${pageUrl}?b`])]), /one URL/],
      ['a crawl target', await py('create_monitor', ['m', { cron: YEARLY }, [{ type: 'crawl', url: pageUrl }]]), /type "crawl" is not supported/],
      ['a schedule not understood', await py('create_monitor', ['m', { text: 'now and then' }, scrape([pageUrl])]), /schedule.text/],
      ['a cron of three fields', await py('create_monitor', ['m', { cron: '* * *' }, scrape([pageUrl])]), /five fields/],
      ['a cron more often than the minimum', await py('create_monitor', ['m', { cron: '* * * * *' }, scrape([pageUrl])]), /more often/],
      ['an unknown format', await py('create_monitor', ['m', { cron: YEARLY }, [{ type: 'scrape', urls: [pageUrl], scrapeOptions: { formats: ['video'] } }]]), /formats\[0\]/],
      ['a URL that is none', await py('create_monitor', ['m', { cron: YEARLY }, scrape(['not a url'])]), /url/i],
      ['e-mail notifications', await py('create_monitor', ['m', { cron: YEARLY }, scrape([pageUrl])], { notification: { email: { enabled: true, recipients: ['a@example.com'] } } }), /notification.email/],
    ];
    for (const [what, outcome, message] of cases) {
      expect({ what, ok: outcome.ok, status: outcome.status }).toEqual({ what, ok: false, status: 400 });
      expect({ what, message: outcome.message }).toEqual({ what, message: expect.stringMatching(message) });
    }
    // The JS SDK sees the same 400, in Firecrawl's body.
    const raw = await fetch(`${stack.baseUrl}/v2/monitor`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'm', schedule: { cron: YEARLY }, targets: [{ type: 'search', queries: ['x'] }] }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ success: false, code: 'BAD_REQUEST', error: expect.stringContaining('type "search"') });
    await expect(js().createMonitor({ name: 'm', schedule: { cron: YEARLY }, targets: [{ type: 'scrape', urls: [] }] })).rejects.toMatchObject({ status: 400 });
    // Unknown monitor: 404; no key: 401.
    expect(await py('run_monitor', ['00000000-0000-4000-8000-000000000000'])).toMatchObject({ ok: false, status: 404 });
    expect((await fetch(`${stack.baseUrl}/v2/monitor`)).status).toBe(401);

    expect(await monitorCount()).toBe(0);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START);
    expect((await ledgerOf(stack.databaseUrl, account.userId)).length).toBe(ledgerBefore);
  });
});
