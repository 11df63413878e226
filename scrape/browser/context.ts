/**
 * The isolated BrowserContext of one scrape, with its page, guard handlers and a CDP session,
 * prepared before the request is known (the pool keeps a few warm: `newContext` + routes +
 * `newPage` measured 250–650 ms on our loaded 2-core machines with Debian's full Chromium) and
 * closed after that one scrape. Nothing is ever reused across scrapes: a context is handed out
 * once (`arm`), then closed.
 *
 * The guard handlers are installed at preparation and read the scrape's rules from `arm()`;
 * before it, every request is refused (nothing may load in a context no scrape owns).
 * Guard layers 1 and 2 of pool.ts live here.
 */
import { devices } from 'playwright-core';
import type { Browser, BrowserContext, CDPSession, Page, Request, Route } from 'playwright-core';
import { AppError } from '../../platform/errors';
import { checkTarget, normalizeHost, resolvePublicHost } from '../../platform/target-guard';
import type { AddressPolicy, BlacklistCheck } from '../../platform/target-guard';
import { refusedHeaderReason } from '../headers';
import { labelDocumentCharsets } from './document-charset';
import type { DocumentCharsets } from './document-charset';
import type { EngineRequest } from '../request';
import { BROWSER_BARS_HEIGHT, applyIdentity } from './identity';
import type { ContextIdentity } from './identity';
import { windowOnScreen } from './presentation';


export interface TargetGuardOptions {
  allowPrivateTargets: boolean;
  isBlacklisted?: BlacklistCheck;
  isPrivate?: AddressPolicy;
}

/** The request's headers, split into what a context fixes at creation and what can be set later. */
export interface RequestHeaders {
  /** The user agent the scrape wants, when it differs from the pool's (a pre-warmed context cannot change it). */
  customUserAgent?: string;
  /** Applied with `setExtraHTTPHeaders`, which a pre-warmed context accepts. */
  extra: Record<string, string>;
  /** `mobile: true`: a phone's context (MOBILE_DEVICE), which a pre-warmed context cannot become. */
  mobile?: boolean;
  /** `skip_tls_verification: true`: a context that accepts any certificate, which a pre-warmed context is not. */
  skipTlsVerification?: boolean;
}

/**
 * What `mobile: true` emulates: Playwright's descriptor of a current Android phone (viewport,
 * screen, pixel ratio, touch, `isMobile`, and its user agent unless the request names one).
 */
export const MOBILE_DEVICE = devices['Pixel 7'];
/** Its screen (Playwright's descriptors carry one; their type does not say so). */
const MOBILE_SCREEN = (MOBILE_DEVICE as typeof MOBILE_DEVICE & { screen?: { width: number; height: number } }).screen;

export function requestHeaders(req: EngineRequest, poolUserAgent: string | undefined): RequestHeaders {
  const extra: Record<string, string> = {};
  let customUserAgent: string | undefined;
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    const key = name.toLowerCase();
    if (key === 'user-agent') customUserAgent = value === poolUserAgent ? undefined : value;
    // Cookies of the request URL's host, set on the context (storage.ts), never a header every host would get.
    else if (key === 'cookie') continue;
    // Refused by the request schema (scrape/headers.ts); a request stored before that rule may still carry one.
    else if (!refusedHeaderReason(key, 'browser')) extra[key] = value;
  }
  return { customUserAgent, extra, ...(req.mobile ? { mobile: true } : {}), ...(req.skip_tls_verification ? { skipTlsVerification: true } : {}) };
}

/**
 * One scrape's view of the target guard: verdicts per host (cached for the scrape), and the
 * refusal of its main document or of a redirect hop, which fails the scrape.
 */
export interface ScrapeGuard {
  /** undefined: the URL may be loaded; else why not. */
  verdict(url: string): Promise<AppError | undefined>;
  /** Records a refusal of the main document (the scrape fails with the first one). */
  refuseMain(err: AppError): void;
  /** Checks a redirect hop of the main navigation in the background (Playwright does not route hops). */
  checkHop(url: string): void;
  /** Waits for the hop checks under way; throws the main document's refusal, if any. */
  failIfBlocked(): Promise<void>;
  /**
   * Why the main document could not be loaded when the guard aborted it for a network or
   * resolver failure (not a refusal), e.g. `cannot resolve example.com: ENOTFOUND`: what a failed
   * `goto` reports instead of Chromium's `net::ERR_BLOCKED_BY_CLIENT`.
   */
  mainNetworkFailure(): AppError | undefined;
}

export function createScrapeGuard(options: TargetGuardOptions): ScrapeGuard {
  let mainBlock: AppError | undefined;
  let mainFailure: AppError | undefined;
  const checks: Array<Promise<void>> = [];
  const hostChecks = new Map<string, Promise<AppError | undefined>>();
  // A network or resolver failure is not a refusal: the request fails, the scrape goes on.
  const refuseMain = (err: AppError) => {
    if (err.code !== 'SCRAPE_FAILED') mainBlock ??= err;
    else mainFailure ??= err;
  };

  const verdict = (raw: string): Promise<AppError | undefined> => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return Promise.resolve(new AppError('INVALID_URL', `invalid URL ${raw.slice(0, 200)}`));
    }
    if (url.protocol === 'data:' || url.protocol === 'blob:' || url.protocol === 'about:') return Promise.resolve(undefined);
    const key = `${url.protocol}//${normalizeHost(url.hostname)}`;
    let v = hostChecks.get(key);
    if (!v) {
      v = (async () => {
        try {
          const checked = await checkTarget(url, options);
          if (!options.allowPrivateTargets) await resolvePublicHost(checked.hostname, options);
          return undefined;
        } catch (err) {
          if (err instanceof AppError) return err;
          return new AppError('SCRAPE_FAILED', String(err));
        }
      })();
      hostChecks.set(key, v);
    }
    return v;
  };

  return {
    verdict,
    refuseMain,
    checkHop(url) {
      checks.push(
        verdict(url).then((refused) => {
          if (refused) refuseMain(refused);
        }),
      );
    },
    async failIfBlocked() {
      await Promise.all(checks);
      if (mainBlock) throw mainBlock;
    },
    mainNetworkFailure: () => mainFailure,
  };
}

/** What a context applies once a scrape owns it. */
export interface ScrapeRules {
  guard: ScrapeGuard;
  /** Playwright resource types to abort (not a guard refusal: the scrape goes on without them). */
  blockResources: ReadonlySet<string>;
}

export interface PreparedContext {
  context: BrowserContext;
  page: Page;
  /** A CDP session on the page, to read its document without injecting a script (page.ts). */
  cdp: CDPSession;
  /** Names the charset of HTML documents that name none, as the http engine reads them (document-charset.ts). */
  charsets: DocumentCharsets;
  /** Hands the context to its one scrape: from now on its handlers apply `rules`. */
  arm(rules: ScrapeRules): void;
  /** The token naming this context's traffic at the egress proxy. */
  egressToken?: string;
}

export interface ContextSettings {
  userAgent?: string;
  extraHTTPHeaders?: Record<string, string>;
  /** The egress proxy and this context's credentials there (egress-proxy.ts): its scrape's upstream and blacklist. */
  egress?: { server: string; token: string; secret: string };
  /** false: Chromium decodes documents that name no charset by itself (the pool's `labelCharsets`). */
  labelCharsets?: boolean;
  /** Emulate MOBILE_DEVICE (its user agent unless `userAgent` is the request's own). */
  mobile?: { customUserAgent?: string };
  /** Accept invalid and self-signed certificates (the request's `skip_tls_verification`). */
  ignoreHTTPSErrors?: boolean;
  /**
   * What the context presents to sites (identity.ts): its user agent, client hints and screen.
   * Not applied when the request (or the pool) names its own user agent: that one is sent as is.
   */
  identity?: ContextIdentity;
  /** Check page WebSockets against the scrape's guard (blacklist included) in Playwright's route: visible to the page. */
  routeWebSockets?: boolean;
  /**
   * Chromium was launched with desktop screens (presentation.ts): a desktop context emulates no
   * device metrics (which would hide the screen's work area) and its window, sized to the viewport
   * plus the browser's bars, is placed on its identity's screen.
   */
  nativeScreens?: boolean;
  /** Default DESKTOP_VIEWPORT (the pool's `desktopViewport`, for the benchmark). */
  desktopViewport?: { width: number; height: number };
}

const DESKTOP_VIEWPORT = { width: 1366, height: 900 };

/**
 * A headless window is exactly its viewport (`outerHeight` = `innerHeight`), which detectors
 * flag; a person's Chrome window is taller by its tab strip and toolbar. Resizing the window
 * (not the page: the viewport stays emulated at 1366×900) makes `outerHeight` what it would be.
 * With native screens nothing is emulated: the window's size gives the 1366×900 viewport (the full
 * Chromium's headless window keeps `BROWSER_BARS_HEIGHT` for its bars), and its place the screen.
 */
async function giveWindowBrowserBars(cdp: CDPSession, viewport: { width: number; height: number }, nativeScreen: { width: number; height: number } | undefined | false): Promise<void> {
  const { windowId } = await cdp.send('Browser.getWindowForTarget');
  const width = viewport.width;
  const height = viewport.height + BROWSER_BARS_HEIGHT;
  await cdp.send('Browser.setWindowBounds', { windowId, bounds: nativeScreen === false ? { width, height } : windowOnScreen(nativeScreen, width, height) });
}

/** Creates a context with its guard handlers, then its page. Closes the context if any step fails. */
export async function prepareContext(browser: Browser, settings: ContextSettings): Promise<PreparedContext> {
  const identity = settings.userAgent || settings.mobile?.customUserAgent ? undefined : settings.identity;
  // Chromium's own screens (presentation.ts) for a desktop context, when launched with them: no device-metrics emulation.
  const nativeScreens = settings.nativeScreens === true && !settings.mobile;
  const desktopViewport = settings.desktopViewport ?? DESKTOP_VIEWPORT;
  const context = await browser.newContext({
    serviceWorkers: 'block',
    acceptDownloads: false,
    javaScriptEnabled: true,
    ignoreHTTPSErrors: settings.ignoreHTTPSErrors === true,
    viewport: nativeScreens ? null : desktopViewport,
    // Where the identity says it is (its time zone and locale), also under a user agent of the request's own.
    ...(settings.identity ? { timezoneId: settings.identity.timezone, locale: settings.identity.locale } : {}),
    ...(settings.userAgent ? { userAgent: settings.userAgent } : {}),
    ...(identity && !settings.mobile ? { userAgent: identity.userAgent, ...(nativeScreens ? {} : { screen: identity.screen }) } : {}),
    ...(settings.mobile
      ? {
          viewport: MOBILE_DEVICE.viewport,
          deviceScaleFactor: MOBILE_DEVICE.deviceScaleFactor,
          isMobile: true,
          hasTouch: true,
          ...(MOBILE_SCREEN ? { screen: MOBILE_SCREEN } : {}),
          userAgent: settings.mobile.customUserAgent ?? identity?.userAgent ?? MOBILE_DEVICE.userAgent,
        }
      : {}),
    extraHTTPHeaders: settings.extraHTTPHeaders ?? {},
    ...(settings.egress ? { proxy: { server: settings.egress.server, username: settings.egress.token, password: settings.egress.secret } } : {}),
  });
  try {
    let rules: ScrapeRules | null = null;
    let page: Page | null = null;
    const isMainNavigation = (r: Request): boolean => {
      try {
        return r.isNavigationRequest() && r.frame() === page?.mainFrame();
      } catch {
        return false;
      }
    };
    // Routes before the page: the page is born with interception on (no Fetch.enable after it).
    await Promise.all([
      context.route('**/*', async (route: Route) => {
        const request = route.request();
        if (!rules) return route.abort('blockedbyclient').catch(() => undefined);
        if (rules.blockResources.has(request.resourceType())) return route.abort('aborted').catch(() => undefined);
        const refused = await rules.guard.verdict(request.url());
        if (!refused) return route.continue().catch(() => undefined);
        if (isMainNavigation(request)) rules.guard.refuseMain(refused);
        return route.abort('blockedbyclient').catch(() => undefined);
      }),
      // Playwright routes WebSockets through functions it exposes in the page (`__pwWebSocketBinding`,
      // `__playwright__binding__`), which any script can see: only when asked (pool option
      // `routeWebSocketsInPage`). Otherwise the egress proxy guards WebSockets against private
      // targets and the scrape's blacklist like any connection (docs/scraping.md, "How we look to a site").
      ...(settings.routeWebSockets
        ? [
            context.routeWebSocket(/.*/, async (ws) => {
              const refused = rules ? await rules.guard.verdict(ws.url().replace(/^ws/, 'http')) : true;
              if (refused) return ws.close({ code: 1008, reason: 'blocked' });
              ws.connectToServer();
            }),
          ]
        : []),
    ]);
    // Redirect hops are not routed: check them as they happen (the egress proxy blocks private ones).
    context.on('request', (r) => {
      if (rules && r.redirectedFrom() && isMainNavigation(r)) rules.guard.checkHop(r.url());
    });
    page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await Promise.all([
      // Client hints and navigator.platform/languages with the user agent: Playwright's `userAgent` sets the string only.
      identity ? applyIdentity(cdp, identity) : undefined,
      // Cosmetic with an emulated viewport; with native screens the window is the viewport, so emulate it if the window cannot be sized.
      settings.mobile
        ? undefined
        : giveWindowBrowserBars(cdp, desktopViewport, nativeScreens ? (settings.identity?.screen ?? undefined) : false).catch(() => (nativeScreens ? page.setViewportSize(desktopViewport) : undefined)),
    ]);
    const charsets = await labelDocumentCharsets(cdp, { labelCharsets: settings.labelCharsets !== false });
    return {
      context,
      page,
      cdp,
      charsets,
      ...(settings.egress ? { egressToken: settings.egress.token } : {}),
      arm(next) {
        if (rules) throw new Error('a browser context serves one scrape only');
        rules = next;
      },
    };
  } catch (err) {
    await context.close().catch(() => undefined);
    throw err;
  }
}
