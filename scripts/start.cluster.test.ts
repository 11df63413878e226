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
 * The Go binaries are built once into the clone's <DATA_DIR>/bin (as `npm start` would), and the
 * test's data folder links to them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { parseConfig } from '../lib/config';
import { freePort } from '../lib/runtime/free-port';
import { embeddedDatabaseUrl } from '../lib/runtime/postgres';
import { ensureClusterBinaries } from '../lib/runtime/temporal-cluster';
import { type FixtureServer, startFixtureServer } from '../test/fixtures/server';
import { type TestAccount, createAccount, ledgerOf, sql } from '../test/helpers/accounts';
import { type WebhookReceiver, fourNodeFlow, nodeOf, startWebhookReceiver, waitForFlowRun } from '../test/helpers/flows';
import { type Json, call } from '../test/helpers/http';
import { npmStartEnv, processesMentioning, watchOutput } from '../test/helpers/processes';

/** How long any one condition may take on a loaded 2-core machine before the test gives up. */
const PATIENCE_MS = 240_000;

interface ProcessView {
  name: string;
  state: string;
  pid?: number;
  restarts: number;
}

describe('npm start -- --topology=cluster (issue 14)', () => {
  let supervisor: ChildProcess | undefined;
  let fixture: FixtureServer | undefined;
  let receiver: WebhookReceiver | undefined;
  let dataDir = '';
  const output: string[] = [];
  const tail = () => output.join('').slice(-6000);

  async function waitFor<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = PATIENCE_MS): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (supervisor && (supervisor.exitCode !== null || supervisor.signalCode !== null)) throw new Error(`${what}: the supervisor exited:\n${tail()}`);
      const value = await check();
      if (value) return value;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`${what}: not within ${timeoutMs} ms:\n${tail()}`);
  }

  beforeAll(() => {
    // Built once per clone (a few seconds with Go's caches warm from the CLI's build).
    const built = ensureClusterBinaries(parseConfig(process.env).dataDir, (line) => console.log(line));
    if (!built) throw new Error('No Go: the Temporal server cannot be built from deploy/temporal-server');
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'scrape-cluster-'));
    chmodSync(dataDir, 0o755); // PostgreSQL runs as the `postgres` user when we are root
    symlinkSync(path.dirname(built.server), path.join(dataDir, 'bin'));
  }, 900_000);

  afterAll(async () => {
    if (supervisor && supervisor.exitCode === null && supervisor.signalCode === null) {
      const exited = new Promise((r) => supervisor!.once('exit', r));
      supervisor.kill('SIGTERM');
      await exited;
    }
    await fixture?.close();
    await receiver?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves scrapes and flows through both API replicas on the Temporal server, rides through a killed worker and replica, and stops cleanly', async () => {
    fixture = await startFixtureServer();
    receiver = await startWebhookReceiver();
    const [apiPort, temporalPort, uiPort, pgPort, supervisorPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    const baseUrl = `http://127.0.0.1:${apiPort}`;
    const supervisorUrl = `http://127.0.0.1:${supervisorPort}`;
    const startedAt = Date.now();
    supervisor = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'start.ts'), '--topology=cluster'], {
      env: {
        // No CLI here: the cluster runs the server; TEMPORAL_CLI_PATH must not matter.
        ...npmStartEnv({ dataDir, apiPort, temporalPort, uiPort, pgPort, supervisorPort }, ''),
        HOST: '127.0.0.1',
        TASK_QUEUE_PREFIX: '',
        ALLOW_PRIVATE_TARGETS: 'true',
        BETTER_AUTH_SECRET: randomBytes(32).toString('hex'),
        BETTER_AUTH_URL: baseUrl,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const supervisorExited = watchOutput(supervisor, output);

    const view = async (): Promise<{ status: string; processes: ProcessView[] } | undefined> => {
      try {
        return (await (await fetch(`${supervisorUrl}/readyz`, { signal: AbortSignal.timeout(5000) })).json()) as { status: string; processes: ProcessView[] };
      } catch {
        return undefined;
      }
    };
    const processOf = async (name: string) => (await view())?.processes.find((p) => p.name === name);

    // Ready: every process runs, the addresses (with each replica's) are printed.
    const replicaPorts = await waitFor('the cluster was not ready', () => {
      const printed = output.join('');
      const ports = [...printed.matchAll(/ {4}api-(\d) {8}http:\/\/127\.0\.0\.1:(\d+) /g)].map((m) => Number(m[2]));
      return printed.includes('[start] ready (topology cluster)') && ports.length === 2 ? ports : undefined;
    });
    const readyMs = Date.now() - startedAt;
    const status = await view();
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
    const databaseUrl = embeddedDatabaseUrl(dataDir, pgPort)!;
    const adminUrl = new URL(databaseUrl);
    adminUrl.pathname = '/postgres';
    const databases = (await sql<{ datname: string }>(adminUrl.toString(), "SELECT datname FROM pg_database WHERE datname LIKE 'temporal%' ORDER BY 1")).map((r) => r.datname);
    expect(databases).toEqual(['temporal', 'temporal_visibility']);
    expect((await fetch(`http://127.0.0.1:${uiPort}/`)).status).toBe(200);
    // Its probes answer within 2 s, which a loaded machine can miss once: ready is a state to reach.
    const apiReady = await waitFor('the API was not ready', async () => {
      const answer = await call(baseUrl, 'GET', '/readyz', {});
      return answer.status === 200 ? answer : undefined;
    });
    expect(apiReady.body).toEqual({ status: 'ready', checks: { database: 'ok', temporal: 'ok', 'worker-http-1': 'ok', 'worker-http-2': 'ok', 'worker-browser': 'ok' } });

    const account: TestAccount = await createAccount(baseUrl);
    const key = { 'x-api-key': account.apiKey };
    const scrape = (url: string, body: Json) => call(url, 'POST', '/webhook/unblocker', key, body);

    // http scrapes through each replica directly and through the entry point, at once.
    const targets = [`http://127.0.0.1:${replicaPorts[0]}`, `http://127.0.0.1:${replicaPorts[1]}`, baseUrl, baseUrl, baseUrl, baseUrl];
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
    const connection = await Connection.connect({ address: `127.0.0.1:${temporalPort}` });
    try {
      const client = new Client({ connection });
      const runId = answers[0]!.body.id as string;
      const found = await waitFor('a scrape run was not found by ScrapeRunIds', async () => {
        const ids: string[] = [];
        for await (const execution of client.workflow.list({ query: `ScrapeRunIds = "${runId}"` })) ids.push(execution.workflowId);
        return ids.length > 0 ? ids : undefined;
      });
      expect(found).toHaveLength(1);
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
    const duringOutage: number[] = [];
    let n = 100;
    const back = async () => {
      const [w, r] = await Promise.all([processOf('worker-http-1'), processOf('api-1')]);
      return w?.state === 'running' && w.pid !== worker.pid && r?.state === 'running' && r.pid !== replica.pid ? { w, r } : undefined;
    };
    // Each on a connection of its own: the balancer picks a replica per connection, and a pooled
    // keep-alive connection that went to the killed replica dies with it (docs/operations.md).
    const restarted = await waitFor('the killed worker and replica did not come back', async () => {
      const answer = await call(baseUrl, 'POST', '/webhook/unblocker', { ...key, connection: 'close' }, { url: `${fixture!.url}/page/${n++}`, selectors: ['h1'] });
      duringOutage.push(answer.status);
      return back();
    });
    expect(restarted.w.restarts).toBe(1);
    expect(restarted.r.restarts).toBe(1);
    expect(duringOutage.length).toBeGreaterThan(0);
    expect(duringOutage.filter((s) => s !== 200)).toEqual([]);
    // Both replicas answer again, each directly.
    for (const port of replicaPorts) expect((await scrape(`http://127.0.0.1:${port}`, { url: `${fixture.url}/page/7`, selectors: ['h1'] })).status).toBe(200);

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
        `${duringOutage.length} scrapes through the entry point while worker-http-1 and api-1 were restarted, all 200`,
    );

    supervisor.kill('SIGTERM');
    expect(await supervisorExited).toBe(0);
    expect(output.join('')).toContain('[start] stopped');
    // Nothing it started outlives it (the servers are detached: each is stopped, not orphaned).
    const deadline = Date.now() + 20_000;
    while (processesMentioning(dataDir).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(processesMentioning(dataDir)).toEqual([]);
  }, 900_000);
});
