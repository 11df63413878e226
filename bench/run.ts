/**
 * Benchmark: our API path against a direct baseline on the same fixture page, side by side in one run.
 *   http:    (a) undici request + cheerio parse, in this process      (b) POST /webhook/unblocker mode=http
 *   browser: (a) raw Playwright: new context + page, goto, content     (b) POST /webhook/unblocker mode=browser
 *            (same page cap as the worker's pool: BROWSER_CONCURRENCY=2)
 * Per phase: p50/p95 latency, throughput, and CPU per request of every process (API, worker, the
 * worker's Chromium, Temporal server, PostgreSQL, the baseline's Chromium, this load generator),
 * read from /proc. Then the worker + Chromium RSS over BENCH_BROWSER_PAGES browser pages.
 * Real services as `npm start` runs them: embedded PostgreSQL, the file-backed Temporal dev server,
 * the API and worker processes. Everything on 127.0.0.1; every loop is bounded.
 *   npm run bench          (BENCH_REQUESTS=N scales request counts; BENCH_BROWSER_PAGES, default 2000)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as cheerio from 'cheerio';
import { chromium } from 'playwright-core';
import { Agent, request } from 'undici';
import { CHROMIUM_ARGS } from '../scrape/browser';
import { parseConfig } from '../platform/config';
import { createAccount, setBalance, sql } from '../test/helpers/accounts';
import { startStack } from '../test/helpers/stack';
import { ROLES, type Role, SERVICE_ROLES, cpuByRole, cpuPerRequest, treeRss } from './process-cpu';
import { drive, runBench, startBenchServices } from './services';

const scale = Number(process.env.BENCH_REQUESTS ?? '1');
const browserPages = Number(process.env.BENCH_BROWSER_PAGES ?? '2000');
const PAGE_CAP = 2;

interface Row {
  mode: 'http' | 'browser';
  path: string;
  ours: boolean;
  concurrency: number;
  requests: number;
  p50: number;
  p95: number;
  throughput: number;
  cpu: Record<Role, number>;
  /** PostgreSQL transactions committed per request (every database of the server), the statements' count as the database sees it. */
  pgTransactions: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Runs `total` calls with at most `concurrency` in flight (every call must succeed), with the CPU
 * each process spent meanwhile and the transactions PostgreSQL committed (`committed()` reads the
 * server's running total).
 */
async function measure(total: number, concurrency: number, call: () => Promise<void>, committed: () => Promise<number>) {
  const [cpuBefore, committedBefore] = [cpuByRole(), await committed()];
  const { latencies, seconds } = await drive(total, concurrency, call);
  const cpu = cpuPerRequest(cpuBefore, cpuByRole(), total);
  const pgTransactions = ((await committed()) - committedBefore) / total;
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), throughput: total / seconds, cpu, pgTransactions };
}

const serviceCpu = (cpu: Record<Role, number>) => SERVICE_ROLES.reduce((sum, r) => sum + cpu[r], 0);

async function main(): Promise<void> {
  const config = parseConfig(process.env);
  const loadAtStart = os.loadavg();
  const startedAt = new Date();
  const services = await startBenchServices({ name: 'bench' });
  const { fixtures } = services;
  let started: Awaited<ReturnType<typeof startStack>> | undefined;
  const rows: Row[] = [];
  const loads: number[] = [];
  const sampleLoad = setInterval(() => loads.push(os.loadavg()[0]!), 5000);
  try {
    const stack = await startStack({ env: { BROWSER_CONCURRENCY: String(PAGE_CAP) } });
    started = stack;
    const account = await createAccount(stack.baseUrl);
    await setBalance(stack.databaseUrl, account.userId, 10_000_000);
    // The reading's own transaction is counted too: ~1 per phase, nothing per request.
    const committed = async () => (await sql<{ n: number }>(stack.databaseUrl, 'SELECT sum(xact_commit)::float8 AS n FROM pg_stat_database'))[0]!.n;
    const pageUrl = `${fixtures.url}/links?n=20`;
    const selectors = ['h1', { selector: 'a.link', attribute: 'href', all: true }];
    const viaApi = (mode: 'http' | 'browser') => async () => {
      const res = await fetch(`${stack.baseUrl}/webhook/unblocker`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
        body: JSON.stringify({ url: pageUrl, mode, selectors, options: { retry_count: 0 } }),
      });
      if (res.status !== 200) throw new Error(`API answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    const phase = async (mode: Row['mode'], pathName: string, ours: boolean, concurrency: number, total: number, call: () => Promise<void>) => {
      await measure(Math.max(concurrency * 2, 10), concurrency, call, committed); // warm-up
      rows.push({ mode, path: pathName, ours, concurrency, requests: total, ...(await measure(total, concurrency, call, committed)) });
      const r = rows[rows.length - 1]!;
      console.log(`${mode} ${pathName} c=${concurrency}: p50 ${r.p50.toFixed(1)} ms, ${r.throughput.toFixed(1)} req/s, service CPU ${serviceCpu(r.cpu).toFixed(1)} ms/request, ${r.pgTransactions.toFixed(2)} PostgreSQL transactions/request`);
    };

    // http: direct undici + cheerio (the same work our http engine does, without the API path)
    const agent = new Agent({ connections: 64 });
    const direct = async () => {
      const res = await request(pageUrl, { dispatcher: agent });
      const $ = cheerio.load(await res.body.text());
      if ($('a.link').length !== 20) throw new Error('unexpected page');
    };
    for (const [concurrency, count] of [[1, 100], [8, 300], [32, 600]] as const) {
      const total = Math.round(count * scale);
      await phase('http', 'direct undici + cheerio', false, concurrency, total, direct);
      await phase('http', 'our API', true, concurrency, total, viaApi('http'));
    }
    await agent.close();

    // browser: raw Playwright, one browser, a fresh context and page per request, the same page cap
    const browser = await chromium.launch({ executablePath: config.CHROMIUM_PATH, args: CHROMIUM_ARGS });
    let inFlight = 0;
    const waiting: Array<() => void> = [];
    const directBrowser = async () => {
      if (inFlight >= PAGE_CAP) await new Promise<void>((resolve) => waiting.push(resolve));
      inFlight++;
      try {
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          await page.goto(pageUrl, { waitUntil: 'load' });
          const $ = cheerio.load(await page.content());
          if ($('a.link').length !== 20) throw new Error('unexpected page');
        } finally {
          await context.close();
        }
      } finally {
        inFlight--;
        waiting.shift()?.();
      }
    };
    for (const [concurrency, count] of [[1, 40], [8, 120]] as const) {
      const total = Math.round(count * scale);
      await phase('browser', 'raw Playwright', false, concurrency, total, directBrowser);
      await phase('browser', 'our API', true, concurrency, total, viaApi('browser'));
    }
    await browser.close();

    // RSS of the browser worker (the worker process and its Chromium) over many browser pages
    const workerPid = stack.workerProcess()!.pid!;
    const rss: Array<{ after: number; tree: number }> = [];
    const step = Math.max(1, Math.round(browserPages / 10));
    for (let done = 0; done < browserPages; done += step) {
      await measure(step, 4, viaApi('browser'), committed);
      rss.push({ after: done + step, tree: treeRss(workerPid) });
      console.log(`browser pages ${done + step}: worker + Chromium RSS ${(rss[rss.length - 1]!.tree / 2 ** 20).toFixed(0)} MiB`);
    }

    clearInterval(sampleLoad);
    const fmt = (n: number) => n.toFixed(1);
    const cpuCols = ROLES.filter((r) => rows.some((row) => row.cpu[r] > 0.05));
    const lines = [
      `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${startedAt.toISOString()} → ${new Date().toISOString()}`,
      `Load average (1 min): ${loadAtStart[0]!.toFixed(1)} at start; during the run min ${Math.min(...loads).toFixed(1)}, max ${Math.max(...loads).toFixed(1)}`,
      '',
      `| mode | path | c | requests | p50 ms | p95 ms | req/s | ${cpuCols.join(' | ')} | service total | pg xacts |`,
      `|---|---|---|---|---|---|---|${cpuCols.map(() => '---|').join('')}---|---|`,
      ...rows.map(
        (r) =>
          `| ${r.mode} | ${r.path} | ${r.concurrency} | ${r.requests} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.throughput)} | ${cpuCols.map((c) => fmt(r.cpu[c])).join(' | ')} | ${r.ours ? fmt(serviceCpu(r.cpu)) : '—'} | ${r.ours ? r.pgTransactions.toFixed(2) : '—'} |`,
      ),
      '',
      'CPU columns: milliseconds of CPU per request (user + system, from /proc) of each process during the phase. pg xacts: PostgreSQL transactions committed per request (pg_stat_database).',
      '',
    ];
    const find = (mode: Row['mode'], ours: boolean, c: number) => rows.find((r) => r.mode === mode && r.ours === ours && r.concurrency === c)!;
    const httpC1 = find('http', true, 1).p50 - find('http', false, 1).p50;
    const httpC32 = find('http', true, 32);
    const browserRatio = find('browser', true, 1).p50 / find('browser', false, 1).p50;
    const browserThroughput = find('browser', true, 8).throughput / find('browser', false, 8).throughput;
    // Flat: every sample after the first (warm-up) within ±10 % of their median.
    const warm = rss.slice(1).map((s) => s.tree).sort((a, b) => a - b);
    const median = warm[Math.floor(warm.length / 2)] ?? 0;
    const rssDeviation = median ? Math.max(...warm.map((v) => Math.abs(v - median))) / median : 0;
    const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
    lines.push(
      '| goal | target | measured | |',
      '|---|---|---|---|',
      `| http p50 overhead over direct, c=1 | ≤ 15 ms | ${fmt(httpC1)} ms | ${verdict(httpC1 <= 15)} |`,
      `| http throughput, c=32 | ≥ 100 req/s | ${fmt(httpC32.throughput)} req/s | ${verdict(httpC32.throughput >= 100)} |`,
      `| http CPU per scrape, all service processes, c=32 | ≤ 15 ms | ${fmt(serviceCpu(httpC32.cpu))} ms | ${verdict(serviceCpu(httpC32.cpu) <= 15)} |`,
      `| browser p50 vs raw Playwright, c=1 | ≤ 0.6x | ${browserRatio.toFixed(2)}x | ${verdict(browserRatio <= 0.6)} |`,
      `| browser throughput vs raw Playwright, c=8 | ≥ 1x | ${browserThroughput.toFixed(2)}x | ${verdict(browserThroughput >= 1)} |`,
      `| worker + Chromium RSS over ${browserPages} pages (after the first ${step}) | ±10 % | ±${(rssDeviation * 100).toFixed(1)} % of the median | ${verdict(rssDeviation <= 0.1)} |`,
      '',
      `| browser pages so far | worker + Chromium RSS MiB |`,
      '|---|---|',
      ...rss.map((s) => `| ${s.after} | ${(s.tree / 2 ** 20).toFixed(0)} |`),
    );
    const report = lines.join('\n');
    console.log(`\n${report}\n`);
    mkdirSync(path.join(__dirname, 'results'), { recursive: true });
    writeFileSync(path.join(__dirname, 'results', 'latest.md'), `${report}\n`);
  } finally {
    clearInterval(sampleLoad);
    await started?.stop();
    await services.stop();
  }
}

runBench(main);
