/**
 * Benchmark: our API path against a direct baseline on the same fixture page, in one run.
 *   http:    (a) undici request + cheerio parse, in this process   (b) POST /webhook/unblocker
 *   browser: (a) Playwright: new context, goto, content, close       (b) POST /webhook/unblocker mode=browser
 * p50/p95 latency and throughput at concurrency 1, 8, 32; then the browser worker's RSS over
 * 500 browser requests. Real services: embedded PostgreSQL, the Temporal dev server, the API and
 * worker processes. Everything on 127.0.0.1; every loop is bounded.
 *   npm run bench                       (BENCH_REQUESTS=N scales the request counts)
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as cheerio from 'cheerio';
import { chromium } from 'playwright-core';
import { Agent, request } from 'undici';
import { CHROMIUM_ARGS } from '../activities/scrape/browser';
import { parseConfig } from '../lib/config';
import { createAccount, setBalance } from '../test/helpers/accounts';
import { startStack } from '../test/helpers/stack';
import { runBench, startBenchServices } from './services';

const scale = Number(process.env.BENCH_REQUESTS ?? '1');

interface Row {
  mode: string;
  path: string;
  concurrency: number;
  requests: number;
  p50: number;
  p95: number;
  throughput: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs `total` calls with at most `concurrency` in flight; every call must succeed. */
async function measure(total: number, concurrency: number, call: () => Promise<void>): Promise<{ p50: number; p95: number; throughput: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t0 = performance.now();
        await call();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), throughput: total / seconds };
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** RSS of a process and all its descendants (the worker and its Chromium). */
function treeRss(pid: number): number {
  let total = 0;
  const children = (p: number) => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      total += rssOf(p);
    } catch {
      continue;
    }
    stack.push(...children(p));
  }
  return total;
}

async function main(): Promise<void> {
  const config = parseConfig(process.env);
  const services = await startBenchServices({ name: 'bench' });
  const { fixtures } = services;
  let started: Awaited<ReturnType<typeof startStack>> | undefined;
  const rows: Row[] = [];
  try {
    const stack = await startStack({ env: { BROWSER_CONCURRENCY: '2' } });
    started = stack;
    const account = await createAccount(stack.baseUrl);
    await setBalance(stack.databaseUrl, account.userId, 1_000_000);
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

    // http: direct undici + cheerio (the same work our http engine does, without the API path)
    const agent = new Agent({ connections: 64 });
    const direct = async () => {
      const res = await request(pageUrl, { dispatcher: agent });
      const $ = cheerio.load(await res.body.text());
      if ($('a.link').length !== 20) throw new Error('unexpected page');
    };
    for (const concurrency of [1, 8, 32]) {
      const total = Math.round((concurrency === 1 ? 100 : 300) * scale);
      await measure(20, concurrency, direct); // warm-up
      rows.push({ mode: 'http', path: 'direct undici + cheerio', concurrency, requests: total, ...(await measure(total, concurrency, direct)) });
      await measure(20, concurrency, viaApi('http'));
      rows.push({ mode: 'http', path: 'our API', concurrency, requests: total, ...(await measure(total, concurrency, viaApi('http'))) });
    }
    await agent.close();

    // browser: direct Playwright, one browser, a fresh context per page (what our pool does)
    const browser = await chromium.launch({ executablePath: config.CHROMIUM_PATH, args: CHROMIUM_ARGS });
    let inFlight = 0;
    const directBrowser = (limit: number) => async () => {
      // The same cap as the worker's pool (BROWSER_CONCURRENCY=2): extra callers wait their turn.
      while (inFlight >= limit) await new Promise((r) => setTimeout(r, 2));
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
      }
    };
    for (const concurrency of [1, 8, 32]) {
      const total = Math.round((concurrency === 1 ? 40 : 80) * scale);
      await measure(6, concurrency, directBrowser(2));
      rows.push({ mode: 'browser', path: 'direct Playwright', concurrency, requests: total, ...(await measure(total, concurrency, directBrowser(2))) });
      await measure(6, concurrency, viaApi('browser'));
      rows.push({ mode: 'browser', path: 'our API', concurrency, requests: total, ...(await measure(total, concurrency, viaApi('browser'))) });
    }
    await browser.close();

    // RSS of the browser worker (the worker process and its Chromium) over 500 browser requests
    const workerPid = stack.workerProcess()!.pid!;
    const rss: Array<{ after: number; worker: number; tree: number }> = [];
    const rssTotal = Math.round(500 * scale);
    for (let done = 0; done < rssTotal; done += 50) {
      await measure(50, 4, viaApi('browser'));
      rss.push({ after: done + 50, worker: rssOf(workerPid), tree: treeRss(workerPid) });
    }

    const fmt = (n: number) => n.toFixed(1);
    const lines = [
      `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString()}`,
      '',
      '| mode | path | concurrency | requests | p50 ms | p95 ms | req/s |',
      '|---|---|---|---|---|---|---|',
      ...rows.map((r) => `| ${r.mode} | ${r.path} | ${r.concurrency} | ${r.requests} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.throughput)} |`),
      '',
      '| mode | concurrency | p50 overhead (API − direct) ms | p50 ratio | throughput API/direct |',
      '|---|---|---|---|---|',
    ];
    for (const mode of ['http', 'browser']) {
      for (const concurrency of [1, 8, 32]) {
        const base = rows.find((r) => r.mode === mode && r.concurrency === concurrency && r.path !== 'our API')!;
        const ours = rows.find((r) => r.mode === mode && r.concurrency === concurrency && r.path === 'our API')!;
        lines.push(`| ${mode} | ${concurrency} | ${fmt(ours.p50 - base.p50)} | ${(ours.p50 / base.p50).toFixed(2)}x | ${((ours.throughput / base.throughput) * 100).toFixed(0)}% |`);
      }
    }
    lines.push('', '| browser requests so far | worker RSS MiB | worker + Chromium RSS MiB |', '|---|---|---|');
    for (const s of rss) lines.push(`| ${s.after} | ${(s.worker / 2 ** 20).toFixed(0)} | ${(s.tree / 2 ** 20).toFixed(0)} |`);
    const report = lines.join('\n');
    console.log(`\n${report}\n`);
    mkdirSync(path.join(__dirname, 'results'), { recursive: true });
    writeFileSync(path.join(__dirname, 'results', 'latest.md'), `${report}\n`);
  } finally {
    await started?.stop();
    await services.stop();
  }
}

runBench(main);
