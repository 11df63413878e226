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
 *    proxy (egress-proxy.ts), which resolves names itself and refuses private addresses at connect
 *    time: every hop, subresource and WebSocket, with no DNS-rebinding window. WebRTC is limited
 *    to proxied traffic (no UDP), service workers are blocked.
 *
 * Errors: INVALID_URL / BLACKLISTED / PRIVATE_TARGET / INVALID_SELECTOR (do not retry),
 * SCRAPE_FAILED (navigation error, timeout, wait_for not found, crash: retryable),
 * BROWSER_UNAVAILABLE (Chromium cannot be launched, pool closed). Cancellation via `signal`
 * rejects with `signal.reason` and closes the context at once.
 */
import { chromium, errors as pwErrors } from 'playwright-core';
import type { Browser, BrowserContext, Locator, Page, Request, Route } from 'playwright-core';
import { AppError } from '../../lib/errors';
import { startEgressProxy, GUARD_HEADER } from './egress-proxy';
import type { EgressProxy } from './egress-proxy';
import { checkTarget, normalizeHost, resolvePublicHost } from './guard';
import type { AddressPolicy, BlacklistCheck } from './guard';
import { evaluateSelectors, validateSelectors } from './selectors';
import type { EngineRequest, NetworkEntry, ScrapeCallOptions, ScrapeResult } from './types';

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

const NETWORK_ENTRY_LIMIT = 500;
const NETWORK_BODY_LIMIT = 64 * 1024;
const FORBIDDEN_HEADERS = new Set([
  'host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect',
  'accept-encoding', 'cookie',
]);

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

// ---------------------------------------------------------------------------------------------

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

interface RunContext {
  guard: { allowPrivateTargets: boolean; isBlacklisted?: BlacklistCheck; isPrivate?: AddressPolicy };
  isBlacklisted?: BlacklistCheck;
  remaining: () => number;
  settleMs: number;
  started: number;
}

function contextOptions(req: EngineRequest, defaultUserAgent: string | undefined): Parameters<Browser['newContext']>[0] {
  const extraHTTPHeaders: Record<string, string> = {};
  let userAgent = defaultUserAgent;
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    const key = name.toLowerCase();
    if (key === 'user-agent') userAgent = value;
    else if (!FORBIDDEN_HEADERS.has(key) && !key.startsWith('proxy-')) extraHTTPHeaders[key] = value;
  }
  return {
    serviceWorkers: 'block',
    acceptDownloads: false,
    javaScriptEnabled: true,
    ignoreHTTPSErrors: false,
    viewport: { width: 1366, height: 900 },
    ...(userAgent ? { userAgent } : {}),
    extraHTTPHeaders,
  };
}

async function runScrape(context: BrowserContext, req: EngineRequest, target: URL, run: RunContext): Promise<ScrapeResult> {
  const page = await context.newPage();
  page.setDefaultTimeout(run.remaining());
  page.setDefaultNavigationTimeout(run.remaining());
  let mainBlock: AppError | undefined;
  const checks: Array<Promise<void>> = [];
  const hostChecks = new Map<string, Promise<AppError | undefined>>();

  /** Checks one URL: undefined = allowed; the AppError otherwise. Host verdicts are cached per scrape. */
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
          const checked = await checkTarget(url, run.guard);
          if (!run.guard.allowPrivateTargets) await resolvePublicHost(checked.hostname, run.guard);
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

  const isMainNavigation = (r: Request): boolean => {
    try {
      return r.isNavigationRequest() && r.frame() === page.mainFrame();
    } catch {
      return false;
    }
  };

  await context.route('**/*', async (route: Route) => {
    const request = route.request();
    const refused = await verdict(request.url());
    if (!refused) return route.continue().catch(() => undefined);
    if (isMainNavigation(request) && !(refused.code === 'SCRAPE_FAILED')) mainBlock ??= refused;
    return route.abort('blockedbyclient').catch(() => undefined);
  });
  await context.routeWebSocket(/.*/, async (ws) => {
    const refused = await verdict(ws.url().replace(/^ws/, 'http'));
    if (refused) return ws.close({ code: 1008, reason: 'blocked' });
    ws.connectToServer();
  });
  // Redirect hops are not routed: check them as they happen (the proxy blocks private ones).
  context.on('request', (r) => {
    if (!r.redirectedFrom() || !isMainNavigation(r)) return;
    checks.push(
      verdict(r.url()).then((refused) => {
        if (refused && refused.code !== 'SCRAPE_FAILED') mainBlock ??= refused;
      }),
    );
  });

  const network = req.capture_network ? captureNetwork(context) : undefined;
  const failIfBlocked = async () => {
    await Promise.all(checks);
    if (mainBlock) throw mainBlock;
  };

  let response;
  try {
    response = await page.goto(target.href, { waitUntil: 'load', timeout: run.remaining() });
  } catch (err) {
    await failIfBlocked();
    throw err;
  }
  await failIfBlocked();
  const guardCode = response ? (await response.allHeaders())[GUARD_HEADER] : undefined;
  if (response && (guardCode === 'PRIVATE_TARGET' || guardCode === 'BLACKLISTED')) {
    throw new AppError(guardCode, `target refused by the egress guard: ${response.url()}`);
  }
  await settle(page, run);

  let finalResponse = response;
  if (req.fill_form) {
    finalResponse = (await fillForm(page, req.fill_form, run)) ?? finalResponse;
    await failIfBlocked();
  }
  if (req.wait_for) {
    try {
      await page.waitForSelector(req.wait_for, { state: 'attached', timeout: run.remaining() });
    } catch (err) {
      if (err instanceof pwErrors.TimeoutError) {
        throw new AppError('SCRAPE_FAILED', `wait_for selector "${req.wait_for}" did not appear in time`);
      }
      throw err;
    }
  }

  const html = await contentWhenStable(page, run);
  const finalUrl = page.url();
  const result: ScrapeResult = {
    url: req.url,
    final_url: finalUrl,
    status: finalResponse?.status() ?? 0,
    mode: 'browser',
    elapsed_ms: 0,
    headers: finalResponse ? await finalResponse.allHeaders() : {},
  };
  if (req.selectors && req.selectors.length > 0) result.data = evaluateSelectors(html, req.selectors, { baseUrl: finalUrl });
  else result.html = html;
  if (network) result.network = await network.collect();
  result.elapsed_ms = Math.round(performance.now() - run.started);
  return result;
}

/** page.content() refuses while a navigation is under way (e.g. a script redirect): wait for it, retry. */
async function contentWhenStable(page: Page, run: RunContext): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await page.content();
    } catch (err) {
      if (attempt >= 5 || !(err instanceof Error) || !/navigating/i.test(err.message)) throw err;
      await page.waitForLoadState('load', { timeout: run.remaining() }).catch(() => undefined);
    }
  }
}

/** Best effort: give late XHRs a moment (bounded by settleMs and the deadline). */
async function settle(page: Page, run: RunContext): Promise<void> {
  const ms = Math.min(run.settleMs, run.remaining() - 100);
  if (ms <= 0) return;
  await page.waitForLoadState('networkidle', { timeout: ms }).catch(() => undefined);
}

type FillForm = NonNullable<EngineRequest['fill_form']>;

function truthy(value: string | number | boolean): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  return !['', '0', 'false', 'off', 'no'].includes(value.trim().toLowerCase());
}

/**
 * Fills each field (text inputs and textareas: fill; selects: selectOption; checkboxes and
 * radios: checked when the value is truthy), then submits: clicks `submit` when given, else
 * submits the `selector` form when given, else does not submit. Waits for the resulting
 * navigation (if any) to load. Returns the new main response, if there was a navigation.
 */
async function fillForm(page: Page, form: FillForm, run: RunContext) {
  const scope: Page | Locator = form.selector ? page.locator(form.selector).first() : page;
  for (const [css, value] of Object.entries(form.fields)) {
    const field = scope.locator(css).first();
    await field.waitFor({ state: 'attached', timeout: run.remaining() });
    const kind = await field.evaluate((el) => ({
      tag: el.tagName.toLowerCase(),
      type: ((el as HTMLInputElement).type ?? '').toLowerCase(),
    }));
    if (kind.tag === 'select') await field.selectOption(String(value), { timeout: run.remaining() });
    else if (kind.type === 'checkbox' || kind.type === 'radio') await field.setChecked(truthy(value), { timeout: run.remaining() });
    else await field.fill(String(value), { timeout: run.remaining() });
  }
  if (!form.submit && !form.selector) return null;

  const navigation = page
    .waitForEvent('request', { predicate: (r) => r.isNavigationRequest() && r.frame() === page.mainFrame(), timeout: run.remaining() })
    .catch(() => null);
  // The current document has loaded already, so the next `load` event is the new document's.
  const loaded = page.waitForEvent('load', { timeout: run.remaining() });
  loaded.catch(() => undefined);
  if (form.submit) {
    await scope.locator(form.submit).first().click({ timeout: run.remaining() });
  } else {
    await page
      .locator(form.selector!)
      .first()
      .evaluate((el) => {
        const f = el as HTMLFormElement;
        if (typeof f.requestSubmit === 'function') f.requestSubmit();
        else f.submit();
      });
  }
  // A submit either starts a navigation right away or is handled by script (no navigation).
  const grace = new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.min(1000, run.remaining())).unref());
  const navRequest = await Promise.race([navigation, grace]);
  if (!navRequest) {
    await settle(page, run);
    return null;
  }
  const response = await navRequest.response().catch(() => null);
  await loaded;
  await settle(page, run);
  return response;
}

// ------------------------------------------------------------------ capture_network

function isTextLike(contentType: string): boolean {
  const ct = contentType.toLowerCase();
  return (
    ct.startsWith('text/') ||
    /(json|javascript|ecmascript|xml|x-www-form-urlencoded|graphql)/.test(ct)
  );
}

function captureNetwork(context: BrowserContext) {
  const entries: NetworkEntry[] = [];
  const byRequest = new Map<Request, NetworkEntry>();
  const pending: Array<Promise<void>> = [];

  context.on('request', (r) => {
    if (entries.length >= NETWORK_ENTRY_LIMIT) return;
    const entry: NetworkEntry = {
      url: r.url(),
      method: r.method(),
      status: null,
      resource_type: r.resourceType(),
      request_headers: r.headers(),
      response_headers: {},
    };
    entries.push(entry);
    byRequest.set(r, entry);
  });
  const finish = async (r: Request) => {
    const entry = byRequest.get(r);
    if (!entry) return;
    const response = await r.response();
    entry.request_headers = await r.allHeaders().catch(() => entry.request_headers);
    if (!response) return;
    entry.status = response.status();
    entry.response_headers = await response.allHeaders();
    const ct = entry.response_headers['content-type'] ?? '';
    if (entry.status >= 300 && entry.status < 400) return;
    if (!isTextLike(ct)) return;
    const sizes = await r.sizes().catch(() => null);
    if (sizes && sizes.responseBodySize > NETWORK_BODY_LIMIT) return;
    const body = await response.body();
    if (body.length > NETWORK_BODY_LIMIT) return;
    const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(ct)?.[1];
    let text: string;
    try {
      text = new TextDecoder(charset ?? 'utf-8').decode(body);
    } catch {
      text = body.toString('utf8');
    }
    entry.body = text;
  };
  context.on('requestfinished', (r) => {
    pending.push(finish(r).catch(() => undefined));
  });
  context.on('requestfailed', (r) => {
    const entry = byRequest.get(r);
    if (entry) entry.error = r.failure()?.errorText ?? 'failed';
  });

  return {
    /** Waits for the bodies being read, then returns the entries in request order. */
    async collect(): Promise<NetworkEntry[]> {
      let seen = 0;
      while (seen < pending.length) {
        const batch = pending.slice(seen);
        seen = pending.length;
        await Promise.all(batch);
      }
      return entries;
    },
  };
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
