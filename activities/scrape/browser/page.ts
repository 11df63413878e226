/**
 * One scrape on a fresh BrowserContext: the guard's route handlers, navigation, `wait_for`,
 * `fill_form`, `capture_network`, then the document or the selectors' results.
 */
import { errors as pwErrors } from 'playwright-core';
import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core';
import { AppError } from '../../../lib/errors';
import { GUARD_HEADER } from '../egress-proxy';
import { checkTarget, normalizeHost, resolvePublicHost } from '../guard';
import type { AddressPolicy, BlacklistCheck } from '../guard';
import { evaluateSelectors } from '../selectors';
import type { EngineRequest, ScrapeResult } from '../types';
import { fillForm } from './forms';
import { captureNetwork } from './network';

const FORBIDDEN_HEADERS = new Set([
  'host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect',
  'accept-encoding', 'cookie',
]);

export interface RunContext {
  guard: { allowPrivateTargets: boolean; isBlacklisted?: BlacklistCheck; isPrivate?: AddressPolicy };
  isBlacklisted?: BlacklistCheck;
  remaining: () => number;
  settleMs: number;
  started: number;
}

export function contextOptions(req: EngineRequest, defaultUserAgent: string | undefined): Parameters<Browser['newContext']>[0] {
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

export async function runScrape(context: BrowserContext, req: EngineRequest, target: URL, run: RunContext): Promise<ScrapeResult> {
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
    finalResponse = (await fillForm(page, req.fill_form, { remaining: run.remaining, settle: () => settle(page, run) })) ?? finalResponse;
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
