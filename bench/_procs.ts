import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../scrape/browser';
import { readProcessTree } from '../scrape/browser/proc';
import { startFixtureServer } from '../test/fixtures/server';
import { readFileSync } from 'node:fs';
(async () => {
  const fx = await startFixtureServer();
  const exe = process.argv[2]!;
  const b = await chromium.launch({ executablePath: exe, args: [...CHROMIUM_ARGS.filter(a => a !== '--headless'), exe.endsWith('shell') ? '--headless' : '--headless=new', ...(process.env.FLAGS ?? '').split('|').filter(Boolean)] });
  const snap = async () => { const m = new Map<string, number>(); for (const p of (await readProcessTree(process.pid))!) { if (p.pid === process.pid) continue; const cmd = readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').split('\0'); const t = (cmd.find(a => a.startsWith('--type='))?.slice(7) ?? 'browser') + (cmd.find(a=>a.startsWith('--utility-sub-type='))?.slice(19).split('.').pop() ?? ''); m.set(t, (m.get(t) ?? 0) + p.cpuTicks + p.reapedChildTicks); } return m; };
  const ctx0 = await b.newContext(); await (await ctx0.newPage()).goto(fx.url + '/'); await ctx0.close();
  const s0 = await snap(); const N = 12;
  for (let i = 0; i < N; i++) { const ctx = await b.newContext(); const p = await ctx.newPage(); await p.goto(fx.url + '/links?n=20'); await p.content(); await ctx.close(); }
  await new Promise(r => setTimeout(r, 500));
  const s1 = await snap();
  for (const [k, v] of s1) console.log(k, ((v - (s0.get(k) ?? 0)) * 10 / N).toFixed(0), 'ms/page');
  await b.close(); await fx.close();
})();
