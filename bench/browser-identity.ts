/**
 * What looking like a person's Chrome costs (docs/scraping.md, "How we look to a site"), engine
 * only (no API, no Temporal), in one run on the fixture site's /links?n=20 page, four paths:
 *   shell raw    raw Playwright on Debian's chromium-headless-shell (new context + page + goto('load') + content + close)
 *   shell pool   our pool on the headless shell, with Playwright's page-visible WebSocket route (as before)
 *   full raw     raw Playwright on Debian's full chromium, new headless, the same flags as the pool
 *   full pool    our pool on the full chromium: the default now (identity per context, no WebSocket route,
 *                driven by patchright-core)
 *   full pool, no spares   the same with `spareContexts: 0` (a context made per scrape, as raw Playwright does)
 *   full raw +route|+proxy|+window|+identity|+charsets   raw Playwright plus one of the pool's per-context steps
 *   full raw, patchright   raw on patchright-core;  full raw, pool env   raw in the pool's launch environment (sandbox, user, HOME)
 *   full pool, no sandbox / playwright-core   the pool with one thing changed
 *   full pool, no spares, spare renderer   the pool before round 4 (only the driver's disabled features: Chromium's spare renderer on)
 *   full pool, no spares, omnibox popup   the pool with Chromium's spare renderer off but the omnibox popup's WebUI renderer on
 *   full pool, no spares, 1280x720   the pool with a 1280×720 viewport instead of 1366×900
 *   full raw +pause   raw Playwright with documents held at the response stage and let go unread (the charset step's pause alone)
 * CPU per page is also printed by process kind (browser, renderer, gpu-process, utility, node).
 * at most 2 pages at once (the pool's maxConcurrency), callers at concurrency 1 and 8. Pages/s and
 * CPU per page: this process and its Chromiums (the whole process tree, exited renderers included),
 * after the pool has refilled its spares. Paths alternate order between the two rounds; the load
 * average is printed along (the machine is shared).
 *   node --import tsx bench/browser-identity.ts     (BENCH_SCALE=N scales the page counts;
 *   BENCH_PATHS="full raw|full pool" runs only the paths named, apart by "|")
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { chromium as patchrightChromium } from 'patchright-core';
import type { Browser } from 'playwright-core';
import { CHROMIUM_ARGS, createBrowserPool } from '../scrape/browser';
import type { BrowserPool } from '../scrape/browser';
import { readProcessTree } from '../scrape/browser/proc';
import { chromiumLaunch } from '../scrape/browser/launch-environment';
import { startEgressProxy } from '../scrape/browser/egress-proxy';
import { labelDocumentCharsets } from '../scrape/browser/document-charset';
import { applyIdentity, contextIdentity, fallbackEngineIdentity } from '../scrape/browser/identity';
import { startFixtureServer } from '../test/fixtures/server';
import { drive, runBench } from './services';

const SHELL = '/usr/lib/chromium/chromium-headless-shell';
const FULL = '/usr/lib/chromium/chromium';
const PAGE_CAP = 2;
const scale = Number(process.env.BENCH_SCALE ?? '1');
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * CPU ticks of this process and every descendant (live ones, plus the ones that exited and were
 * reaped), by kind: node (this process), browser (Chromium's browser processes), renderer (live
 * renderers and the exited ones their zygote reaped), and Chromium's other `--type`s (gpu-process, utility…).
 */
async function treeTicks(): Promise<Map<string, number>> {
  const tree = (await readProcessTree(process.pid))!;
  const byKind = new Map<string, number>();
  const add = (kind: string, ticks: number) => byKind.set(kind, (byKind.get(kind) ?? 0) + ticks);
  for (const p of tree) {
    const kind = p.pid === process.pid ? 'node' : (p.chromiumType ?? (/chrom/i.test(p.name) ? 'browser' : `other:${p.name}`));
    add(kind === 'zygote' ? 'renderer' : kind, p.cpuTicks);
    // Exited children: a zygote's (or a browser's) are renderers that closed with their context.
    add(kind === 'node' ? 'node' : 'renderer', p.reapedChildTicks);
  }
  return byKind;
}
const totalTicks = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

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

async function poolSettled(pool: BrowserPool, spares = PAGE_CAP): Promise<void> {
  const deadline = Date.now() + 120_000;
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

interface Row {
  round: number;
  path: string;
  concurrency: number;
  latencies: number[];
  seconds: number;
  cpuMs: number;
  /** CPU ms per page by process kind (treeTicks). */
  cpuByKind: Map<string, number>;
  load: string;
}

async function main(): Promise<void> {
  if (!existsSync(SHELL) || !existsSync(FULL)) throw new Error(`needs both ${SHELL} and ${FULL} (apt-get install chromium chromium-headless-shell)`);
  const fx = await startFixtureServer();
  const pageUrl = `${fx.url}/links?n=20`;
  const lines: string[] = [];
  const log = (line: string) => {
    console.log(line);
    lines.push(line);
  };
  log(`Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString()}`);
  log(`Load average at start: ${loadavg()}`);

  // Raw Playwright plus one of the pool's per-context steps at a time ("full raw +step"), to
  // isolate what each costs: route (context.route on every request), proxy (the pool's egress
  // proxy hop, per-context credentials), window (Browser.setWindowBounds), identity (time zone,
  // locale, user agent override), charsets (Fetch interception of documents at the response stage).
  const egress = await startEgressProxy({ allowPrivateTargets: true, upstream: true });
  const rawPath = (browser: Browser, steps: ReadonlySet<string> = new Set()) => {
    const cap = fifoCap(PAGE_CAP);
    return () =>
      cap(async () => {
        const identity = contextIdentity(fallbackEngineIdentity(browser.version()), String(Math.random()));
        const token = String(Math.random());
        if (steps.has('proxy')) egress.assign(token, null);
        const context = await browser.newContext({
          ...(steps.has('identity') ? { timezoneId: identity.timezone, locale: identity.locale, screen: identity.screen, userAgent: identity.userAgent } : {}),
          ...(steps.has('proxy') ? { proxy: { server: egress.url, username: token, password: egress.secret } } : {}),
        });
        try {
          if (steps.has('route')) await context.route('**/*', (route) => route.continue());
          const page = await context.newPage();
          if (steps.has('window') || steps.has('identity') || steps.has('charsets') || steps.has('pause')) {
            const cdp = await context.newCDPSession(page);
            if (steps.has('identity')) await applyIdentity(cdp, identity);
            if (steps.has('window')) {
              const { windowId } = await cdp.send('Browser.getWindowForTarget');
              await cdp.send('Browser.setWindowBounds', { windowId, bounds: { width: 1366, height: 987 } });
            }
            if (steps.has('charsets')) await labelDocumentCharsets(cdp);
            if (steps.has('pause')) {
              // The document pause alone: every document held at the response stage, let go unread.
              cdp.on('Fetch.requestPaused', (event) => void cdp.send('Fetch.continueRequest', { requestId: event.requestId }).catch(() => undefined));
              await cdp.send('Fetch.enable', { patterns: [{ resourceType: 'Document', requestStage: 'Response' }] });
            }
          }
          await page.goto(pageUrl, { waitUntil: 'load' });
          checkPage(await page.content());
        } finally {
          await context.close();
          egress.release(token);
        }
      });
  };
  const shellBrowser = await chromium.launch({ executablePath: SHELL, args: CHROMIUM_ARGS.filter((a) => !a.includes('AutomationControlled')) });
  const fullBrowser = await chromium.launch({ executablePath: FULL, args: CHROMIUM_ARGS });
  const shellPool = createBrowserPool({ executablePath: SHELL, allowPrivateTargets: true, maxConcurrency: PAGE_CAP, routeWebSocketsInPage: true });
  const fullPool = createBrowserPool({ executablePath: FULL, allowPrivateTargets: true, maxConcurrency: PAGE_CAP });
  const fullPoolNoSpares = createBrowserPool({ executablePath: FULL, allowPrivateTargets: true, maxConcurrency: PAGE_CAP, spareContexts: 0 });
  const fullPoolNoSandbox = createBrowserPool({ executablePath: FULL, allowPrivateTargets: true, maxConcurrency: PAGE_CAP, spareContexts: 0, withoutSandbox: true });
  const fullRawPatchright = await (patchrightChromium as unknown as typeof chromium).launch({ executablePath: FULL, args: CHROMIUM_ARGS });
  // Raw Playwright in the pool's launch environment (its HOME, XDG dirs, LANG, user and sandbox: launch-environment.ts).
  const poolLaunch = chromiumLaunch(FULL, CHROMIUM_ARGS);
  const fullRawPoolEnv = await chromium.launch({ executablePath: poolLaunch.executablePath, args: poolLaunch.args, env: poolLaunch.env, chromiumSandbox: poolLaunch.sandbox });
  // The pool before round 4: only the driver's own disabled features (Chromium's spare renderer on).
  const fullPoolNoSparesDriverFeatures = createBrowserPool({ executablePath: FULL, allowPrivateTargets: true, maxConcurrency: PAGE_CAP, spareContexts: 0, disableFeatures: [] });
  // Round 4's first step alone: Chromium's spare renderer off, the omnibox popup's WebUI renderer still on.
  const fullPoolNoSparesOmnibox = createBrowserPool({ executablePath: FULL, allowPrivateTargets: true, maxConcurrency: PAGE_CAP, spareContexts: 0, disableFeatures: ['SpareRendererForSitePerProcess'] });
  const fullPoolNoSpares1280 = createBrowserPool({ executablePath: FULL, allowPrivateTargets: true, maxConcurrency: PAGE_CAP, spareContexts: 0, desktopViewport: { width: 1280, height: 720 } });
  const fullPoolPlaywright = createBrowserPool({ executablePath: FULL, allowPrivateTargets: true, maxConcurrency: PAGE_CAP, driver: 'playwright' });
  const viaPool = (pool: BrowserPool) => async () => checkPage((await pool.scrape({ url: pageUrl }, { timeoutMs: 120_000 })).html!);
  const allPaths: Array<{ name: string; call: () => Promise<void>; pool?: BrowserPool; spares?: number }> = [
    { name: 'shell raw', call: rawPath(shellBrowser) },
    { name: 'shell pool', call: viaPool(shellPool), pool: shellPool },
    { name: 'full raw', call: rawPath(fullBrowser) },
    ...['route', 'proxy', 'window', 'identity', 'charsets', 'pause'].map((step) => ({ name: `full raw +${step}`, call: rawPath(fullBrowser, new Set([step])) })),
    { name: 'full pool', call: viaPool(fullPool), pool: fullPool },
    { name: 'full pool, no spares', call: viaPool(fullPoolNoSpares), pool: fullPoolNoSpares, spares: 0 },
    { name: 'full raw, patchright', call: rawPath(fullRawPatchright) },
    { name: 'full pool, no spares, spare renderer', call: viaPool(fullPoolNoSparesDriverFeatures), pool: fullPoolNoSparesDriverFeatures, spares: 0 },
    { name: 'full pool, no spares, omnibox popup', call: viaPool(fullPoolNoSparesOmnibox), pool: fullPoolNoSparesOmnibox, spares: 0 },
    { name: 'full pool, no spares, 1280x720', call: viaPool(fullPoolNoSpares1280), pool: fullPoolNoSpares1280, spares: 0 },
    { name: 'full raw, pool env', call: rawPath(fullRawPoolEnv) },
    { name: 'full pool, no sandbox', call: viaPool(fullPoolNoSandbox), pool: fullPoolNoSandbox, spares: 0 },
    { name: 'full pool, playwright-core', call: viaPool(fullPoolPlaywright), pool: fullPoolPlaywright },
  ];
  const chosen = process.env.BENCH_PATHS;
  const paths = chosen ? allPaths.filter((p) => chosen.split('|').includes(p.name)) : allPaths;
  log(`Paths: ${paths.map((p) => p.name).join(' | ')}`);

  const rows: Row[] = [];
  const concurrencies = (process.env.BENCH_CONCURRENCY ?? '1,8').split(',').map(Number);
  for (const concurrency of concurrencies) {
    for (const round of [1, 2]) {
      for (const p of round === 1 ? paths : [...paths].reverse()) {
        const total = Math.max(4, Math.round((concurrency === 1 ? 12 : 24) * scale));
        await drive(4, concurrency, p.call); // warm-up
        if (p.pool) await poolSettled(p.pool, p.spares);
        const cpu0 = await treeTicks();
        const { latencies, seconds } = await drive(total, concurrency, p.call);
        if (p.pool) await poolSettled(p.pool, p.spares);
        const cpu1 = await treeTicks();
        const cpuByKind = new Map([...cpu1].map(([kind, ticks]) => [kind, ((ticks - (cpu0.get(kind) ?? 0)) * TICK_MS) / total]));
        rows.push({ round, path: p.name, concurrency, latencies, seconds, cpuMs: ((totalTicks(cpu1) - totalTicks(cpu0)) * TICK_MS) / total, cpuByKind, load: loadavg() });
        console.log(`  done: round ${round}, ${p.name}, c=${concurrency} (load ${loadavg()})`);
      }
    }
  }
  await Promise.all([shellBrowser.close(), fullBrowser.close(), shellPool.close(), fullPool.close(), fullPoolNoSpares.close(), fullPoolPlaywright.close(), fullPoolNoSandbox.close(), fullRawPatchright.close(), fullRawPoolEnv.close(), fullPoolNoSparesDriverFeatures.close(), fullPoolNoSpares1280.close(), fullPoolNoSparesOmnibox.close()]);
  await egress.close();
  await fx.close();

  const fmt = (n: number) => n.toFixed(1);
  log('');
  log('| round | path | concurrency | pages | p50 ms | p95 ms | pages/s | CPU ms/page (node + Chromium) | load avg after |');
  log('|---|---|---|---|---|---|---|---|---|');
  for (const r of [...rows].sort((a, b) => a.concurrency - b.concurrency || a.path.localeCompare(b.path) || a.round - b.round)) {
    const sorted = [...r.latencies].sort((a, b) => a - b);
    log(`| ${r.round} | ${r.path} | ${r.concurrency} | ${r.latencies.length} | ${fmt(percentile(sorted, 50))} | ${fmt(percentile(sorted, 95))} | ${(r.latencies.length / r.seconds).toFixed(2)} | ${fmt(r.cpuMs)} | ${r.load} |`);
  }
  log('');
  log('| concurrency | path | pages/s (both rounds) | CPU ms/page | pages/s vs shell pool (before) | pages/s vs raw Playwright, same Chromium |');
  log('|---|---|---|---|---|---|');
  for (const concurrency of concurrencies) {
    const summary = (name: string) => {
      const rs = rows.filter((r) => r.path === name && r.concurrency === concurrency);
      const pages = rs.reduce((s, r) => s + r.latencies.length, 0);
      return { rate: pages / rs.reduce((s, r) => s + r.seconds, 0), cpu: rs.reduce((s, r) => s + r.cpuMs * r.latencies.length, 0) / pages };
    };
    const before = summary('shell pool');
    for (const name of paths.map((p) => p.name)) {
      const s = summary(name);
      const raw = summary(name.startsWith('shell') ? 'shell raw' : 'full raw');
      log(`| ${concurrency} | ${name} | ${s.rate.toFixed(2)} | ${fmt(s.cpu)} | ${(s.rate / before.rate).toFixed(2)}x | ${(s.rate / raw.rate).toFixed(2)}x |`);
    }
  }
  log('');
  log('CPU ms/page by process kind (both rounds; node includes the egress proxy):');
  log('');
  const kinds = [...new Set(rows.flatMap((r) => [...r.cpuByKind.keys()]))].sort();
  log(`| concurrency | path | ${kinds.join(' | ')} |`);
  log(`|---|---|${kinds.map(() => '---').join('|')}|`);
  for (const concurrency of concurrencies) {
    for (const name of paths.map((p) => p.name)) {
      const rs = rows.filter((r) => r.path === name && r.concurrency === concurrency);
      const pages = rs.reduce((s, r) => s + r.latencies.length, 0);
      log(`| ${concurrency} | ${name} | ${kinds.map((k) => fmt(rs.reduce((s, r) => s + (r.cpuByKind.get(k) ?? 0) * r.latencies.length, 0) / pages)).join(' | ')} |`);
    }
  }
  log('');
  log(`Load average at end: ${loadavg()}`);
  mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  writeFileSync(path.join(__dirname, 'results', 'browser-identity.md'), `${lines.join('\n')}\n`);
}

runBench(main);
