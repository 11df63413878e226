/**
 * Standalone scrapes under load survive a crash of any process (issue 9): 200 concurrent
 * requests (http, a few failing on purpose, a few in browser mode), and mid-load one of
 *   - the worker process (browser scrapes, and whatever the API processes hand over),
 *   - the API process (it hosts the sync-queue worker: its batches are taken over by the worker
 *     process once their workflow task times out),
 *   - the Temporal dev server (file-backed, like `npm start`'s)
 * is SIGKILLed and started again. Afterwards: every run a client was told about exists once,
 * every run ends in a terminal state, each debited at most once and refunded exactly when it
 * failed after its debit, and the account's ledger adds up to its balance; and each run ends as
 * its target says it should: a run of a page that answers succeeded, a run of the target that
 * always fails failed TARGET_ERROR and was refunded, whatever was killed meanwhile (a run whose
 * request lost its connection may also have failed before its first attempt, uncharged).
 * Real processes throughout; the fixture site and everything else on 127.0.0.1.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../platform/free-port';
import { type RunningTemporal, startTemporalDevServer } from '../../scripts/runtime/temporal-server';
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestAccount, balanceOf, createAccount, setBalance, sql } from '../../test/helpers/accounts';
import { type RunRow, TERMINAL, auditRunsAndLedger, neverStarted, runsOf as runsOfAccount } from '../../test/helpers/run-ledger';
import { testEnv } from '../../test/helpers/env';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';

jest.setTimeout(420_000);

const LOAD = 200;
const START_BALANCE = 100_000;
let temporal: RunningTemporal;
let temporalPort: number;
let dbFile: string;
let stack: Stack;
let fixtures: FixtureServer;

const startTemporal = () => startTemporalDevServer({ cliPath: testEnv('temporalCli'), port: temporalPort, dbFile });

beforeAll(async () => {
  dbFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'scrape-durable-')), 'temporal.db');
  temporalPort = await freePort();
  [fixtures, temporal] = await Promise.all([startFixtureServer(), startTemporal()]);
  // All LOAD scrapes in flight at once on one account: above the default per-account limit of runs
  // in flight (CONCURRENCY_LIMIT 64), which would refuse some with 429 before they start.
  stack = await startStack({ env: { TEMPORAL_ADDRESS: temporal.address, BROWSER_CONCURRENCY: '2', CONCURRENCY_LIMIT: String(LOAD * 2) } });
});

afterAll(async () => {
  await stack?.stop();
  await temporal?.stop();
  await fixtures?.close();
});

/** The target that always fails (HTTP 500): its runs end failed TARGET_ERROR, refunded. */
const failsOnPurpose = (i: number) => i % 10 === 3;

/** What the 200 clients send: mostly slow-ish http pages, some targets that always fail, a few browser pages. */
function requestBody(i: number): Record<string, unknown> {
  if (i % 40 === 0) return { url: `${fixtures.url}/links?n=3`, mode: 'browser', selectors: ['h1'], options: { retry_count: 1 } };
  if (failsOnPurpose(i)) return { url: `${fixtures.url}/status/500`, options: { retry_count: 0 } };
  return { url: `${fixtures.url}/slow?ms=${200 + (i % 5) * 150}`, selectors: ['h1'], options: { retry_count: 1 } };
}

interface ClientView {
  /** Run ids the clients were given (in a 200, an error body with an id, or a 504). */
  told: Set<string>;
  /** The request each told run id answered (its index). */
  toldBy: Map<string, number>;
  statuses: Map<string, number>;
}

/** Sends LOAD requests at once; resolves when every client has an answer or an error. */
function load(account: TestAccount): { view: ClientView; done: Promise<void> } {
  const view: ClientView = { told: new Set(), toldBy: new Map(), statuses: new Map() };
  const count = (key: string) => view.statuses.set(key, (view.statuses.get(key) ?? 0) + 1);
  const done = Promise.all(
    Array.from({ length: LOAD }, async (_, i) => {
      try {
        const res = await fetch(`${stack.baseUrl}/webhook/unblocker`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
          body: JSON.stringify(requestBody(i)),
        });
        const body = (await res.json()) as { id?: string };
        count(String(res.status));
        if (body.id) {
          view.told.add(body.id);
          view.toldBy.set(body.id, i);
        }
      } catch {
        count('connection error');
      }
    }),
  ).then(() => undefined);
  return { view, done };
}

/** Runs must end within 4 minutes of the crash (a workflow task timeout, a restart, a replay). */
const waitUntil = (what: string, check: () => Promise<boolean>, timeoutMs = 240_000) => waitFor(what, check, timeoutMs);

const runsOf = (account: TestAccount) => runsOfAccount(stack.databaseUrl, account.userId);

/** The invariants after a crash (test/helpers/run-ledger.ts), and the figures the closing note quotes. */
async function expectConsistent(account: TestAccount, view: ClientView, label: string): Promise<void> {
  // The whole load was let in: no request was refused by a limit before it started.
  expect(view.statuses.get('429')).toBeUndefined();
  // Every run ends: nothing is left queued or running once the service has recovered.
  await waitUntil('every run finished', async () => (await runsOf(account)).every((r) => TERMINAL.includes(r.status)));
  const audit = await auditRunsAndLedger(stack.databaseUrl, account.userId, view.told);
  expect(audit.missing).toEqual([]);
  expect(audit.duplicateIds).toBe(0);
  const { doubleDebits, debitsWithoutRun, wrongRefunds } = audit;
  expect({ doubleDebits, debitsWithoutRun, wrongRefunds }).toEqual({ doubleDebits: [], debitsWithoutRun: [], wrongRefunds: [] });
  // The ledger reconciles: its debits and refunds are exactly how the balance moved since the test
  // set it (the sign-up grant before that is a ledger row too, but not part of this movement).
  expect(audit.balance).toBe(START_BALANCE + audit.moved);

  // Each run ended as its target says, not only consistently with the ledger: a client told a run
  // id (a 200, a 504, a failure with an id) finds it succeeded, or, for the target that always
  // fails, failed TARGET_ERROR and refunded. A run no client was told of (its request lost the
  // connection to the killed process) may also have failed before its first attempt, uncharged.
  const failingUrl = `${fixtures.url}/status/500`;
  const unexpected = (run: RunRow, told: boolean): boolean => {
    if (!told && neverStarted(run)) return false;
    if (run.url === failingUrl) return !(run.status === 'failed' && run.error?.code === 'TARGET_ERROR' && run.error.refunded);
    return run.status !== 'succeeded';
  };
  const endedWrong = audit.runs
    .filter((run) => unexpected(run, view.told.has(run.id)))
    .map((run) => ({ id: run.id, told: view.told.has(run.id), request: view.toldBy.get(run.id), url: run.url, status: run.status, attempts: run.attempts, error: run.error }));
  expect(endedWrong).toEqual([]);
  const toldRuns = audit.runs.filter((run) => view.told.has(run.id));
  expect(toldRuns.length).toBe(view.told.size);
  expect(toldRuns.every((run) => failsOnPurpose(view.toldBy.get(run.id)!) === (run.url === failingUrl))).toBe(true);

  console.log(
    `[durability under load] ${label}: ${LOAD} requests; client saw ${JSON.stringify(Object.fromEntries(view.statuses))}; ` +
      `${view.told.size} run ids told (each ended as its target says: ${toldRuns.filter((r) => r.status === 'succeeded').length} succeeded, ${toldRuns.filter((r) => r.status === 'failed').length} failed TARGET_ERROR, refunded), ` +
      `${audit.runs.length} runs recorded, all terminal: ${JSON.stringify(audit.outcomes)}; ` +
      `ledger ${audit.debits} debits, ${audit.refunds} refunds, ` +
      `0 double debits, 0 debits without a run, balance reconciles (${START_BALANCE} + ${audit.moved})`,
  );
}

/** Starts the load, waits until part of it has finished (work is in flight), then runs `crash`. */
async function crashMidLoad(label: string, crash: () => Promise<void>): Promise<void> {
  const account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, START_BALANCE);
  const { view, done } = load(account);
  await waitUntil('a quarter of the load finished', async () => (await runsOf(account)).filter((r) => r.status === 'succeeded').length >= LOAD / 4);
  await crash();
  await done;
  await expectConsistent(account, view, label);
}

describe('standalone scrapes under load (200 concurrent requests) survive', () => {
  it('the worker process killed and started again', async () => {
    await crashMidLoad('worker SIGKILLed', async () => {
      await stack.killWorker();
      await stack.startWorker();
    });
  });

  it('the API process killed and started again', async () => {
    await crashMidLoad('API SIGKILLed', async () => {
      await stack.killApi();
      await stack.restartApi();
    });
  });

  it('a run recorded but never started (the API stopped between the two) is failed, uncharged', async () => {
    // What a kill between api/scrape-dispatch.ts's insert and its workflow start leaves behind,
    // made on purpose: a queued run, older than the reaper's grace, whose workflow does not exist.
    const account = await createAccount(stack.baseUrl);
    await setBalance(stack.databaseUrl, account.userId, START_BALANCE);
    const runId = `orphan-${Date.now()}`;
    await sql(
      stack.databaseUrl,
      `INSERT INTO scrape_run (id, "userId", "workflowId", mode, url, request, cost, "createdAt")
       VALUES ($1, $2, $3, 'http', $4, $5::jsonb, 1, now() - interval '10 minutes')`,
      [runId, account.userId, `scrape-${runId}`, `${fixtures.url}/links`, JSON.stringify({ url: `${fixtures.url}/links`, mode: 'http' })],
    );
    await waitUntil('the orphan run failed', async () => (await runsOf(account))[0]?.status === 'failed', 120_000);
    const [run] = await runsOf(account);
    expect(run!.error).toMatchObject({ code: 'INTERNAL', refunded: false });
    const res = await fetch(`${stack.baseUrl}/webhook/runs/${runId}`, { headers: { 'x-api-key': account.apiKey } });
    expect(await res.json()).toMatchObject({ id: runId, status: 'failed' });
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START_BALANCE);
  });

  it('the Temporal dev server killed and started again (file-backed history)', async () => {
    await crashMidLoad('Temporal dev server SIGKILLed', async () => {
      temporal.process.kill('SIGKILL');
      await new Promise((r) => temporal.process.once('exit', r));
      temporal = await startTemporal();
    });
  });
});
