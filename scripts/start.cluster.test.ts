/**
 * Issue 14, the production topology on one machine, for real: `npm start -- --topology=cluster`
 * (scripts/start.ts) with a DATA_DIR of its own on free ports: embedded PostgreSQL, the official
 * Temporal server on it (schemas set up by temporal-sql-tool), its UI server, 2 API replicas
 * behind the balancer on PORT, 2 http workers and 1 browser worker. Against it, as a client:
 *   - http scrapes through each replica and through the entry point, a browser scrape, a flow run
 *     (scrape → foreach → delay → webhook), each debited once;
 *   - the runs are found in the server's SQL visibility by their search attributes;
 *   - an http worker and an API replica SIGKILLed: scrapes through the entry point keep
 *     succeeding meanwhile, and the supervisor brings both back;
 *   - SIGTERM stops everything, nothing left running.
 * Booted by test/helpers/cluster.ts: the Go binaries are built once into the clone's <DATA_DIR>/bin
 * (as `npm start` would), and the test's data folder links to them.
 */
import { readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { Agent, request } from 'undici';
import { type FixtureServer, startFixtureServer } from '../test/fixtures/server';
import { type TestAccount, createAccount, ledgerOf, sql } from '../test/helpers/accounts';
import { type RunningCluster, startCluster } from '../test/helpers/cluster';
import { type WebhookReceiver, fourNodeFlow, nodeOf, startWebhookReceiver, waitForFlowRun } from '../test/helpers/flows';
import { type Json, call, testFetch, useOwnConnections } from '../test/helpers/http';
import { testDataConverter } from '../test/helpers/temporal-codec';

/** How long any one condition may take on a loaded 2-core machine before the test gives up. */
const PATIENCE_MS = 240_000;

/** The process has exited: gone, or a zombie its parent has not reaped yet (its sockets are closed either way). */
function exited(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return /^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return true;
  }
}

describe('npm start -- --topology=cluster (issue 14)', () => {
  let cluster: RunningCluster | undefined;
  let fixture: FixtureServer | undefined;
  let receiver: WebhookReceiver | undefined;

  // Through the TCP balancer a pooled keep-alive connection can be closed by its replica just as
  // the next request goes out on it ("other side closed"): every request here gets its own.
  beforeAll(() => useOwnConnections(true));

  afterAll(async () => {
    await useOwnConnections(false);
    await cluster?.stop();
    await fixture?.close();
    await receiver?.close();
  });

  it('serves scrapes and flows through both API replicas on the Temporal server, rides through a killed worker and replica, and stops cleanly', async () => {
    fixture = await startFixtureServer();
    receiver = await startWebhookReceiver();
    const startedAt = Date.now();
    // The Go binaries are built once into the clone's <DATA_DIR>/bin; a data folder of its own links to them.
    cluster = await startCluster({ log: (line) => console.log(line) });
    const c = cluster;
    const { baseUrl, databaseUrl } = c;
    const waitFor = c.waitFor;
    const processOf = c.processOf;
    const readyMs = Date.now() - startedAt;
    const status = await c.view();
    expect(status?.status).toBe('ready');
    expect(status?.processes.map((p) => [p.name, p.state])).toEqual([
      ['postgres', 'running'],
      ['temporal', 'running'],
      ['temporal-ui', 'running'],
      ['worker-http-1', 'running'],
      ['worker-http-2', 'running'],
      ['worker-browser', 'running'],
      ['api-1', 'running'],
      ['api-2', 'running'],
    ]);
    // The official server, not the dev server: its own binary, on PostgreSQL, no start-dev anywhere.
    const temporalPid = status!.processes.find((p) => p.name === 'temporal')!.pid!;
    expect(readFileSync(`/proc/${temporalPid}/cmdline`, 'utf8')).toContain('temporal-server-v1.29.1');
    const adminUrl = new URL(databaseUrl);
    adminUrl.pathname = '/postgres';
    const databases = (await sql<{ datname: string }>(adminUrl.toString(), "SELECT datname FROM pg_database WHERE datname LIKE 'temporal%' ORDER BY 1")).map((r) => r.datname);
    expect(databases).toEqual(['temporal', 'temporal_visibility']);
    expect((await testFetch(`${c.temporalUiUrl}/`)).status).toBe(200);
    // Its probes answer within 2 s, which a loaded machine can miss once: ready is a state to reach.
    const apiReady = await waitFor('the API was not ready', async () => {
      const answer = await call(baseUrl, 'GET', '/readyz', {}).catch(() => undefined);
      return answer?.status === 200 ? answer : undefined;
    });
    expect(apiReady.body).toEqual({ status: 'ready', checks: { database: 'ok', temporal: 'ok', 'worker-http-1': 'ok', 'worker-http-2': 'ok', 'worker-browser': 'ok' } });

    const account: TestAccount = await createAccount(baseUrl);
    const key = { 'x-api-key': account.apiKey };
    const scrape = (url: string, body: Json) => call(url, 'POST', '/webhook/unblocker', key, body);

    // http scrapes through each replica directly and through the entry point, at once.
    const targets = [...c.replicaUrls, baseUrl, baseUrl, baseUrl, baseUrl];
    const answers = await Promise.all(targets.map((url, i) => scrape(url, { url: `${fixture!.url}/page/${i + 1}`, selectors: ['h1'] })));
    for (const [i, answer] of answers.entries()) {
      expect(answer.status).toBe(200);
      expect(answer.body.data[0].results[0].text).toBe(`Page ${i + 1}`);
    }
    // A browser scrape: the browser worker's queue.
    const browser = await scrape(baseUrl, { url: `${fixture.url}/js-rendered?delay=100`, mode: 'browser', wait_for: '#rendered', selectors: ['#rendered'] });
    expect(browser.status).toBe(200);
    expect(browser.body.data[0].results[0].text).toBe('Rendered by JavaScript');

    // A flow run: scrape → foreach over the links → delay → webhook.
    const flow = await call(baseUrl, 'POST', '/flows', key, fourNodeFlow(fixture.url, receiver.url, { links: 3 }));
    expect(flow.status).toBe(201);
    const started = await call(baseUrl, 'POST', `/flows/${flow.body.id}/runs`, key);
    expect(started.status).toBe(202);
    const run = await waitForFlowRun(baseUrl, key, flow.body.id as string, started.body.id as string, undefined, PATIENCE_MS);
    expect(run.status).toBe('succeeded');
    expect(nodeOf(run, 'list')).toMatchObject({ status: 'succeeded', credits: 1 });
    await waitFor('the flow webhook was not received', () => receiver!.received.length === 1);
    expect((receiver.received[0]!.nodes.pages.items as Json[]).map((i) => i.data[0].results[0].text)).toEqual(['Page 1', 'Page 2', 'Page 3']);

    // The server's SQL visibility answers queries on the registered search attributes.
    const connection = await Connection.connect({ address: c.temporalAddress });
    try {
      const client = new Client({ connection, dataConverter: testDataConverter() });
      const runId = answers[0]!.body.id as string;
      // A run's row names its workflow (a lane lists its runs in its history, not in a search attribute).
      const workflowId = (await sql<{ workflowId: string }>(databaseUrl, 'SELECT "workflowId" FROM scrape_run WHERE id = $1', [runId]))[0]!.workflowId;
      const found = await waitFor('a scrape run\'s workflow was not found by AccountId', async () => {
        const ids: string[] = [];
        for await (const execution of client.workflow.list({ query: `WorkflowId = "${workflowId}" AND AccountId = "${account.userId}"` })) ids.push(execution.workflowId);
        return ids.length > 0 ? ids : undefined;
      });
      expect(found).toEqual([workflowId]);
      const flowRuns: string[] = [];
      for await (const execution of client.workflow.list({ query: `FlowId = "${String(flow.body.id)}" AND AccountId = "${account.userId}"` })) flowRuns.push(execution.workflowId);
      expect(flowRuns).toContain(`flow-${String(flow.body.id)}-${String(started.body.id)}`);
    } finally {
      await connection.close();
    }

    // SIGKILL an http worker and an API replica; scrapes through the entry point go on meanwhile.
    const worker = (await processOf('worker-http-1'))!;
    const replica = (await processOf('api-1'))!;
    process.kill(worker.pid!, 'SIGKILL');
    process.kill(replica.pid!, 'SIGKILL');
    // A signal takes effect asynchronously: a connection the dying replica still accepted would be
    // closed under its request ("other side closed"). The outage below starts once both are gone.
    await waitFor('the killed processes did not exit', () => exited(worker.pid!) && exited(replica.pid!));
    const duringOutage: number[] = [];
    let n = 100;
    const back = async () => {
      const [w, r] = await Promise.all([processOf('worker-http-1'), processOf('api-1')]);
      return w?.state === 'running' && w.pid !== worker.pid && r?.state === 'running' && r.pid !== replica.pid ? { w, r } : undefined;
    };
    // Each on a connection of its own: the balancer picks a replica per connection, and a pooled
    // keep-alive connection that went to the killed replica dies with it (docs/operations.md).
    // fetch ignores a `connection: close` header and pools: a fresh agent per scrape, closed after.
    // A connection can still be cut under its request (a replica going down or coming up as it
    // arrives): the client then does what the spec's retry policy and Idempotency-Key are for —
    // it sends the same request again under the same key (bounded), and the ledger check below
    // shows no scrape was run or debited twice. The cuts are counted and printed.
    let cut = 0;
    const scrapeOnItsOwnConnection = async (body: Json, idempotencyKey: string): Promise<number> => {
      for (let attempt = 1; ; attempt++) {
        const agent = new Agent();
        try {
          const res = await request(`${baseUrl}/webhook/unblocker`, {
            method: 'POST',
            dispatcher: agent,
            headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey, ...key },
            body: JSON.stringify(body),
          });
          await res.body.text();
          return res.statusCode;
        } catch (error) {
          if (attempt >= 3) throw new Error(`POST ${baseUrl}/webhook/unblocker (key ${idempotencyKey}) failed ${attempt} times: ${String(error)}`, { cause: error });
          cut++;
        } finally {
          await agent.close();
        }
      }
    };
    const restarted = await waitFor('the killed worker and replica did not come back', async () => {
      const page = n++;
      duringOutage.push(await scrapeOnItsOwnConnection({ url: `${fixture!.url}/page/${page}`, selectors: ['h1'] }, `outage-${page}`));
      return back();
    });
    expect(restarted.w.restarts).toBe(1);
    expect(restarted.r.restarts).toBe(1);
    expect(duringOutage.length).toBeGreaterThan(0);
    expect(duringOutage.filter((s) => s !== 200)).toEqual([]);
    // Both replicas answer again, each directly.
    for (const url of c.replicaUrls) expect((await scrape(url, { url: `${fixture.url}/page/7`, selectors: ['h1'] })).status).toBe(200);

    // The ledger: every scrape run (the flow's included) succeeded and was debited exactly once.
    const runs = await sql<{ id: string; status: string }>(databaseUrl, 'SELECT id, status::text AS status FROM scrape_run');
    expect(runs.filter((r) => r.status !== 'succeeded')).toEqual([]);
    const ledger = await ledgerOf(databaseUrl, account.userId);
    for (const r of runs) expect(ledger.filter((row) => row.runId === r.id).map((row) => row.reason)).toEqual(['debit']);
    expect(ledger.filter((row) => row.reason !== 'grant' && row.reason !== 'debit')).toEqual([]);
    const balance = (await sql<{ creditBalance: number }>(databaseUrl, 'SELECT "creditBalance" FROM "user" WHERE id = $1', [account.userId]))[0]!.creditBalance;
    expect(ledger.reduce((sum, row) => sum + row.amount, 0)).toBe(balance);

    console.log(
      `cluster topology: ready ${(readyMs / 1000).toFixed(1)} s after start; ${answers.length + 1} scrapes and a 4-node flow run; ` +
        `${duringOutage.length} scrapes through the entry point while worker-http-1 and api-1 were restarted, all 200 (${cut} connections cut under a request and sent again under their Idempotency-Key)`,
    );

    const stopped = await c.stop();
    expect(stopped.code).toBe(0);
    expect(c.tail()).toContain('[start] stopped');
    // Nothing it started outlives it (the servers are detached: each is stopped, not orphaned).
    expect(stopped.leftover).toEqual([]);
  }, 900_000);
});
