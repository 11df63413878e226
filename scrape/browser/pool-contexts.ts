/**
 * The browser pool's contexts (pool.ts has the design): a fresh BrowserContext per scrape, taken
 * from the pre-warmed spares when the request allows it (spares.ts) or made for it (context.ts),
 * spares refilled only while no scrape waits for a slot, and a context closed after its scrape
 * (a Chromium that does not close it in time is wedged and is closed too).
 */
import { randomUUID } from 'node:crypto';
import type { BrowserContext } from 'playwright-core';
import type { Chromium } from './chromium';
import { prepareContext } from './context';
import { contextIdentity } from './identity';
import type { PreparedContext, RequestHeaders } from './context';
import { firstLine } from './pool-errors';
import type { ChromiumLifecycle } from './pool-chromium';
import type { BrowserPoolEvent, BrowserPoolOptions } from './pool-types';
import type { Slots } from './slots';
import { createSpareStore } from './spares';

export interface PoolContexts {
  /** Tops the spares of `c` up, unless scrapes are waiting for a slot (see pool.ts's header). */
  refill(c: Chromium): void;
  /**
   * A spare when the request allows it (the first may still be under way), else a new context.
   * The spare is replaced when this scrape is done, not now: preparing one (a renderer process
   * starting, ~100 ms of Chromium's CPU) while this scrape's page loads would slow that page.
   * `identitySeed`: a stored session's (identity.ts), whose context presents that session's
   * identity (never a spare's, which has a random one); `country`: the proxy's, whose time zone
   * and languages the identity takes (never a spare's, which has the default place).
   */
  take(owner: Chromium, headers: RequestHeaders, identitySeed?: string, country?: string): Promise<PreparedContext>;
  /** Closes a context; if Chromium does not answer within 10 s, it is wedged: close it (relaunched on demand). */
  close(context: BrowserContext): Promise<void>;
  /** Forgets and closes the spares of `c` (it retires or died). */
  dropSpares(c: Chromium): void;
  /** Stops pre-warming and closes every spare (the pool is closing). */
  closeSpares(): void;
  readonly sparesReady: number;
  readonly spareHits: number;
  readonly spareMisses: number;
}

export function createPoolContexts(
  options: BrowserPoolOptions,
  deps: { slots: Slots; chromium: () => ChromiumLifecycle; emit: (e: BrowserPoolEvent) => void },
): PoolContexts {
  const { slots } = deps;
  let spareHits = 0;
  let spareMisses = 0;
  const spares = createSpareStore({
    target: Math.max(0, options.spareContexts ?? Math.max(1, options.maxConcurrency ?? 2)),
    prepare: (owner) =>
      prepareContext(owner.browser, {
        userAgent: options.userAgent,
        egress: deps.chromium().egressFor(),
        labelCharsets: options.labelCharsets,
        routeWebSockets: options.routeWebSocketsInPage === true,
        ...(options.desktopViewport ? { desktopViewport: options.desktopViewport } : {}),
        identity: contextIdentity(owner.identity, randomUUID()),
        nativeScreens: owner.nativeScreens,
      }),
    onError: (err) => deps.emit({ type: 'prewarm_failed', error: firstLine(err) }),
  });

  async function take(owner: Chromium, headers: RequestHeaders, identitySeed?: string, country?: string): Promise<PreparedContext> {
    // The request's own Accept-Language (Firecrawl's `location.languages`): navigator.languages says the same.
    const acceptLanguage = headers.extra['accept-language'];
    const ordinary = headers.customUserAgent === undefined && !headers.mobile && !headers.skipTlsVerification && identitySeed === undefined && !country && !acceptLanguage;
    const spare = ordinary ? spares.take(owner) : null;
    const prepared = spare ? await spare.catch(() => null) : null;
    if (!prepared) {
      spareMisses++;
      return prepareContext(owner.browser, {
        userAgent: headers.customUserAgent ?? options.userAgent,
        extraHTTPHeaders: headers.extra,
        egress: deps.chromium().egressFor(),
        labelCharsets: options.labelCharsets,
        routeWebSockets: options.routeWebSocketsInPage === true,
        ...(options.desktopViewport ? { desktopViewport: options.desktopViewport } : {}),
        identity: contextIdentity(owner.identity, identitySeed ?? randomUUID(), headers.mobile === true, { country, acceptLanguage }),
        nativeScreens: owner.nativeScreens,
        ...(headers.mobile ? { mobile: headers.customUserAgent === undefined ? {} : { customUserAgent: headers.customUserAgent } } : {}),
        ...(headers.skipTlsVerification ? { ignoreHTTPSErrors: true } : {}),
      });
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

  async function close(context: BrowserContext): Promise<void> {
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
      if (b) deps.chromium().forget(b);
      await b?.close().catch(() => undefined);
    }
  }

  return {
    refill(c) {
      if (slots.queued === 0) spares.fill(c);
    },
    take,
    close,
    dropSpares: (c) => spares.drop(c),
    closeSpares: () => spares.close(),
    get sparesReady() {
      return spares.ready();
    },
    get spareHits() {
      return spareHits;
    },
    get spareMisses() {
      return spareMisses;
    },
  };
}
