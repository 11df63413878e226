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
 *    proxy (egress-proxy.ts), which resolves names itself and refuses private addresses at connect
 *    time: every hop, subresource and WebSocket, with no DNS-rebinding window. WebRTC is limited
 *    to proxied traffic (no UDP), service workers are blocked.
 *
 * Modules: pool-chromium.ts (Chromium lifecycle: launch, relaunch, recycle, close), pool-contexts.ts
 * (contexts: spares, creation, closing), pool-scrape.ts (one scrape), slots.ts (the concurrency limit).
 *
 * Errors: INVALID_URL / BLACKLISTED / PRIVATE_TARGET / INVALID_SELECTOR / BAD_REQUEST (do not
 * retry), SCRAPE_FAILED (navigation error, timeout, wait_for not found, crash: retryable),
 * BROWSER_UNAVAILABLE (Chromium cannot be launched, pool closed). Cancellation via `signal`
 * rejects with `signal.reason` and closes the context at once.
 */
import type { Chromium } from './chromium';
import { createChromiumLifecycle } from './pool-chromium';
import type { ChromiumLifecycle } from './pool-chromium';
import { createPoolContexts } from './pool-contexts';
import { poolClosed } from './pool-errors';
import { createPoolScrapes } from './pool-scrape';
import type { BrowserPool, BrowserPoolEvent, BrowserPoolOptions } from './pool-types';
import { createSlots } from './slots';

export { CHROMIUM_ARGS } from './chromium';
export type { BrowserPool, BrowserPoolEvent, BrowserPoolOptions, BrowserPoolStats } from './pool-types';

export function createBrowserPool(options: BrowserPoolOptions): BrowserPool {
  const maxConcurrency = Math.max(1, options.maxConcurrency ?? 2);
  const emit = (e: BrowserPoolEvent) => {
    try {
      options.onEvent?.(e);
    } catch {
      /* a listener must not break the pool */
    }
  };

  const slots = createSlots(maxConcurrency, options.maxQueue ?? 1000);
  // The contexts need the lifecycle (egress credentials, a wedged Chromium) and the lifecycle
  // tells the contexts when a Chromium comes and goes: the first is reached through a getter.
  const contexts = createPoolContexts(options, { slots, chromium: () => chromium, emit });
  const chromium: ChromiumLifecycle = createChromiumLifecycle(options, {
    emit,
    onLaunched: (c) => contexts.refill(c),
    onOutOfService: (c) => contexts.dropSpares(c),
  });
  const scrapes = createPoolScrapes(options, { slots, chromium, contexts });

  if (options.launchOnCreate) chromium.launchOnce().catch(() => undefined); // launch_failed was emitted

  return {
    scrape: (req, call) => scrapes.scrape(req, call),
    stats: () => {
      const current = chromium.current;
      const browsers = [current, ...chromium.retiring].filter((c): c is Chromium => c !== null && c.browser.isConnected());
      const proxy = chromium.proxy;
      return {
        contextsInUse: slots.active,
        queueLength: slots.queued,
        launched: current?.browser.isConnected() ?? false,
        openContexts: browsers.reduce((sum, c) => sum + c.browser.contexts().length, 0),
        spareContexts: contexts.sparesReady,
        spareHits: contexts.spareHits,
        spareMisses: contexts.spareMisses,
        launches: chromium.launches,
        recycles: chromium.recycles,
        retiringBrowsers: chromium.retiring.size,
        pagesSinceLaunch: current?.pages ?? 0,
        chromiumRssBytes: current?.rssLatest ?? null,
        egress: proxy ? proxy.stats() : null,
      };
    },
    async close() {
      chromium.stop();
      await scrapes.released();
      slots.close(poolClosed());
      contexts.closeSpares();
      await chromium.close();
      await options.formatThreads?.close();
    },
  };
}
