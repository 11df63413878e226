/**
 * browser mode: a pool around ONE Chromium process (lazily launched, relaunched after a crash
 * or disconnect), a fresh BrowserContext per scrape (no cookies or storage leak between scrapes),
 * always closed in `finally`, and a FIFO queue bounding concurrency.
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
 * Errors: INVALID_URL / BLACKLISTED / PRIVATE_TARGET / INVALID_SELECTOR (do not retry),
 * SCRAPE_FAILED (navigation error, timeout, wait_for not found, crash: retryable),
 * BROWSER_UNAVAILABLE (Chromium cannot be launched, pool closed). Cancellation via `signal`
 * rejects with `signal.reason` and closes the context at once.
 */
import { chromium, errors as pwErrors } from 'playwright-core';
import type { Browser, BrowserContext } from 'playwright-core';
import { AppError } from '../../../lib/errors';
import { startEgressProxy } from '../egress-proxy';
import type { EgressProxy } from '../egress-proxy';
import { checkTarget } from '../guard';
import type { AddressPolicy } from '../guard';
import { validateSelectors } from '../selectors';
import type { EngineRequest, ScrapeCallOptions, ScrapeResult } from '../types';
import { contextOptions, runScrape } from './page';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

export interface BrowserPoolOptions {
  /** Path to Chromium, e.g. CHROMIUM_PATH or /usr/bin/chromium. */
  executablePath: string;
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
  /** Lifecycle notifications, e.g. for logs and metrics. */
  onEvent?: (event: BrowserPoolEvent) => void;
  /** Test hook: address classifier (default `isPrivateAddress`). */
  isPrivate?: AddressPolicy;
}

export type BrowserPoolEvent =
  | { type: 'launched' }
  | { type: 'disconnected' }
  | { type: 'launch_failed'; error: string };

export interface BrowserPoolStats {
  /** Scrapes currently holding a slot (each owns one BrowserContext). */
  contextsInUse: number;
  /** Scrapes waiting for a slot. */
  queueLength: number;
  /** A connected Chromium exists. */
  launched: boolean;
  /** Contexts actually open in Chromium (0 when idle: nothing leaked). */
  openContexts: number;
  /** Chromium launches so far (relaunches after a crash count). */
  launches: number;
  /** Egress proxy counters (only when private targets are not allowed). */
  egress: { requests: number; blocked: number } | null;
}

export interface BrowserPool {
  scrape(req: EngineRequest, opts?: ScrapeCallOptions): Promise<ScrapeResult>;
  stats(): BrowserPoolStats;
  close(): Promise<void>;
}

export function createBrowserPool(options: BrowserPoolOptions): BrowserPool {
  const maxConcurrency = Math.max(1, options.maxConcurrency ?? 2);
  const maxQueue = options.maxQueue ?? 1000;
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 30_000;
  const settleMs = options.settleMs ?? 0;
  const emit = (e: BrowserPoolEvent) => {
    try {
      options.onEvent?.(e);
    } catch {
      /* a listener must not break the pool */
    }
  };

  let browser: Browser | null = null;
  let launching: Promise<Browser> | null = null;
  let proxy: EgressProxy | null = null;
  let launches = 0;
  let closed = false;
  let active = 0;
  const queue: Array<{ grant: () => void; fail: (err: unknown) => void }> = [];

  // ------------------------------------------------------------------ slots (FIFO semaphore)

  function acquire(signal: AbortSignal): Promise<void> {
    if (closed) return Promise.reject(new AppError('BROWSER_UNAVAILABLE', 'browser pool is closed'));
    if (active < maxConcurrency && queue.length === 0) {
      active++;
      return Promise.resolve();
    }
    if (queue.length >= maxQueue) return Promise.reject(new AppError('BROWSER_UNAVAILABLE', 'browser queue is full'));
    return new Promise<void>((resolve, reject) => {
      const entry = {
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          active++;
          resolve();
        },
        fail: (err: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      const onAbort = () => {
        const i = queue.indexOf(entry);
        if (i !== -1) queue.splice(i, 1);
        reject(signal.reason);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      queue.push(entry);
    });
  }

  function release(): void {
    active--;
    const next = queue.shift();
    if (next) next.grant();
  }

  // ------------------------------------------------------------------ Chromium lifecycle

  async function launch(): Promise<Browser> {
    const args = [...CHROMIUM_ARGS, ...(options.extraArgs ?? [])];
    if (!options.allowPrivateTargets) {
      proxy ??= await startEgressProxy({ allowPrivateTargets: false, isPrivate: options.isPrivate });
      args.push(`--proxy-server=${proxy.url}`, '--proxy-bypass-list=<-loopback>');
    }
    let b: Browser;
    try {
      b = await chromium.launch({
        executablePath: options.executablePath,
        args,
        timeout: options.launchTimeoutMs ?? 30_000,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (err) {
      const message = err instanceof Error ? err.message.split('\n')[0]! : String(err);
      emit({ type: 'launch_failed', error: message });
      throw new AppError('BROWSER_UNAVAILABLE', `cannot launch Chromium: ${message}`);
    }
    launches++;
    b.on('disconnected', () => {
      if (browser === b) browser = null;
      emit({ type: 'disconnected' });
    });
    if (closed) {
      await b.close().catch(() => undefined);
      throw new AppError('BROWSER_UNAVAILABLE', 'browser pool is closed');
    }
    browser = b;
    emit({ type: 'launched' });
    return b;
  }

  function getBrowser(): Promise<Browser> {
    if (browser?.isConnected()) return Promise.resolve(browser);
    launching ??= launch().finally(() => {
      launching = null;
    });
    return launching;
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
    const target = await checkTarget(req.url, guard);

    try {
      await acquire(signal);
    } catch (err) {
      throw mapError(err, call.signal, timeout, timeoutMs);
    }
    let context: BrowserContext | undefined;
    let pendingContext: Promise<BrowserContext> | undefined;
    // Playwright calls on a context that is being closed may never settle: on abort, the scrape
    // rejects at once (race below) and the context is closed in `finally`.
    let onAbort = () => undefined as void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
    });
    aborted.catch(() => undefined);
    try {
      signal.addEventListener('abort', onAbort, { once: true });
      const b = await Promise.race([getBrowser(), aborted]);
      signal.throwIfAborted();
      pendingContext = b.newContext(contextOptions(req, options.userAgent));
      pendingContext.catch(() => undefined);
      context = await Promise.race([pendingContext, aborted]);
      signal.throwIfAborted();
      const work = runScrape(context, req, target, {
        guard,
        isBlacklisted: call.isBlacklisted,
        remaining: () => Math.max(1, deadline - Date.now()),
        settleMs,
        started,
      });
      work.catch(() => undefined);
      return await Promise.race([work, aborted]);
    } catch (err) {
      throw mapError(err, call.signal, timeout, timeoutMs);
    } finally {
      signal.removeEventListener('abort', onAbort);
      // An abort may have won the race against newContext(): that context still has to be closed.
      context ??= pendingContext ? await settleWithin(pendingContext, 10_000) : undefined;
      if (context) await closeContext(context);
      release();
    }
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
      if (b && browser === b) browser = null;
      await b?.close().catch(() => undefined);
    }
  }

  return {
    scrape,
    stats: () => ({
      contextsInUse: active,
      queueLength: queue.length,
      launched: browser?.isConnected() ?? false,
      openContexts: browser?.isConnected() ? browser.contexts().length : 0,
      launches,
      egress: proxy ? proxy.stats() : null,
    }),
    async close() {
      closed = true;
      for (const entry of queue.splice(0)) entry.fail(new AppError('BROWSER_UNAVAILABLE', 'browser pool is closed'));
      const b = browser ?? (await launching?.catch(() => null)) ?? null;
      browser = null;
      if (b) await b.close().catch(() => undefined);
      if (proxy) await proxy.close();
      proxy = null;
    },
  };
}

// ------------------------------------------------------------------ helpers

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
  const message = err instanceof Error ? err.message.split('\n')[0]! : String(err);
  if (/has been closed|Target closed|crash|disconnected/i.test(message)) {
    return new AppError('SCRAPE_FAILED', `browser closed or crashed during the scrape: ${message}`);
  }
  return new AppError('SCRAPE_FAILED', `browser scrape failed: ${message}`);
}
