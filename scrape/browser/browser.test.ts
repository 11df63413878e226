/**
 * Browser engine against the fixture server with a REAL Chromium (platform/config.ts's default or the path
 * in the test's CHROMIUM_PATH environment). There is no skip: without Chromium these tests fail.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { AppError } from '../../platform/errors';
import { startFixtureServer } from '../../test/fixtures/server';
import type { FixtureServer } from '../../test/fixtures/server';
import { createBrowserPool } from './';
import type { BrowserPool, BrowserPoolEvent } from './';
import { chromiumLongLivedRssBytes, readProcessTree } from './proc';
import { isPrivateAddress, matchesBlacklist } from '../../platform/target-guard';
import { appErrorOf } from '../../test/helpers/app-error';
import { defaultChromiumPath } from '../../platform/config';
import { createHttpEngine } from '../http/engine';
import type { EngineRequest } from '../request';

const CHROMIUM = process.env.CHROMIUM_PATH ?? defaultChromiumPath();

let fx: FixtureServer;
let pool: BrowserPool;
const events: BrowserPoolEvent[] = [];
const listeners = new Set<(e: BrowserPoolEvent) => void>();

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install it or set CHROMIUM_PATH`);
  fx = await startFixtureServer();
  pool = createBrowserPool({
    executablePath: CHROMIUM,
    allowPrivateTargets: true,
    maxConcurrency: 2,
    onEvent: (e) => {
      events.push(e);
      for (const l of listeners) l(e);
    },
  });
});
afterAll(async () => {
  await pool?.close();
  await fx?.close();
});

function nextEvent(type: BrowserPoolEvent['type']): Promise<BrowserPoolEvent> {
  return new Promise((resolve) => {
    const l = (e: BrowserPoolEvent) => {
      if (e.type === type) {
        listeners.delete(l);
        resolve(e);
      }
    };
    listeners.add(l);
  });
}

/**
 * Resolves once `condition()` holds, checking every few ms (no fixed sleeps); fails the test
 * with `what` if it does not hold within `ms`.
 */
async function until(condition: () => boolean, what = 'condition', ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Waits until every slot is free: a scrape answers before its context has closed. */
async function slotsFreed(p: BrowserPool): Promise<void> {
  await until(() => p.stats().contextsInUse === 0 && p.stats().queueLength === 0, 'every slot free');
}

/** Waits until the pool is idle with its spares ready, then checks that no context is open beyond them. */
async function expectIdleWithSpares(p: BrowserPool, spares = 2): Promise<void> {
  await until(() => p.stats().spareContexts === spares && p.stats().openContexts === spares && p.stats().contextsInUse === 0, `${spares} spares and nothing else open`);
  expect(p.stats()).toMatchObject({ contextsInUse: 0, queueLength: 0, openContexts: spares, spareContexts: spares });
}

/** Chromium browser processes that are children of this (jest worker) process. */
function chromiumChildren(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /chrom/i.test(l))
    .map((l) => Number(l.split(/\s+/)[0]));
}

describe('browser pool (real Chromium)', () => {
  it('renders JavaScript content (wait_for) and extracts with selectors', async () => {
    const res = await pool.scrape(
      { url: `${fx.url}/js-rendered?delay=300`, wait_for: '#rendered', selectors: ['#rendered', '.static'] },
      { timeoutMs: 20_000 },
    );
    expect(res).toMatchObject({ mode: 'browser', status: 200, final_url: `${fx.url}/js-rendered?delay=300` });
    expect(res.data![0]!.results[0]!.text).toBe('Rendered by JavaScript');
    expect(res.data![1]!.results[0]!.text).toBe('Static part');
    expect(res.headers['content-type']).toContain('text/html');
  });

  it('without wait_for returns the html as loaded (JS content not there yet)', async () => {
    // 10 s: the fixture's longest delay, so a slow machine does not see the content rendered yet either.
    const res = await pool.scrape({ url: `${fx.url}/js-rendered?delay=10000` }, { timeoutMs: 20_000 });
    expect(res.html).toContain('Static part');
    expect(res.html).not.toContain('<div id="rendered"');
  });

  it('wait_for that never appears fails with SCRAPE_FAILED within the timeout', async () => {
    const err = await appErrorOf(pool.scrape({ url: `${fx.url}/page/1`, wait_for: '#never' }, { timeoutMs: 1500 }));
    expect(err.code).toBe('SCRAPE_FAILED');
    await slotsFreed(pool);
  });

  it('capture_network records the page requests, with the /api/data JSON body', async () => {
    const res = await pool.scrape(
      { url: `${fx.url}/xhr`, wait_for: 'body[data-loaded] #items li', capture_network: true, selectors: [{ selector: '#items li', all: true }] },
      { timeoutMs: 20_000 },
    );
    expect(res.data![0]!.results.map((r) => r.text)).toEqual(['Alpha', 'Beta', 'Gamma']);
    const doc = res.network!.find((n) => n.url === `${fx.url}/xhr`);
    expect(doc).toMatchObject({ method: 'GET', status: 200, resource_type: 'document' });
    const api = res.network!.find((n) => n.url === `${fx.url}/api/data`);
    expect(api).toBeDefined();
    expect(api).toMatchObject({ method: 'GET', status: 200, resource_type: 'fetch' });
    expect(api!.response_headers['content-type']).toBe('application/json');
    expect(api!.request_headers['user-agent']).toBeDefined();
    expect(JSON.parse(api!.body!)).toEqual({ items: [{ id: 1, name: 'Alpha' }, { id: 2, name: 'Beta' }, { id: 3, name: 'Gamma' }] });
  });

  it('fills and submits a form, then extracts from the result page', async () => {
    const res = await pool.scrape(
      {
        url: `${fx.url}/form`,
        fill_form: { selector: '#f', fields: { '#name': 'Ada Lovelace', '#email': 'ada@example.com', '#color': 'blue', '#subscribe': true }, submit: '#go' },
        selectors: ['#method', '#result-name', '#result-email', '#result-color', '#result-subscribe'],
      },
      { timeoutMs: 20_000 },
    );
    expect(res.final_url).toBe(`${fx.url}/form/submit`);
    expect(res.data!.map((d) => d.results[0]?.text)).toEqual(['POST', 'Ada Lovelace', 'ada@example.com', 'blue', 'yes']);
  });

  it('submits the form by its selector when no submit button is given', async () => {
    const res = await pool.scrape(
      { url: `${fx.url}/form`, fill_form: { selector: '#f', fields: { '#name': 'Grace' } }, selectors: ['#result-name'] },
      { timeoutMs: 20_000 },
    );
    expect(res.data![0]!.results[0]!.text).toBe('Grace');
  });

  it('returns target 4xx as a status and follows redirects', async () => {
    const notFound = await pool.scrape({ url: `${fx.url}/status/404`, selectors: ['h1'] }, { timeoutMs: 20_000 });
    expect(notFound.status).toBe(404);
    expect(notFound.data![0]!.results[0]!.text).toBe('Status 404');
    const redirected = await pool.scrape({ url: `${fx.url}/redirect?n=3`, selectors: ['h1'] }, { timeoutMs: 20_000 });
    expect(redirected.final_url).toBe(`${fx.url}/page/final`);
    expect(redirected.data![0]!.results[0]!.text).toBe('Page final');
  });

  it('refuses a blacklisted target, also when reached through a redirect', async () => {
    const isBlacklisted = (h: string) => matchesBlacklist(h, ['localhost']);
    const direct = await appErrorOf(pool.scrape({ url: `http://localhost:${fx.port}/page/1` }, { isBlacklisted, timeoutMs: 20_000 }));
    expect(direct).toMatchObject({ code: 'BLACKLISTED', status: 403 });
    const viaRedirect = await appErrorOf(
      pool.scrape({ url: `${fx.url}/redirect-to?url=${encodeURIComponent(`http://localhost:${fx.port}/page/x`)}` }, { isBlacklisted, timeoutMs: 20_000 }),
    );
    expect(viaRedirect).toMatchObject({ code: 'BLACKLISTED' });
  });

  it('does not share cookies between scrapes', async () => {
    // /set-cookie sets a cookie and redirects to /echo, which shows the Cookie header it got.
    const first = await pool.scrape({ url: `${fx.url}/set-cookie` }, { timeoutMs: 20_000 });
    expect(first.html).toContain('session=fixture-secret');
    const second = await pool.scrape({ url: `${fx.url}/echo` }, { timeoutMs: 20_000 });
    expect(second.html).toContain('"user-agent"');
    expect(second.html).not.toContain('fixture-secret');
  });

  it('does not keep localStorage between scrapes', async () => {
    // /storage shows what an earlier visit stored, then stores a value itself.
    for (let i = 0; i < 2; i++) {
      const res = await pool.scrape({ url: `${fx.url}/storage`, selectors: ['#seen'] }, { timeoutMs: 20_000 });
      expect(res.data![0]!.results[0]!.text).toBe('none');
    }
  });

  it('starts a scrape on a pre-warmed context when one is ready', async () => {
    await until(() => pool.stats().spareContexts === 2, 'two spares');
    const before = pool.stats();
    const res = await pool.scrape({ url: `${fx.url}/page/7`, selectors: ['h1'] }, { timeoutMs: 20_000 });
    expect(res.data![0]!.results[0]!.text).toBe('Page 7');
    expect(pool.stats()).toMatchObject({ spareHits: before.spareHits + 1, spareMisses: before.spareMisses });
  });

  it('applies plain headers to a pre-warmed context; a custom user agent gets a new context', async () => {
    const echo = async (headers: Record<string, string>) => {
      // Chromium shows a JSON answer as the text of a <pre>.
      const res = await pool.scrape({ url: `${fx.url}/echo`, headers, selectors: ['pre'] }, { timeoutMs: 20_000 });
      return JSON.parse(res.data![0]!.results[0]!.text) as { headers: Record<string, string> };
    };
    await until(() => pool.stats().spareContexts === 2, 'two spares');
    let before = pool.stats();
    const plain = await echo({ 'x-fixture': 'one' });
    expect(plain.headers['x-fixture']).toBe('one');
    expect(pool.stats()).toMatchObject({ spareHits: before.spareHits + 1, spareMisses: before.spareMisses });

    before = pool.stats();
    const custom = await echo({ 'user-agent': 'FixtureBot/1.0', 'x-fixture': 'two' });
    expect(custom.headers).toMatchObject({ 'user-agent': 'FixtureBot/1.0', 'x-fixture': 'two' });
    expect(pool.stats()).toMatchObject({ spareHits: before.spareHits, spareMisses: before.spareMisses + 1 });

    // Neither header stays with the pool.
    const next = await echo({});
    expect(next.headers['user-agent']).not.toBe('FixtureBot/1.0');
    expect(next.headers['x-fixture']).toBeUndefined();
  });

  it('block_resources aborts those resource types (not a guard refusal) and loads the rest', async () => {
    const count = (path: string) => fx.hits.get(path) ?? 0;
    const scrapeAssets = (tag: string, block?: Array<'image' | 'stylesheet'>) =>
      pool.scrape(
        { url: `${fx.url}/assets?tag=${tag}`, block_resources: block, wait_for: 'body[data-img]', capture_network: true, selectors: [{ selector: 'body', attribute: 'data-img' }] },
        { timeoutMs: 20_000 },
      );
    const before = { img: count('/pixel.png'), css: count('/style.css') };
    const blocked = await scrapeAssets('blocked', ['image']);
    expect(blocked.status).toBe(200);
    expect(blocked.data![0]!.results[0]!.text).toBe('failed');
    expect(count('/pixel.png')).toBe(before.img);
    expect(count('/style.css')).toBe(before.css + 1);
    const pixel = blocked.network!.find((n) => n.url.includes('/pixel.png'));
    expect(pixel).toMatchObject({ resource_type: 'image', status: null });
    expect(pixel!.error).toContain('ERR_ABORTED');

    const both = await scrapeAssets('both', ['image', 'stylesheet']);
    expect(both.data![0]!.results[0]!.text).toBe('failed');
    expect({ img: count('/pixel.png'), css: count('/style.css') }).toEqual({ img: before.img, css: before.css + 1 });

    const loaded = await scrapeAssets('none');
    expect(loaded.data![0]!.results[0]!.text).toBe('ok');
    expect({ img: count('/pixel.png'), css: count('/style.css') }).toEqual({ img: before.img + 1, css: before.css + 2 });
  });

  it('wait_until: domcontentloaded and commit return before load; networkidle waits for late requests', async () => {
    // The image answers after 15 s: waiting for `load` would exceed the 10 s deadline.
    const dcl = await pool.scrape({ url: `${fx.url}/assets?tag=dcl&img_delay=15000`, wait_until: 'domcontentloaded' }, { timeoutMs: 10_000 });
    expect(dcl.status).toBe(200);
    // The image's onload has not run: no data-img on <body> yet.
    expect(dcl.html).toContain('<body><h1>Assets</h1>');

    // The body ends after 15 s: only 'commit' can return within 10 s.
    const commit = await pool.scrape({ url: `${fx.url}/partial?ms=15000`, wait_until: 'commit' }, { timeoutMs: 10_000 });
    expect(commit).toMatchObject({ status: 200, final_url: `${fx.url}/partial?ms=15000` });
    expect(commit.html).not.toContain('Tail');

    const slowLoad = await appErrorOf(pool.scrape({ url: `${fx.url}/partial?ms=15000`, wait_until: 'domcontentloaded' }, { timeoutMs: 3000 }));
    expect(slowLoad.code).toBe('SCRAPE_FAILED');

    // /late-fetch requests /api/data 300 ms after load; networkidle waits for it and its rendering.
    const idle = await pool.scrape(
      { url: `${fx.url}/late-fetch?delay=300`, wait_until: 'networkidle', selectors: [{ selector: '#items li', all: true }] },
      { timeoutMs: 20_000 },
    );
    expect(idle.data![0]!.results.map((r) => r.text)).toEqual(['Alpha', 'Beta', 'Gamma']);

    const bad = await appErrorOf(pool.scrape({ url: `${fx.url}/page/1`, wait_until: 'never' as never }));
    expect(bad).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    const badBlock = await appErrorOf(pool.scrape({ url: `${fx.url}/page/1`, block_resources: ['script' as never] }));
    expect(badBlock).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('runs 50 sequential scrapes without leaking a context', async () => {
    for (let i = 0; i < 50; i++) {
      const res = await pool.scrape({ url: `${fx.url}/page/${i}`, selectors: ['h1'] }, { timeoutMs: 20_000 });
      expect(res.data![0]!.results[0]!.text).toBe(`Page ${i}`);
    }
    await slotsFreed(pool);
    expect(pool.stats()).toMatchObject({ launched: true });
    // Open contexts come back to the pre-warmed spares, none beyond.
    await expectIdleWithSpares(pool);
  });

  it('bounds concurrency with a FIFO queue and releases every slot, failures included', async () => {
    // Held pages: the slots stay taken until the test releases them, however slow the machine.
    const holds = Array.from({ length: 5 }, (_, i) => `fifo-${i}-${Date.now()}`);
    const slow = holds.map((hold) => pool.scrape({ url: `${fx.url}/hold?key=${hold}` }, { timeoutMs: 30_000 }));
    // 2 slots taken, the other 3 wait in the queue
    await until(() => pool.stats().queueLength === 3, 'three queued');
    expect(pool.stats().contextsInUse).toBe(2);
    // A scrape that fails (its deadline passes waiting for #nope, or in the queue) queues behind them.
    const failing = pool.scrape({ url: `${fx.url}/page/1`, wait_for: '#nope' }, { timeoutMs: 5000 }).catch((e: unknown) => e);
    await until(() => pool.stats().queueLength === 4, 'four queued');
    expect(pool.stats().contextsInUse).toBe(2);
    for (const hold of holds) fx.release(hold);
    const results = await Promise.all(slow);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await failing).toBeInstanceOf(AppError);
    await slotsFreed(pool);
    await expectIdleWithSpares(pool);
  });

  it('queued and running scrapes honour cancellation', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    const running = pool.scrape({ url: `${fx.url}/slow?ms=20000` }, { signal: controller.signal, timeoutMs: 30_000 });
    const queued = [1, 2, 3].map(() => pool.scrape({ url: `${fx.url}/slow?ms=20000` }, { signal: controller.signal, timeoutMs: 30_000 }));
    await until(() => pool.stats().queueLength === 2);
    expect(pool.stats().contextsInUse).toBe(2);
    controller.abort(reason);
    const settled = await Promise.allSettled([running, ...queued]);
    expect(settled).toEqual(settled.map(() => ({ status: 'rejected', reason })));
    await slotsFreed(pool);
    await expectIdleWithSpares(pool);
  });

  it('relaunches Chromium after its process is killed', async () => {
    await pool.scrape({ url: `${fx.url}/page/1` }, { timeoutMs: 20_000 });
    const before = pool.stats().launches;
    const pids = chromiumChildren();
    expect(pids.length).toBeGreaterThan(0);
    const disconnected = nextEvent('disconnected');
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    await disconnected;
    expect(pool.stats().launched).toBe(false);
    const res = await pool.scrape({ url: `${fx.url}/page/2`, selectors: ['h1'] }, { timeoutMs: 30_000 });
    expect(res.data![0]!.results[0]!.text).toBe('Page 2');
    expect(pool.stats()).toMatchObject({ launched: true, launches: before + 1 });
    await slotsFreed(pool);
    // Pre-warming recovered on the new Chromium.
    await expectIdleWithSpares(pool);
    const hits = pool.stats().spareHits;
    await pool.scrape({ url: `${fx.url}/page/3` }, { timeoutMs: 30_000 });
    expect(pool.stats().spareHits).toBe(hits + 1);
  });

  it('rejects bad selectors and bad schemes before launching any work', async () => {
    expect(await appErrorOf(pool.scrape({ url: `${fx.url}/page/1`, selectors: ['a[['] }))).toMatchObject({ code: 'INVALID_SELECTOR' });
    expect(await appErrorOf(pool.scrape({ url: 'file:///etc/passwd' }))).toMatchObject({ code: 'INVALID_URL' });
  });
});

describe('browser pool lifecycle: recycling and close (own pools)', () => {
  let own: BrowserPool | undefined;
  afterEach(async () => {
    await own?.close();
    own = undefined;
  });

  it('recycles Chromium after N pages while scrapes are in flight; none fails', async () => {
    const seen: BrowserPoolEvent[] = [];
    own = createBrowserPool({ executablePath: CHROMIUM, allowPrivateTargets: true, maxConcurrency: 2, recyclePages: 3, onEvent: (e) => seen.push(e) });
    // Page 1 is held by the fixture until released: it is in flight through the recycle.
    const held = own.scrape({ url: `${fx.url}/hold?key=recycle`, selectors: ['h1'] }, { timeoutMs: 60_000 });
    await until(() => (fx.hits.get('/hold') ?? 0) >= 1, 'the held page requested');
    for (const i of [2, 3]) {
      const res = await own.scrape({ url: `${fx.url}/page/${i}`, selectors: ['h1'] }, { timeoutMs: 30_000 });
      expect(res.data![0]!.results[0]!.text).toBe(`Page ${i}`);
    }
    // Page 3 reached the limit: a successor is launched, new scrapes go to it, the old one waits for page 1.
    await until(() => own!.stats().recycles === 1, 'the first recycle');
    expect(own.stats()).toMatchObject({ launches: 2, retiringBrowsers: 1, pagesSinceLaunch: 0 });
    expect(seen).toContainEqual({ type: 'recycling', reason: 'pages', pages: 3, rssBytes: null });
    const onNew = await own.scrape({ url: `${fx.url}/page/4`, selectors: ['h1'] }, { timeoutMs: 30_000 });
    expect(onNew.data![0]!.results[0]!.text).toBe('Page 4');
    expect(own.stats()).toMatchObject({ retiringBrowsers: 1, pagesSinceLaunch: 1 });
    fx.release('recycle');
    expect((await held).data![0]!.results[0]!.text).toBe('Held recycle');
    await until(() => own!.stats().retiringBrowsers === 0, 'the old Chromium closed');
    expect(seen).toContainEqual({ type: 'retired', pages: 3 });
    expect(seen.filter((e) => e.type === 'disconnected')).toEqual([]);

    // Under load: 12 scrapes at once (2 run, 10 queue), recycling every 3 pages.
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => own!.scrape({ url: `${fx.url}/page/r${i}`, selectors: ['h1'] }, { timeoutMs: 60_000 })),
    );
    expect(results.map((r) => r.data![0]!.results[0]!.text)).toEqual(results.map((_, i) => `Page r${i}`));
    expect(own.stats().recycles).toBeGreaterThanOrEqual(2);
    await until(() => own!.stats().retiringBrowsers === 0, 'every replaced Chromium closed');
    await expectIdleWithSpares(own);
  });

  it('recycles Chromium when its memory grows past the bound over its baseline', async () => {
    const seen: BrowserPoolEvent[] = [];
    // Readings: 100 MiB at the first check (the baseline), then 100 MiB + the bound + 1 byte.
    const readings = [100 * 2 ** 20, 100 * 2 ** 20 + 2 ** 20 + 1];
    const pids: number[] = [];
    own = createBrowserPool({
      executablePath: CHROMIUM,
      allowPrivateTargets: true,
      rssCheckEveryPages: 1,
      recycleRssGrowthBytes: 2 ** 20,
      readRss: (pid) => {
        pids.push(pid);
        return Promise.resolve(readings.shift() ?? null);
      },
      onEvent: (e) => seen.push(e),
    });
    await own.scrape({ url: `${fx.url}/page/1` }, { timeoutMs: 30_000 });
    await until(() => own!.stats().chromiumRssBytes === 100 * 2 ** 20, 'the baseline reading');
    // The reading was of Chromium's browser process, a child of this process.
    expect(chromiumChildren()).toContain(pids[0]);
    await own.scrape({ url: `${fx.url}/page/2` }, { timeoutMs: 30_000 });
    await until(() => own!.stats().recycles === 1, 'the recycle');
    expect(seen).toContainEqual({ type: 'recycling', reason: 'rss', pages: 2, rssBytes: 100 * 2 ** 20 + 2 ** 20 + 1 });
    const res = await own.scrape({ url: `${fx.url}/page/3`, selectors: ['h1'] }, { timeoutMs: 30_000 });
    expect(res.data![0]!.results[0]!.text).toBe('Page 3');
    expect(own.stats()).toMatchObject({ launches: 2, pagesSinceLaunch: 1 });
  });

  it('reads the memory of the real Chromium (its long-lived processes)', async () => {
    let browserPid: number | undefined;
    own = createBrowserPool({
      executablePath: CHROMIUM,
      allowPrivateTargets: true,
      rssCheckEveryPages: 1,
      readRss: (pid) => {
        browserPid = pid;
        return chromiumLongLivedRssBytes(pid);
      },
    });
    await own.scrape({ url: `${fx.url}/page/1` }, { timeoutMs: 30_000 });
    // Chromium's browser process alone is well over 50 MiB resident.
    await until(() => (own!.stats().chromiumRssBytes ?? 0) > 50 * 2 ** 20, 'a plausible RSS reading');
    // With the spares' pages open, renderers exist, and the reading leaves them out.
    await expectIdleWithSpares(own);
    const tree = (await readProcessTree(browserPid!))!;
    expect(tree.filter((p) => p.chromiumType === 'renderer').length).toBeGreaterThanOrEqual(2);
    const longLived = tree.filter((p) => p.chromiumType !== 'renderer').reduce((sum, p) => sum + p.rssBytes, 0);
    expect(await chromiumLongLivedRssBytes(browserPid!)).toBeLessThan(tree.reduce((sum, p) => sum + p.rssBytes, 0));
    expect(longLived).toBeGreaterThan(50 * 2 ** 20);
  });

  it('close() stops pre-warming and leaves no Chromium behind', async () => {
    const before = new Set(chromiumChildren());
    own = createBrowserPool({ executablePath: CHROMIUM, allowPrivateTargets: true, spareContexts: 3 });
    await own.scrape({ url: `${fx.url}/page/1` }, { timeoutMs: 30_000 });
    // Closing while the spares are still being refilled.
    expect(chromiumChildren().filter((pid) => !before.has(pid)).length).toBeGreaterThan(0);
    const closing = own;
    own = undefined;
    await closing.close();
    expect(closing.stats()).toMatchObject({ launched: false, openContexts: 0, spareContexts: 0, retiringBrowsers: 0 });
    expect(chromiumChildren().filter((pid) => !before.has(pid))).toEqual([]);
    expect(await appErrorOf(closing.scrape({ url: `${fx.url}/page/2` }))).toMatchObject({ code: 'BROWSER_UNAVAILABLE' });
  });

  it('launchOnCreate launches Chromium and pre-warms before the first scrape', async () => {
    own = createBrowserPool({ executablePath: CHROMIUM, allowPrivateTargets: true, launchOnCreate: true });
    await expectIdleWithSpares(own);
    expect(own.stats()).toMatchObject({ launches: 1, spareHits: 0, spareMisses: 0 });
    await own.scrape({ url: `${fx.url}/page/1` }, { timeoutMs: 30_000 });
    expect(own.stats().spareHits).toBe(1);
  });

  it('spareContexts: 0 turns pre-warming off (a context per scrape, on demand)', async () => {
    own = createBrowserPool({ executablePath: CHROMIUM, allowPrivateTargets: true, spareContexts: 0 });
    for (const i of [1, 2]) await own.scrape({ url: `${fx.url}/page/${i}` }, { timeoutMs: 30_000 });
    await slotsFreed(own);
    expect(own.stats()).toMatchObject({ spareContexts: 0, openContexts: 0, spareHits: 0, spareMisses: 2 });
  });
});

/**
 * A real page (mozilla/readability's nytimes-2) whose UTF-8 bytes declare no charset, served as
 * `text/html` with none: Chromium alone reads it as windows-1252 ("Yahooâ€™s"); the worker names
 * the charset the http engine sniffs (scrape/browser/document-charset.ts).
 */
describe('charset: browser mode reads a page as http mode does', () => {
  const TITLE = 'Yahoo’s Sale to Verizon Leaves Shareholders With Little Say - The New York Times';
  const request = (url: string): EngineRequest => ({ url, selectors: ['title', { selector: 'h1', all: true }], formats: ['text'] });
  let http: ReturnType<typeof createHttpEngine>;
  let strict: BrowserPool | undefined;
  beforeAll(() => {
    http = createHttpEngine({ allowPrivateTargets: true });
  });
  afterAll(async () => {
    await http.close();
    await strict?.close();
  });

  it('the same title and text as the http engine, non-ASCII characters intact, the server\'s headers reported', async () => {
    const url = `${fx.url}/readability/nytimes-2`;
    const [browser, plain] = await Promise.all([pool.scrape({ ...request(url), capture_network: true }, { timeoutMs: 30_000 }), http.scrape(request(url))]);
    expect(plain.data![0]!.results[0]!.text).toBe(TITLE);
    expect(browser.data).toEqual(plain.data);
    expect(browser.text).toBe(plain.text);
    expect(browser.text).toMatch(/Yahoo’s \$4\.8 billion sale/);
    expect(browser.text).toContain('“');
    expect(browser.text).not.toContain('â€');
    // Status and headers as the server sent them (Chromium was handed the Content-Type with a charset).
    expect(browser.status).toBe(200);
    expect(browser.headers['content-type']).toBe('text/html');
    const documentEntry = browser.network!.find((n) => n.url === url)!;
    expect(documentEntry).toMatchObject({ status: 200, resource_type: 'document' });
    expect(documentEntry.response_headers['content-type']).toBe('text/html');
  });

  it('through the egress guard, and after a redirect: Chromium still fetches the document itself', async () => {
    strict = createBrowserPool({ executablePath: CHROMIUM, allowPrivateTargets: false, isPrivate: (ip) => ip !== '127.0.0.1' && isPrivateAddress(ip) });
    const url = `${fx.url}/redirect-to?url=${encodeURIComponent('/readability/nytimes-2')}`;
    const before = fx.hits.get('/readability/nytimes-2') ?? 0;
    const [browser, plain] = await Promise.all([strict.scrape(request(url), { timeoutMs: 30_000 }), http.scrape(request(url))]);
    expect(browser.final_url).toBe(`${fx.url}/readability/nytimes-2`);
    expect(browser.data![0]!.results[0]!.text).toBe(TITLE);
    expect(browser.text).toBe(plain.text);
    // Fetched once per engine: the document was not requested a second time to be relabelled.
    expect(fx.hits.get('/readability/nytimes-2')).toBe(before + 2);
    // Through the egress proxy (guard layer 3), which counts what it forwards.
    expect(strict.stats().egress!.requests).toBeGreaterThan(0);
  });
});

describe('browser pool with allowPrivateTargets=false (egress guard)', () => {
  let strict: BrowserPool | undefined;
  afterEach(async () => {
    await strict?.close();
    strict = undefined;
  });

  it('refuses the loopback fixture with PRIVATE_TARGET, by IP and by name', async () => {
    strict = createBrowserPool({ executablePath: CHROMIUM, allowPrivateTargets: false });
    expect(await appErrorOf(strict.scrape({ url: `${fx.url}/page/1` }, { timeoutMs: 20_000 }))).toMatchObject({ code: 'PRIVATE_TARGET', status: 403 });
    expect(await appErrorOf(strict.scrape({ url: `http://localhost:${fx.port}/page/1` }, { timeoutMs: 20_000 }))).toMatchObject({ code: 'PRIVATE_TARGET' });
    await slotsFreed(strict);
  });

  it('a name that does not resolve fails the scrape saying so (not Chromium\'s ERR_BLOCKED_BY_CLIENT)', async () => {
    strict = createBrowserPool({ executablePath: CHROMIUM, allowPrivateTargets: false });
    const err = await appErrorOf(strict.scrape({ url: 'http://no-such-host.invalid/page' }, { timeoutMs: 20_000 }));
    expect(err).toMatchObject({ code: 'SCRAPE_FAILED' });
    expect(err.message).toMatch(/^cannot resolve no-such-host\.invalid: /);
    await slotsFreed(strict);
  });

  it('blocks a redirect hop to a private address and private subresources (the proxy enforces it)', async () => {
    // Treat 127.0.0.1 as "public" so the fixture is reachable; every other private address stays blocked.
    strict = createBrowserPool({
      executablePath: CHROMIUM,
      allowPrivateTargets: false,
      isPrivate: (ip) => ip !== '127.0.0.1' && isPrivateAddress(ip),
    });
    const ok = await strict.scrape({ url: `${fx.url}/page/1`, selectors: ['h1'] }, { timeoutMs: 20_000 });
    expect(ok.data![0]!.results[0]!.text).toBe('Page 1');

    const hop = `http://127.0.0.2:${fx.port}/page/secret`;
    const err = await appErrorOf(strict.scrape({ url: `${fx.url}/redirect-to?url=${encodeURIComponent(hop)}` }, { timeoutMs: 20_000 }));
    expect(err).toMatchObject({ code: 'PRIVATE_TARGET' });

    // Subresources: a direct private URL is aborted by the route handler; a redirect to one is
    // not routed by Playwright, so only the egress proxy can stop it.
    const blockedBefore = strict.stats().egress!.blocked;
    const redirecting = `/redirect-to?url=${encodeURIComponent(`${hop}?via=redirect`)}`;
    const res = await strict.scrape(
      { url: `${fx.url}/embed?src=${encodeURIComponent(redirecting)}`, wait_for: 'body[data-fetch]', capture_network: true, selectors: [{ selector: 'body', attribute: 'data-fetch' }] },
      { timeoutMs: 20_000 },
    );
    expect(res.data![0]!.results[0]!.text).toBe('failed');
    expect(strict.stats().egress!.blocked).toBeGreaterThan(blockedBefore);
    const hopEntries = res.network!.filter((n) => n.url.startsWith(hop));
    expect(hopEntries.length).toBeGreaterThan(0);
    expect(hopEntries.every((n) => n.body === undefined || !n.body.includes('Page secret'))).toBe(true);

    const direct = await strict.scrape(
      { url: `${fx.url}/embed?src=${encodeURIComponent(hop)}`, wait_for: 'body[data-fetch]', capture_network: true, selectors: [{ selector: 'body', attribute: 'data-fetch' }] },
      { timeoutMs: 20_000 },
    );
    expect(direct.data![0]!.results[0]!.text).toBe('failed');
    expect(direct.network!.filter((n) => n.url === hop).map((n) => n.error)).toContainEqual(expect.stringContaining('ERR_BLOCKED_BY_CLIENT'));
  });
});
