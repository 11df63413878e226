/**
 * browser mode: a pool around ONE current Chromium process (lazily launched, relaunched after a
 * crash or disconnect, recycled after N pages or on memory growth), a fresh BrowserContext per
 * scrape (no cookies or storage leak between scrapes), and a FIFO queue bounding concurrency.
 *
 * Latency: creating a context and its page costs more than loading a small page, so the pool
 * keeps `spareContexts` of them prepared (spares.ts, context.ts) and a scrape starts at `goto`.
 * A spare is taken by one scrape and closed after it, like any other context; a request whose
 * context must differ from creation on (its own user agent) gets a new one. Spares are refilled
 * only while no scrape waits for a slot: a new page's renderer keeps initialising for ~2 s after
 * `newPage` (0.5–1 s of CPU here) unless it navigates at once, so a spare that idles until a slot
 * frees costs more CPU than the context the queued scrape makes for itself, and when scrapes
 * queue, CPU is what they wait for (docs/scraping.md, "Browser pool").
 *
 * Recycling: after `recyclePages` pages, or when the RSS of Chromium's long-lived processes
 * (all but renderers, which die with their context) has grown `recycleRssGrowthBytes` over its
 * reading after warm-up, a successor is launched in the background; once it is up, new scrapes go to it and the old one closes when its last in-flight
 * scrape ends. No scrape fails because of a recycle.
 *
 * Target safety, three layers:
 * 1. `context.route('**\/*')` checks every request the page makes (scheme, blacklist, resolved
 *    address) and aborts refused ones; a refused main document fails the scrape with
 *    BLACKLISTED / PRIVATE_TARGET.
 * 2. Redirect hops are not routed by Playwright, so `request` events check hops of main-frame
 *    navigations too; a refused hop fails the scrape (its content is never returned).
 * 3. Unless private targets are allowed, Chromium talks to the network only through the egress
 *    proxy (../egress-proxy.ts), which resolves names itself and refuses private addresses at connect
 *    time: every hop, subresource and WebSocket, with no DNS-rebinding window. WebRTC is limited
 *    to proxied traffic (no UDP), service workers are blocked.
 *
 * Errors: INVALID_URL / BLACKLISTED / PRIVATE_TARGET / INVALID_SELECTOR / BAD_REQUEST (do not
 * retry), SCRAPE_FAILED (navigation error, timeout, wait_for not found, crash: retryable),
 * BROWSER_UNAVAILABLE (Chromium cannot be launched, pool closed). Cancellation via `signal`
 * rejects with `signal.reason` and closes the context at once.
 */
import { errors as pwErrors } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';
import { AppError } from '../../platform/errors';
import { startEgressProxy } from './egress-proxy';
import type { EgressProxy } from './egress-proxy';
import { checkTarget } from '../../platform/target-guard';
import type { AddressPolicy } from '../../platform/target-guard';
import { validateSelectors } from '../selectors';
import type { ScrapeCallOptions, ScrapeResult } from '../types';
import { CHROMIUM_ARGS, launchChromium } from './chromium';
import type { Chromium, RecycleReason } from './chromium';
import { prepareContext, requestHeaders } from './context';
import type { ContextSettings, PreparedContext, RequestHeaders } from './context';
import { randomUUID } from 'node:crypto';
import { runScrape, validateBrowserOptions } from './page';
import { chromiumLongLivedRssBytes } from './proc';
import { createSlots } from './slots';
import { createSpareStore } from './spares';
import type { DocumentOutputThreads } from '../formats/threads';
import type { EngineRequest } from '../request';

export { CHROMIUM_ARGS };

export interface BrowserPoolOptions {
  /** Path to Chromium, e.g. CHROMIUM_PATH or /usr/bin/chromium. */
  executablePath: string;
  /** Where large documents' format work runs (scrape/formats/threads.ts); inline without. Closed with the pool. */
  formatThreads?: DocumentOutputThreads;
  /** Concurrent scrapes (contexts); default 2. */
  maxConcurrency?: number;
  /** Scrapes waiting for a slot beyond this are refused with BROWSER_UNAVAILABLE; default 1000. */
  maxQueue?: number;
  allowPrivateTargets: boolean;
  /** Default deadline per scrape (queue wait included) when the call gives none; default 30 s. */
  defaultTimeoutMs?: number;
  launchTimeoutMs?: number;
  userAgent?: string;
  /**
   * After `load` (and after a form submit), wait up to this long for network idle, best effort.
   * Default 0 (off): it costs at least 500 ms per scrape; `wait_for` is the precise tool.
   */
  settleMs?: number;
  /** Extra Chromium flags. */
  extraArgs?: string[];
  /**
   * Pre-warmed contexts (each with its page and guard handlers) kept ready for the next scrapes;
   * default `maxConcurrency`; 0 turns pre-warming off (a context is made per scrape, on demand).
   */
  spareContexts?: number;
  /** Replace Chromium after this many pages; default 1000; 0 = never. */
  recyclePages?: number;
  /**
   * Replace Chromium when the RSS of its long-lived processes (browser, GPU, network, zygotes:
   * not renderers) exceeds its reading after warm-up by this much; default 512 MiB; 0 = never.
   * Read every `rssCheckEveryPages` pages.
   */
  recycleRssGrowthBytes?: number;
  /** Pages between two readings of Chromium's memory (the first one is the baseline); default 50. */
  rssCheckEveryPages?: number;
  /**
   * Give an HTML document whose Content-Type names no charset the one the http engine sniffs, so
   * both modes read the same text (document-charset.ts); default true. false is the benchmark's
   * baseline (bench/browser-charset.ts): Chromium guesses by itself.
   */
  labelCharsets?: boolean;
  /** Launch Chromium and pre-warm at creation instead of at the first scrape; default false. */
  launchOnCreate?: boolean;
  /** Lifecycle notifications, e.g. for logs and metrics. */
  onEvent?: (event: BrowserPoolEvent) => void;
  /** Test hook: address classifier (default `isPrivateAddress`). */
  isPrivate?: AddressPolicy;
  /**
   * PROXY_URLS is set: scrapes may go through an upstream proxy (`ScrapeCallOptions.proxy`). The
   * egress proxy then runs whatever `allowPrivateTargets` says, and every context carries its own
   * credentials there, so the egress knows each context's upstream (egress-proxy.ts).
   */
  upstreamProxies?: boolean;
  /** Test hook: the RSS reading for the Chromium whose browser process is `pid` (default: from /proc). */
  readRss?: (pid: number) => Promise<number | null>;
}

export type BrowserPoolEvent =
  | { type: 'launched' }
  | { type: 'disconnected' }
  | { type: 'launch_failed'; error: string }
  /** A successor Chromium is being launched; the current one keeps serving until it is up. */
  | { type: 'recycling'; reason: RecycleReason; pages: number; rssBytes: number | null }
  /** A replaced Chromium was closed after its last in-flight scrape. */
  | { type: 'retired'; pages: number }
  /** A context could not be pre-warmed (scrapes then make their own). */
  | { type: 'prewarm_failed'; error: string };

export interface BrowserPoolStats {
  /** Slots held: scrapes under way, and scrapes answered whose context is still closing (each owns one BrowserContext). */
  contextsInUse: number;
  /** Scrapes waiting for a slot. */
  queueLength: number;
  /** A connected Chromium exists. */
  launched: boolean;
  /**
   * Contexts actually open in Chromium (current and retiring): the ones in use, the spares, and
   * spares being prepared. When idle it settles at `spareContexts`: nothing leaked.
   */
  openContexts: number;
  /** Pre-warmed contexts ready to be taken. */
  spareContexts: number;
  /** Scrapes that started on a pre-warmed context / on one made for them. */
  spareHits: number;
  spareMisses: number;
  /** Chromium launches so far (relaunches after a crash and recycles count). */
  launches: number;
  /** Chromiums replaced by a fresh one (for pages or memory). */
  recycles: number;
  /** Replaced Chromiums still finishing their in-flight scrapes. */
  retiringBrowsers: number;
  /** Pages served by the current Chromium. */
  pagesSinceLaunch: number;
  /** Latest RSS reading of the current Chromium's long-lived processes (every `rssCheckEveryPages` pages). */
  chromiumRssBytes: number | null;
  /** Egress proxy counters (only when private targets are not allowed). */
  egress: { requests: number; blocked: number } | null;
}

export interface BrowserPool {
  scrape(req: EngineRequest, opts?: ScrapeCallOptions): Promise<ScrapeResult>;
  stats(): BrowserPoolStats;
  close(): Promise<void>;
}

/** After a successor failed to launch, serve this many more pages before trying again. */
const RECYCLE_RETRY_PAGES = 100;

export function createBrowserPool(options: BrowserPoolOptions): BrowserPool {
  const maxConcurrency = Math.max(1, options.maxConcurrency ?? 2);
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 30_000;
  const settleMs = options.settleMs ?? 0;
  const recyclePages = options.recyclePages === 0 ? Infinity : (options.recyclePages ?? 1000);
  const rssGrowth = options.recycleRssGrowthBytes ?? 512 * 2 ** 20;
  const rssCheckEveryPages = Math.max(1, options.rssCheckEveryPages ?? 50);
  const readRss = options.readRss ?? chromiumLongLivedRssBytes;
  const emit = (e: BrowserPoolEvent) => {
    try {
      options.onEvent?.(e);
    } catch {
      /* a listener must not break the pool */
    }
  };
  const unavailable = () => new AppError('BROWSER_UNAVAILABLE', 'browser pool is closed');

  const slots = createSlots(maxConcurrency, options.maxQueue ?? 1000);
  const spares = createSpareStore({
    target: Math.max(0, options.spareContexts ?? maxConcurrency),
    prepare: (owner) => prepareContext(owner.browser, { userAgent: options.userAgent, egress: egressFor(), labelCharsets: options.labelCharsets }),
    onError: (err) => emit({ type: 'prewarm_failed', error: firstLine(err) }),
  });
  let current: Chromium | null = null;
  const retiring = new Set<Chromium>();
  let launching: Promise<Chromium> | null = null;
  let proxy: EgressProxy | null = null;
  let closed = false;
  let launches = 0;
  let recycles = 0;
  let spareHits = 0;
  let spareMisses = 0;
  /** Scrapes answered whose context is still closing (their slots are still held). */
  const releasing = new Set<Promise<void>>();

  // ------------------------------------------------------------------ Chromium lifecycle

  const inService = (c: Chromium | null): c is Chromium => c !== null && !c.retiring && c.browser.isConnected();

  /** A new context's credentials at the egress proxy, with upstream proxies (else none). */
  function egressFor(): ContextSettings['egress'] {
    if (!options.upstreamProxies || !proxy) return undefined;
    return { server: proxy.url, token: randomUUID(), secret: proxy.secret };
  }

  /** Launches a Chromium and makes it the current one; a previous one still connected retires. */
  async function launch(): Promise<Chromium> {
    const args = [...CHROMIUM_ARGS, ...(options.extraArgs ?? [])];
    if (!options.allowPrivateTargets || options.upstreamProxies) {
      proxy ??= await startEgressProxy({ allowPrivateTargets: options.allowPrivateTargets, isPrivate: options.isPrivate, upstream: options.upstreamProxies });
    }
    if (proxy && !options.allowPrivateTargets) {
      args.push(`--proxy-server=${proxy.url}`, '--proxy-bypass-list=<-loopback>');
    }
    let c: Chromium;
    try {
      c = await launchChromium({
        executablePath: options.executablePath,
        args,
        timeoutMs: options.launchTimeoutMs ?? 30_000,
        recyclePages,
        rssCheckEveryPages,
      });
    } catch (err) {
      const message = firstLine(err);
      emit({ type: 'launch_failed', error: message });
      throw new AppError('BROWSER_UNAVAILABLE', `cannot launch Chromium: ${message}`);
    }
    launches++;
    c.browser.on('disconnected', () => onDisconnected(c));
    if (closed) {
      await c.browser.close().catch(() => undefined);
      throw unavailable();
    }
    const previous = current;
    current = c;
    emit({ type: 'launched' });
    if (inService(previous)) retire(previous);
    refill(c);
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
    spares.drop(c);
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
    spares.drop(c);
    retiring.add(c);
    if (c.inFlight === 0) closeRetired(c);
  }

  function closeRetired(c: Chromium): void {
    emit({ type: 'retired', pages: c.pages });
    void c.browser.close().catch(() => undefined);
  }

  /**
   * The current Chromium, launched if need be, with this scrape counted on it before anything
   * else can run: a Chromium retires only once its counted scrapes are done.
   */
  async function claimChromium(aborted: Promise<never>): Promise<Chromium> {
    // Bounded: each turn waits for a launch, and a launch installs a Chromium in service.
    for (let attempt = 0; attempt < 5; attempt++) {
      if (closed) throw unavailable();
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
    if (c.pages >= c.nextRssCheck && c.pid !== null && !c.rssReading) void checkMemory(c, c.pid);
  }

  /** Reads Chromium's memory off the scrape's path; the first reading is the baseline. */
  async function checkMemory(c: Chromium, pid: number): Promise<void> {
    c.rssReading = true;
    c.nextRssCheck = c.pages + rssCheckEveryPages;
    try {
      const rss = await readRss(pid);
      if (rss === null) return;
      c.rssLatest = rss;
      if (c.rssBaseline === null) c.rssBaseline = rss;
      else if (rssGrowth > 0 && rss > c.rssBaseline + rssGrowth) recycle(c, 'rss');
    } catch {
      /* a failed reading just skips this check */
    } finally {
      c.rssReading = false;
    }
  }

  // ------------------------------------------------------------------ contexts

  /** Tops the spares of `c` up, unless scrapes are waiting for a slot (see the header). */
  function refill(c: Chromium): void {
    if (slots.queued === 0) spares.fill(c);
  }

  /**
   * A spare when the request allows it (the first may still be under way), else a new context.
   * The spare is replaced when this scrape is done, not now: preparing one (a renderer process
   * starting, ~100 ms of Chromium's CPU) while this scrape's page loads would slow that page.
   */
  async function takeContext(owner: Chromium, headers: RequestHeaders): Promise<PreparedContext> {
    const spare = headers.customUserAgent === undefined ? spares.take(owner) : null;
    const prepared = spare ? await spare.catch(() => null) : null;
    if (!prepared) {
      spareMisses++;
      return prepareContext(owner.browser, { userAgent: headers.customUserAgent ?? options.userAgent, extraHTTPHeaders: headers.extra, egress: egressFor(), labelCharsets: options.labelCharsets });
    }
    spareHits++;
    if (Object.keys(headers.extra).length > 0) {
      try {
        await prepared.context.setExtraHTTPHeaders(headers.extra);
      } catch (err) {
        await prepared.context.close().catch(() => undefined);
        throw err;
      }
    }
    return prepared;
  }

  /** Closes a context; if Chromium does not answer within 10 s, it is wedged: close it (relaunched on demand). */
  async function closeContext(context: BrowserContext): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const closedInTime = await Promise.race([
      context.close().then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 10_000);
      }),
    ]);
    clearTimeout(timer);
    if (!closedInTime) {
      const b = context.browser();
      if (b && current?.browser === b) current = null;
      await b?.close().catch(() => undefined);
    }
  }

  // ------------------------------------------------------------------ one scrape

  async function scrape(req: EngineRequest, call: ScrapeCallOptions = {}): Promise<ScrapeResult> {
    const started = performance.now();
    const timeoutMs = call.timeoutMs ?? defaultTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    const guard = { allowPrivateTargets: options.allowPrivateTargets, isBlacklisted: call.isBlacklisted, isPrivate: options.isPrivate };

    if (req.selectors) validateSelectors(req.selectors);
    validateBrowserOptions(req);
    const target = await checkTarget(req.url, guard);
    const headers = requestHeaders(req, options.userAgent);

    try {
      await slots.acquire(signal);
    } catch (err) {
      throw mapError(err, call.signal, timeout, timeoutMs);
    }
    let owner: Chromium | undefined;
    let prepared: PreparedContext | undefined;
    let pending: Promise<PreparedContext> | undefined;
    // Playwright calls on a context that is being closed may never settle: on abort, the scrape
    // rejects at once (race below) and the context is closed in `finally`.
    let onAbort = () => undefined as void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
    });
    aborted.catch(() => undefined);
    try {
      signal.addEventListener('abort', onAbort, { once: true });
      owner = await claimChromium(aborted);
      signal.throwIfAborted();
      pending = takeContext(owner, headers);
      pending.catch(() => undefined);
      prepared = await Promise.race([pending, aborted]);
      signal.throwIfAborted();
      if (prepared.egressToken) proxy?.assign(prepared.egressToken, call.proxy ?? null);
      const work = runScrape(prepared, req, target, {
        guard,
        remaining: () => Math.max(1, deadline - Date.now()),
        settleMs,
        started,
        ...(options.formatThreads ? { formatThreads: options.formatThreads } : {}),
      });
      work.catch(() => undefined);
      return await Promise.race([work, aborted]);
    } catch (err) {
      throw proxyError(mapError(err, call.signal, timeout, timeoutMs), prepared, call);
    } finally {
      signal.removeEventListener('abort', onAbort);
      // The answer does not wait for the context to close (~10 ms of Chromium's work); the slot does,
      // so pages open at once never exceed maxConcurrency.
      const done = release(owner, prepared, pending).finally(() => releasing.delete(done));
      releasing.add(done);
    }
  }

  /** After a scrape: closes its context, then frees its slot and tops the spares up. */
  async function release(owner: Chromium | undefined, prepared: PreparedContext | undefined, pending: Promise<PreparedContext> | undefined): Promise<void> {
    try {
      // An abort may have won the race against the context's preparation: it still has to be closed.
      prepared ??= pending ? await settleWithin(pending, 10_000) : undefined;
      if (prepared) await closeContext(prepared.context);
      if (prepared?.egressToken) proxy?.release(prepared.egressToken);
    } finally {
      if (owner) finished(owner);
      slots.release();
      if (inService(current)) refill(current);
    }
  }

  /**
   * A scrape through an upstream proxy that failed as a navigation error (ERR_TUNNEL_CONNECTION_FAILED …)
   * while the egress saw that proxy fail: the proxy's failure (PROXY_FAILED, retryable), with its id.
   */
  function proxyError(err: unknown, prepared: PreparedContext | undefined, call: ScrapeCallOptions): unknown {
    if (!call.proxy || !(err instanceof AppError)) return err;
    if (err.code === 'PROXY_FAILED') return err.extra.proxy ? err : new AppError('PROXY_FAILED', err.message, { proxy: call.proxy.id });
    const seen = prepared?.egressToken ? proxy?.upstreamFailure(prepared.egressToken) : undefined;
    return err.code === 'SCRAPE_FAILED' && seen ? seen : err;
  }

  if (options.launchOnCreate) launchOnce().catch(() => undefined); // launch_failed was emitted

  return {
    scrape,
    stats: () => {
      const browsers = [current, ...retiring].filter((c): c is Chromium => c !== null && c.browser.isConnected());
      return {
        contextsInUse: slots.active,
        queueLength: slots.queued,
        launched: current?.browser.isConnected() ?? false,
        openContexts: browsers.reduce((sum, c) => sum + c.browser.contexts().length, 0),
        spareContexts: spares.ready(),
        spareHits,
        spareMisses,
        launches,
        recycles,
        retiringBrowsers: retiring.size,
        pagesSinceLaunch: current?.pages ?? 0,
        chromiumRssBytes: current?.rssLatest ?? null,
        egress: proxy ? proxy.stats() : null,
      };
    },
    async close() {
      closed = true;
      await Promise.all(releasing);
      slots.close(unavailable());
      spares.close();
      const last = await launching?.catch(() => null);
      const all = new Set([current, last, ...retiring].filter((c): c is Chromium => c != null));
      current = null;
      await Promise.all([...all].map((c) => c.browser.close().catch(() => undefined)));
      if (proxy) await proxy.close();
      proxy = null;
      await options.formatThreads?.close();
    },
  };
}

// ------------------------------------------------------------------ helpers

function firstLine(err: unknown): string {
  return err instanceof Error ? err.message.split('\n')[0]! : String(err);
}

/** The value of `p` if it fulfils within `ms`, else undefined. */
async function settleWithin<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([
    p.catch(() => undefined),
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    }),
  ]);
  clearTimeout(timer);
  return result;
}

// ------------------------------------------------------------------ errors

function mapError(err: unknown, external: AbortSignal | undefined, timeout: AbortSignal, timeoutMs: number): unknown {
  if (err instanceof AppError) return err;
  if (external?.aborted) return external.reason;
  if (timeout.aborted || err instanceof pwErrors.TimeoutError) {
    return new AppError('SCRAPE_FAILED', `timed out after ${timeoutMs} ms`, { timeout: true });
  }
  const message = firstLine(err);
  if (/has been closed|Target closed|crash|disconnected/i.test(message)) {
    return new AppError('SCRAPE_FAILED', `browser closed or crashed during the scrape: ${message}`);
  }
  return new AppError('SCRAPE_FAILED', `browser scrape failed: ${message}`);
}
