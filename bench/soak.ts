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
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAccount } from '../test/helpers/accounts';
import { type RunningCluster, startCluster } from '../test/helpers/cluster';
import { type FixtureServer, startFixtureServer } from '../test/fixtures/server';
import { runBench } from './services';

const minutes = Number(process.env.SOAK_MINUTES ?? '30');
const concurrency = Number(process.env.SOAK_CONCURRENCY ?? '16');
const browserEvery = Number(process.env.SOAK_BROWSER_EVERY ?? '4');
const sampleSeconds = Number(process.env.SOAK_SAMPLE_SECONDS ?? '15');
const warmupMinutes = Number(process.env.SOAK_WARMUP_MINUTES ?? '3');
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

runBench(main);
