/**
 * The scrape engines, one line each: what a mode costs, where its pages are done, which activity
 * does them and which request fields it supports. The request schema's cross-field rules, the
 * price list, the API's dispatch, the workflows and the workers' wiring all read this table, so
 * adding an engine is its implementation (a folder under scrape/, as scrape/http/ and
 * scrape/browser/) plus a line here and a line in the workers' table
 * (scrape/engine-implementations.ts); the compiler names each slot.
 *
 * Pure data, type-only imports: workflows read it inside Temporal's sandbox.
 */
import type { WORKER_QUEUE_CHOICES } from '../platform/config';
import { PROXY_TIER_PRICES, type ProxyTierChoice } from './proxy-tiers';

/** The scrape modes (`mode` of a request), one per engine. */
export const SCRAPE_MODES = ['http', 'browser'] as const;
export type ScrapeMode = (typeof SCRAPE_MODES)[number];

/** The request fields an engine may not support; `url`, `selectors`, `headers` and `options` every engine does. */
export interface EngineSupport {
  /** `method: "POST"` (with `body`). */
  post: boolean;
  capture_network: boolean;
  fill_form: boolean;
  wait_for: boolean;
  /** `formats` naming `screenshot` or `screenshot@fullPage`. */
  screenshot: boolean;
  /** `actions` (docs/scraping.md "Actions"). */
  actions: boolean;
  /** `mobile: true` (a phone's viewport, user agent and touch). */
  mobile: boolean;
}

export interface EngineSpec {
  /** Credits per scrape (the product's price list; `capture_network` adds CAPTURE_NETWORK_PRICE). */
  price: number;
  /**
   * Where its pages are done.
   * - `with-workflow`: by the worker running the workflow that asks (the API process's own
   *   worker for standalone scrapes, eagerly started; the main queue for flows). The first
   *   attempts of a standalone batch are one local activity (`scrapeFirstAttempts`).
   * - `own-queue`: on a task queue of its own (`engineQueue`), served only by workers holding
   *   the engine (a Chromium); a standalone batch starts on that queue and renders each page as
   *   a local activity there; a flow's page is a regular activity on that queue.
   */
  placement: 'with-workflow' | 'own-queue';
  /** The activity doing one page. Histories replay by this name: never rename it. */
  activity: string;
  supports: EngineSupport;
  /** Said after "method POST is not supported in <mode> mode" when `post` is false. */
  postHint?: string;
}

export const SCRAPE_ENGINES = {
  http: {
    price: 1,
    placement: 'with-workflow',
    activity: 'fetchPage',
    supports: { post: true, capture_network: false, fill_form: false, wait_for: false, screenshot: false, actions: false, mobile: false },
  },
  browser: {
    price: 5,
    placement: 'own-queue',
    activity: 'renderPage',
    supports: { post: false, capture_network: true, fill_form: true, wait_for: true, screenshot: true, actions: true, mobile: true },
    postHint: 'use fill_form to submit a form',
  },
} as const satisfies Record<ScrapeMode, EngineSpec>;

/** The modes whose engine has a queue of its own (a worker may serve just that queue: WORKER_QUEUES). */
export const OWN_QUEUE_MODES = SCRAPE_MODES.filter((mode) => SCRAPE_ENGINES[mode].placement === 'own-queue');
// The configuration lists the queues a worker may serve (WORKER_QUEUES); every engine mode must be one.
const _everyModeIsAWorkerQueue: ReadonlyArray<(typeof WORKER_QUEUE_CHOICES)[number]> = SCRAPE_MODES;

/** What `capture_network` adds to a scrape's price. */
export const CAPTURE_NETWORK_PRICE = 1;

/** What a screenshot (`formats` naming `screenshot` or `screenshot@fullPage`) adds; the other formats cost nothing more. */
export const SCREENSHOT_PRICE = 1;

/**
 * What each model format (a json format with `schema`, the summary format) adds: a fixed price per
 * format, whatever the tokens (docs/scraping.md "Structured output": the input is cut at
 * LLM_MAX_INPUT_CHARS and the answer at LLM_MAX_OUTPUT_TOKENS, so a format's tokens are bounded).
 */
export const LLM_FORMAT_PRICE = 5;

/**
 * How many `formats` entries need the operator's model: a json format without `css` (a schema
 * and/or a prompt), a summary (`"summary"` or `{type: "summary"}`). Read on the entries as
 * written (scrape/types.ts FormatEntry), without importing them: that module imports this one.
 */
export function llmFormatCount(formats: readonly unknown[] | undefined): number {
  const objects = (formats ?? []).filter((f): f is { type?: unknown; css?: unknown } => typeof f === 'object' && f !== null);
  const json = objects.some((f) => f.type === 'json' && f.css === undefined);
  const summary = (formats ?? []).includes('summary') || objects.some((f) => f.type === 'summary');
  return Number(json) + Number(summary);
}

/**
 * What a PDF or DOCX target adds to its scrape's price: nothing. A document is priced per
 * document, as the page it is, whatever its page count: the price is held before the target is
 * fetched, when nobody knows it is a document, and the pages read are bounded (`document.max_pages`,
 * at most 500) so the work a credit pays for is too (docs/scraping.md "Documents (PDF, DOCX)").
 */
export const DOCUMENT_PRICE = 0;

/** What each `screenshot` action adds (as a screenshot format does); the other actions cost nothing more. */
export const ACTION_SCREENSHOT_PRICE = SCREENSHOT_PRICE;

/** `screenshot` or `screenshot@fullPage` (a request's `formats` entry). */
export function isScreenshotFormat(format: unknown): boolean {
  return format === 'screenshot' || format === 'screenshot@fullPage';
}

/** The task queue of an `own-queue` engine (`scrape-browser` for the browser engine). */
export function engineQueue(prefix: string, mode: ScrapeMode): string {
  return `${prefix}scrape-${mode}`;
}

/**
 * An `own-queue` engine's queue, from the browser queue's name that workflow inputs carry (their
 * histories keep that field): the same prefix, the engine's own name.
 */
export function engineQueueBeside(browserQueue: string, mode: ScrapeMode): string {
  return `${browserQueue.slice(0, browserQueue.length - engineQueue('', 'browser').length)}${engineQueue('', mode)}`;
}

/** The modes whose engine supports a field, for the messages of the request schema. */
export function modesSupporting(field: keyof EngineSupport): ScrapeMode[] {
  return SCRAPE_MODES.filter((mode) => SCRAPE_ENGINES[mode].supports[field]);
}

/**
 * A scrape's price: its engine's, plus CAPTURE_NETWORK_PRICE with `capture_network`, plus
 * SCREENSHOT_PRICE with a screenshot format, plus ACTION_SCREENSHOT_PRICE per `screenshot` action,
 * plus LLM_FORMAT_PRICE per model format, plus the proxy tier's price when the request pins a tier
 * (PROXY_TIER_PRICES; `auto` starts on the cheapest: docs/scraping.md "Price list", "Escalation").
 */
export function scrapeCost(request: { mode: ScrapeMode; capture_network?: boolean; formats?: readonly unknown[]; actions?: ReadonlyArray<{ type?: unknown }>; proxy_tier?: ProxyTierChoice }): number {
  return (
    SCRAPE_ENGINES[request.mode].price +
    (request.proxy_tier && request.proxy_tier !== 'auto' ? PROXY_TIER_PRICES[request.proxy_tier] : 0) +
    (request.capture_network ? CAPTURE_NETWORK_PRICE : 0) +
    (request.formats?.some(isScreenshotFormat) ? SCREENSHOT_PRICE : 0) +
    llmFormatCount(request.formats) * LLM_FORMAT_PRICE +
    (request.actions ?? []).filter((action) => action?.type === 'screenshot').length * ACTION_SCREENSHOT_PRICE
  );
}
