/**
 * Result shapes shared by the http and browser engines (docs/scraping.md, "Answers"). The activity layer
 * adds `id`, `attempts` and `credits`. Client-safe: types and constant lists only (no imports
 * with runtime code), so a schema can build its enums from the lists below.
 */
import type { BlacklistCheck } from '../platform/target-guard';
import type { ProxyEndpoint } from '../platform/proxy-endpoints';
import type { StorageState } from './cookies';
import type { ScrapeMode } from './engines';
import type { z } from 'zod';
import type { ScrapeOutputField, scrapeOutputSchema } from './result';

export type { ScrapeMode } from './engines';

/** One selector after normalisation (a bare string becomes `{ selector }`). */
export interface SelectorSpec {
  selector: string;
  name?: string;
  /** When set, only elements carrying this attribute match, and each result's `text` is its value. */
  attribute?: string;
  /** false (default): first match only; true: every match. */
  all?: boolean;
}

export interface SelectorMatch {
  /** Whitespace-normalised text content, or the attribute value when `attribute` was given. */
  text: string;
  /** Inner HTML of the element. */
  html: string;
  /** Every attribute of the element, as written in the document. */
  attributes: Record<string, string>;
}

export interface SelectorResult {
  selector: string;
  name?: string;
  results: SelectorMatch[];
}

export interface NetworkEntry {
  url: string;
  method: string;
  /** null when the request failed or was blocked (see `error`). */
  status: number | null;
  resource_type: string;
  request_headers: Record<string, string>;
  response_headers: Record<string, string>;
  /** Text bodies (text/*, JSON, JS, XML, form data) of at most 64 KiB; absent otherwise. */
  body?: string;
  /** Chromium's failure text, e.g. "net::ERR_BLOCKED_BY_CLIENT.Inspector" for requests the guard refused. */
  error?: string;
}

/**
 * What a scrape can return besides selector results (`formats` of a request; docs/scraping.md
 * "Output formats"). `screenshot` and `screenshot@fullPage` are browser-only.
 */
export const OUTPUT_FORMATS = ['rawHtml', 'html', 'markdown', 'text', 'links', 'metadata', 'screenshot', 'screenshot@fullPage'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** One link of the page (`links` format): absolute, without its fragment, once per URL. */
export interface PageLink {
  url: string;
  /** The link's text, whitespace collapsed (else its aria-label, title or image alt). */
  text: string;
  /** The `rel` attribute as written, null without one. */
  rel: string | null;
}

/**
 * The `metadata` format: the named fields (null when the page has none), then every `og:*` and
 * `twitter:*` meta tag under its own name (an array when repeated).
 */
export interface PageMetadata {
  title: string | null;
  description: string | null;
  language: string | null;
  canonical: string | null;
  favicon: string | null;
  published_time: string | null;
  status: number;
  content_type: string | null;
  final_url: string;
  [ogOrTwitter: `og:${string}` | `twitter:${string}`]: string | string[];
}

/** The output as scrape/result.ts declares it (what is stored and answered). */
type DeclaredOutputs = z.infer<typeof scrapeOutputSchema>;

/** The `screenshot` format as stored and answered: the PNG is served at `url` to the run's owner. */
export type ScreenshotRef = NonNullable<DeclaredOutputs['screenshot']>;

/**
 * The exact type an engine gives each output field that scrape/result.ts declares: one entry per
 * field, no more, no less (checked below), so a field added there is asked for here.
 */
export interface ScrapeOutputTypes {
  /** One entry per requested selector, in request order, present when selectors were given. */
  data: SelectorResult[];
  /**
   * Without `formats`: the document as received / rendered, present when no selectors were given.
   * With `formats` naming `html`: the cleaned content (docs/scraping.md "Output formats").
   */
  html: string;
  rawHtml: string;
  markdown: string;
  text: string;
  links: PageLink[];
  metadata: PageMetadata;
  /** Browser mode with a screenshot format: the PNG, stored by the activity (never in a Temporal payload). */
  screenshot: { png: Uint8Array; width: number; height: number };
  /** Response headers of the final document, lower-case names; repeated headers joined by ", " (set-cookie by "\n"). */
  headers: Record<string, string>;
  /** Browser mode with `capture_network` only. */
  network: NetworkEntry[];
  /** Browser mode with `actions`: the screenshots' PNGs (stored by the activity), snapshots, script returns. */
  actions: ActionOutputs;
}

/** What a request's `actions` produced, in the order they ran (docs/scraping.md "Actions"). */
export interface ActionOutputs {
  screenshots: Array<{ png: Uint8Array; width: number; height: number }>;
  /** One per `scrape` action: the page's URL and HTML at that point. */
  scrapes: Array<{ url: string; html: string }>;
  /** One per `executeJavascript` action: `typeof` its value ("null" for null) and the value, as JSON gave it. */
  javascriptReturns: Array<{ type: string; value: unknown }>;
}

/** `actions` as stored and answered: each screenshot as a reference, its PNG served at `url`. */
export type StoredActionOutputs = NonNullable<DeclaredOutputs['actions']>;

type Assert<T extends true> = T;
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;
/** Compile-time: ScrapeOutputTypes names exactly the declared output fields. */
export type ScrapeOutputTypesMatchTheDeclaration = Assert<SameKeys<ScrapeOutputTypes, Record<ScrapeOutputField, unknown>>>;

/** The output fields the declaration makes optional (all but `headers`). */
type OptionalOutputField = { [K in ScrapeOutputField]-?: undefined extends DeclaredOutputs[K] ? K : never }[ScrapeOutputField];

/** An engine's output: each declared field with its exact type, optional where the declaration says so. */
export type ScrapeOutputs = { [K in Exclude<ScrapeOutputField, OptionalOutputField>]: ScrapeOutputTypes[K] } & { [K in OptionalOutputField]?: ScrapeOutputTypes[K] };

/** The format fields of a result, named after the formats. */
export type FormatOutputs = Pick<ScrapeOutputs, 'rawHtml' | 'html' | 'markdown' | 'text' | 'links' | 'metadata'>;

/** What an engine returns: the page's own fields, then its output (scrape/result.ts). */
export type ScrapeResult = {
  /** The URL that was asked for. */
  url: string;
  /** The URL after redirects. */
  final_url: string;
  /** The target's HTTP status; a 4xx/5xx target answer is a result, not an error. */
  status: number;
  mode: ScrapeMode;
  elapsed_ms: number;
} & ScrapeOutputs;

/** browser only: the `page.goto` event a scrape waits for before it reads the page. */
export const WAIT_UNTIL_VALUES = ['load', 'domcontentloaded', 'networkidle', 'commit'] as const;
export type WaitUntil = (typeof WAIT_UNTIL_VALUES)[number];

/** browser only: the resource types (Playwright's `request.resourceType()`) a scrape may refuse to load. */
export const BLOCKABLE_RESOURCE_TYPES = ['image', 'media', 'font', 'stylesheet'] as const;
export type BlockableResourceType = (typeof BLOCKABLE_RESOURCE_TYPES)[number];


/**
 * The stored result of a successful scrape (scrape_run.result; GET /webhook/runs/:id shows it):
 * where it ended and every output field, the screenshot as its reference.
 */
export type StoredResult = Pick<ScrapeResult, 'final_url' | 'status'> & Omit<ScrapeOutputs, 'screenshot' | 'actions'> & { screenshot?: ScreenshotRef; actions?: StoredActionOutputs };

/** Per-call options shared by both engines' `scrape(req, opts)`. */
export interface ScrapeCallOptions {
  /** Cancellation (e.g. Temporal's `cancellationSignal()`): the scrape rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** Deadline for the whole call (queueing, redirects, body, rendering); default 30 s. */
  timeoutMs?: number;
  /** Host blacklist, applied to every hop / every request the page makes. */
  isBlacklisted?: BlacklistCheck;
  /** The outbound proxy of this attempt (PROXY_URLS, chosen by the rotation); absent: direct. */
  proxy?: ProxyEndpoint;
  /**
   * A session's cookies and local storage to start from (docs/scraping.md "Sessions"); `onState`
   * receives the state the scrape ended with, when it gets that far.
   */
  storage?: { state: StorageState; onState?: (state: StorageState) => void };
}
