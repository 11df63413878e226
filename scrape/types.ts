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
import type { BlockVendor } from './blocks';

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
export const OUTPUT_FORMATS = ['rawHtml', 'html', 'markdown', 'text', 'links', 'metadata', 'screenshot', 'screenshot@fullPage', 'changeTracking'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The types of a CSS-schema field (docs/scraping.md "Structured output"). */
export const CSS_FIELD_TYPES = ['text', 'attribute', 'html', 'number', 'nested', 'list'] as const;
export type CssFieldType = (typeof CSS_FIELD_TYPES)[number];

/** One field of a CSS schema: a name, a selector (absent: the element itself) and how to read it. */
export interface CssField {
  name: string;
  selector?: string;
  type: CssFieldType;
  /** `attribute`: the attribute read (URL attributes resolved); `number`: read this attribute instead of the text. */
  attribute?: string;
  /** `nested` (an object) and `list` (a list of objects; without fields, a list of texts). */
  fields?: CssField[];
}

/** `{type: "json", css}`: fields mapped to selectors, no model; a list of objects with `baseSelector`, else one object. */
export interface CssJsonFormat {
  type: 'json';
  css: { baseSelector?: string; fields: CssField[] };
}

/**
 * `{type: "json", schema?, prompt?}` (at least one): the main content's markdown to the operator's
 * model, its answer validated against `schema` (without one: any JSON object, as the prompt asks).
 */
export interface SchemaJsonFormat {
  type: 'json';
  schema?: Record<string, unknown>;
  prompt?: string;
}

/** `"summary"` or `{type: "summary", prompt?}`: a plain-text summary of the main content, by the operator's model. */
export interface SummaryFormat {
  type: 'summary';
  prompt?: string;
}

/** A `formats` entry: a named format, or one of the structured formats. */
export type FormatEntry = OutputFormat | 'summary' | CssJsonFormat | SchemaJsonFormat | SummaryFormat;

/** The named (string) formats of a list; the structured ones are read by the helpers below. */
export function plainFormats(formats: readonly FormatEntry[] | undefined): OutputFormat[] {
  return (formats ?? []).filter((f): f is OutputFormat => typeof f === 'string' && f !== 'summary');
}

/** The CSS-schema json format of a list, if any. */
export function cssJsonFormat(formats: readonly FormatEntry[] | undefined): CssJsonFormat | undefined {
  return (formats ?? []).find((f): f is CssJsonFormat => typeof f === 'object' && f.type === 'json' && 'css' in f);
}

/** The model's json format of a list, if any. */
export function schemaJsonFormat(formats: readonly FormatEntry[] | undefined): SchemaJsonFormat | undefined {
  return (formats ?? []).find((f): f is SchemaJsonFormat => typeof f === 'object' && f.type === 'json' && !('css' in f));
}

/** The summary format of a list, if any (`"summary"` as `{type: "summary"}`). */
export function summaryFormat(formats: readonly FormatEntry[] | undefined): SummaryFormat | undefined {
  for (const f of formats ?? []) {
    if (f === 'summary') return { type: 'summary' };
    if (typeof f === 'object' && f.type === 'summary') return f;
  }
  return undefined;
}

/** Token counts of the model calls of a run (all tries), as the endpoint reported them. */
export interface LlmUsage {
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  /** Model calls made (a retry after an invalid answer is a second). */
  calls: number;
}

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
  /** A document target (docs/scraping.md "Documents (PDF, DOCX)"): its kind and its own properties. */
  document_type?: 'pdf' | 'docx';
  author?: string | null;
  creation_date?: string | null;
  modification_date?: string | null;
  producer?: string | null;
  page_count?: number | null;
  pages_read?: number | null;
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
  /** A json format: the CSS schema's object (or list of objects), or the model's answer, valid against its schema. */
  json: unknown;
  /** The summary format: the model's plain-text summary of the main content. */
  summary: string;
  /** With a model format (schema json, summary): the tokens it used (docs/scraping.md "Structured output"). */
  llm_usage: LlmUsage;
  /** `changeTracking` format: the markdown against the account's previous scrape of the URL (set by the activity, not the engine). */
  changeTracking: ChangeTracking;
  /** Browser mode with `actions`: the screenshots' PNGs (stored by the activity), snapshots, script returns. */
  actions: ActionOutputs;
}

/** The `changeTracking` format (docs/scraping.md "Change tracking"). */
export interface ChangeTracking {
  changeStatus: 'new' | 'same' | 'changed' | 'removed';
  /** When the scrape compared with finished (null: none). */
  previousScrapeAt: string | null;
  /** Unified diff of the markdown when changed, else null. */
  diff: string | null;
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
export type FormatOutputs = Pick<ScrapeOutputs, 'rawHtml' | 'html' | 'markdown' | 'text' | 'links' | 'metadata' | 'json'> & {
  /** With a model format: the main content's markdown, the model's input (see ScrapeResult). */
  llm_input?: string;
};

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
  /** The answer is a block page of this vendor (scrape/blocks.ts); the activity decides what that means. Never stored as output. */
  blocked_by?: BlockVendor;
  /** http: the answer plainly needs JavaScript (scrape/app-shell.ts); an `auto` scrape moves on to the browser. Never stored. */
  needs_javascript?: 'app_shell' | 'noscript';
  /**
   * With a model format: the main content as markdown, the model's input. Not an output field:
   * the scrape activity reads it and nothing stores it.
   */
  llm_input?: string;
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
  storage?: {
    state: StorageState;
    onState?: (state: StorageState) => void;
    /** Browser mode: the session's identity (scrape/browser/identity.ts), the same at every scrape of it. */
    identitySeed?: string;
  };
}
