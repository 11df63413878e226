/**
 * What naming a document's charset costs browser mode (scrape/browser/document-charset.ts),
 * engine only, in one run: two pools, alike but for `labelCharsets` (on: the product; off: Chromium
 * decodes by itself, the baseline), on two pages of the fixture site:
 *   /links?n=20              its Content-Type names a charset: the response is only paused and let go
 *   /charset/undeclared      3 KB, `text/html` with no charset, nothing else to load: the fixed cost of the relabelling
 *   /readability/nytimes-2   300 KB, `text/html` with no charset, dozens of (unreachable) scripts: a real page
 * p50/p95 latency at concurrency 1 and 4 and CPU per page of this process and of Chromium (from
 * /proc over the process tree, both pools idle and settled around each phase). The two pools
 * alternate (round 1: on then off, round 2: off then on), so drift in the shared machine's load
 * hits both.
 *   node --import tsx bench/browser-charset.ts      BENCH_SCALE=N scales the number of pages
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBrowserPool } from '../scrape/browser';
import type { BrowserPool } from '../scrape/browser';
import { readProcessTree } from '../scrape/browser/proc';
import { defaultChromiumPath } from '../platform/config';
import { startFixtureServer } from '../test/fixtures/server';
import { drive, runBench } from './services';

const CHROMIUM = process.env.CHROMIUM_PATH ?? defaultChromiumPath();
const scale = Number(process.env.BENCH_SCALE ?? '1');
const PAGE_CAP = 2;
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** CPU ticks so far: this process's own, and every Chromium's (live processes plus the ones reaped). */
async function cpuTicks(): Promise<{ node: number; chromium: number }> {
  const tree = (await readProcessTree(process.pid))!;
  const self = tree.find((p) => p.pid === process.pid)!;
  const chromiums = tree.filter((p) => p.pid !== process.pid && /chrom/i.test(p.name));
  return { node: self.cpuTicks, chromium: self.reapedChildTicks + chromiums.reduce((sum, p) => sum + p.cpuTicks + p.reapedChildTicks, 0) };
}

async function settled(pools: BrowserPool[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (pools.every((p) => p.stats().spareContexts === PAGE_CAP && p.stats().openContexts === PAGE_CAP && p.stats().contextsInUse === 0)) return;
    if (Date.now() > deadline) throw new Error(`pools did not settle: ${JSON.stringify(pools.map((p) => p.stats()))}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Row {
  page: string;
  labels: 'on' | 'off';
  round: number;
  concurrency: number;
  latencies: number[];
  nodeMs: number;
  chromiumMs: number;
}

async function main(): Promise<void> {
  const fx = await startFixtureServer();
  const lines: string[] = [];
  const log = (line: string) => {
    console.log(line);
    lines.push(line);
  };
  log(`Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString()}`);
  log(`Load average at start: ${loadavg()}`);
  const pools = {
    on: createBrowserPool({ executablePath: CHROMIUM, allowPrivateTargets: true, maxConcurrency: PAGE_CAP, launchOnCreate: true }),
    off: createBrowserPool({ executablePath: CHROMIUM, allowPrivateTargets: true, maxConcurrency: PAGE_CAP, launchOnCreate: true, labelCharsets: false }),
  };
  const pages = [
    { name: 'links (charset in header)', url: `${fx.url}/links?n=20`, check: (html: string) => html.includes('class="link"') },
    // windows-1252 bytes declared nowhere: both pools read them as windows-1252.
    { name: 'undeclared 3 KB (no charset)', url: `${fx.url}/charset/undeclared`, check: (html: string) => html.includes('café') },
    // The page's own check: its title read right (on) or as windows-1252 (off), so each pool did what it is said to do.
    { name: 'nytimes-2 (no charset)', url: `${fx.url}/readability/nytimes-2`, check: (html: string, labels: 'on' | 'off') => html.includes(labels === 'on' ? 'Yahoo’s Sale' : 'Yahooâ€™s Sale') },
  ];
  const rows: Row[] = [];
  try {
    for (const page of pages) {
      for (const concurrency of [1, 4]) {
        for (const [round, order] of [[1, ['on', 'off']], [2, ['off', 'on']]] as const) {
          for (const labels of order) {
            const pool = pools[labels];
            const call = async () => {
              const html = (await pool.scrape({ url: page.url }, { timeoutMs: 60_000 })).html!;
              if (!page.check(html, labels)) throw new Error(`unexpected page from ${page.url} (labels ${labels})`);
            };
            const total = Math.round(30 * scale);
            await drive(4, concurrency, call); // warm-up
            await settled(Object.values(pools));
            const cpu0 = await cpuTicks();
            const { latencies } = await drive(total, concurrency, call);
            await settled(Object.values(pools));
            const cpu1 = await cpuTicks();
            rows.push({ page: page.name, labels, round, concurrency, latencies, nodeMs: ((cpu1.node - cpu0.node) * TICK_MS) / total, chromiumMs: ((cpu1.chromium - cpu0.chromium) * TICK_MS) / total });
            console.log(`  done: ${page.name}, c=${concurrency}, round ${round}, labels ${labels} (load ${loadavg()})`);
          }
        }
      }
    }
  } finally {
    await Promise.all(Object.values(pools).map((p) => p.close()));
    await fx.close();
  }

  const fmt = (n: number) => n.toFixed(1);
  log('');
  log('| page | concurrency | labels | pages | p50 ms | p95 ms | CPU ms/page: node | CPU ms/page: Chromium |');
  log('|---|---|---|---|---|---|---|---|');
  const summary = (rs: Row[]) => {
    const all = rs.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const n = all.length;
    return {
      n,
      p50: percentile(all, 50),
      p95: percentile(all, 95),
      node: rs.reduce((s, r) => s + r.nodeMs * r.latencies.length, 0) / n,
      chromium: rs.reduce((s, r) => s + r.chromiumMs * r.latencies.length, 0) / n,
    };
  };
  for (const page of pages) {
    for (const concurrency of [1, 4]) {
      const both = { on: summary(rows.filter((r) => r.page === page.name && r.concurrency === concurrency && r.labels === 'on')), off: summary(rows.filter((r) => r.page === page.name && r.concurrency === concurrency && r.labels === 'off')) };
      for (const labels of ['off', 'on'] as const) {
        const s = both[labels];
        log(`| ${page.name} | ${concurrency} | ${labels} | ${s.n} | ${fmt(s.p50)} | ${fmt(s.p95)} | ${fmt(s.node)} | ${fmt(s.chromium)} |`);
      }
      const d = (a: number, b: number) => `${a - b >= 0 ? '+' : ''}${fmt(a - b)}`;
      log(`| ${page.name} | ${concurrency} | on − off | | ${d(both.on.p50, both.off.p50)} | ${d(both.on.p95, both.off.p95)} | ${d(both.on.node, both.off.node)} | ${d(both.on.chromium, both.off.chromium)} |`);
    }
  }
  log('');
  log(`Load average at end: ${loadavg()}`);
  mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  writeFileSync(path.join(__dirname, 'results', 'browser-charset.md'), `${lines.join('\n')}\n`);
}

runBench(main);
