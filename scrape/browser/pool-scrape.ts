/**
 * One scrape in the browser pool (pool.ts has the design): checks the request and its target,
 * waits for a slot, claims the current Chromium and a context, runs the page work (page.ts) under
 * the deadline and the caller's signal, and releases all of it afterwards.
 */
import { AppError } from '../../platform/errors';
import { checkTarget } from '../../platform/target-guard';
import { validateSelectors } from '../selectors';
import type { ScrapeCallOptions, ScrapeResult } from '../types';
import type { EngineRequest } from '../request';
import type { Chromium } from './chromium';
import { requestHeaders } from './context';
import { applyStartingState, contextState, startingState } from './storage';
import type { PreparedContext } from './context';
import { runScrape, validateBrowserOptions } from './page';
import type { ChromiumLifecycle } from './pool-chromium';
import type { PoolContexts } from './pool-contexts';
import { mapError } from './pool-errors';
import type { BrowserPoolOptions } from './pool-types';
import type { Slots } from './slots';

export interface PoolScrapes {
  scrape(req: EngineRequest, call?: ScrapeCallOptions): Promise<ScrapeResult>;
  /** Resolves when every answered scrape's context is closed and its slot freed. */
  released(): Promise<void>;
}

export function createPoolScrapes(options: BrowserPoolOptions, deps: { slots: Slots; chromium: ChromiumLifecycle; contexts: PoolContexts }): PoolScrapes {
  const { slots, chromium, contexts } = deps;
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 30_000;
  const settleMs = options.settleMs ?? 0;
  /** Scrapes answered whose context is still closing (their slots are still held). */
  const releasing = new Set<Promise<void>>();

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
    const starting = startingState(req, call);

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
      owner = await chromium.claim(aborted);
      signal.throwIfAborted();
      pending = contexts.take(owner, headers, call.storage?.identitySeed, req.country);
      pending.catch(() => undefined);
      prepared = await Promise.race([pending, aborted]);
      signal.throwIfAborted();
      // Every context has egress credentials (the egress proxy runs from the first launch): one
      // without them would send a proxied scrape direct, so refuse rather than go direct.
      if (call.proxy && !prepared.egressToken) throw new AppError('INTERNAL', `the browser context has no egress credentials: cannot go through proxy ${call.proxy.id}`);
      if (prepared.egressToken) chromium.proxy?.assign(prepared.egressToken, call.proxy ?? null, call.isBlacklisted);
      const context = prepared.context;
      await Promise.race([applyStartingState(context, starting), aborted]);
      const work = runScrape(prepared, req, target, {
        guard,
        remaining: () => Math.max(1, deadline - Date.now()),
        settleMs,
        started,
        ...(options.formatThreads ? { formatThreads: options.formatThreads } : {}),
      }).then(async (result) => {
        // Read before the context closes: a saved session keeps what the page left.
        if (call.storage?.onState) call.storage.onState(await contextState(context));
        return result;
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
      if (prepared) await contexts.close(prepared.context);
      if (prepared?.egressToken) chromium.proxy?.release(prepared.egressToken);
    } finally {
      if (owner) chromium.finished(owner);
      slots.release();
      const current = chromium.current;
      if (chromium.inService(current)) contexts.refill(current);
    }
  }

  /**
   * A scrape through an upstream proxy that failed as a navigation error (ERR_TUNNEL_CONNECTION_FAILED …)
   * while the egress saw that proxy fail: the proxy's failure (PROXY_FAILED, retryable), with its id.
   */
  function proxyError(err: unknown, prepared: PreparedContext | undefined, call: ScrapeCallOptions): unknown {
    if (!call.proxy || !(err instanceof AppError)) return err;
    if (err.code === 'PROXY_FAILED') return err.extra.proxy ? err : new AppError('PROXY_FAILED', err.message, { proxy: call.proxy.id });
    const seen = prepared?.egressToken ? chromium.proxy?.upstreamFailure(prepared.egressToken) : undefined;
    return err.code === 'SCRAPE_FAILED' && seen ? seen : err;
  }

  return {
    scrape,
    async released() {
      await Promise.all(releasing);
    },
  };
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
