/**
 * CreepJS against browser mode (docs/scraping.md, "How we look to a site"). CreepJS is not in the
 * npm registry: its built site (`docs/index.html` and `docs/creep.js` of
 * github.com/abrahamjuliot/creepjs) is read at run time from a checkout the operator names, never
 * copied into this repository, and served on 127.0.0.1 with a script of ours added to its page
 * that waits for its result (`window.Fingerprint`) and writes the headless part (headless /
 * like-headless / stealth ratings and every check), the lies and the worker scope into
 * <pre id="verdict">.
 *
 *   CREEPJS_DOCS=/path/to/creepjs/docs node --import tsx bench/creepjs.ts
 *     (CREEPJS_ENGINE=pool: the browser pool in this process, without the API: faster to iterate;
 *      default `service`: scraped through the real API and worker, as a user would;
 *      CREEPJS_ENGINE=headful: the reference, the same Chromium with a window (no emulation, no
 *      flags of ours) on an X display, e.g. `Xvfb :99 &` then DISPLAY=:99: what a person's Chromium
 *      on this machine shows;
 *      CREEPJS_RUNS=N scrapes N times, a fresh context each; CHROMIUM_PATH as the service reads it)
 *
 * CreepJS also tries STUN servers on the internet (WebRTC), which this machine cannot reach: its
 * WebRTC section stays empty, which no headless check reads.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { defaultChromiumPath } from '../platform/config';
import { createBrowserPool } from '../scrape/browser';
import { createAccount, setBalance } from '../test/helpers/accounts';
import { startStack } from '../test/helpers/stack';
import { startBenchServices } from './services';

const docsDir = process.env.CREEPJS_DOCS;
const engine = process.env.CREEPJS_ENGINE ?? 'service';
const runs = Number(process.env.CREEPJS_RUNS ?? '1');

/** Added to CreepJS's own page (which its bundle needs): waits for its result and summarises it. */
const VERDICT_SCRIPT = `<pre id="verdict"></pre>
<script>
(function wait(started) {
  const fp = window.Fingerprint;
  if (!fp && Date.now() - started < 40000) return setTimeout(() => wait(started), 200);
  let verdict;
  try {
    const h = fp && fp.headless;
    const fired = (o) => Object.keys(o || {}).filter((k) => o[k]);
    verdict = !h ? { error: 'no result', keys: fp ? Object.keys(fp) : null } : {
      headlessRating: h.headlessRating, likeHeadlessRating: h.likeHeadlessRating, stealthRating: h.stealthRating,
      headless: fired(h.headless), likeHeadless: fired(h.likeHeadless), stealth: fired(h.stealth),
      platformEstimate: h.platformEstimate, systemFonts: h.systemFonts,
      lies: fp.lies && fp.lies.data ? Object.keys(fp.lies.data) : fp.lies,
      liesTotal: fp.lies && fp.lies.totalLies,
      trash: fp.trash && fp.trash.trashBin ? fp.trash.trashBin.map((t) => t.name || t) : null,
      workerUserAgent: fp.workerScope && fp.workerScope.userAgent, workerType: fp.workerScope && fp.workerScope.type,
      workerLies: fp.workerScope && fp.workerScope.lied,
      screen: fp.screen, fonts: fp.fonts && fp.fonts.fontFaceLoadFonts,
    };
  } catch (e) { verdict = { error: String(e && e.stack || e) }; }
  document.getElementById('verdict').textContent = JSON.stringify(verdict);
  document.body.dataset.done = 'yes';
})(Date.now());
</script>`;

async function serveCreepJs(indexHtml: string, bundle: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const asked = (req.url ?? '/').split('?')[0];
    if (asked === '/creepjs/' || asked === '/creepjs/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(indexHtml.replace('</body>', `${VERDICT_SCRIPT}</body>`));
    } else if (asked === '/creepjs/creep.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(bundle);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/creepjs/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const request = (url: string) => ({
  url,
  mode: 'browser' as const,
  wait_for: 'body[data-done]',
  selectors: [{ name: 'verdict', selector: '#verdict' }],
  options: { timeout_ms: 50_000 },
});

function verdictOfHtml(html: string): unknown {
  const match = /<pre id="verdict">([\s\S]*?)<\/pre>/.exec(html);
  if (!match) throw new Error('no verdict in the page');
  return JSON.parse(match[1]!.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
}

async function viaPool(url: string): Promise<unknown[]> {
  const pool = createBrowserPool({ executablePath: process.env.CHROMIUM_PATH ?? defaultChromiumPath(), allowPrivateTargets: true, maxConcurrency: 1 });
  try {
    const out: unknown[] = [];
    for (let i = 0; i < runs; i++) {
      const result = await pool.scrape({ url, wait_for: 'body[data-done]' }, { timeoutMs: 120_000 });
      out.push(verdictOfHtml(result.html!));
    }
    return out;
  } finally {
    await pool.close();
  }
}

async function viaHeadful(url: string): Promise<unknown[]> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? defaultChromiumPath(), headless: false, args: ['--no-sandbox'] });
  try {
    const out: unknown[] = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: null });
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForSelector('body[data-done]', { timeout: 120_000 });
      out.push(JSON.parse((await page.textContent('#verdict')) ?? 'null'));
      await context.close();
    }
    return out;
  } finally {
    await browser.close();
  }
}

async function viaService(url: string): Promise<unknown[]> {
  const services = await startBenchServices({ name: 'creepjs' });
  try {
    const stack = await startStack({ env: { CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? defaultChromiumPath() } });
    try {
      const account = await createAccount(stack.baseUrl);
      await setBalance(stack.databaseUrl, account.userId, 1000);
      const out: unknown[] = [];
      for (let i = 0; i < runs; i++) {
        const res = await fetch(`${stack.baseUrl}/webhook/unblocker`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
          body: JSON.stringify(request(url)),
        });
        const body = (await res.json()) as { data?: Array<{ results: Array<{ text: string }> }> };
        if (res.status !== 200) throw new Error(`scrape answered ${res.status}: ${JSON.stringify(body)}`);
        out.push(JSON.parse(body.data![0]!.results[0]!.text));
      }
      return out;
    } finally {
      await stack.stop();
    }
  } finally {
    await services.stop();
  }
}

async function main(): Promise<void> {
  if (!docsDir) throw new Error("CREEPJS_DOCS must name the docs/ folder of a CreepJS checkout (see the header of this file)");
  const site = await serveCreepJs(readFileSync(path.join(docsDir, 'index.html'), 'utf8'), readFileSync(path.join(docsDir, 'creep.js'), 'utf8'));
  try {
    const verdicts = engine === 'pool' ? await viaPool(site.url) : engine === 'headful' ? await viaHeadful(site.url) : await viaService(site.url);
    for (const verdict of verdicts) console.log(JSON.stringify(verdict, null, 1));
  } finally {
    await site.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
