/**
 * One scrape on a prepared context (context.ts): arm its guard, navigate, `fill_form`, `actions`
 * (actions.ts), `wait_for`, `capture_network`, then the document or the selectors' results.
 */
import { errors as pwErrors } from 'playwright-core';
import type { Page } from 'playwright-core';
import { AppError } from '../../platform/errors';
import { GUARD_HEADER } from './egress-proxy';
import { documentOutputs } from '../formats';
import type { DocumentOutputThreads } from '../formats/threads';
import { isScreenshotFormat } from '../engines';
import { BLOCKABLE_RESOURCE_TYPES, WAIT_UNTIL_VALUES } from '../types';
import type { ActionOutputs, ScrapeResult } from '../types';
import { createScrapeGuard } from './context';
import type { PreparedContext, TargetGuardOptions } from './context';
import { fillForm } from './forms';
import { runActions } from './actions';
import { takeScreenshot } from './screenshot';
import { captureNetwork } from './network';
import type { EngineRequest } from '../request';

export interface RunContext {
  guard: TargetGuardOptions;
  /** Milliseconds left before the scrape's deadline (at least 1). */
  remaining: () => number;
  settleMs: number;
  started: number;
  /** Where large documents' format work runs (scrape/formats/threads.ts); inline without. */
  formatThreads?: DocumentOutputThreads;
}

/** The browser-only options' values, checked before any work (the API validates them too). */
export function validateBrowserOptions(req: EngineRequest): void {
  if (req.wait_until !== undefined && !(WAIT_UNTIL_VALUES as readonly string[]).includes(req.wait_until)) {
    throw new AppError('BAD_REQUEST', `wait_until must be one of ${WAIT_UNTIL_VALUES.join(', ')}`);
  }
  for (const type of req.block_resources ?? []) {
    if (!(BLOCKABLE_RESOURCE_TYPES as readonly string[]).includes(type)) {
      throw new AppError('BAD_REQUEST', `block_resources may name only ${BLOCKABLE_RESOURCE_TYPES.join(', ')}`);
    }
  }
}

export async function runScrape(prepared: PreparedContext, req: EngineRequest, target: URL, run: RunContext): Promise<ScrapeResult> {
  const { context, page } = prepared;
  page.setDefaultTimeout(run.remaining());
  page.setDefaultNavigationTimeout(run.remaining());
  const guard = createScrapeGuard(run.guard);
  prepared.arm({ guard, blockResources: new Set(req.block_resources ?? []) });
  const network = req.capture_network ? captureNetwork(context, (url) => prepared.charsets.serverHeaders(url)) : undefined;
  // Main-frame navigations other than redirect hops: `goto` is one; a second (script redirect,
  // form submit) means the document may still change, and it is then read the careful way.
  let navigations = 0;
  page.on('request', (r) => {
    if (r.isNavigationRequest() && !r.redirectedFrom() && r.frame() === page.mainFrame()) navigations++;
  });

  let response;
  try {
    response = await page.goto(target.href, { waitUntil: req.wait_until ?? 'load', timeout: run.remaining() });
  } catch (err) {
    await guard.failIfBlocked();
    throw guard.mainNetworkFailure() ?? err;
  }
  await guard.failIfBlocked();
  const guardCode = response ? (await response.allHeaders())[GUARD_HEADER] : undefined;
  if (response && (guardCode === 'PRIVATE_TARGET' || guardCode === 'BLACKLISTED')) {
    throw new AppError(guardCode, `target refused by the egress guard: ${response.url()}`);
  }
  // The upstream proxy (PROXY_URLS) of this scrape failed on the main document (egress-proxy.ts).
  if (response && guardCode === 'PROXY_FAILED') throw new AppError('PROXY_FAILED', (await response.text().catch(() => '')) || 'the upstream proxy failed');
  await settle(page, run);

  let finalResponse = response;
  let actionOutputs: ActionOutputs | undefined;
  if (req.fill_form) {
    finalResponse = (await fillForm(page, req.fill_form, { remaining: run.remaining, settle: () => settle(page, run) })) ?? finalResponse;
    await guard.failIfBlocked();
  }
  if (req.actions?.length) {
    const acted = await runActions(page, req.actions, {
      remaining: run.remaining,
      settle: () => settle(page, run),
      guard,
      cdp: prepared.cdp,
      content: () => contentWhenStable(page, run),
    });
    await guard.failIfBlocked();
    finalResponse = acted.lastResponse ?? finalResponse;
    actionOutputs = acted.outputs;
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

  const html = navigations > 1 ? await contentWhenStable(page, run) : await documentHtml(prepared, page, run);
  const finalUrl = page.url();
  const result: ScrapeResult = {
    url: req.url,
    final_url: finalUrl,
    status: finalResponse?.status() ?? 0,
    mode: 'browser',
    elapsed_ms: 0,
    // The server's headers, also for a document whose Content-Type was given its charset.
    headers: finalResponse ? (prepared.charsets.serverHeaders(finalResponse.url()) ?? (await finalResponse.allHeaders())) : {},
  };
  const facts = { status: result.status, headers: result.headers, finalUrl };
  Object.assign(result, run.formatThreads ? await run.formatThreads.outputs(req, html, facts) : documentOutputs(req, html, facts));
  const screenshot = req.formats?.find(isScreenshotFormat);
  if (screenshot) result.screenshot = await takeScreenshot(page, screenshot === 'screenshot@fullPage', run);
  if (network) result.network = await network.collect();
  if (actionOutputs) result.actions = actionOutputs;
  result.elapsed_ms = Math.round(performance.now() - run.started);
  return result;
}

/**
 * The document as Chromium serialises it (doctype, comments outside <html>, <html>). Read over
 * CDP: `page.content()` first injects Playwright's utility script into the new document, which
 * measured 3-4x slower than these two calls. Native serialisation, so page scripts cannot alter it.
 */
async function documentHtml(prepared: PreparedContext, page: Page, run: RunContext): Promise<string> {
  try {
    const { root } = await prepared.cdp.send('DOM.getDocument', { depth: 0 });
    const { outerHTML } = await prepared.cdp.send('DOM.getOuterHTML', { nodeId: root.nodeId });
    return outerHTML;
  } catch {
    // e.g. the document changed between the two calls: the careful way.
    return contentWhenStable(page, run);
  }
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
