/**
 * `actions` (docs/scraping.md "Actions"; the schema: scrape/actions.ts): run in order on the
 * loaded page, before it is read. Each action that can start a navigation (click, press,
 * executeJavascript) waits for it: the new document's response, its load, and the target guard's
 * verdict on it, so a navigation to a refused address (private, blacklisted) fails the scrape with
 * the guard's code (the route interception of context.ts refuses every request of the page,
 * navigations included; this module makes the refusal the scrape's outcome).
 *
 * A selector that never matches, a script that throws (or returns what JSON cannot carry, or too
 * much) fail the scrape with ACTION_FAILED naming the action's index and type: not retried.
 */
import { errors as pwErrors } from 'playwright-core';
import type { CDPSession, Page, Request, Response } from 'playwright-core';
import { AppError } from '../../platform/errors';
import { MAX_SCRIPT_RETURN_BYTES, type ScrapeAction } from '../actions';
import type { ActionOutputs } from '../types';
import type { ScrapeGuard } from './context';
import { takeScreenshot } from './screenshot';

/** How long a `click` or `scroll` waits for its selector to match (a `wait` for a selector may use the whole budget). */
export const ACTION_SELECTOR_TIMEOUT_MS = 5000;
/** Kept back from the deadline when an action waits, so a selector that never matches is ACTION_FAILED, not a timeout. */
const DEADLINE_RESERVE_MS = 1000;
/** After a click, key press or script: how long a navigation it started has to show up. */
const NAVIGATION_GRACE_MS = 300;

export interface ActionRun {
  /** Milliseconds left before the scrape's deadline (at least 1). */
  remaining(): number;
  /** The scrape's best-effort wait for late requests. */
  settle(): Promise<void>;
  guard: ScrapeGuard;
  /** The page's CDP session (executeJavascript evaluates through it: no eval in the page, whatever its CSP). */
  cdp: CDPSession;
  /** The page's HTML now, read the careful way (a navigation may be under way). */
  content(): Promise<string>;
}

export interface ActionsOutcome {
  outputs: ActionOutputs;
  /** The main document's response of the last navigation an action caused (status and headers of the result). */
  lastResponse?: Response;
}

export async function runActions(page: Page, actions: readonly ScrapeAction[], run: ActionRun): Promise<ActionsOutcome> {
  const outputs: ActionOutputs = { screenshots: [], scrapes: [], javascriptReturns: [] };
  const outcome: ActionsOutcome = { outputs };
  for (const [index, action] of actions.entries()) {
    const fail = (reason: string) => new AppError('ACTION_FAILED', `actions[${index}] (${action.type}): ${reason}`);
    const response = await runAction(page, action, run, outputs, fail);
    if (response) outcome.lastResponse = response;
  }
  return outcome;
}

type Fail = (reason: string) => AppError;

async function runAction(page: Page, action: ScrapeAction, run: ActionRun, outputs: ActionOutputs, fail: Fail): Promise<Response | undefined> {
  switch (action.type) {
    case 'wait':
      if (action.selector !== undefined) await waitForSelector(page, action.selector, Number.POSITIVE_INFINITY, run, fail);
      else await page.waitForTimeout(Math.min(action.milliseconds!, run.remaining()));
      return undefined;
    case 'click':
      await waitForSelector(page, action.selector, ACTION_SELECTOR_TIMEOUT_MS, run, fail);
      return withNavigation(page, run, async () => {
        const targets = page.locator(action.selector);
        const count = action.all ? await targets.count() : 1;
        for (let i = 0; i < count; i++) await targets.nth(i).click({ timeout: run.remaining() });
      });
    case 'write':
      await page.keyboard.type(action.text);
      return undefined;
    case 'press':
      return withNavigation(page, run, () => page.keyboard.press(action.key));
    case 'scroll':
      await scroll(page, action, run, fail);
      return undefined;
    case 'screenshot':
      outputs.screenshots.push(await takeScreenshot(page, action.fullPage, run));
      return undefined;
    case 'scrape':
      outputs.scrapes.push({ url: page.url(), html: await run.content() });
      return undefined;
    case 'executeJavascript': {
      let returned: { type: string; value: unknown } | undefined;
      const response = await withNavigation(page, run, async () => {
        returned = await evaluateScript(run.cdp, action.script, run.remaining() - DEADLINE_RESERVE_MS, fail);
      });
      outputs.javascriptReturns.push(returned!);
      return response;
    }
  }
}

/** Waits until `selector` matches an element (attached), at most `limitMs` (and never past the reserve before the deadline). */
async function waitForSelector(page: Page, selector: string, limitMs: number, run: ActionRun, fail: Fail): Promise<void> {
  const timeout = Math.max(1, Math.min(limitMs, run.remaining() - DEADLINE_RESERVE_MS));
  try {
    await page.locator(selector).first().waitFor({ state: 'attached', timeout });
  } catch (err) {
    if (err instanceof pwErrors.TimeoutError) throw fail(`no element matches "${selector}" (waited ${timeout} ms)`);
    throw err;
  }
}

async function scroll(page: Page, action: Extract<ScrapeAction, { type: 'scroll' }>, run: ActionRun, fail: Fail): Promise<void> {
  const sign = action.direction === 'up' ? -1 : 1;
  if (action.selector === undefined) {
    await page.evaluate((s) => window.scrollBy({ top: s * window.innerHeight, behavior: 'instant' }), sign);
  } else {
    await waitForSelector(page, action.selector, ACTION_SELECTOR_TIMEOUT_MS, run, fail);
    await page
      .locator(action.selector)
      .first()
      .evaluate((el, s) => el.scrollBy({ top: s * (el.clientHeight || window.innerHeight), behavior: 'instant' }), sign);
  }
  await run.settle();
}

/**
 * Runs `act`, then waits for the main-frame navigation it started (if one shows up within
 * NAVIGATION_GRACE_MS): the guard's verdict (a refusal fails the scrape), then the new document's
 * load. Returns the new document's response.
 */
async function withNavigation(page: Page, run: ActionRun, act: () => Promise<void>): Promise<Response | undefined> {
  let navigation: Request | undefined;
  let seen = () => undefined as void;
  const shown = new Promise<void>((resolve) => (seen = resolve));
  const onRequest = (request: Request) => {
    if (navigation || !request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
    navigation = request;
    seen();
  };
  page.on('request', onRequest);
  // The current document has loaded already, so the next `load` event is the new document's.
  const loaded = page.waitForEvent('load', { timeout: run.remaining() });
  loaded.catch(() => undefined);
  try {
    await act();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([shown, new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(NAVIGATION_GRACE_MS, run.remaining()))))]);
    clearTimeout(timer);
  } finally {
    page.off('request', onRequest);
  }
  if (!navigation) {
    await run.settle();
    return undefined;
  }
  // Settles when the request is answered or refused (the route handler records a refusal first).
  const first = await navigation.response().catch(() => null);
  await run.guard.failIfBlocked();
  if (!first) return undefined;
  await loaded;
  await run.guard.failIfBlocked();
  await run.settle();
  return (await finalResponse(navigation)) ?? undefined;
}

/** The response at the end of a navigation's redirect chain. */
async function finalResponse(request: Request): Promise<Response | null> {
  let last = request;
  for (let next = last.redirectedTo(); next; next = next.redirectedTo()) last = next;
  return last.response().catch(() => null);
}

interface RemoteObject {
  type: string;
  subtype?: string;
  value?: unknown;
  objectId?: string;
  unserializableValue?: string;
  description?: string;
}
interface EvaluateAnswer {
  result: RemoteObject;
  exceptionDetails?: { text: string; exception?: RemoteObject };
}

/**
 * A script's value, as JSON carries it: first as a script (its completion value, as the console
 * gives it), and, when it does not compile as one because it uses `return` or a top-level `await`,
 * as the body of an async function (its return value). Through CDP, so a page's
 * Content-Security-Policy does not refuse it.
 */
async function evaluateScript(cdp: CDPSession, script: string, timeoutMs: number, fail: Fail): Promise<{ type: string; value: unknown }> {
  const evaluate = (expression: string) =>
    cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: false, userGesture: true }) as Promise<EvaluateAnswer>;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(fail(`the script did not finish within ${Math.max(1, timeoutMs)} ms`)), Math.max(1, timeoutMs));
  });
  try {
    let answer = await Promise.race([evaluate(script), late]);
    if (answer.exceptionDetails && /^SyntaxError: (Illegal return statement|await is only valid)/.test(answer.exceptionDetails.exception?.description ?? '')) {
      answer = await Promise.race([evaluate(`(async () => {\n${script}\n})()`), late]);
    }
    if (answer.exceptionDetails) {
      const thrown = (answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text).split('\n')[0]!.slice(0, 500);
      throw fail(`the script threw: ${thrown}`);
    }
    return await Promise.race([jsonValue(cdp, answer.result, fail), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A script's value → {type, value}: JSON-serialised in the page (an object's `toJSON` applies), at most MAX_SCRIPT_RETURN_BYTES. */
async function jsonValue(cdp: CDPSession, result: RemoteObject, fail: Fail): Promise<{ type: string; value: unknown }> {
  const type = result.subtype === 'null' ? 'null' : result.type;
  if (!result.objectId) {
    // Primitives; NaN, Infinity, -0 and bigints are what JSON.stringify makes of them (null, or refused).
    if (result.unserializableValue !== undefined) {
      if (type === 'bigint') throw fail('the script returned a BigInt, which JSON cannot carry');
      return { type, value: null };
    }
    return checkedSize({ type, value: result.value ?? null }, fail);
  }
  try {
    const serialised = (await cdp.send('Runtime.callFunctionOn', {
      objectId: result.objectId,
      functionDeclaration: 'function () { return JSON.stringify(this); }',
      returnByValue: true,
    })) as EvaluateAnswer;
    if (serialised.exceptionDetails) {
      const why = (serialised.exceptionDetails.exception?.description ?? serialised.exceptionDetails.text).split('\n')[0]!.slice(0, 300);
      throw fail(`the script's return value is not JSON-serialisable: ${why}`);
    }
    const json = serialised.result.value;
    if (typeof json !== 'string') return { type, value: null };
    if (Buffer.byteLength(json) > MAX_SCRIPT_RETURN_BYTES) throw tooLarge(fail);
    return { type, value: JSON.parse(json) as unknown };
  } finally {
    await cdp.send('Runtime.releaseObject', { objectId: result.objectId }).catch(() => undefined);
  }
}

function checkedSize(returned: { type: string; value: unknown }, fail: Fail): { type: string; value: unknown } {
  if (Buffer.byteLength(JSON.stringify(returned.value)) > MAX_SCRIPT_RETURN_BYTES) throw tooLarge(fail);
  return returned;
}

function tooLarge(fail: Fail): AppError {
  return fail(`the script's return value is more than ${MAX_SCRIPT_RETURN_BYTES} bytes as JSON`);
}
