/**
 * The browser pool's Chromium lifecycle (pool.ts has the design): one current Chromium, launched
 * on demand and relaunched after a crash or disconnect; recycled after `recyclePages` pages or on
 * memory growth (a successor is launched while the current one keeps serving; the replaced one
 * retires and closes after its last in-flight scrape); closed with the pool. It also owns the
 * egress proxy, started with the first launch.
 */
import type { Browser } from 'playwright-core';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../platform/errors';
import { startEgressProxy } from './egress-proxy';
import type { EgressProxy } from './egress-proxy';
import { CHROMIUM_ARGS, launchChromium } from './chromium';
import type { Chromium, LaunchSettings, RecycleReason } from './chromium';
import type { ContextSettings } from './context';
import { chromiumLongLivedRssBytes } from './proc';
import { firstLine, poolClosed } from './pool-errors';
import type { BrowserPoolEvent, BrowserPoolOptions } from './pool-types';

/** After a successor failed to launch, serve this many more pages before trying again. */
const RECYCLE_RETRY_PAGES = 100;

export interface ChromiumLifecycle {
  /** The Chromium new scrapes go to (null before the first launch, after a crash). */
  readonly current: Chromium | null;
  readonly proxy: EgressProxy | null;
  /** Chromiums replaced by a fresh one, still finishing their in-flight scrapes. */
  readonly retiring: ReadonlySet<Chromium>;
  readonly launches: number;
  readonly recycles: number;
  inService(c: Chromium | null): c is Chromium;
  /** Launches a Chromium unless one is being launched; the current one if it is still connected retires. */
  launchOnce(): Promise<Chromium>;
  /**
   * The current Chromium, launched if need be, with this scrape counted on it before anything
   * else can run: a Chromium retires only once its counted scrapes are done.
   */
  claim(aborted: Promise<never>): Promise<Chromium>;
  /** A scrape counted by `claim` is done: a retiring Chromium may close, memory may be read. */
  finished(c: Chromium): void;
  /** `browser` stopped answering (a context would not close): new scrapes must not go to it. */
  forget(browser: Browser): void;
  /** A new context's credentials at the egress proxy (none before the first launch started it). */
  egressFor(): ContextSettings['egress'];
  /** Refuses every later launch and claim (the pool is closing). */
  stop(): void;
  /** Closes every Chromium (after `stop`, once in-flight scrapes ended), then the egress proxy. */
  close(): Promise<void>;
}

export interface ChromiumLifecycleHooks {
  emit: (e: BrowserPoolEvent) => void;
  /** `c` became the current Chromium. */
  onLaunched: (c: Chromium) => void;
  /** `c` retires or disconnected: it takes no new context. */
  onOutOfService: (c: Chromium) => void;
}

export function createChromiumLifecycle(options: BrowserPoolOptions, hooks: ChromiumLifecycleHooks): ChromiumLifecycle {
  const memory: MemoryWatch = {
    growth: options.recycleRssGrowthBytes ?? 512 * 2 ** 20,
    checkEveryPages: Math.max(1, options.rssCheckEveryPages ?? 50),
    read: options.readRss ?? chromiumLongLivedRssBytes,
  };
  const { emit } = hooks;
  let current: Chromium | null = null;
  const retiring = new Set<Chromium>();
  let launching: Promise<Chromium> | null = null;
  let proxy: EgressProxy | null = null;
  let closed = false;
  let launches = 0;
  let recycles = 0;

  const inService = (c: Chromium | null): c is Chromium => c !== null && !c.retiring && c.browser.isConnected();

  /** Launches a Chromium and makes it the current one; a previous one still connected retires. */
  async function launch(): Promise<Chromium> {
    // Always on, with credentials per context: the scrape's blacklist (and its upstream proxy)
    // applies to every connection its page makes, WebSockets included (not routed by Playwright).
    proxy ??= await startEgressProxy({ allowPrivateTargets: options.allowPrivateTargets, isPrivate: options.isPrivate, upstream: true });
    let c: Chromium;
    try {
      c = await launchChromium(launchSettings(options, proxy, memory));
    } catch (err) {
      const message = firstLine(err);
      emit({ type: 'launch_failed', error: message });
      throw new AppError('BROWSER_UNAVAILABLE', `cannot launch Chromium: ${message}`);
    }
    launches++;
    c.browser.on('disconnected', () => onDisconnected(c));
    if (closed) {
      await c.browser.close().catch(() => undefined);
      throw poolClosed();
    }
    const previous = current;
    current = c;
    emit({ type: 'launched' });
    if (inService(previous)) retire(previous);
    hooks.onLaunched(c);
    return c;
  }

  function launchOnce(): Promise<Chromium> {
    launching ??= launch().finally(() => {
      launching = null;
    });
    return launching;
  }

  function onDisconnected(c: Chromium): void {
    if (current === c) current = null;
    hooks.onOutOfService(c);
    retiring.delete(c);
    if (!c.retiring) emit({ type: 'disconnected' });
  }

  /** Starts launching a successor; `c` keeps serving until it is up. */
  function recycle(c: Chromium, reason: RecycleReason): void {
    if (closed || launching || c !== current || c.recycleReason) return;
    c.recycleReason = reason;
    emit({ type: 'recycling', reason, pages: c.pages, rssBytes: c.rssLatest });
    launchOnce().catch(() => {
      // launch_failed was emitted; keep serving on `c` and try again later.
      c.recycleReason = null;
      c.recycleAt = c.pages + RECYCLE_RETRY_PAGES;
      c.rssBaseline = null;
    });
  }

  function retire(c: Chromium): void {
    c.retiring = true;
    recycles++;
    hooks.onOutOfService(c);
    retiring.add(c);
    if (c.inFlight === 0) closeRetired(c);
  }

  function closeRetired(c: Chromium): void {
    emit({ type: 'retired', pages: c.pages });
    void c.browser.close().catch(() => undefined);
  }

  async function claim(aborted: Promise<never>): Promise<Chromium> {
    // Bounded: each turn waits for a launch, and a launch installs a Chromium in service.
    for (let attempt = 0; attempt < 5; attempt++) {
      if (closed) throw poolClosed();
      const c = current;
      if (inService(c)) {
        c.inFlight++;
        c.pages++;
        if (c.pages >= c.recycleAt) recycle(c, 'pages');
        return c;
      }
      await Promise.race([launchOnce(), aborted]);
    }
    throw new AppError('BROWSER_UNAVAILABLE', 'Chromium keeps going away');
  }

  function finished(c: Chromium): void {
    c.inFlight--;
    if (c.retiring) {
      if (c.inFlight === 0) closeRetired(c);
      return;
    }
    if (c.pages >= c.nextRssCheck && c.pid !== null && !c.rssReading) void checkMemory(c, c.pid, memory, recycle);
  }

  return {
    get current() {
      return current;
    },
    get proxy() {
      return proxy;
    },
    retiring,
    get launches() {
      return launches;
    },
    get recycles() {
      return recycles;
    },
    inService,
    launchOnce,
    claim,
    finished,
    forget(browser) {
      if (current?.browser === browser) current = null;
    },
    egressFor: () => (proxy ? { server: proxy.url, token: randomUUID(), secret: proxy.secret } : undefined),
    stop() {
      closed = true;
    },
    async close() {
      const last = await launching?.catch(() => null);
      const all = new Set([current, last, ...retiring].filter((c): c is Chromium => c != null));
      current = null;
      await Promise.all([...all].map((c) => c.browser.close().catch(() => undefined)));
      if (proxy) await proxy.close();
      proxy = null;
    },
  };
}

interface MemoryWatch {
  /** Recycle when the long-lived processes' RSS grew this much over the baseline (0 = never). */
  growth: number;
  checkEveryPages: number;
  read: (pid: number) => Promise<number | null>;
}

function launchSettings(options: BrowserPoolOptions, proxy: EgressProxy | null, memory: MemoryWatch): LaunchSettings {
  const args = [...CHROMIUM_ARGS, ...(options.extraArgs ?? [])];
  if (proxy && !options.allowPrivateTargets) {
    args.push(`--proxy-server=${proxy.url}`, '--proxy-bypass-list=<-loopback>');
  }
  return {
    executablePath: options.executablePath,
    ...(options.driver ? { driver: options.driver } : {}),
    args,
    timeoutMs: options.launchTimeoutMs ?? 30_000,
    recyclePages: options.recyclePages === 0 ? Infinity : (options.recyclePages ?? 1000),
    rssCheckEveryPages: memory.checkEveryPages,
    ...(options.withoutSandbox ? { withoutSandbox: true } : {}),
    ...(options.disableFeatures ? { disableFeatures: options.disableFeatures } : {}),
  };
}

/** Reads Chromium's memory off the scrape's path; the first reading is the baseline. */
async function checkMemory(c: Chromium, pid: number, memory: MemoryWatch, recycle: (c: Chromium, reason: RecycleReason) => void): Promise<void> {
  c.rssReading = true;
  c.nextRssCheck = c.pages + memory.checkEveryPages;
  try {
    const rss = await memory.read(pid);
    if (rss === null) return;
    c.rssLatest = rss;
    if (c.rssBaseline === null) c.rssBaseline = rss;
    else if (memory.growth > 0 && rss > c.rssBaseline + memory.growth) recycle(c, 'rss');
  } catch {
    /* a failed reading just skips this check */
  } finally {
    c.rssReading = false;
  }
}
