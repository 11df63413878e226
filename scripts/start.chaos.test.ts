/**
 * Issue 14, chaos under load on the production topology: `npm start -- --topology=cluster`
 * (test/helpers/cluster.ts: the official Temporal server on PostgreSQL, 2 API replicas behind the
 * balancer, 2 http workers, 1 browser worker), 1,000 http and 50 browser scrapes against the local
 * fixture site at concurrency 32, spread over the entry point and each replica directly, by
 * clients that follow the spec's retry policy (500/502/503/504 and connection errors: again after
 * 2 s, 4 s, 8 s, at most three times), each logical request with an `Idempotency-Key` of its own.
 *
 * Meanwhile, each once, at a moment drawn from a seeded random generator (the seed is printed;
 * CHAOS_SEED=<n> replays its choices): SIGKILL an http worker, SIGKILL an API replica, SIGKILL
 * the Temporal server, and stop PostgreSQL (a fast shutdown, SIGINT to the postmaster) — the
 * supervisor starts each again. A kill waits until its moment has come (a share of the requests
 * done) and every process runs, so each lands on a service under load, not on one still recovering.
 *
 * Afterwards, from SQL (test/helpers/run-ledger.ts, the checks of the durability test):
 *   - every logical request a client saw accepted (a 2xx, or a 504 carrying a run id) has exactly
 *     one run (each request scrapes a URL of its own, so its runs are counted by URL), not
 *     counting a run that failed before its first attempt, uncharged (its API process died
 *     between recording it and starting it: the key is freed and a retry starts afresh);
 *   - every run a client was told of exists, and every run is terminal within 2 minutes of the
 *     later of the last recovery and the end of the load;
 *   - per account: no double debit, no debit without a run, no failed run without its refund (nor
 *     a refund without its debit), and the ledger reconciles (sum of its rows = balance; what the
 *     runs cost = granted − remaining).
 * A one-block summary is printed for the closing note.
 */
import { type FixtureServer, startFixtureServer } from '../test/fixtures/server';
import { type TestAccount, createAccount } from '../test/helpers/accounts';
import { type RunningCluster, startCluster } from '../test/helpers/cluster';
import { type LedgerAudit, TERMINAL, auditRunsAndLedger, neverStarted, runsOf } from '../test/helpers/run-ledger';

const HTTP_REQUESTS = 1000;
const BROWSER_REQUESTS = 50;
const TOTAL = HTTP_REQUESTS + BROWSER_REQUESTS;
const CONCURRENCY = 32;
const ACCOUNTS = 4;
const GRANT = 100_000;
/** The spec's client retry policy (interface-spec.md, "Retry policy for clients"). */
const RETRY_DELAYS_MS = [2000, 4000, 8000];
const RETRY_STATUSES = new Set([500, 502, 503, 504]);
/** Runs must be terminal within this long of the recovery (or of the load's end, if later). */
const TERMINAL_WITHIN_MS = 120_000;

type Victim = 'http worker' | 'API replica' | 'Temporal server' | 'PostgreSQL';
const VICTIMS: Victim[] = ['http worker', 'API replica', 'Temporal server', 'PostgreSQL'];

/** mulberry32: a small seeded generator, so a failing run's choices can be replayed. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface LogicalRequest {
  index: number;
  mode: 'http' | 'browser';
  account: TestAccount;
  target: string;
  url: string;
  /** Status of each attempt, or 'connection' when none came. */
  attempts: Array<number | 'connection'>;
  /** Each run id an answer carried, with that answer's status. */
  runIds: Map<string, number>;
  accepted: boolean;
}

interface Kill {
  victim: Victim;
  name: string;
  pid: number;
  /** ms since the load started. */
  atMs: number;
  doneAtKill: number;
  inFlight: number;
  /** ms from the kill until the supervisor reported a new process running. */
  backMs?: number;
}

describe('chaos under load on the cluster topology (issue 14)', () => {
  let cluster: RunningCluster | undefined;
  let fixture: FixtureServer | undefined;

  afterAll(async () => {
    await cluster?.stop();
    await fixture?.close();
  });

  it('1,050 scrapes at concurrency 32 through a killed http worker, API replica, Temporal server and a PostgreSQL restart: one run per accepted request, every run terminal, the ledger exact', async () => {
    const seed = process.env.CHAOS_SEED ? Number(process.env.CHAOS_SEED) : Math.floor(Math.random() * 2 ** 32);
    console.log(`[chaos] seed ${seed} (CHAOS_SEED=${seed} replays its choices)`);
    const random = seededRandom(seed);

    fixture = await startFixtureServer();
    const bootStarted = Date.now();
    // The per-key request limit (RATE_LIMIT_PER_MINUTE, on the way from branch idem) is not under test.
    cluster = await startCluster({ name: 'chaos', env: { FREE_CREDITS: String(GRANT), RATE_LIMIT_PER_MINUTE: '1000000' } });
    const bootMs = Date.now() - bootStarted;
    const c = cluster;
    await c.waitFor('the API was not ready', async () => (await fetch(`${c.baseUrl}/readyz`).catch(() => undefined))?.status === 200);
    const accounts = await Promise.all(Array.from({ length: ACCOUNTS }, () => createAccount(c.baseUrl)));
    const targets = [c.baseUrl, ...c.replicaUrls];

    // Every 21st request is a browser scrape: 50 of 1,050, spread over the whole run.
    const requests: LogicalRequest[] = Array.from({ length: TOTAL }, (_, index) => {
      const mode = index % 21 === 10 ? 'browser' : 'http';
      return {
        index,
        mode,
        account: accounts[index % ACCOUNTS]!,
        target: targets[index % targets.length]!,
        url: `${fixture!.url}/page/chaos-${index}`,
        attempts: [],
        runIds: new Map(),
        accepted: false,
      };
    });

    const send = async (r: LogicalRequest): Promise<void> => {
      const body = r.mode === 'browser' ? { url: r.url, mode: 'browser', selectors: ['h1'] } : { url: r.url, selectors: ['h1'] };
      for (let attempt = 0; ; attempt++) {
        let status: number | 'connection';
        try {
          const res = await fetch(`${r.target}/webhook/unblocker`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': r.account.apiKey, 'idempotency-key': `chaos-${seed}-${r.index}` },
            body: JSON.stringify(body),
            // Past the API's own 50 s limit (then 504): an answer that never comes is a lost connection.
            signal: AbortSignal.timeout(90_000),
          });
          status = res.status;
          const text = await res.text();
          let id: string | undefined;
          try {
            id = (JSON.parse(text) as { id?: unknown }).id as string | undefined;
          } catch {
            // not JSON (a proxy's page): no run id
          }
          if (typeof id === 'string') r.runIds.set(id, status);
          if ((status >= 200 && status < 300) || (status === 504 && typeof id === 'string')) r.accepted = true;
        } catch {
          status = 'connection';
        }
        r.attempts.push(status);
        const retryable = status === 'connection' || RETRY_STATUSES.has(status);
        if (!retryable || attempt >= RETRY_DELAYS_MS.length) return;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
      }
    };

    // The load: CONCURRENCY clients, each taking the next logical request.
    let next = 0;
    let done = 0;
    let inFlight = 0;
    let loadDone = false;
    const loadStarted = Date.now();
    const load = Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < TOTAL) {
          const r = requests[next++]!;
          inFlight++;
          await send(r);
          inFlight--;
          done++;
        }
      }),
    ).then(() => {
      loadDone = true;
      return Date.now();
    });

    // The chaos: the victims in a random order, each at a random share (5–60 %) of the requests
    // done, once every process runs. Which worker and which replica is drawn too.
    const order = [...VICTIMS].sort(() => random() - 0.5);
    const moments = order.map(() => Math.floor(TOTAL * (0.05 + random() * 0.55))).sort((a, b) => a - b);
    const workerName = random() < 0.5 ? 'worker-http-1' : 'worker-http-2';
    const replicaName = random() < 0.5 ? 'api-1' : 'api-2';
    const processName: Record<Victim, string> = { 'http worker': workerName, 'API replica': replicaName, 'Temporal server': 'temporal', PostgreSQL: 'postgres' };
    console.log(`[chaos] plan: ${order.map((v, i) => `${v} (${processName[v]}) after ${moments[i]} requests`).join(', ')}`);
    const kills: Kill[] = [];
    const chaos = (async () => {
      for (const [i, victim] of order.entries()) {
        await c.waitFor(`${victim}'s moment (${moments[i]} requests done)`, () => done >= moments[i]! || loadDone, 600_000);
        // Every process runs and the service says it is ready (the workers polling again after a
        // Temporal restart): each fault lands on a whole service, not on the last one's recovery.
        const status = await c.waitFor(`every process running before killing the ${victim}`, async () => {
          const view = await c.view();
          if (view?.status !== 'ready') return undefined;
          const api = await fetch(`${c.baseUrl}/readyz`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
          return api?.status === 200 ? view : undefined;
        });
        if (loadDone) throw new Error(`the load ended before the ${victim} was killed: make it longer`);
        const before = status.processes.find((p) => p.name === processName[victim])!;
        const kill: Kill = { victim, name: before.name, pid: before.pid!, atMs: Date.now() - loadStarted, doneAtKill: done, inFlight };
        // PostgreSQL is stopped (a fast shutdown: it ends its sessions and exits cleanly); the
        // others die without a word.
        process.kill(before.pid!, victim === 'PostgreSQL' ? 'SIGINT' : 'SIGKILL');
        kills.push(kill);
        const killedAt = Date.now();
        await c.waitFor(`the ${victim} back`, async () => {
          const now = await c.processOf(before.name);
          return now?.state === 'running' && now.pid !== before.pid;
        });
        kill.backMs = Date.now() - killedAt;
      }
      await c.waitFor('every process running after the chaos', async () => (await c.view())?.status === 'ready');
      return Date.now();
    })();

    const [loadEndedAt, recoveredAt] = await Promise.all([load, chaos]);
    const loadMs = loadEndedAt - loadStarted;

    // Every run terminal within 2 minutes of recovery (or of the load's end, when later).
    const terminalFrom = Math.max(loadEndedAt, recoveredAt);
    const allTerminal = async () => {
      for (const account of accounts) if (!(await runsOf(c.databaseUrl, account.userId)).every((run) => TERMINAL.includes(run.status))) return false;
      return true;
    };
    const pendingAtEnd = async () =>
      (await Promise.all(accounts.map((a) => runsOf(c.databaseUrl, a.userId)))).flat().filter((run) => !TERMINAL.includes(run.status)).map((run) => ({ id: run.id, status: run.status }));
    await c.waitFor('every run terminal', allTerminal, Math.max(0, terminalFrom + TERMINAL_WITHIN_MS - Date.now())).catch(async (error: Error) => {
      throw new Error(`${error.message.split('\n')[0]}; not terminal: ${JSON.stringify(await pendingAtEnd())}`);
    });
    const terminalAfterMs = Date.now() - terminalFrom;

    // The ledger, per account.
    const audits: Array<{ account: TestAccount; audit: LedgerAudit }> = [];
    for (const account of accounts) {
      const told = requests.filter((r) => r.account === account).flatMap((r) => [...r.runIds.keys()]);
      audits.push({ account, audit: await auditRunsAndLedger(c.databaseUrl, account.userId, told) });
    }
    const allRuns = audits.flatMap((a) => a.audit.runs);
    const runsByUrl = new Map<string, number>();
    for (const run of allRuns) runsByUrl.set(run.url, (runsByUrl.get(run.url) ?? 0) + 1);
    // A request's runs that count: a run that failed before its first attempt (its API process
    // died between recording it and starting its workflow; the reaper failed it, uncharged) frees
    // the request's Idempotency-Key, and a retry starts afresh (api/idempotency.ts). Those are
    // counted apart, each checked uncharged by the ledger audit below.
    const realRunsByUrl = new Map<string, number>();
    for (const run of allRuns) if (!neverStarted(run)) realRunsByUrl.set(run.url, (realRunsByUrl.get(run.url) ?? 0) + 1);
    const accepted = requests.filter((r) => r.accepted);
    const acceptedWithoutOneRun = accepted
      .filter((r) => realRunsByUrl.get(r.url) !== 1)
      .map((r) => ({ index: r.index, attempts: r.attempts, runs: allRuns.filter((run) => run.url === r.url).map((run) => ({ id: run.id, status: run.status, attempts: run.attempts, error: run.error?.code })) }));
    const duplicates = requests.filter((r) => (realRunsByUrl.get(r.url) ?? 0) > 1);
    const stillborn = allRuns.filter(neverStarted);
    const supersededStillborn = stillborn.filter((run) => (realRunsByUrl.get(run.url) ?? 0) > 0).length;
    const knownUrls = new Set(requests.map((r) => r.url));
    // Run ids a client was told (in any answer) that name no run, with the answer that told them.
    const recorded = new Set(allRuns.map((run) => run.id));
    const toldButMissing = requests.flatMap((r) => [...r.runIds].filter(([id]) => !recorded.has(id)).map(([id, status]) => ({ index: r.index, id, status, attempts: r.attempts })));
    const runsOfNoRequest = allRuns.filter((run) => !knownUrls.has(run.url)).length;

    // The figures, printed before the assertions so a failing run shows them too.
    const statuses: Record<string, number> = {};
    for (const r of requests) for (const a of r.attempts) statuses[String(a)] = (statuses[String(a)] ?? 0) + 1;
    const byStatus: Record<string, number> = {};
    for (const run of allRuns) byStatus[run.status] = (byStatus[run.status] ?? 0) + 1;
    const outcomes: Record<string, number> = {};
    for (const { audit } of audits) for (const [k, v] of Object.entries(audit.outcomes)) outcomes[k] = (outcomes[k] ?? 0) + v;
    const sum = (f: (a: LedgerAudit) => number) => audits.reduce((s, a) => s + f(a.audit), 0);
    const retried = requests.filter((r) => r.attempts.length > 1);
    // Why the others were not: the target they kept trying and their last answer.
    const notAccepted: Record<string, number> = {};
    for (const r of requests.filter((q) => !q.accepted)) {
      const key = `${r.target === c.baseUrl ? 'entry point' : `api-${c.replicaUrls.indexOf(r.target) + 1} directly`}: ${String(r.attempts[r.attempts.length - 1])}`;
      notAccepted[key] = (notAccepted[key] ?? 0) + 1;
    }
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(
      [
        `[chaos] seed ${seed}; cluster topology ready in ${s(bootMs)}; load ${TOTAL} requests (${HTTP_REQUESTS} http, ${BROWSER_REQUESTS} browser) at concurrency ${CONCURRENCY} over the entry point and both replicas, ${ACCOUNTS} accounts, in ${s(loadMs)}`,
        `  requests: ${TOTAL}; accepted ${accepted.length} (http ${accepted.filter((r) => r.mode === 'http').length}, browser ${accepted.filter((r) => r.mode === 'browser').length}); not accepted ${TOTAL - accepted.length} ${JSON.stringify(notAccepted)}; retried ${retried.length} (${retried.reduce((n, r) => n + r.attempts.length - 1, 0)} retries)`,
        `  attempts by answer: ${JSON.stringify(statuses)}`,
        `  runs: ${allRuns.length} (accepted requests with exactly one run: ${accepted.length - acceptedWithoutOneRun.length} of ${accepted.length}; requests with more than one run: ${duplicates.length}; runs of no request: ${runsOfNoRequest}; ` +
          `failed before their first attempt, uncharged: ${stillborn.length}, of which ${supersededStillborn} retried afresh under the same key)`,
        `  run ids told to clients that name no run: ${toldButMissing.length}${toldButMissing.length ? ` (answers ${JSON.stringify(toldButMissing.map((t) => t.status))})` : ''}`,
        `  terminal by status: ${JSON.stringify(byStatus)}; by outcome: ${JSON.stringify(outcomes)}; all terminal ${s(terminalAfterMs)} after recovery/end of load`,
        `  ledger: ${sum((a) => a.debits)} debits, ${sum((a) => a.refunds)} refunds; double debits ${sum((a) => a.doubleDebits.length)}, debits without a run ${sum((a) => a.debitsWithoutRun.length)}, failed runs without their refund ${sum((a) => a.wrongRefunds.length)}`,
        `  per account (granted − remaining = cost of its runs): ${audits.map(({ audit }) => `${GRANT} − ${audit.balance} = ${GRANT - audit.balance} vs ${-audit.moved}${audit.ledgerTotal === audit.balance ? '' : ' (ledger total ≠ balance!)'}`).join('; ')}`,
        `  kills: ${kills.map((k) => `${k.victim} ${k.name} (pid ${k.pid}, ${k.victim === 'PostgreSQL' ? 'SIGINT' : 'SIGKILL'}) at ${s(k.atMs)} after ${k.doneAtKill} requests, ${k.inFlight} in flight, back in ${k.backMs === undefined ? '?' : s(k.backMs)}`).join('; ')}`,
      ].join('\n'),
    );

    expect(kills.map((k) => k.victim).sort()).toEqual([...VICTIMS].sort());
    expect(accepted.length).toBeGreaterThan(0);
    expect(acceptedWithoutOneRun).toEqual([]);
    expect(runsOfNoRequest).toBe(0);
    expect(toldButMissing).toEqual([]);
    for (const { account, audit } of audits) {
      expect({ account: account.userId, missing: audit.missing, duplicateIds: audit.duplicateIds, doubleDebits: audit.doubleDebits, debitsWithoutRun: audit.debitsWithoutRun, wrongRefunds: audit.wrongRefunds }).toEqual({
        account: account.userId,
        missing: [],
        duplicateIds: 0,
        doubleDebits: [],
        debitsWithoutRun: [],
        wrongRefunds: [],
      });
      // The ledger reconciles exactly: its rows add up to the balance, and what left the grant is what the runs cost.
      expect(audit.ledgerTotal).toBe(audit.balance);
      expect(GRANT - audit.balance).toBe(-audit.moved);
    }
  }, 1_200_000);
});
