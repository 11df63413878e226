/**
 * Browser engine benchmark, engine only (no API, no Temporal), in one run on the fixture site's
 * /links?n=20 page:
 *   (a) raw Playwright: new context + new page + goto('load') + content + close, at most 2 pages at once
 *   (b) our pool (createBrowserPool, maxConcurrency 2, pre-warmed spares, defaults otherwise)
 * p50/p95 latency at concurrency 1 and 8, throughput, and CPU per page of this process and of
 * Chromium (read from /proc over the process tree); then a fresh pool serves 2,000 pages and the
 * RSS of this process and of its Chromium is sampled every 200 pages.
 * The two paths alternate (round 1: a then b, round 2: b then a), so drift in the machine's load
 * (it is shared) hits both; the load average is printed along.
 *   node --import tsx bench/browser-pool.ts
 *   BENCH_SCALE=N scales the latency runs; BENCH_PAGES=N the memory run (default 2000);
 *   BENCH_RECYCLE_PAGES=N sets the memory run's recyclePages (default: the pool's, 1000; 0 = never).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { CHROMIUM_ARGS, createBrowserPool } from '../scrape/browser';
import type { BrowserPool } from '../scrape/browser';
import { readProcessTree } from '../scrape/browser/proc';
import { startFixtureServer } from '../test/fixtures/server';
import { drive, runBench } from './services';
import { defaultChromiumPath } from '../platform/config';

const CHROMIUM = process.env.CHROMIUM_PATH ?? defaultChromiumPath();
const scale = Number(process.env.BENCH_SCALE ?? '1');
const memoryPages = Number(process.env.BENCH_PAGES ?? '2000');
const recyclePages = process.env.BENCH_RECYCLE_PAGES === undefined ? undefined : Number(process.env.BENCH_RECYCLE_PAGES);
const PAGE_CAP = 2;
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** A FIFO cap: what the pool's slots do, so both paths queue the same way. */
function fifoCap(size: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (active >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** CPU ticks so far: this process's own, and Chromium's (live processes plus the ones that exited). */
async function cpuTicks(): Promise<{ node: number; chromium: number }> {
  const tree = (await readProcessTree(process.pid))!;
  const self = tree.find((p) => p.pid === process.pid)!;
  const chromiums = tree.filter((p) => p.pid !== process.pid && /chrom/i.test(p.name));
  // A Chromium browser process that exited (a recycled one) was reaped by this process.
  return { node: self.cpuTicks, chromium: self.reapedChildTicks + chromiums.reduce((sum, p) => sum + p.cpuTicks + p.reapedChildTicks, 0) };
}

/** RSS of every Chromium process, and of the long-lived ones (not renderers: they die with their context). */
async function chromiumRss(): Promise<{ all: number; longLived: number }> {
  const chromiums = (await readProcessTree(process.pid))!.filter((p) => p.pid !== process.pid && /chrom/i.test(p.name));
  const sum = (ps: typeof chromiums) => ps.reduce((s, p) => s + p.rssBytes, 0);
  return { all: sum(chromiums), longLived: sum(chromiums.filter((p) => p.chromiumType !== 'renderer')) };
}

interface Row {
  round: number;
  path: string;
  concurrency: number;
  latencies: number[];
  seconds: number;
  nodeMs: number;
  chromiumMs: number;
  load: string;
}

/** Waits (polling, bounded) until the pool has refilled its spares and closed every replaced Chromium. */
async function poolSettled(pool: BrowserPool, spares: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const s = pool.stats();
    if (s.spareContexts === spares && s.openContexts === spares && s.retiringBrowsers === 0) return;
    if (Date.now() > deadline) throw new Error(`pool did not settle: ${JSON.stringify(s)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function checkPage(html: string): void {
  const links = html.match(/class="link"/g)?.length ?? 0;
  if (links !== 20) throw new Error(`unexpected page: ${links} links`);
}

async function main(): Promise<void> {
  const fx = await startFixtureServer();
  const pageUrl = `${fx.url}/links?n=20`;
  const lines: string[] = [];
  const log = (line: string) => {
    console.log(line);
    lines.push(line);
  };
  log(`Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString()}`);
  log(`Load average at start: ${loadavg()}`);

  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const rawCap = fifoCap(PAGE_CAP);
  const raw = () =>
    rawCap(async () => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(pageUrl, { waitUntil: 'load' });
        checkPage(await page.content());
      } finally {
        await context.close();
      }
    });
  const pool = createBrowserPool({ executablePath: CHROMIUM, allowPrivateTargets: true, maxConcurrency: PAGE_CAP });
  const viaPool = async () => {
    checkPage((await pool.scrape({ url: pageUrl }, { timeoutMs: 60_000 })).html!);
  };

  const rows: Row[] = [];
  const phase = async (round: number, name: 'raw Playwright' | 'our pool', concurrency: number) => {
    const call = name === 'raw Playwright' ? raw : viaPool;
    const total = Math.round((concurrency === 1 ? 40 : 80) * scale);
    await drive(6, concurrency, call); // warm-up
    if (name === 'our pool') await poolSettled(pool, PAGE_CAP);
    const cpu0 = await cpuTicks();
    const { latencies, seconds } = await drive(total, concurrency, call);
    // The refill of the spares the last pages took is part of their cost.
    if (name === 'our pool') await poolSettled(pool, PAGE_CAP);
    const cpu1 = await cpuTicks();
    rows.push({
      round,
      path: name,
      concurrency,
      latencies,
      seconds,
      nodeMs: ((cpu1.node - cpu0.node) * TICK_MS) / total,
      chromiumMs: ((cpu1.chromium - cpu0.chromium) * TICK_MS) / total,
      load: loadavg(),
    });
    console.log(`  done: round ${round}, ${name}, c=${concurrency} (load ${loadavg()})`);
  };
  for (const concurrency of [1, 8]) {
    await phase(1, 'raw Playwright', concurrency);
    await phase(1, 'our pool', concurrency);
    await phase(2, 'our pool', concurrency);
    await phase(2, 'raw Playwright', concurrency);
  }
  await browser.close();
  await pool.close();

  const fmt = (n: number) => n.toFixed(1);
  log('');
  log('| round | path | concurrency | pages | p50 ms | p95 ms | pages/s | CPU ms/page: node | CPU ms/page: Chromium | load avg after |');
  log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of [...rows].sort((a, b) => a.concurrency - b.concurrency || a.round - b.round)) {
    const sorted = [...r.latencies].sort((a, b) => a - b);
    log(
      `| ${r.round} | ${r.path} | ${r.concurrency} | ${r.latencies.length} | ${fmt(percentile(sorted, 50))} | ${fmt(percentile(sorted, 95))} | ` +
        `${fmt(r.latencies.length / r.seconds)} | ${fmt(r.nodeMs)} | ${fmt(r.chromiumMs)} | ${r.load} |`,
    );
  }
  log('');
  log('| concurrency | p50 pool / raw | pages/s pool / raw | CPU per page pool / raw | (both rounds pooled) |');
  log('|---|---|---|---|---|');
  for (const concurrency of [1, 8]) {
    const pick = (name: string) => rows.filter((r) => r.path === name && r.concurrency === concurrency);
    const summary = (rs: Row[]) => {
      const all = rs.flatMap((r) => r.latencies).sort((a, b) => a - b);
      const pages = all.length;
      return {
        p50: percentile(all, 50),
        rate: pages / rs.reduce((s, r) => s + r.seconds, 0),
        cpu: rs.reduce((s, r) => s + (r.nodeMs + r.chromiumMs) * r.latencies.length, 0) / pages,
      };
    };
    const a = summary(pick('raw Playwright'));
    const b = summary(pick('our pool'));
    log(
      `| ${concurrency} | ${fmt(b.p50)} / ${fmt(a.p50)} = ${(b.p50 / a.p50).toFixed(2)}x | ${fmt(b.rate)} / ${fmt(a.rate)} = ${(b.rate / a.rate).toFixed(2)}x | ` +
        `${fmt(b.cpu)} / ${fmt(a.cpu)} ms | |`,
    );
  }

  // Memory: a fresh pool over `memoryPages` pages, 4 callers (2 pages at once, 2 queued).
  log('');
  log(`Memory over ${memoryPages} pages (fresh pool, recyclePages ${recyclePages ?? 'default (1000)'}), sampled with the spares refilled and no Chromium retiring:`);
  log('');
  log('| pages | node RSS MiB | Chromium RSS MiB (summed over its processes) | of which long-lived (not renderers) | total MiB | recycles | load avg |');
  log('|---|---|---|---|---|---|---|');
  const memPool = createBrowserPool({ executablePath: CHROMIUM, allowPrivateTargets: true, maxConcurrency: PAGE_CAP, recyclePages });
  const mib = (n: number) => (n / 2 ** 20).toFixed(0);
  try {
    for (let done = 0; done < memoryPages; ) {
      const batch = Math.min(200, memoryPages - done);
      await drive(batch, 4, async () => {
        checkPage((await memPool.scrape({ url: pageUrl }, { timeoutMs: 60_000 })).html!);
      });
      done += batch;
      await poolSettled(memPool, PAGE_CAP);
      const node = process.memoryUsage().rss;
      const chrome = await chromiumRss();
      log(`| ${done} | ${mib(node)} | ${mib(chrome.all)} | ${mib(chrome.longLived)} | ${mib(node + chrome.all)} | ${memPool.stats().recycles} | ${loadavg()} |`);
    }
  } finally {
    await memPool.close();
    await fx.close();
  }
  log('');
  log(`Load average at end: ${loadavg()}`);
  mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  writeFileSync(path.join(__dirname, 'results', 'browser-pool.md'), `${lines.join('\n')}\n`);
}

runBench(main);
