/**
 * Issue 16, end to end: `npm start` (scripts/start.ts, the real supervisor) on free ports with a
 * DATA_DIR of its own; for each of the worker, the API, the Temporal dev server and PostgreSQL,
 * SIGKILL it while http scrapes run at concurrency 8 against the local fixture site, and show:
 *   - the process is back (a new pid, restarted after its first backoff, 1 s);
 *   - /readyz (the API's, and the supervisor's) went degraded naming it, then ready again;
 *   - every scrape a client saw accepted (an answer carrying a run id: 200, 202, 504, or a
 *     failed run's 502) ends exactly once: one debit, one terminal outcome, a refund iff failed;
 *   - the rest were 503s in the standard body (or refused connections while the API itself was down).
 * A black box: HTTP to the API and the supervisor, SQL on scrape_run and credit_ledger, and
 * Temporal only to tell a run that never got a workflow from one still under way.
 * The closing note prints, per killed process, the recovery times, the failed requests and the ledger check.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { freePort } from '../platform/free-port';
import { embeddedDatabaseUrl } from './runtime/postgres';
import { type FixtureServer, startFixtureServer } from '../test/fixtures/server';
import { createAccount, sql } from '../test/helpers/accounts';
import { testEnv } from '../test/helpers/env';
import { npmStartEnv, processesMentioning, watchOutput } from '../test/helpers/processes';
import { testDataConverter } from '../test/helpers/temporal-codec';

const VICTIMS = ['worker', 'api', 'temporal', 'postgres'] as const;
type Victim = (typeof VICTIMS)[number];
const CONCURRENCY = 8;
const FREE_CREDITS = 100_000;
/** How long any one condition may take on a loaded 2-core machine before the test gives up. */
const PATIENCE_MS = 240_000;

interface ProcessView {
  name: string;
  state: string;
  pid?: number;
  restarts: number;
}
interface SupervisorView {
  status: string;
  reasons: string[];
  processes: ProcessView[];
}

interface Answer {
  phase: Victim;
  /** HTTP status, or 'refused' when no answer came (connection refused or reset). */
  status: number | 'refused';
  /** The run id the answer carried (the client then holds an accepted run). */
  runId?: string;
  body?: Record<string, unknown>;
}

interface Observation {
  at: number;
  /** The API's /readyz: status and body, or 'refused'. */
  api: number | 'refused';
  apiBody?: { status?: string; checks?: Record<string, string> };
}

interface PhaseReport {
  victim: Victim;
  /** When the phase began (its load before the kill) and when it ended. */
  from: number;
  to: number;
  backMs: number;
  readyMs: number;
  restartDelayMs: number;
  answers: Answer[];
  degradedApi: string;
  degradedSupervisor: string;
}

async function getJson(url: string): Promise<{ status: number | 'refused'; body?: Record<string, unknown> }> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    let body: Record<string, unknown> | undefined;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = { unparsable: text.slice(0, 200) };
    }
    return { status: res.status, body };
  } catch {
    return { status: 'refused' };
  }
}

/**
 * CONCURRENCY clients posting http-mode scrapes back to back; one in four is async (202). Each
 * answer is recorded with the phase it belongs to.
 */
function startLoad(baseUrl: string, apiKey: string, fixtureUrl: string, phase: () => Victim, answers: Answer[]) {
  let stopped = false;
  let counter = 0;
  const client = async () => {
    while (!stopped) {
      const n = ++counter;
      const currentPhase = phase();
      const request = { url: `${fixtureUrl}/page/${n}`, selectors: ['h1'], ...(n % 4 === 0 ? { async: true } : {}) };
      try {
        const res = await fetch(`${baseUrl}/webhook/unblocker`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
          body: JSON.stringify(request),
          signal: AbortSignal.timeout(120_000),
        });
        const text = await res.text();
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          body = { unparsable: text.slice(0, 300) };
        }
        answers.push({ phase: currentPhase, status: res.status, ...(typeof body.id === 'string' ? { runId: body.id } : {}), body });
        // As a client honouring Retry-After would, though sooner: keep the gap short, not the log long.
        if (res.status === 503) await new Promise((r) => setTimeout(r, 100));
      } catch {
        // Counted in the phase in which the connection failed, not the one it was sent in: a request
        // sent just before the API's phase began may still be in flight (a loaded machine) when the
        // API is killed, and it is that kill which cuts it.
        answers.push({ phase: phase(), status: 'refused' });
        // The API is down: pace the retries instead of spinning on refused connections.
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const clients = Array.from({ length: CONCURRENCY }, () => client());
  return {
    stop: async () => {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

describe('npm start heals itself (issue 16)', () => {
  let supervisor: ChildProcess | undefined;
  let fixture: FixtureServer | undefined;
  let dataDir = '';
  const output: string[] = [];
  const tail = () => output.join('').slice(-6000);

  async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = PATIENCE_MS, whileSupervisorRuns = true): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (whileSupervisorRuns && supervisor && (supervisor.exitCode !== null || supervisor.signalCode !== null)) throw new Error(`${what}: the supervisor exited:\n${tail()}`);
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${what}: not within ${timeoutMs} ms:\n${tail()}`);
  }

  afterAll(async () => {
    if (supervisor && supervisor.exitCode === null && supervisor.signalCode === null) {
      const exited = new Promise((r) => supervisor!.once('exit', r));
      supervisor.kill('SIGTERM');
      await exited;
    }
    await fixture?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('restarts a SIGKILLed worker, API, Temporal dev server and PostgreSQL under load; every accepted scrape ends exactly once', async () => {
    fixture = await startFixtureServer();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'scrape-recovery-'));
    chmodSync(dataDir, 0o755); // PostgreSQL runs as the `postgres` user when we are root
    const [apiPort, temporalPort, uiPort, pgPort, supervisorPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    const baseUrl = `http://127.0.0.1:${apiPort}`;
    const supervisorUrl = `http://127.0.0.1:${supervisorPort}`;
    supervisor = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'start.ts')], {
      env: {
        ...npmStartEnv({ dataDir, apiPort, temporalPort, uiPort, pgPort, supervisorPort }, testEnv('temporalCli')),
        HOST: '127.0.0.1',
        TASK_QUEUE_PREFIX: '',
        ALLOW_PRIVATE_TARGETS: 'true',
        FREE_CREDITS: String(FREE_CREDITS),
        BETTER_AUTH_SECRET: randomBytes(32).toString('hex'),
        BETTER_AUTH_URL: baseUrl,
        // Warnings and errors only: the request log of a few thousand scrapes is noise here.
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const supervisorExited = watchOutput(supervisor, output);

    const view = async (): Promise<SupervisorView | undefined> => (await getJson(`${supervisorUrl}/readyz`)).body as SupervisorView | undefined;
    const processOf = (v: SupervisorView | undefined, name: string) => v?.processes.find((p) => p.name === name);
    await waitFor('the service was not ready', async () => (await getJson(`${baseUrl}/readyz`)).status === 200 && (await view())?.status === 'ready');
    const databaseUrl = embeddedDatabaseUrl(dataDir, pgPort)!;
    const account = await createAccount(baseUrl);

    const answers: Answer[] = [];
    const reports: PhaseReport[] = [];
    let phase: Victim = VICTIMS[0];
    const load = startLoad(baseUrl, account.apiKey, fixture.url, () => phase, answers);
    const accepted = (victim: Victim) => answers.filter((a) => a.phase === victim && a.runId !== undefined).length;

    let phaseFrom = Date.now();
    try {
      for (const victim of VICTIMS) {
        phase = victim;
        // The load flows before the kill...
        await waitFor(`scrapes before killing ${victim}`, () => accepted(victim) >= CONCURRENCY);
        const before = processOf(await view(), victim)!;
        expect(before).toMatchObject({ state: 'running' });

        // ...and /readyz is watched throughout: one request every 100 ms, without waiting for the last.
        const observations: Observation[] = [];
        const supervisorViews: SupervisorView[] = [];
        let watching = true;
        const inFlight = new Set<Promise<void>>();
        const watcher = (async () => {
          while (watching) {
            const probe = (async () => {
              const at = Date.now();
              const [api, sup] = await Promise.all([getJson(`${baseUrl}/readyz`), view()]);
              observations.push({ at, api: api.status, apiBody: api.body });
              if (sup) supervisorViews.push(sup);
            })();
            inFlight.add(probe);
            void probe.finally(() => inFlight.delete(probe));
            await new Promise((r) => setTimeout(r, 100));
          }
          await Promise.all(inFlight);
        })();

        const killedAt = Date.now();
        process.kill(before.pid!, 'SIGKILL');
        let backAt = 0;
        await waitFor(`${victim} restarted`, async () => {
          const now = processOf(await view(), victim);
          if (now?.state === 'running' && now.pid !== before.pid && now.restarts > before.restarts) backAt ||= Date.now();
          return backAt > 0;
        });
        let readyAt = 0;
        await waitFor(`ready again after killing ${victim}`, async () => {
          if ((await getJson(`${baseUrl}/readyz`)).status === 200 && (await view())?.status === 'ready') readyAt ||= Date.now();
          return readyAt > 0;
        });
        // The load flows again after recovery.
        const acceptedAtReady = accepted(victim);
        await waitFor(`scrapes after ${victim} came back`, () => accepted(victim) >= acceptedAtReady + CONCURRENCY);
        watching = false;
        await watcher;

        // The first restart of a process waits the first backoff, 1 s: logged with its cause, and shown while it waits.
        const printed = output.join('');
        const restart = /restarting it in ([\d.]+ s) \(restart (\d+)\)/.exec(printed.slice(printed.lastIndexOf(`degraded: ${victim} exited (signal SIGKILL)`)));
        expect(restart?.[1]).toBe('1 s');
        const waiting = supervisorViews.flatMap((v) => v.processes).find((p) => p.name === victim && p.state === 'backoff');
        expect(waiting).toMatchObject({ restartDelayMs: 1000 });
        // /readyz went degraded, naming what was down, and back to ready.
        const degraded = supervisorViews.find((v) => v.status === 'degraded' && v.reasons.some((r) => r.startsWith(`${victim} is down`)));
        expect(degraded).toBeDefined();
        const check = { worker: 'worker', postgres: 'database', temporal: 'temporal' } as const;
        const apiDegraded =
          victim === 'api'
            ? observations.find((o) => o.api === 'refused')
            : observations.find((o) => o.api === 503 && o.apiBody?.status === 'degraded' && o.apiBody.checks?.[check[victim]] !== 'ok');
        expect(apiDegraded).toBeDefined();
        expect(observations.some((o) => o.at > apiDegraded!.at && o.api === 200 && o.apiBody?.status === 'ready')).toBe(true);

        reports.push({
          victim,
          from: phaseFrom,
          to: Date.now(),
          backMs: backAt - killedAt,
          readyMs: readyAt - killedAt,
          restartDelayMs: 1000,
          answers: answers.filter((a) => a.phase === victim),
          degradedApi: victim === 'api' ? 'connection refused (the API itself)' : `${check[victim]}: ${apiDegraded!.apiBody!.checks![check[victim]]}`,
          degradedSupervisor: degraded!.reasons.find((r) => r.startsWith(`${victim} is down`))!,
        });
        phaseFrom = Date.now();
      }
    } finally {
      await load.stop();
    }

    // Every answer without a run id is a 503 in the standard body, or no answer while the API was down.
    for (const answer of answers.filter((a) => a.runId === undefined)) {
      if (answer.status === 'refused') {
        expect(answer.phase).toBe('api');
        continue;
      }
      expect({ phase: answer.phase, status: answer.status, body: answer.body }).toEqual({
        phase: answer.phase,
        status: 503,
        body: expect.objectContaining({ statusCode: 503, message: expect.any(String), error: 'Service Unavailable' }),
      });
    }

    // Every run ends: wait until each scrape_run row is terminal, or has no workflow at all
    // (the API died between recording the run and starting it: nothing was debited).
    const connection = await Connection.connect({ address: `127.0.0.1:${temporalPort}` });
    const temporal = new Client({ connection, dataConverter: testDataConverter() });
    const neverStarted = new Set<string>();
    try {
      await waitFor('every run ended', async () => {
        const open = await sql<{ id: string; workflowId: string }>(databaseUrl, `SELECT id, "workflowId" FROM scrape_run WHERE "userId" = $1 AND status NOT IN ('succeeded', 'failed', 'cancelled')`, [account.userId]);
        for (const run of open) {
          if (neverStarted.has(run.id)) continue;
          try {
            await temporal.workflow.getHandle(run.workflowId).describe();
          } catch (error) {
            if (error instanceof WorkflowNotFoundError) neverStarted.add(run.id);
            else throw error;
          }
        }
        return open.every((run) => neverStarted.has(run.id));
      });
    } finally {
      await connection.close();
    }

    // The ledger, per run: debits, refunds, outcome.
    const runs = await sql<{ id: string; status: string; debits: number; refunds: number; createdAt: Date }>(
      databaseUrl,
      `SELECT r.id, r.status::text AS status, r."createdAt",
              (SELECT count(*)::int FROM credit_ledger d WHERE d."idempotencyKey" = 'debit:scrape:' || r.id) AS debits,
              (SELECT count(*)::int FROM credit_ledger f WHERE f."refundOf" = 'debit:scrape:' || r.id) AS refunds
         FROM scrape_run r WHERE r."userId" = $1`,
      [account.userId],
    );
    const byId = new Map(runs.map((r) => [r.id, r]));
    const ledgerProblems: string[] = [];
    for (const run of runs) {
      if (neverStarted.has(run.id)) {
        if (run.debits !== 0 || run.refunds !== 0) ledgerProblems.push(`${run.id}: never started but ${run.debits} debit(s), ${run.refunds} refund(s)`);
        continue;
      }
      if (run.status === 'succeeded' && (run.debits !== 1 || run.refunds !== 0)) ledgerProblems.push(`${run.id}: succeeded with ${run.debits} debit(s), ${run.refunds} refund(s)`);
      if (run.status === 'failed' && run.debits > 1) ledgerProblems.push(`${run.id}: failed with ${run.debits} debits`);
      if (run.status === 'failed' && run.refunds !== run.debits) ledgerProblems.push(`${run.id}: failed with ${run.debits} debit(s) but ${run.refunds} refund(s)`);
    }
    // What clients were told matches what happened, once: an accepted run exists, ended, and was debited once.
    for (const answer of answers.filter((a) => a.runId !== undefined)) {
      const run = byId.get(answer.runId!);
      if (!run) ledgerProblems.push(`${answer.runId}: answered ${answer.status} but no run recorded`);
      else if (run.debits !== 1) ledgerProblems.push(`${answer.runId}: answered ${answer.status}, ${run.debits} debits`);
      else if (answer.status === 200 && run.status !== 'succeeded') ledgerProblems.push(`${answer.runId}: answered 200 but the run ${run.status}`);
    }
    const balance = (
      await sql<{ creditBalance: number; ledger: number }>(
      databaseUrl,
      `SELECT u."creditBalance", (SELECT coalesce(sum(amount), 0)::int FROM credit_ledger l WHERE l."userId" = u.id) AS ledger FROM "user" u WHERE u.id = $1`,
        [account.userId],
      )
    )[0]!;

    // The closing note.
    const lines = ['', 'npm start recovery under load (http scrapes, concurrency 8), per SIGKILLed process:'];
    for (const report of reports) {
      const runIds = new Set(report.answers.flatMap((a) => (a.runId ? [a.runId] : [])));
      const phaseRuns = [...runIds].map((id) => byId.get(id)).filter((r) => r !== undefined);
      const statuses = (list: Answer[]) =>
        Object.entries(
          list.reduce<Record<string, number>>((acc, a) => {
            acc[String(a.status)] = (acc[String(a.status)] ?? 0) + 1;
            return acc;
          }, {}),
        )
          .map(([status, count]) => `${status}×${count}`)
          .join(', ') || 'none';
      const failed = report.answers.filter((a) => a.runId === undefined);
      const orphans = runs.filter((r) => neverStarted.has(r.id) && r.createdAt.getTime() >= report.from && r.createdAt.getTime() < report.to).length;
      lines.push(
        `  ${report.victim.padEnd(8)} back (new pid, running) ${(report.backMs / 1000).toFixed(1)} s after SIGKILL (first backoff ${report.restartDelayMs / 1000} s); /readyz ready again after ${(report.readyMs / 1000).toFixed(1)} s`,
        `           degraded seen: API /readyz ${report.degradedApi}; supervisor "${report.degradedSupervisor}"`,
        `           answers: ${statuses(report.answers)}; failed during the gap: ${statuses(failed)}`,
        `           ledger: ${runIds.size} accepted runs → ${phaseRuns.filter((r) => r.status === 'succeeded').length} succeeded, ${phaseRuns.filter((r) => r.status === 'failed').length} failed; ` +
          `${phaseRuns.reduce((s, r) => s + r.debits, 0)} debits, ${phaseRuns.reduce((s, r) => s + r.refunds, 0)} refunds; ` +
          `${phaseRuns.filter((r) => r.debits !== 1).length} not debited exactly once, ${phaseRuns.filter((r) => r.status === 'failed' && r.refunds !== 1).length} failed without their refund; ` +
          `${orphans} recorded but never started (no workflow, no debit)`,
      );
    }
    lines.push(
      `  all runs: ${runs.length} recorded, ${runs.filter((r) => r.status === 'succeeded').length} succeeded, ${runs.filter((r) => r.status === 'failed').length} failed, ` +
        `${neverStarted.size} never started (no workflow, 0 debits; failed as such by the API's sweep after 30 s); ledger problems: ${ledgerProblems.length}; ` +
        `balance ${balance.creditBalance} = sum of ledger ${balance.ledger}`,
      '',
    );
    process.stdout.write(`${lines.join('\n')}\n`);

    expect(ledgerProblems).toEqual([]);
    expect(balance.creditBalance).toBe(balance.ledger);
    const metrics = await (await fetch(`${supervisorUrl}/metrics`)).text();
    for (const victim of VICTIMS) expect(metrics).toMatch(new RegExp(`supervisor_restarts_total\\{process="${victim}",cause="exited"\\} [1-9]`));

    // Ctrl-C / SIGTERM still stops everything, in order, with nothing left running.
    supervisor.kill('SIGTERM');
    expect(await supervisorExited).toBe(0);
    const printed = output.join('');
    const order = ['api', 'worker', 'temporal', 'postgres'].map((name) => printed.lastIndexOf(`[start] ${name} exited (code`));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(printed).toContain('[start] stopped');
    await waitFor('processes outlived the supervisor', () => processesMentioning(dataDir).length === 0, 30_000, false);
  }, 900_000);
});
