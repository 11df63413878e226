/**
 * Issue 26's login end to end, through the real service: API and worker processes, PostgreSQL,
 * Chromium, a file-backed Temporal dev server of this file's own (so it can be killed and
 * restarted) and the login fixture site with its second step (test/fixtures/login-site.ts,
 * `oneTimeCode`).
 *
 * A flow logs in with actions in browser mode and saves the session, waits at an `input` node
 * for the one-time code the site "sent" (the test reads it from the fixture, as a person from
 * their phone), and types it with actions into the code form in a second scrape of the same
 * session, which reads the members-only page. While the run waits, the worker is SIGKILLed and
 * the Temporal server SIGKILLed and restarted; the answer goes through
 * POST /flows/:id/runs/:runId/input and the run completes, each scrape node debited once. Then
 * plain scrapes naming the session read the members-only page in both modes without logging in.
 *
 * With FLOW_LOGIN_SHOW_HISTORY=1 the run's history as an operator sees it
 * (`temporal workflow show`) is printed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../platform/free-port';
import { type RunningTemporal, startTemporalDevServer } from '../../scripts/runtime/temporal-server';
import { LOGIN_USER, MEMBERS_SECRET, type LoginSite, startLoginSite } from '../../test/fixtures/login-site';
import { type TestAccount, createAccount, setBalance, sql } from '../../test/helpers/accounts';
import { testEnv } from '../../test/helpers/env';
import { nodeOf, waitForFlowRun } from '../../test/helpers/flows';
import { type Json, call } from '../../test/helpers/http';
import { auditRunsAndLedger } from '../../test/helpers/run-ledger';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';

jest.setTimeout(300_000);

const SESSION = 'members-login';

let temporal: RunningTemporal;
let temporalPort: number;
let dbFile: string;
let stack: Stack;
let site: LoginSite;
let account: TestAccount;

const startTemporal = () => startTemporalDevServer({ cliPath: testEnv('temporalCli'), port: temporalPort, dbFile });

beforeAll(async () => {
  dbFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'flow-login-')), 'temporal.db');
  temporalPort = await freePort();
  [site, temporal] = await Promise.all([startLoginSite({ oneTimeCode: true }), startTemporal()]);
  stack = await startStack({ env: { TEMPORAL_ADDRESS: temporal.address } });
  account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 1000);
});

afterAll(async () => {
  await stack?.stop();
  await temporal?.stop();
  await site?.close();
});

const auth = () => ({ 'x-api-key': account.apiKey });
const api = (method: string, p: string, body?: unknown) => call(stack.baseUrl, method, p, auth(), body);

/**
 * login (browser: type the user name and password, submit; the site answers with its code form)
 * → otp (input: the person types the code the site sent; shows the code form's screenshot)
 * → verify (browser, the same session: type `{{ nodes.otp.value }}`, submit, read the members' page).
 */
function loginFlow() {
  return {
    name: 'Members area behind a one-time code',
    nodes: [
      {
        id: 'login',
        type: 'scrape',
        config: {
          url: `${site.url}/login`,
          mode: 'browser',
          session: { name: SESSION, save: true },
          actions: [
            { type: 'click', selector: '#username' },
            { type: 'write', text: LOGIN_USER.username },
            { type: 'click', selector: '#password' },
            { type: 'write', text: LOGIN_USER.password },
            { type: 'click', selector: '#submit' },
            { type: 'wait', selector: '#code' },
          ],
          formats: ['screenshot'],
          selectors: [{ name: 'title', selector: '#title' }],
          options: { retry_count: 1 },
        },
      },
      { id: 'otp', type: 'input', needs: ['login'], config: { prompt: 'one-time code', screenshot: true } },
      {
        id: 'verify',
        type: 'scrape',
        needs: ['otp'],
        config: {
          url: `${site.url}/login/code`,
          mode: 'browser',
          session: { name: SESSION, save: true },
          actions: [
            { type: 'click', selector: '#code' },
            { type: 'write', text: '{{ nodes.otp.value }}' },
            { type: 'click', selector: '#verify' },
            { type: 'wait', selector: '#secret' },
          ],
          selectors: [
            { name: 'title', selector: '#title' },
            { name: 'secret', selector: '#secret' },
          ],
          options: { retry_count: 1 },
        },
      },
    ],
  };
}

/** The first result's text of each selector of a scrape's data. */
const texts = (data: Json[]) => data.map((d) => (d.results as Json[])[0]?.text as string | undefined);

describe('a login with a one-time code, through a flow', () => {
  let ids: { flowId: string; runId: string; workflowId: string };

  it('logs in with actions, waits for the code through restarts of the worker and Temporal, types it and reads the members-only page; one debit per scrape node', async () => {
    const flow = await api('POST', '/flows', loginFlow());
    expect(flow.status).toBe(201);
    const started = await api('POST', `/flows/${flow.body.id}/runs`);
    expect(started.status).toBe(202);
    ids = { flowId: flow.body.id as string, runId: started.body.id as string, workflowId: started.body.workflowId as string };

    const waiting = await waitForFlowRun(stack.baseUrl, auth(), ids.flowId, ids.runId, (r) => r.status === 'waiting_input' || r.status === 'failed');
    expect(waiting.status).toBe('waiting_input');
    const login = nodeOf(waiting, 'login');
    expect(login.status).toBe('succeeded');
    expect(login.output).toMatchObject({ url: `${site.url}/login`, final_url: `${site.url}/login/code` });
    expect(texts(login.output.data as Json[])).toEqual(['Enter the one-time code']);
    const asked = nodeOf(waiting, 'otp');
    expect(asked.status).toBe('waiting_input');
    expect(asked.output).toMatchObject({ prompt: 'one-time code', screenshot: expect.anything() });
    expect(nodeOf(waiting, 'verify').status).toBe('pending');
    // One password login so far; the site sent its code (what the person reads on their phone).
    expect(site.codes).toHaveLength(1);
    const code = site.codes[0]!;

    // The saved session is past the password, not signed in yet: the members' page still refuses it.
    const early = await api('POST', '/webhook/unblocker', { url: `${site.url}/members`, selectors: ['#title'], session: { name: SESSION } });
    expect(early.status).toBe(200);
    expect(texts(early.body.data as Json[])).toEqual(['Please log in']);

    // Crash everything that runs the flow while it waits: the worker, then the Temporal server
    // (its file-backed store kept); then bring both back.
    await stack.killWorker();
    temporal.process.kill('SIGKILL');
    await new Promise((resolve) => temporal.process.once('exit', resolve));
    temporal = await startTemporal();
    await stack.startWorker();

    const inputPath = `/flows/${ids.flowId}/runs/${ids.runId}/input`;
    const answered = await waitFor('the answer taken after the restarts', async () => {
      const answer = await api('POST', inputPath, { node: 'otp', value: code });
      // 503 while the API's Temporal connection comes back.
      return answer.status === 503 ? undefined : answer;
    });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ id: ids.runId, node: 'otp', accepted: true });

    const run = await waitForFlowRun(stack.baseUrl, auth(), ids.flowId, ids.runId, undefined, 180_000);
    expect(run.status).toBe('succeeded');
    expect(nodeOf(run, 'otp')).toMatchObject({ status: 'succeeded', output: { value: code } });
    const verify = nodeOf(run, 'verify');
    expect(verify.status).toBe('succeeded');
    expect(verify.output).toMatchObject({ final_url: `${site.url}/members` });
    expect(texts(verify.output.data as Json[])).toEqual(['Members area', MEMBERS_SECRET]);
    // The code was used once, by the flow: no second password login, no pending one left.
    expect(site.codes).toHaveLength(1);
    expect(site.requests.filter((r) => r.method === 'POST' && r.path === '/login/code')).toHaveLength(1);

    // One scrape_run and one debit per scrape node, no refund; nothing debited twice in the account.
    const perNode = await sql<{ node: string; debits: number; refunds: number }>(
      stack.databaseUrl,
      `SELECT s."flowNodeId" AS node,
              (SELECT count(*)::int FROM credit_ledger l WHERE l."runId" = s.id AND l.reason = 'debit') AS debits,
              (SELECT count(*)::int FROM credit_ledger l WHERE l."runId" = s.id AND l.reason = 'refund') AS refunds
         FROM scrape_run s WHERE s."flowRunId" = $1 ORDER BY s."flowNodeId"`,
      [ids.runId],
    );
    expect(perNode).toEqual([
      { node: 'login', debits: 1, refunds: 0 },
      { node: 'verify', debits: 1, refunds: 0 },
    ]);
    const audit = await auditRunsAndLedger(stack.databaseUrl, account.userId, []);
    expect({ doubleDebits: audit.doubleDebits, wrongRefunds: audit.wrongRefunds, debitsWithoutRun: audit.debitsWithoutRun }).toEqual({ doubleDebits: [], wrongRefunds: [], debitsWithoutRun: [] });

    // How an operator sees the run in Temporal: the Update that carried the answer is in its history.
    const show = (...extra: string[]) => execFileSync(testEnv('temporalCli'), ['workflow', 'show', '--address', temporal.address, '--workflow-id', ids.workflowId, ...extra], { encoding: 'utf8' });
    const history = show();
    expect(history).toMatch(/WorkflowExecutionUpdateAccepted/);
    expect(history).toMatch(/WorkflowExecutionCompleted/);
    const events = (JSON.parse(show('--output', 'json')) as { events: Json[] }).events;
    const updates = events.filter((e) => /UPDATE_ACCEPTED|UpdateAccepted/.test(String(e.eventType)));
    expect(updates).toHaveLength(1);
    expect(JSON.stringify(updates[0])).toContain('"flowInput"');
    if (process.env.FLOW_LOGIN_SHOW_HISTORY) {
      console.log(`[flow-login] temporal workflow show --workflow-id ${ids.workflowId} --address ${temporal.address}\n${history}\nthe Update's event:\n${JSON.stringify(updates[0], null, 2)}`);
    }
  });

  it.each(['http', 'browser'] as const)('%s mode: a plain scrape naming the saved session reads the members-only page without logging in', async (mode) => {
    expect(ids).toBeDefined();
    const from = site.requests.length;
    const plain = await api('POST', '/webhook/unblocker', { url: `${site.url}/members`, mode, selectors: ['#title', '#secret'], session: { name: SESSION } });
    expect(plain.status).toBe(200);
    expect(texts(plain.body.data as Json[])).toEqual(['Members area', MEMBERS_SECRET]);
    // The members' page was asked for once, and nothing of the login: no form, no password, no code.
    const asked = site.requests.slice(from).map((r) => `${r.method} ${r.path}`);
    expect(asked.filter((r) => r === 'GET /members')).toHaveLength(1);
    expect(asked.filter((r) => r.includes('/login'))).toEqual([]);
    expect(site.codes).toHaveLength(1);
  });
});
