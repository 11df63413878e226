/**
 * Soak (issue 14): the production topology (`npm start -- --topology=cluster`, started by this
 * script with a data folder of its own: the official Temporal server on PostgreSQL, 2 API replicas
 * behind the balancer, 2 http workers, 1 browser worker) under a steady mixed load for a long
 * while, sampling the resident memory of each process to see whether any of them grows.
 *   npm run soak     (SOAK_MINUTES, default 30; SOAK_CONCURRENCY, default 16; SOAK_BROWSER_EVERY,
 *                     default 4: one request in 4 is a browser scrape; SOAK_SAMPLE_SECONDS, default
 *                     15; SOAK_WARMUP_MINUTES, default 3)
 * The clients send POST /webhook/unblocker through the entry point to the local fixture site;
 * every answer's status is counted (a 5xx is a failure of the soak). Every sample reads, from
 * /proc, the RSS of each API replica, each worker's own process, and the browser worker's
 * Chromium (the sum over its process tree), plus the Temporal server and PostgreSQL (postmaster
 * and backends) for reference; the processes are found by the supervisor's /readyz, so a restart
 * would show (and is counted). PSS (shared pages divided among their sharers) is read alongside.
 * After the warm-up, a process is flat when its one-minute medians stay within ±10 % of their
 * median (a single sample catches Chromium with more or fewer renderers alive); the spread of
 * single samples and the last fifth against the first are reported too. The report goes to stdout and bench/results/soak-latest.md,
 * the samples to bench/results/soak-samples.json (neither committed).
 *
 * SOAK_WORKLOAD=actions (issue 26: "500 pages with actions and sessions keep the browser worker's
 * RSS within the bounds the soak already holds") runs a count instead of a time: SOAK_PAGES
 * (default 500) browser scrapes of the login fixture site's members-only page, each with a stored
 * session (one per client, imported once) and a few actions (wait for a selector, scroll, a
 * script that writes local storage, a click, a snapshot), one in SOAK_SAVE_EVERY (default 3)
 * saving its session back; SOAK_CONCURRENCY defaults to 4 there. First SOAK_WARMUP_PAGES
 * (default 50) of that work, then the baseline of the same run: SOAK_BASELINE_PAGES (default
 * 250) plain browser pages of the same site (no session, no action). It reports the browser
 * worker's and Chromium's RSS and PSS at each step and during each phase, the pages with actions
 * against the plain ones and against the last full soak's figures (docs/benchmarks.md); results
 * to bench/results/soak-actions-latest.md.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAccount } from '../test/helpers/accounts';
import { type RunningCluster, startCluster } from '../test/helpers/cluster';
import { type FixtureServer, startFixtureServer } from '../test/fixtures/server';
import { type LoginSite, MEMBERS_SECRET, startLoginSite } from '../test/fixtures/login-site';
import { runBench } from './services';

const minutes = Number(process.env.SOAK_MINUTES ?? '30');
const concurrency = Number(process.env.SOAK_CONCURRENCY ?? '16');
const browserEvery = Number(process.env.SOAK_BROWSER_EVERY ?? '4');
const sampleSeconds = Number(process.env.SOAK_SAMPLE_SECONDS ?? '15');
const warmupMinutes = Number(process.env.SOAK_WARMUP_MINUTES ?? '3');
const workload = process.env.SOAK_WORKLOAD ?? 'mixed';
const FLAT = 0.1;

/** What is sampled: each API replica, each worker's own process, Chromium, and for reference Temporal and PostgreSQL. */
const SERIES = ['api-1', 'api-2', 'worker-http-1', 'worker-http-2', 'worker-browser', 'chromium', 'temporal', 'postgres'] as const;
type Series = (typeof SERIES)[number];

interface Sample {
  atS: number;
  requests: number;
  load1: number;
  /** Resident set size, bytes. */
  rss: Record<Series, number>;
  /** Proportional set size (shared pages divided among their sharers), bytes: what a process tree really holds. */
  pss: Record<Series, number>;
  pids: Record<string, number>;
}

/** A process and its descendants, pids. */
function tree(pid: number): number[] {
  const pids: number[] = [];
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    pids.push(p);
    try {
      stack.push(...readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      // gone
    }
  }
  return pids;
}

const statusKb = (pid: number, field: string, file = 'status'): number => {
  try {
    return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
};
const rssOf = (pids: number[]) => pids.reduce((sum, p) => sum + statusKb(p, 'VmRSS'), 0);
const pssOf = (pids: number[]) => pids.reduce((sum, p) => sum + statusKb(p, 'Pss', 'smaps_rollup'), 0);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

async function sample(cluster: RunningCluster, startedAt: number, requests: number): Promise<Sample | undefined> {
  const view = await cluster.view();
  if (!view) return undefined;
  const pid = (name: string) => view.processes.find((p) => p.name === name)?.pid ?? 0;
  const groups = {} as Record<Series, number[]>;
  for (const name of ['api-1', 'api-2', 'worker-http-1', 'worker-http-2', 'worker-browser'] as const) groups[name] = pid(name) ? [pid(name)] : [];
  // Chromium: every process under the browser worker (the browser, its zygotes, renderers, GPU and utility processes).
  groups.chromium = pid('worker-browser') ? tree(pid('worker-browser')).slice(1) : [];
  groups.temporal = pid('temporal') ? tree(pid('temporal')) : [];
  groups.postgres = pid('postgres') ? tree(pid('postgres')) : [];
  const rss = {} as Record<Series, number>;
  const pss = {} as Record<Series, number>;
  for (const name of SERIES) {
    rss[name] = rssOf(groups[name]);
    pss[name] = pssOf(groups[name]);
  }
  return { atS: (Date.now() - startedAt) / 1000, requests, load1: os.loadavg()[0]!, rss, pss, pids: Object.fromEntries(view.processes.map((p) => [p.name, p.pid ?? 0])) };
}

async function main(): Promise<void> {
  if (workload === 'actions') return actionsSoak();
  if (workload !== 'mixed') throw new Error(`SOAK_WORKLOAD must be mixed (the default) or actions, not ${workload}`);
  const startedAtDate = new Date();
  const loadAtStart = os.loadavg();
  let fixtures: FixtureServer | undefined;
  let cluster: RunningCluster | undefined;
  try {
    fixtures = await startFixtureServer();
    console.log(`soak: starting the cluster topology (${minutes} min at concurrency ${concurrency}, one request in ${browserEvery} in browser mode)`);
    // One API key sends everything: the per-key request limit (RATE_LIMIT_PER_MINUTE, on the way
    // from branch idem) must not be what the soak measures.
    cluster = await startCluster({ name: 'soak', env: { FREE_CREDITS: '100000000', RATE_LIMIT_PER_MINUTE: '1000000' }, log: console.log });
    const c = cluster;
    await c.waitFor('the API was not ready', async () => (await fetch(`${c.baseUrl}/readyz`).catch(() => undefined))?.status === 200);
    const account = await createAccount(c.baseUrl);
    const restartsAtStart = Object.fromEntries(((await c.view())?.processes ?? []).map((p) => [p.name, p.restarts]));

    const statuses = new Map<string, number>();
    const latencies: Record<'http' | 'browser', number[]> = { http: [], browser: [] };
    const failures: string[] = [];
    let sent = 0;
    const startedAt = Date.now();
    const endAt = startedAt + minutes * 60_000;
    const samples: Sample[] = [];
    const first = await sample(c, startedAt, 0);
    if (first) samples.push(first);
    const sampler = setInterval(() => {
      void sample(c, startedAt, sent).then((s) => {
        if (!s) return;
        samples.push(s);
        console.log(`soak ${(s.atS / 60).toFixed(1)} min, ${s.requests} requests, load ${s.load1.toFixed(1)}: ${SERIES.map((n) => `${n} ${mib(s.rss[n])}`).join(', ')} MiB`);
      });
    }, sampleSeconds * 1000);

    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < endAt) {
          const n = sent++;
          const mode = n % browserEvery === browserEvery - 1 ? 'browser' : 'http';
          const body = { url: `${fixtures!.url}/links?n=20`, mode, selectors: ['h1', { selector: 'a.link', attribute: 'href', all: true }] };
          const t0 = performance.now();
          let key: string;
          try {
            const res = await fetch(`${c.baseUrl}/webhook/unblocker`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
              body: JSON.stringify(body),
              signal: AbortSignal.timeout(90_000),
            });
            const text = await res.text();
            key = String(res.status);
            if (res.status >= 500 && failures.length < 20) failures.push(`${res.status} ${text.slice(0, 200)}`);
          } catch (error) {
            key = 'connection error';
            if (failures.length < 20) failures.push(`connection error: ${(error as Error).message}`);
          }
          latencies[mode].push(performance.now() - t0);
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
        }
      }),
    );
    clearInterval(sampler);
    const last = await sample(c, startedAt, sent);
    if (last) samples.push(last);
    const seconds = (Date.now() - startedAt) / 1000;
    const restartsAtEnd = Object.fromEntries(((await c.view())?.processes ?? []).map((p) => [p.name, p.restarts]));

    // After the warm-up, for each series: the spread of single samples around their median, and of
    // one-minute medians (a sample catches Chromium with more or fewer renderers alive, PostgreSQL
    // with more or fewer backends: the minute's median is the level, and flat means its level
    // stays within ±10 %); and the last fifth's mean against the first fifth's, a slow climb.
    const warm = samples.filter((s) => s.atS >= warmupMinutes * 60);
    const analyse = (name: Series, kind: 'rss' | 'pss') => {
      const values = warm.map((s) => s[kind][name]);
      const mid = median(values);
      const spread = (xs: number[], around: number) => (around ? Math.max(...xs.map((v) => Math.abs(v - around))) / around : NaN);
      const minutes = new Map<number, number[]>();
      for (const s of warm) minutes.set(Math.floor(s.atS / 60), [...(minutes.get(Math.floor(s.atS / 60)) ?? []), s[kind][name]]);
      const minuteMedians = [...minutes.values()].map(median);
      const fifth = Math.max(1, Math.floor(values.length / 5));
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const drift = (mean(values.slice(-fifth)) - mean(values.slice(0, fifth))) / mean(values.slice(0, fifth));
      const minuteSpread = spread(minuteMedians, median(minuteMedians));
      return { median: mid, min: Math.min(...values), max: Math.max(...values), sampleSpread: spread(values, mid), minuteSpread, drift, flat: minuteSpread <= FLAT };
    };
    const rows = SERIES.map((name) => ({ name, rss: analyse(name, 'rss'), pss: analyse(name, 'pss') }));
    const pct = (x: number, signed = false) => `${signed && x >= 0 ? '+' : signed ? '' : '±'}${(x * 100).toFixed(1)} %`;
    const fivexx = [...statuses].filter(([k]) => /^5/.test(k)).reduce((s, [, v]) => s + v, 0);
    const connectionErrors = statuses.get('connection error') ?? 0;
    const loads = samples.map((s) => s.load1);
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const lines = [
      `Soak of the cluster topology: ${minutes} min at concurrency ${concurrency}, one request in ${browserEvery} in browser mode, samples every ${sampleSeconds} s, warm-up ${warmupMinutes} min`,
      `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${startedAtDate.toISOString()} → ${new Date().toISOString()}`,
      `Load average (1 min): ${loadAtStart[0]!.toFixed(1)} at start; during the soak min ${Math.min(...loads).toFixed(1)}, median ${percentile(sorted(loads), 50).toFixed(1)}, max ${Math.max(...loads).toFixed(1)}`,
      `Requests: ${sent} in ${seconds.toFixed(0)} s (${(sent / seconds).toFixed(1)} req/s): http ${latencies.http.length} (p50 ${percentile(sorted(latencies.http), 50).toFixed(0)} ms, p95 ${percentile(sorted(latencies.http), 95).toFixed(0)} ms), browser ${latencies.browser.length} (p50 ${percentile(sorted(latencies.browser), 50).toFixed(0)} ms, p95 ${percentile(sorted(latencies.browser), 95).toFixed(0)} ms)`,
      `Answers: ${JSON.stringify(Object.fromEntries(statuses))}; 5xx: ${fivexx}; connection errors: ${connectionErrors}`,
      `Restarts during the soak: ${SERIES.filter((n) => n in restartsAtEnd).map((n) => `${n} ${(restartsAtEnd[n] ?? 0) - (restartsAtStart[n] ?? 0)}`).join(', ')}`,
      ...(failures.length ? ['First failures:', ...failures.map((f) => `  ${f}`)] : []),
      '',
      `RSS after the warm-up (${warm.length} samples), MiB:`,
      '',
      '| process | RSS median | min | max | samples vs median | 1-min medians vs their median | last fifth vs first fifth | flat (±10 %) | PSS median | PSS 1-min medians | PSS last vs first fifth |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows.map(
        ({ name, rss, pss }) =>
          `| ${name} | ${mib(rss.median)} | ${mib(rss.min)} | ${mib(rss.max)} | ${pct(rss.sampleSpread)} | ${pct(rss.minuteSpread)} | ${pct(rss.drift, true)} | ${rss.flat ? 'yes' : '**no**'} | ${mib(pss.median)} | ${pct(pss.minuteSpread)} | ${pct(pss.drift, true)} |`,
      ),
      '',
      'chromium: every process under the browser worker, summed (RSS counts a shared page once per process, PSS divides it among them); temporal, postgres: the server and its children (PostgreSQL: postmaster and backends), for reference. Flat: the one-minute medians within ±10 % of their median.',
    ];
    const report = lines.join('\n');
    console.log(`\n${report}\n`);
    const dir = path.join(__dirname, 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'soak-latest.md'), `${report}\n`);
    writeFileSync(path.join(dir, 'soak-samples.json'), JSON.stringify(samples, null, 1));
    if (fivexx > 0 || connectionErrors > 0) throw new Error(`soak: ${fivexx} 5xx answers and ${connectionErrors} connection errors (must be 0)`);
  } finally {
    const stopped = await cluster?.stop();
    if (stopped && (stopped.code !== 0 || stopped.leftover.length)) console.error(`soak: the cluster stopped with exit code ${stopped.code}, ${stopped.leftover.length} processes left`);
    await fixtures?.close();
  }
}

/**
 * The figures the full soak holds for the browser side (docs/benchmarks.md, "Soak rerun of
 * 2026-11-22 20:54–21:24 UTC": RSS after its warm-up, MiB), printed beside this run's.
 */
const FULL_SOAK = { 'worker-browser': { median: 512, min: 482, max: 564 }, chromium: { median: 363, min: 260, max: 551 } } as const;

/** SOAK_WORKLOAD=actions: a count of browser scrapes with actions and sessions, the browser worker's memory against plain pages of the same run. */
async function actionsSoak(): Promise<void> {
  const pages = Number(process.env.SOAK_PAGES ?? '500');
  const baselinePages = Number(process.env.SOAK_BASELINE_PAGES ?? '250');
  const warmupPages = Number(process.env.SOAK_WARMUP_PAGES ?? '50');
  const clients = Number(process.env.SOAK_CONCURRENCY ?? '4');
  const saveEvery = Number(process.env.SOAK_SAVE_EVERY ?? '3');
  const every = Number(process.env.SOAK_SAMPLE_SECONDS ?? '5');
  const startedAtDate = new Date();
  const loadAtStart = os.loadavg();
  let site: LoginSite | undefined;
  let cluster: RunningCluster | undefined;
  type Phase = 'cold' | 'warm-up' | 'baseline' | 'actions';
  try {
    site = await startLoginSite();
    const login = site;
    console.log(
      `soak (actions): starting the cluster topology; ${warmupPages} warm-up, ${baselinePages} plain and ${pages} browser pages with actions and a session, ${clients} at once, one in ${saveEvery} saving`,
    );
    cluster = await startCluster({ name: 'soak-actions', env: { FREE_CREDITS: '100000000', RATE_LIMIT_PER_MINUTE: '1000000' }, log: console.log });
    const c = cluster;
    await c.waitFor('the API was not ready', async () => (await fetch(`${c.baseUrl}/readyz`).catch(() => undefined))?.status === 200);
    const account = await createAccount(c.baseUrl);
    const headers = { 'content-type': 'application/json', 'x-api-key': account.apiKey };
    // One session per client, imported as a user who logged in in their own browser would.
    const host = new URL(login.url).hostname;
    for (let i = 0; i < clients; i++) {
      const state = { cookies: [{ name: 'sid', value: login.mintSession(), domain: host, path: '/', expires: Math.floor(Date.now() / 1000) + 86_400, httpOnly: true, secure: false, sameSite: 'Lax' }], origins: [] };
      const put = await fetch(`${c.baseUrl}/sessions/soak-${i}`, { method: 'PUT', headers, body: JSON.stringify(state) });
      if (put.status !== 201) throw new Error(`soak: importing session soak-${i} answered ${put.status} ${await put.text()}`);
    }
    const restartsAtStart = Object.fromEntries(((await c.view())?.processes ?? []).map((p) => [p.name, p.restarts]));

    const statuses = new Map<string, number>();
    const failures: string[] = [];
    const latencies: Record<'baseline' | 'actions', number[]> = { baseline: [], actions: [] };
    const seconds: Record<'baseline' | 'actions', number> = { baseline: 0, actions: 0 };
    let sent = 0;
    let done = 0;
    let wrong = 0;
    const startedAt = Date.now();
    const samples: Array<Sample & { phase: Phase }> = [];
    let phase: Phase = 'warm-up';
    const take = async (as: Phase) => {
      const s = await sample(c, startedAt, done);
      if (s) samples.push({ ...s, phase: as });
      return s;
    };
    const cold = await take('cold');
    const sampler = setInterval(() => {
      void take(phase).then((s) => s && console.log(`soak (${phase}) ${done} pages, load ${s.load1.toFixed(1)}: worker-browser ${mib(s.rss['worker-browser'])}, chromium ${mib(s.rss.chromium)} MiB`));
    }, every * 1000);

    /** The members' page: with a stored session and five actions, or plain (no session: the site's "Please log in"). */
    const requestOf = (n: number, client: number, withActions: boolean) =>
      withActions
        ? {
            url: `${login.url}/members`,
            mode: 'browser',
            session: { name: `soak-${client}`, save: n % saveEvery === 0 },
            actions: [
              { type: 'wait', selector: '#secret' },
              { type: 'scroll', direction: 'down' },
              { type: 'executeJavascript', script: `localStorage.setItem('pref', 'page-${n}'); return document.title;` },
              { type: 'click', selector: '#title' },
              { type: 'scrape' },
            ],
            selectors: ['#secret'],
          }
        : { url: `${login.url}/members`, mode: 'browser', selectors: ['#title'] };
    type Answer = { data?: Array<{ results: Array<{ text: string }> }>; actions?: { scrapes?: unknown[]; javascriptReturns?: unknown[] } };
    const expected = (answer: Answer, withActions: boolean) =>
      withActions
        ? answer.data?.[0]?.results[0]?.text === MEMBERS_SECRET && answer.actions?.scrapes?.length === 1 && answer.actions?.javascriptReturns?.length === 1
        : answer.data?.[0]?.results[0]?.text === 'Please log in';

    const runPages = async (count: number, withActions: boolean) => {
      const until = sent + count;
      const t = Date.now();
      await Promise.all(
        Array.from({ length: clients }, async (_, client) => {
          while (sent < until) {
            const n = sent++;
            const t0 = performance.now();
            let key: string;
            try {
              const res = await fetch(`${c.baseUrl}/webhook/unblocker`, { method: 'POST', headers, body: JSON.stringify(requestOf(n, client, withActions)), signal: AbortSignal.timeout(120_000) });
              const text = await res.text();
              key = String(res.status);
              if (res.status === 200 && !expected(JSON.parse(text) as Answer, withActions)) {
                wrong++;
                if (failures.length < 20) failures.push(`200 but not the expected page (or not the actions' outputs): ${text.slice(0, 300)}`);
              } else if (res.status !== 200 && failures.length < 20) failures.push(`${res.status} ${text.slice(0, 300)}`);
            } catch (error) {
              key = 'connection error';
              if (failures.length < 20) failures.push(`connection error: ${(error as Error).message}`);
            }
            if (phase === 'baseline' || phase === 'actions') latencies[phase].push(performance.now() - t0);
            statuses.set(key, (statuses.get(key) ?? 0) + 1);
            done++;
          }
        }),
      );
      return (Date.now() - t) / 1000;
    };
    await runPages(warmupPages, true);
    const warmed = await take('warm-up');
    phase = 'baseline';
    seconds.baseline = await runPages(baselinePages, false);
    const afterBaseline = await take('baseline');
    phase = 'actions';
    seconds.actions = await runPages(pages, true);
    clearInterval(sampler);
    const end = await take('actions');
    const restartsAtEnd = Object.fromEntries(((await c.view())?.processes ?? []).map((p) => [p.name, p.restarts]));

    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const stats = (name: 'worker-browser' | 'chromium', of: Phase, kind: 'rss' | 'pss') => {
      const values = samples.filter((s) => s.phase === of).map((s) => s[kind][name]);
      const fifth = Math.max(1, Math.floor(values.length / 5));
      const drift = (mean(values.slice(-fifth)) - mean(values.slice(0, fifth))) / mean(values.slice(0, fifth));
      return { n: values.length, median: median(values), min: Math.min(...values), max: Math.max(...values), p90: percentile(sorted(values), 90), drift };
    };
    const signed = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
    const rows = (['worker-browser', 'chromium'] as const).flatMap((name) =>
      (['rss', 'pss'] as const).map((kind) => {
        const base = stats(name, 'baseline', kind);
        const act = stats(name, 'actions', kind);
        const bound = kind === 'rss' ? FULL_SOAK[name] : undefined;
        const points = `${mib(cold?.[kind][name] ?? NaN)} / ${mib(warmed?.[kind][name] ?? NaN)} / ${mib(afterBaseline?.[kind][name] ?? NaN)} / ${mib(end?.[kind][name] ?? NaN)}`;
        return `| ${name} ${kind.toUpperCase()} | ${points} | ${mib(base.median)} (${mib(base.min)}–${mib(base.max)}), p90 ${mib(base.p90)} | ${mib(act.median)} (${mib(act.min)}–${mib(act.max)}), p90 ${mib(act.p90)} | ${signed((act.median - base.median) / base.median)} | ${signed(act.drift)} | ${bound ? `${bound.median} (${bound.min}–${bound.max})` : '–'} |`;
      }),
    );
    const fivexx = [...statuses].filter(([k]) => /^5/.test(k)).reduce((sum, [, v]) => sum + v, 0);
    const not200 = [...statuses].filter(([k]) => k !== '200').reduce((sum, [, v]) => sum + v, 0);
    const loads = samples.map((s) => s.load1);
    const rate = (k: 'baseline' | 'actions', count: number) =>
      `${count} in ${seconds[k].toFixed(0)} s (${(count / seconds[k]).toFixed(2)} pages/s), p50 ${percentile(sorted(latencies[k]), 50).toFixed(0)} ms, p95 ${percentile(sorted(latencies[k]), 95).toFixed(0)} ms`;
    const lines = [
      `Soak (actions and sessions) of the cluster topology: ${warmupPages} warm-up pages with actions, then ${baselinePages} plain browser pages (the baseline), then ${pages} browser pages each with 5 actions and a stored session (one in ${saveEvery} saving it); ${clients} at once; samples every ${every} s`,
      `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${startedAtDate.toISOString()} → ${new Date().toISOString()}`,
      `Load average (1 min): ${loadAtStart[0]!.toFixed(1)} at start; during the run min ${Math.min(...loads).toFixed(1)}, median ${percentile(sorted(loads), 50).toFixed(1)}, max ${Math.max(...loads).toFixed(1)}`,
      `Plain pages: ${rate('baseline', baselinePages)}; pages with actions and a session: ${rate('actions', pages)}`,
      `Answers (warm-up included): ${JSON.stringify(Object.fromEntries(statuses))}; not 200: ${not200}; 200 without the expected page or the actions' outputs: ${wrong}`,
      `Restarts: ${['worker-browser', 'api-1', 'api-2'].map((n) => `${n} ${(restartsAtEnd[n] ?? 0) - (restartsAtStart[n] ?? 0)}`).join(', ')}`,
      ...(failures.length ? ['First failures:', ...failures.map((f) => `  ${f}`)] : []),
      '',
      `MiB; samples: ${stats('chromium', 'baseline', 'rss').n} during the plain pages, ${stats('chromium', 'actions', 'rss').n} during the pages with actions:`,
      '',
      '| process | cold / after warm-up / after plain pages / after the pages with actions | plain pages: median (min–max) | with actions and sessions: median (min–max) | medians, actions vs plain | last fifth vs first fifth (actions) | full soak (2026-11-22): median (min–max) |',
      '|---|---|---|---|---|---|---|',
      ...rows,
      '',
      'chromium: every process under the browser worker, summed (RSS counts a shared page once per process; PSS divides it among them). The full soak: 30 min, 16 clients, 3 http : 1 browser, plain browser pages (docs/benchmarks.md).',
    ];
    const report = lines.join('\n');
    console.log(`\n${report}\n`);
    const dir = path.join(__dirname, 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'soak-actions-latest.md'), `${report}\n`);
    writeFileSync(path.join(dir, 'soak-actions-samples.json'), JSON.stringify(samples, null, 1));
    if (fivexx > 0 || wrong > 0) throw new Error(`soak (actions): ${fivexx} 5xx answers and ${wrong} wrong pages (must be 0)`);
  } finally {
    const stopped = await cluster?.stop();
    if (stopped && (stopped.code !== 0 || stopped.leftover.length)) console.error(`soak: the cluster stopped with exit code ${stopped.code}, ${stopped.leftover.length} processes left`);
    await site?.close();
  }
}

runBench(main);
