/**
 * What Chromium's sandbox costs (docs/benchmarks.md, "Chromium's sandbox"; docs/operations.md,
 * "Chromium's isolation"): browser pages per second at concurrency 4, with the sandbox on (the
 * default wherever the kernel allows it) against the same pool launched with `--no-sandbox`
 * (`withoutSandbox`, the baseline only), engine only (no API, no Temporal), on the fixture site's
 * /links?n=20 page. Both run as the same user (scrape-chromium when this runs as root) with the
 * same environment: only the sandbox differs.
 *
 * Paired in one run: the variants alternate round by round (on, off, off, on, …), each round a
 * fresh pool that is warmed up (launch, spares, 8 pages) before it is measured, so drift in the
 * machine's load (it is shared) falls on both. Per variant: pages/s, p50/p95 latency, and the CPU
 * per page of Chromium (its whole process tree, from /proc) and of this process.
 *   node --import tsx bench/browser-sandbox.ts      (SANDBOX_BENCH_PAGES per round, default 120; SANDBOX_BENCH_ROUNDS per variant, default 3)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { createBrowserPool } from '../scrape/browser';
import { chromiumIsolation } from '../scrape/browser/launch-environment';
import { readProcessTree } from '../scrape/browser/proc';
import { startFixtureServer } from '../test/fixtures/server';
import { defaultChromiumPath } from '../platform/config';
import { drive, runBench } from './services';

const CHROMIUM = process.env.CHROMIUM_PATH ?? defaultChromiumPath();
const PAGES = Number(process.env.SANDBOX_BENCH_PAGES ?? '120');
const ROUNDS = Number(process.env.SANDBOX_BENCH_ROUNDS ?? '3');
const CONCURRENCY = 4;
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** CPU ticks so far of this process and of its Chromium processes (live, plus the children they reaped). */
async function cpuTicks(): Promise<{ node: number; chromium: number }> {
  const tree = (await readProcessTree(process.pid))!;
  const self = tree.find((p) => p.pid === process.pid)!;
  const chromiums = tree.filter((p) => p.pid !== process.pid && /chrom|setpriv|^sh$/i.test(p.name));
  return { node: self.cpuTicks, chromium: chromiums.reduce((sum, p) => sum + p.cpuTicks + p.reapedChildTicks, 0) };
}

interface Totals {
  pages: number;
  seconds: number;
  latencies: number[];
  nodeMs: number;
  chromiumMs: number;
}

async function main(): Promise<void> {
  const isolation = chromiumIsolation(CHROMIUM);
  if (!isolation.sandbox) throw new Error(`Chromium's sandbox cannot run here (${isolation.notice}): nothing to compare`);
  const fx = await startFixtureServer();
  const url = `${fx.url}/links?n=20`;
  console.log(`Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString()}`);
  console.log(`Chromium as ${isolation.user?.name ?? 'this user'}; load average at start: ${loadavg()}`);
  const totals: Record<'sandbox' | 'no-sandbox', Totals> = {
    sandbox: { pages: 0, seconds: 0, latencies: [], nodeMs: 0, chromiumMs: 0 },
    'no-sandbox': { pages: 0, seconds: 0, latencies: [], nodeMs: 0, chromiumMs: 0 },
  };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['sandbox', 'no-sandbox'] as const) : (['no-sandbox', 'sandbox'] as const);
      for (const variant of order) {
        const pool = createBrowserPool({ executablePath: CHROMIUM, allowPrivateTargets: true, maxConcurrency: CONCURRENCY, launchOnCreate: true, withoutSandbox: variant === 'no-sandbox' });
        try {
          const page = async () => {
            const result = await pool.scrape({ url }, { timeoutMs: 60_000 });
            if ((result.html?.match(/class="link"/g)?.length ?? 0) !== 20) throw new Error('unexpected page');
          };
          await drive(8, CONCURRENCY, page);
          const before = await cpuTicks();
          const run = await drive(PAGES, CONCURRENCY, page);
          const after = await cpuTicks();
          const t = totals[variant];
          t.pages += PAGES;
          t.seconds += run.seconds;
          t.latencies.push(...run.latencies);
          t.nodeMs += (after.node - before.node) * TICK_MS;
          t.chromiumMs += (after.chromium - before.chromium) * TICK_MS;
          // Per round too: a run cut short still says what it measured.
          console.log(`round ${round + 1} ${variant.padEnd(10)} ${(PAGES / run.seconds).toFixed(2)} pages/s, CPU ms/page chromium ${(((after.chromium - before.chromium) * TICK_MS) / PAGES).toFixed(0)} (load ${loadavg()})`);
        } finally {
          await pool.close();
        }
      }
    }
  } finally {
    await fx.close();
  }
  console.log(`\nc=${CONCURRENCY}, ${ROUNDS} rounds of ${PAGES} pages per variant, alternating; load average at end: ${loadavg()}`);
  console.log('variant       pages/s   p50 ms   p95 ms   CPU ms/page: chromium / bench process');
  for (const [name, t] of Object.entries(totals)) {
    const sorted = [...t.latencies].sort((a, b) => a - b);
    console.log(`${name.padEnd(12)} ${(t.pages / t.seconds).toFixed(2).padStart(8)} ${percentile(sorted, 50).toFixed(0).padStart(8)} ${percentile(sorted, 95).toFixed(0).padStart(8)}   ${(t.chromiumMs / t.pages).toFixed(1)} / ${(t.nodeMs / t.pages).toFixed(1)}`);
  }
}

runBench(main);
