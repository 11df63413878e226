import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../scrape/browser';
import { readProcessTree } from '../scrape/browser/proc';
import { startFixtureServer } from '../test/fixtures/server';
async function ticks() { const t = (await readProcessTree(process.pid))!; return t.reduce((s, p) => s + p.cpuTicks + (p.pid===process.pid?0:p.reapedChildTicks), 0) + t.find(p=>p.pid===process.pid)!.reapedChildTicks; }
(async () => {
  const fx = await startFixtureServer();
  const variants = {
    shell: await chromium.launch({ executablePath: '/usr/lib/chromium/chromium-headless-shell', args: CHROMIUM_ARGS }),
    full: await chromium.launch({ executablePath: '/usr/lib/chromium/chromium', args: [...CHROMIUM_ARGS.filter(a => a !== '--headless'), '--headless=new', '--disable-blink-features=AutomationControlled', ...(process.env.FLAGS ?? '').split('|').filter(Boolean)] }),
  };
  for (const round of [1, 2]) for (const [name, b] of Object.entries(round === 1 ? variants : Object.fromEntries(Object.entries(variants).reverse()))) {
    const N = 24; const t0 = performance.now(); const c0 = await ticks();
    let i = 0;
    await Promise.all([0, 1].map(async () => { while (i++ < N) { const ctx = await b.newContext(); const p = await ctx.newPage(); await p.goto(fx.url + '/links?n=20'); await p.content(); await ctx.close(); } }));
    const s = (performance.now() - t0) / 1000; const c1 = await ticks();
    console.log(name, round, (N / s).toFixed(2), 'pages/s', ((c1 - c0) * 10 / N).toFixed(0), 'cpu ms/page', require('fs').readFileSync('/proc/loadavg','utf8').split(' ')[0]);
  }
  for (const b of Object.values(variants)) await b.close(); await fx.close();
})();
