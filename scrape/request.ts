/**
 * Request contract of `POST /webhook/unblocker` (docs/scraping.md, "Request"), also the request of a
 * template run and of a flow's scrape nodes. Which fields a mode accepts comes from the engine
 * table (scrape/engines.ts).
 *
 * Every failure is a 400 (BAD_REQUEST) listing all broken rules ("url is required",
 * "selectors must contain at most 50 items", "method POST is only available in http mode ...");
 * a single message is a string, several are an array. Selector syntax is checked after the shape
 * (INVALID_SELECTOR, also 400), so no work starts for a request that cannot succeed.
 */
import { z } from 'zod';
import { absoluteHttpUrl } from '../platform/zod-messages';
import { AppError } from '../platform/errors';
import { assertValidCss, validateSelectors } from './selectors';
import { refusedHeaderReason } from './headers';
import { PROXY_CHOICES } from './proxies';
import { PROXY_TIER_CHOICES } from './proxy-tiers';
import { MAX_REQUEST_COOKIES, requestCookieSchema, scrapeSessionSchema } from './cookies';
import { issueMessage } from '../platform/validate';
import { webhookSpecSchema } from '../webhooks/spec';
import { type EngineSpec, type EngineSupport, SCRAPE_ENGINES, SCRAPE_MODES, type ScrapeMode, isScreenshotFormat, modesSupporting } from './engines';
import { CSS_FIELD_TYPES, OUTPUT_FORMATS } from './types';
import { type CssField, type CssJsonFormat, type FormatEntry, cssJsonFormat } from './types';
import { jsonSchemaProblem } from './llm/json-schema';
import type { BlockableResourceType, ScrapeCallOptions, ScrapeResult, SelectorSpec, WaitUntil } from './types';
import { actionSelectors, actionsSchema, totalWaitMs } from './actions';
import { attemptTimeoutMs } from './attempt-budget';
import type { ScrapeRequestKey } from './request-keys';

export const MAX_SELECTORS = 50;
/** What `mode` accepts: an engine, or `auto` (docs/scraping.md "Escalation"). */
export const SCRAPE_REQUEST_MODES = [...SCRAPE_MODES, 'auto'] as const;
/** The longest `max_age` (ms) of the results cache (scrape/cache-key.ts): a year, well past any use. */
export const MAX_CACHE_AGE_MS = 365 * 24 * 3600 * 1000;
export const MAX_TIMEOUT_MS = 50_000;
/** At most this many `include_tags` / `exclude_tags` each. */
export const MAX_TAG_SELECTORS = 50;
/** A CSS schema's fields per level (docs/scraping.md "Structured output"). */
export const MAX_CSS_FIELDS = 50;
/** A json format's `schema`, as JSON. */
export const MAX_JSON_SCHEMA_CHARS = 32 * 1024;
/** A model format's `prompt`. */
export const MAX_LLM_PROMPT_CHARS = 4000;
/** The most pages of a PDF a request may have read (`document.max_pages`). */
export const MAX_DOCUMENT_PAGES = 500;
/** Pages of a PDF read when the request names no `document.max_pages`. */
export const DEFAULT_DOCUMENT_MAX_PAGES = 100;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
 
const HEADER_VALUE = /^[^\r\n\0]*$/;

const css = z.string().trim().min(1, { error: 'must be a non-empty CSS selector' }).max(2000);

const selectorObject = z.strictObject({
  name: z.string().max(200).optional(),
  selector: css,
  attribute: z.string().trim().min(1).max(200).optional(),
  all: z.boolean().default(false),
});

const selectorItem = z
  .union([css, selectorObject], { error: 'must be a CSS selector string or {selector, name?, attribute?, all?}' })
  .transform((s) => (typeof s === 'string' ? { selector: s, all: false } : s));

const headers = z
  .record(z.string(), z.string().max(8192).regex(HEADER_VALUE, { error: 'must not contain line breaks' }))
  .refine((h) => Object.keys(h).length <= 100, { error: 'must have at most 100 entries' });

const fillForm = z.strictObject({
  selector: css.optional(),
  fields: z
    .record(z.string().trim().min(1), z.union([z.string(), z.number(), z.boolean()], { error: 'values must be strings, numbers or booleans' }))
    .refine((f) => Object.keys(f).length > 0, { error: 'must name at least one field' }),
  submit: css.optional(),
});

/** z.int() reports "must be a int" by default; its range checks keep the shared messages. */
const integerError = (issue: { code?: string }) =>
  issue.code === 'invalid_type' || issue.code === 'invalid_format' ? 'must be an integer' : undefined;

/** A CSS schema's field (docs/scraping.md "Structured output"); `fields` only for nested and list, `attribute` for attribute (and number). */
const cssField: z.ZodType<CssField> = z.lazy(() =>
  z
    .strictObject({
      name: z.string().trim().min(1).max(200),
      selector: css.optional(),
      type: z.enum(CSS_FIELD_TYPES, { error: `must be one of ${CSS_FIELD_TYPES.join(', ')}` }),
      attribute: z.string().trim().min(1).max(200).optional(),
      fields: z.array(cssField).min(1).max(MAX_CSS_FIELDS).optional(),
    })
    .refine((f) => f.type !== 'attribute' || f.attribute !== undefined, { error: 'a field of type "attribute" needs `attribute`' })
    .refine((f) => f.type !== 'nested' || f.fields !== undefined, { error: 'a field of type "nested" needs `fields`' })
    .refine((f) => f.fields === undefined || f.type === 'nested' || f.type === 'list', { error: '`fields` is only for types "nested" and "list"' }),
);

/**
 * A json format: `css` (no model), or `schema` and/or `prompt` (the model). One object shape, so a
 * broken field is reported where it is (a union of two json shapes reports neither).
 */
const jsonFormatSchema = z
  .strictObject({
    type: z.literal('json'),
    css: z.strictObject({ baseSelector: css.optional(), fields: z.array(cssField).min(1).max(MAX_CSS_FIELDS) }).optional(),
    schema: z
      .record(z.string(), z.unknown())
      .refine((schema) => JSON.stringify(schema).length <= MAX_JSON_SCHEMA_CHARS, { error: `must be at most ${MAX_JSON_SCHEMA_CHARS} characters of JSON` })
      .superRefine((schema, ctx) => {
        const problem = jsonSchemaProblem(schema);
        if (problem) ctx.addIssue({ code: 'custom', message: `is not a valid JSON Schema: ${problem}` });
      })
      .optional(),
    prompt: z.string().trim().min(1).max(MAX_LLM_PROMPT_CHARS).optional(),
  })
  .refine((f) => (f.css !== undefined) !== (f.schema !== undefined || f.prompt !== undefined), {
    error: 'a json format takes `css` (no model), or `schema` and/or `prompt` (the model), not both',
  });

const summaryFormatSchema = z.strictObject({ type: z.literal('summary'), prompt: z.string().trim().min(1).max(MAX_LLM_PROMPT_CHARS).optional() });

const NAMED_FORMATS = [...OUTPUT_FORMATS, 'summary'] as const;

/** A `formats` entry: a name, or an object chosen by its `type` (so its own problems are the ones reported). */
const formatEntry = z.union([
  z.enum(NAMED_FORMATS, { error: `must name formats among ${NAMED_FORMATS.join(', ')}, or be an object {type: "json" | "summary", …}` }),
  z.discriminatedUnion('type', [jsonFormatSchema, summaryFormatSchema], { error: 'must be {type: "json", css} / {type: "json", schema?, prompt?} / {type: "summary", prompt?}' }),
]);

/**
 * A `formats` entry that fails is reported by the problems of its own kind (a name, or an object
 * by its `type`), not as "Invalid input" (zod reports a union whose every branch failed as one issue).
 */
function formatEntryIssues(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union' || issue.path[0] !== 'formats' || issue.path.length !== 2) return [issue];
  const [nameBranch, objectBranch] = issue.errors;
  const notAnObject = !objectBranch?.length || objectBranch.every((inner) => inner.code === 'invalid_type' && inner.path.length === 0);
  const chosen = notAnObject ? nameBranch : objectBranch;
  if (!chosen?.length) return [issue];
  return chosen.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }));
}

/** The key that says two `formats` entries are the same format (the json ones are one format, whichever way). */
const formatKey = (entry: FormatEntry) => (typeof entry === 'string' ? entry : entry.type);

/** `formats` (docs/scraping.md "Output formats"): each at most once, one screenshot at most. */
const formats = z
  .array(formatEntry)
  .min(1)
  .max(OUTPUT_FORMATS.length + 2)
  .refine((list) => new Set(list.map(formatKey)).size === list.length, { error: 'must not repeat a format' })
  .refine((list) => list.filter(isScreenshotFormat).length <= 1, { error: 'may ask for one screenshot (screenshot or screenshot@fullPage)' });

const tagSelectors = z.array(css).max(MAX_TAG_SELECTORS);

const options = z.strictObject({
  retry_count: z.int({ error: integerError }).min(0).max(10).default(2),
  timeout_ms: z.int({ error: integerError }).min(1).max(MAX_TIMEOUT_MS).optional(),
});

const httpUrl = absoluteHttpUrl(8192);

export const scrapeRequestSchema = z.strictObject({
  url: httpUrl,
  selectors: z.array(selectorItem).max(MAX_SELECTORS).optional(),
  // `auto` (docs/scraping.md "Escalation"): http first, the browser and the next proxy tier when blocked; resolved by parseScrapeRequest.
  mode: z.enum(SCRAPE_REQUEST_MODES).default('http'),
  method: z.preprocess((m) => (typeof m === 'string' ? m.toUpperCase() : m), z.enum(['GET', 'POST'])).default('GET'),
  headers: headers.optional(),
  body: z.union([z.string(), z.record(z.string(), z.unknown())], { error: 'must be a string or a JSON object' }).optional(),
  capture_network: z.boolean().default(false),
  fill_form: fillForm.optional(),
  wait_for: css.optional(),
  options: options.default({ retry_count: 2 }),
  async: z.boolean().default(false),
  formats: formats.optional(),
  /** Absent means true (kept absent so requests without it are stored as before). */
  only_main_content: z.boolean().optional(),
  /** Absent means true: the page's heading opens the main content (docs/scraping.md "Main content"). */
  include_heading: z.boolean().optional(),
  include_tags: tagSelectors.optional(),
  exclude_tags: tagSelectors.optional(),
  // Event webhooks (docs/webhooks.md): async requests only (see crossFieldProblems).
  webhook: webhookSpecSchema.optional(),
  // Outbound proxies (docs/scraping.md "Proxies"): "default" (also when absent) uses PROXY_URLS when set, "none" goes direct.
  proxy: z.enum(PROXY_CHOICES).optional(),
  // Proxy tier and country (docs/scraping.md "Escalation"): a tier pins it; `auto` (also when absent) starts on the cheapest configured.
  proxy_tier: z.enum(PROXY_TIER_CHOICES).optional(),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, { error: 'must be a two-letter country code (ISO 3166-1 alpha-2)' })
    .transform((c) => c.toLowerCase())
    .optional(),
  // Block pages (docs/scraping.md "Block pages"): absent means true; false takes a block page as the page (charged).
  block_detection: z.boolean().optional(),
  // Cookies sent with the request, both modes (docs/scraping.md "Cookies and headers").
  cookies: z.array(requestCookieSchema).max(MAX_REQUEST_COOKIES).optional(),
  // A stored session to start from and, with save, to write back (docs/scraping.md "Sessions").
  session: scrapeSessionSchema.optional(),
  // PDF and DOCX targets (docs/scraping.md "Documents (PDF, DOCX)"): how many pages of a PDF are read.
  document: z.strictObject({ max_pages: z.int({ error: integerError }).min(1).max(MAX_DOCUMENT_PAGES).optional() }).optional(),
  // Browser actions (docs/scraping.md "Actions"): run in order after the page loaded, before it is read.
  actions: actionsSchema.optional(),
  // browser only: a phone's viewport, user agent and touch (docs/scraping.md "Request").
  mobile: z.boolean().optional(),
  // Both modes: accept an invalid or self-signed certificate (docs/scraping.md "http mode"). Absent means false.
  skip_tls_verification: z.boolean().optional(),
  // The results cache (docs/scraping.md "Results cache"): answer from the account's identical run that succeeded within max_age ms.
  max_age: z.int({ error: integerError }).min(0).max(MAX_CACHE_AGE_MS).optional(),
  // Absent means true: a success of a cacheable request may answer later ones.
  store_in_cache: z.boolean().optional(),
})
  // Reported beside the shape's problems (`when`), so a client sees every broken rule at once.
  .superRefine((request, ctx) => {
    for (const problem of crossFieldProblems(request)) ctx.addIssue({ code: 'custom', ...problem });
  }, { when: () => true });

/** What the schema makes of a body (`mode` may still be `auto`). */
type ParsedScrapeRequest = z.output<typeof scrapeRequestSchema>;
/**
 * A validated request, normalised: selectors are always objects, defaults applied, and `mode`
 * the engine it starts on: an `auto` request is its starting engine with `escalate: true`
 * (resolved once by parseScrapeRequest, so every reader of `mode` sees an engine).
 */
export type ScrapeRequest = Omit<ParsedScrapeRequest, 'mode'> & { mode: ScrapeMode; escalate?: true };
// The pure list of field names (scrape/request-keys.ts, read inside Temporal's sandbox) must name
// exactly the schema's keys: a field added to one and not the other fails to compile here.
type SchemaKey = keyof typeof scrapeRequestSchema.shape;
const schemaKeysListed: [SchemaKey] extends [ScrapeRequestKey] ? ([ScrapeRequestKey] extends [SchemaKey] ? true : 'SCRAPE_REQUEST_KEYS names a field the schema lacks') : 'the schema has a field SCRAPE_REQUEST_KEYS (scrape/request-keys.ts) lacks' = true;
void schemaKeysListed;

/** A validated scrape request as workflows carry it (the API's, without `async`). */
export type ScrapeRequestPayload = Omit<ScrapeRequest, 'async'>;
/** What a client may send. */
export type ScrapeRequestInput = z.input<typeof scrapeRequestSchema>;

/** The request fields an engine may not support (besides POST), named as in EngineSupport. */
const ENGINE_FIELDS = ['capture_network', 'fill_form', 'wait_for', 'actions', 'mobile'] as const satisfies ReadonlyArray<keyof EngineSupport>;

/**
 * Rules between fields: what the mode's engine supports, `body` only with POST, header names
 * (valid, and none the engine sets itself: scrape/headers.ts).
 * Read on what the shape made of the body (defaults applied), even when the shape has problems.
 */
function crossFieldProblems(value: unknown): Array<{ path: string[]; message: string }> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const raw = value as Record<string, unknown>;
  const problems: Array<{ path: string[]; message: string }> = [];
  const method = typeof raw.method === 'string' ? raw.method.toUpperCase() : 'GET';
  // `auto` is checked as the engine it would start on: the fields decide it, and a request no engine can do is refused.
  const mode = raw.mode === 'auto' ? autoStartEngine(raw, method) : (SCRAPE_MODES as readonly unknown[]).includes(raw.mode) ? (raw.mode as ScrapeMode) : undefined;
  if (raw.proxy === 'none' && (raw.proxy_tier !== undefined || raw.country !== undefined)) {
    problems.push({ path: [raw.proxy_tier !== undefined ? 'proxy_tier' : 'country'], message: 'needs proxies: proxy "none" goes direct' });
  }
  if (mode !== undefined) {
    const engine: EngineSpec = SCRAPE_ENGINES[mode];
    if (method === 'POST' && !engine.supports.post) {
      problems.push({ path: ['method'], message: `POST is not supported in ${mode} mode${engine.postHint ? ` (${engine.postHint})` : ''}` });
    }
    for (const field of ENGINE_FIELDS) {
      const given = field === 'capture_network' || field === 'mobile' ? raw[field] === true : raw[field] !== undefined;
      if (given && !engine.supports[field]) problems.push({ path: [field], message: `is only available in ${modesSupporting(field).join(' or ')} mode` });
    }
    const screenshot = Array.isArray(raw.formats) ? (raw.formats as unknown[]).find((f): f is string => isScreenshotFormat(f)) : undefined;
    if (screenshot !== undefined && !engine.supports.screenshot) {
      problems.push({ path: ['formats'], message: `"${screenshot}" is only available in ${modesSupporting('screenshot').join(' or ')} mode` });
    }
  }
  if (Array.isArray(raw.formats) && raw.formats.includes('changeTracking') && !raw.formats.includes('markdown')) problems.push({ path: ['formats'], message: '"changeTracking" compares the markdown: ask for "markdown" too' });
  if (Array.isArray(raw.actions)) {
    const waits = totalWaitMs(raw.actions as Array<{ type?: unknown; milliseconds?: unknown }>);
    const options = (raw.options ?? {}) as { retry_count?: unknown; timeout_ms?: unknown };
    const budget = attemptTimeoutMs({
      retry_count: typeof options.retry_count === 'number' ? options.retry_count : 2,
      timeout_ms: typeof options.timeout_ms === 'number' ? options.timeout_ms : undefined,
    });
    if (waits >= budget) problems.push({ path: ['actions'], message: `waits add up to ${waits} ms: they must stay under one attempt's time budget of ${budget} ms (options.timeout_ms, or its default for the retry_count)` });
  }
  if (raw.body !== undefined && method !== 'POST') problems.push({ path: ['body'], message: 'is only allowed with method POST' });
  if (raw.webhook !== undefined && raw.async !== true) problems.push({ path: ['webhook'], message: 'is only accepted with async: true (a synchronous request gets its outcome in the answer)' });
  if (raw.headers !== null && typeof raw.headers === 'object') {
    for (const name of Object.keys(raw.headers)) {
      if (!HEADER_NAME.test(name)) problems.push({ path: ['headers', name], message: 'is not a valid HTTP header name' });
      else {
        // An `auto` request that may move on to the browser must suit both engines.
        const engines = raw.mode === 'auto' && method !== 'POST' ? [...SCRAPE_MODES] : [mode ?? 'http'];
        const refused = engines.map((engine) => refusedHeaderReason(name, engine)).find((reason) => reason !== undefined);
        if (refused) problems.push({ path: ['headers', name], message: refused });
      }
    }
  }
  return problems;
}

/**
 * Validates and normalises a request body. Throws AppError BAD_REQUEST with every message
 * (string when one, array when several), or INVALID_SELECTOR naming the first bad CSS selector
 * (selectors, include_tags, exclude_tags, wait_for, fill_form selector/fields/submit).
 */
export function parseScrapeRequest(body: unknown): ScrapeRequest {
  const parsed = scrapeRequestSchema.safeParse(body);
  if (!parsed.success) {
    const messages = parsed.error.issues.flatMap(formatEntryIssues).map(issueMessage);
    const unique = [...new Set(messages)];
    throw new AppError('BAD_REQUEST', unique.length === 1 ? unique[0]! : unique);
  }
  const req = resolveAutoMode(parsed.data);
  if (req.selectors) validateSelectors(req.selectors);
  for (const tag of req.include_tags ?? []) assertValidCss(tag, 'include_tags selector');
  for (const tag of req.exclude_tags ?? []) assertValidCss(tag, 'exclude_tags selector');
  if (req.wait_for !== undefined) assertValidCss(req.wait_for, 'wait_for selector');
  const css = cssJsonFormat(req.formats);
  if (css) validateCssSchema(css);
  if (req.fill_form) {
    if (req.fill_form.selector !== undefined) assertValidCss(req.fill_form.selector, 'fill_form.selector');
    for (const field of Object.keys(req.fill_form.fields)) assertValidCss(field, 'fill_form field selector');
    if (req.fill_form.submit !== undefined) assertValidCss(req.fill_form.submit, 'fill_form.submit selector');
  }
  for (const { where, selector } of actionSelectors(req.actions ?? [])) assertValidCss(selector, where);
  return req;
}

/** The fields a request uses that not every engine supports (for `auto`: they pick the starting engine). */
function usesField(raw: Record<string, unknown>, field: keyof EngineSupport, method: string): boolean {
  if (field === 'post') return method === 'POST';
  if (field === 'screenshot') return Array.isArray(raw.formats) && (raw.formats as unknown[]).some(isScreenshotFormat);
  if (field === 'capture_network' || field === 'mobile') return raw[field] === true;
  return raw[field] !== undefined;
}

/** The first engine (http before browser) supporting every field the request uses; http when none does (its rules then report the conflict). */
function autoStartEngine(raw: Record<string, unknown>, method: string): ScrapeMode {
  const fields = (Object.keys(SCRAPE_ENGINES.http.supports) as Array<keyof EngineSupport>).filter((field) => usesField(raw, field, method));
  return SCRAPE_MODES.find((mode) => fields.every((field) => SCRAPE_ENGINES[mode].supports[field])) ?? 'http';
}

/**
 * The inverse of the `auto` resolution below: a parsed request as its caller sent it, to be parsed
 * again (a crawl's page request, a Firecrawl monitor's target): its starting engine with
 * `escalate: true` is `mode: "auto"` again (a caller may not send `escalate` itself).
 */
export function asSentScrapeRequest(request: Record<string, unknown>): Record<string, unknown> {
  const { escalate, ...sent } = request;
  return escalate === true ? { ...sent, mode: 'auto' } : sent;
}

/** `mode: "auto"` → its starting engine with `escalate: true`; any other mode as it is. */
function resolveAutoMode(parsed: ParsedScrapeRequest): ScrapeRequest {
  if (parsed.mode !== 'auto') return parsed as ScrapeRequest;
  return { ...parsed, mode: autoStartEngine(parsed, parsed.method), escalate: true };
}

/** Every selector of a CSS schema parses (INVALID_SELECTOR naming the first that does not). */
function validateCssSchema(format: CssJsonFormat): void {
  if (format.css.baseSelector !== undefined) assertValidCss(format.css.baseSelector, 'formats json css.baseSelector');
  const walk = (fields: readonly CssField[]) => {
    for (const field of fields) {
      if (field.selector !== undefined) assertValidCss(field.selector, `formats json field "${field.name}" selector`);
      if (field.fields) walk(field.fields);
    }
  };
  walk(format.css.fields);
}

/** The price list and a request's cost live with the engines. */
export { CAPTURE_NETWORK_PRICE, SCREENSHOT_PRICE, scrapeCost } from './engines';

/**
 * What the engines need from a request: the validated request (scrape/request.ts) with every
 * field but `url` optional (tests and benches call engines directly), selectors as strings or
 * objects, and two browser-only options the API does not expose.
 */
export type EngineRequest = Partial<
  Pick<ScrapeRequest, 'method' | 'headers' | 'body' | 'wait_for' | 'fill_form' | 'capture_network' | 'formats' | 'only_main_content' | 'include_heading' | 'include_tags' | 'exclude_tags' | 'cookies' | 'document' | 'actions' | 'mobile' | 'skip_tls_verification' | 'country'>
> & {
  url: string;
  selectors?: ReadonlyArray<string | SelectorSpec>;
  /**
   * browser only: when navigation counts as done, default 'load' (the page and its subresources).
   * 'domcontentloaded': the HTML is parsed (images, stylesheets may still be loading);
   * 'networkidle': 'load', then no request for 500 ms (costs at least 500 ms);
   * 'commit': the response headers arrived and the document started (its HTML may be partial).
   */
  wait_until?: WaitUntil;
  /**
   * browser only: resource types the page may not load (aborted before any connection is made;
   * with `capture_network` they show `error: "net::ERR_ABORTED"`). Default: none.
   */
  block_resources?: ReadonlyArray<BlockableResourceType>;
};

/** One scrape by an engine: what the scrape activity and the crawl's fetcher call. */
export type Engine = (req: EngineRequest, opts: ScrapeCallOptions) => Promise<ScrapeResult>;
