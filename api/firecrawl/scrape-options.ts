/**
 * Firecrawl's scrape options → our scrape request (docs/firecrawl.md "Scrape fields"). Shared by
 * `/v2/scrape`, `/v1/scrape` and the crawl and batch routes' `scrapeOptions`.
 *
 * Every field is one of three kinds:
 * - honoured: mapped onto our request (`formats`, `onlyMainContent`, `includeTags`,
 *   `excludeTags`, `headers`, `timeout`, `parsers`' PDF `maxPages`; `actions`, the same objects
 *   as ours; `waitFor`, a leading `wait` action; `mobile`, our `mobile` (a phone's viewport, user
 *   agent and touch)); a PDF or DOCX target is always answered as markdown (`parsers: ["pdf"]`,
 *   v1's `parsePDF: true`: what we do anyway);
 * - ignored: accepted with its type checked and not acted on (the SDKs' defaulted fields, and
 *   fields naming features we do not have, …);
 *   `skipTlsVerification: true` is our `skip_tls_verification` (both engines accept any certificate);
 * - proxies: `proxy` and `location` map onto our proxy tiers and countries (docs/firecrawl.md);
 * - refused: a 400 naming the field, for what we cannot do and a caller relies on (an action we
 *   do not have, e.g. `pdf`). `changeTracking` (with `markdown`, as Firecrawl asks) is ours
 *   (docs/firecrawl.md "Change tracking"); its object form's `modes: ["git-diff"]` adds the diff.
 * The `json` format (v2 `{type: "json", schema?, prompt?}`; v1 `"json"` with `jsonOptions`, or
 * `"extract"` with `extractOptions`) and `summary` are our model formats (docs/scraping.md
 * "Structured output"): 400 LLM_NOT_CONFIGURED without a model, as on the native route.
 * Unknown fields are ignored (Firecrawl's own server is strict; its SDKs and MCP server add
 * fields release after release, and a 400 for those would break them).
 *
 * Mode: `auto` (docs/scraping.md "Escalation"), starting on http unless the request needs a browser
 * (a screenshot, actions, `waitFor` > 0, `mobile: true`); the extension field `mode` forces one. The extension field `session`
 * names a stored session (docs/scraping.md "Sessions"); `headers.cookie` works in both modes.
 */
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { MAX_CACHE_AGE_MS, MAX_DOCUMENT_PAGES, MAX_TIMEOUT_MS, type ScrapeRequest, parseScrapeRequest } from '../../scrape/request';
import type { FormatEntry } from '../../scrape/types';
import { SCRAPE_REQUEST_MODES } from '../../scrape/request';
import type { ProxyTierChoice } from '../../scrape/proxy-tiers';

type ScrapeRequestMode = (typeof SCRAPE_REQUEST_MODES)[number];
import { scrapeSessionSchema } from '../../scrape/cookies';

/** The Firecrawl formats we produce, and the field each fills in the document (v1's `extract` is `json` under v1's name). */
export const SUPPORTED_FORMATS = ['markdown', 'html', 'rawHtml', 'links', 'screenshot', 'json', 'extract', 'summary', 'changeTracking'] as const;
export type FirecrawlFormat = (typeof SUPPORTED_FORMATS)[number];

/** The longest `timeout` honoured (ms): the whole answer's deadline. */
export const MAX_FIRECRAWL_TIMEOUT_MS = 300_000;

const formatObject = z.looseObject({
  type: z.string({ error: 'must be a format name' }),
  fullPage: z.boolean().optional(),
  // {type: "json"}: the model's schema and prompt.
  schema: z.record(z.string(), z.unknown()).optional(),
  prompt: z.string().optional(),
});
/** v1's options of its `json` and `extract` formats. */
const modelOptions = z.looseObject({ schema: z.record(z.string(), z.unknown()).optional(), prompt: z.string().optional(), systemPrompt: z.string().optional() });
const format = z.union([z.string(), formatObject], { error: 'must be a format name or {type, …}' });

const stringList = z.array(z.string());

/** Firecrawl's scrape options, as its SDKs send them; unknown fields pass (see above). */
export const firecrawlScrapeOptionsSchema = z.looseObject({
  formats: z.array(format).optional().meta({ description: 'markdown (default), html, rawHtml, links, screenshot or {type: "screenshot", fullPage}, {type: "json", schema?, prompt?}, summary, changeTracking (with markdown) or {type: "changeTracking", modes: ["git-diff"]}' }),
  jsonOptions: modelOptions.optional().meta({ description: 'v1: the `json` format\'s schema and prompt (systemPrompt is put before the prompt)' }),
  extractOptions: modelOptions.optional().meta({ description: 'v1: the `extract` format\'s schema and prompt' }),
  onlyMainContent: z.boolean().optional().meta({ description: 'Default true: the page\'s main content' }),
  includeTags: stringList.optional(),
  excludeTags: stringList.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  waitFor: z.number().min(0).optional().meta({ description: 'ms to wait once the page loaded (a leading wait action); > 0 renders the page in a browser' }),
  timeout: z.number().positive().optional().meta({ description: 'ms: the answer comes within it (408 after; the run is cancelled and refunded)' }),
  mobile: z.boolean().optional().meta({ description: "true renders the page in a browser as a phone (viewport, user agent, touch)" }),
  actions: z.array(z.unknown()).optional().meta({ description: 'Browser actions, the same objects as ours (docs/scraping.md "Actions"); not empty renders the page in a browser' }),
  location: z
    .looseObject({ country: z.string().optional(), languages: stringList.optional() })
    .optional()
    .meta({ description: 'country: our `country` (a proxy pool of that country, PROXY_TIERS; 400 naming it when none); languages: the Accept-Language header unless headers set one' }),
  proxy: z.string().optional().meta({ description: 'basic | stealth (enhanced: stealth) pin a proxy tier; auto (default) climbs the tiers (docs/scraping.md "Escalation")' }),
  skipTlsVerification: z.boolean().optional().meta({ description: 'true accepts invalid and self-signed certificates (both engines); default false' }),
  removeBase64Images: z.boolean().optional(),
  fastMode: z.boolean().optional(),
  blockAds: z.boolean().optional(),
  storeInCache: z.boolean().optional().meta({ description: 'false: this result never answers a later request from the results cache' }),
  maxAge: z.number().optional().meta({ description: 'ms: answer from the account\'s identical request that succeeded within it (the results cache; a hit costs nothing); absent or 0 fetches' }),
  minAge: z.number().optional(),
  parsers: z
    .array(z.union([z.string(), z.looseObject({ type: z.string(), maxPages: z.int().positive().optional() })], { error: 'must be parser names or {type, maxPages?}' }))
    .optional()
    .meta({ description: 'PDF and DOCX targets are always converted; {type: "pdf", maxPages} limits the pages read (at most 500)' }),
  parsePDF: z.boolean().optional().meta({ description: 'v1: PDF targets are always converted (false is not honoured: no base64 answer)' }),
  zeroDataRetention: z.boolean().optional(),
  integration: z.string().nullable().optional(),
  origin: z.string().optional(),
  mode: z.enum(SCRAPE_REQUEST_MODES).optional().meta({ description: 'Extension: force the engine ("http" or "browser") instead of auto (http first, the browser and the next proxy tier when blocked)' }),
  session: scrapeSessionSchema.optional().meta({ description: 'Extension: a stored session {name, save?} to start from and save (docs/scraping.md "Sessions")' }),
});

export type FirecrawlScrapeOptions = z.output<typeof firecrawlScrapeOptionsSchema>;

/** What the answer carries, from the request's formats. */
export interface WantedFormats {
  formats: FirecrawlFormat[];
  fullPage: boolean;
  /** `{type: "changeTracking", modes: ["git-diff"]}`: the document's changeTracking carries `diff`. */
  changeTrackingDiff?: boolean;
  /** `removeBase64Images: false`: the markdown keeps its base64 images (Firecrawl's default leaves them out). */
  keepBase64Images?: boolean;
}

/** The `json` (or v1 `extract`) format's schema and prompt, from the format object (v2) or v1's options. */
function modelJsonFormat(options: FirecrawlScrapeOptions, wanted: WantedFormats): FormatEntry | undefined {
  if (!wanted.formats.includes('json') && !wanted.formats.includes('extract')) return undefined;
  const object = (options.formats ?? []).find((f) => typeof f === 'object' && f.type === 'json') as { schema?: Record<string, unknown>; prompt?: string } | undefined;
  const v1 = wanted.formats.includes('json') ? options.jsonOptions : options.extractOptions;
  const schema = object?.schema ?? v1?.schema;
  const prompt = [v1?.systemPrompt, object?.prompt ?? v1?.prompt].filter((p): p is string => typeof p === 'string' && p.trim() !== '').join('\n\n');
  return { type: 'json', ...(schema ? { schema } : {}), ...(prompt ? { prompt } : {}) };
}

/** Reads `formats` (strings or `{type}` objects; v1's `screenshot@fullPage` too); refuses what we cannot produce. */
export function wantedFormats(formats: FirecrawlScrapeOptions['formats'], field = 'formats'): WantedFormats {
  const wanted = new Set<FirecrawlFormat>();
  let fullPage = false;
  let changeTrackingDiff = false;
  for (const [index, item] of (formats ?? ['markdown']).entries()) {
    let name = typeof item === 'string' ? item : item.type;
    if (name === 'screenshot@fullPage') {
      name = 'screenshot';
      fullPage = true;
    }
    if (name === 'screenshot' && typeof item === 'object' && item.fullPage === true) fullPage = true;
    if (name === 'changeTracking' && typeof item === 'object' && Array.isArray(item.modes) && item.modes.includes('git-diff')) changeTrackingDiff = true;
    if ((SUPPORTED_FORMATS as readonly string[]).includes(name)) {
      wanted.add(name as FirecrawlFormat);
      continue;
    }
    throw new AppError('BAD_REQUEST', `${field}[${index}] "${name}" is not supported: supported formats are ${SUPPORTED_FORMATS.join(', ')}`);
  }
  return { formats: [...wanted], fullPage, ...(changeTrackingDiff ? { changeTrackingDiff } : {}) };
}

/**
 * A URL without a scheme gets `http://`, as Firecrawl's server does (`example.com/a` is a valid
 * target there); anything else is left for our URL rule to judge.
 */
export function withScheme(url: unknown): unknown {
  if (typeof url !== 'string') return url;
  const trimmed = url.trim();
  return trimmed === '' || /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `http://${trimmed}`;
}

/**
 * `auto` (docs/scraping.md "Escalation"): it starts on http, or on the browser when the request
 * needs one (a screenshot, actions, `waitFor` > 0, `mobile: true`), and moves on when blocked;
 * the extension field `mode` forces an engine.
 */
export function chosenMode(options: FirecrawlScrapeOptions): ScrapeRequestMode {
  return options.mode ?? 'auto';
}

/** Firecrawl's `proxy` names → our `proxy_tier` (`enhanced` is Firecrawl's later name for stealth); anything else is a 400 naming it. */
const FIRECRAWL_PROXIES: Record<string, ProxyTierChoice> = { basic: 'basic', stealth: 'stealth', enhanced: 'stealth', auto: 'auto' };

/** `proxy` and `location` → `proxy_tier`, `country` and (from `languages`, unless headers name one) an Accept-Language header. */
function proxyFields(options: FirecrawlScrapeOptions, where: string): { proxy_tier?: ProxyTierChoice; country?: string; headers?: Record<string, string> } {
  const fields: { proxy_tier?: ProxyTierChoice; country?: string; headers?: Record<string, string> } = {};
  if (options.proxy !== undefined) {
    const tier = FIRECRAWL_PROXIES[options.proxy];
    if (!tier) throw new AppError('BAD_REQUEST', `${where}proxy "${options.proxy}" is not supported: use ${Object.keys(FIRECRAWL_PROXIES).join(', ')}`);
    fields.proxy_tier = tier;
  }
  if (options.location?.country !== undefined) fields.country = options.location.country;
  const languages = options.location?.languages?.filter((l) => l.trim() !== '') ?? [];
  const hasLanguage = Object.keys(options.headers ?? {}).some((name) => name.toLowerCase() === 'accept-language');
  if (languages.length && !hasLanguage) fields.headers = { ...options.headers, 'Accept-Language': languages.join(',') };
  return fields;
}

export interface MappedScrape {
  request: ScrapeRequest;
  wanted: WantedFormats;
  /** The answer's deadline (ms after acceptance), when the caller set `timeout`. */
  timeoutMs?: number;
}

/**
 * `waitFor` (ms, after the page loaded) as a leading `wait` action, then `actions` as they are:
 * the vocabulary is Firecrawl's own. In http mode (forced by `mode`) a `waitFor` is not waited
 * (there is no page to wait on) and `actions` are refused by our rule (400 naming the field).
 */
function actionsOf(options: FirecrawlScrapeOptions): { actions?: unknown[] } {
  const wait = options.waitFor !== undefined && options.waitFor > 0 && options.mode !== 'http' ? [{ type: 'wait', milliseconds: Math.ceil(options.waitFor) }] : [];
  const actions = [...wait, ...(options.actions ?? [])];
  return actions.length > 0 ? { actions } : {};
}

/**
 * The results cache (docs/scraping.md "Results cache"): `maxAge` (ms, at most a year; absent or
 * 0: fetch) is our `max_age`, `storeInCache: false` our `store_in_cache: false`.
 */
function cacheOptions(options: FirecrawlScrapeOptions): { max_age?: number; store_in_cache?: boolean } {
  const maxAge = options.maxAge !== undefined && options.maxAge > 0 ? Math.min(Math.floor(options.maxAge), MAX_CACHE_AGE_MS) : undefined;
  return { ...(maxAge ? { max_age: maxAge } : {}), ...(options.storeInCache === false ? { store_in_cache: false } : {}) };
}

/**
 * Firecrawl scrape options (already shape-checked by `firecrawlScrapeOptionsSchema`) and a URL →
 * our validated scrape request. Throws AppError BAD_REQUEST (400) naming the field.
 */
export function toScrapeRequest(url: unknown, options: FirecrawlScrapeOptions, where = ''): MappedScrape {
  if (options.zeroDataRetention === true) throw new AppError('BAD_REQUEST', `${where}zeroDataRetention is not supported: every scrape is kept as a run (its record and result, readable with GET /webhook/runs/:id); send false or leave it out`);
  const wanted = wantedFormats(options.formats, `${where}formats`);
  if (options.removeBase64Images === false) wanted.keepBase64Images = true;
  const mode = chosenMode(options);
  const proxy = proxyFields(options, where);
  const ours: FormatEntry[] = [];
  for (const f of wanted.formats) {
    if (f === 'screenshot') ours.push(wanted.fullPage ? 'screenshot@fullPage' : 'screenshot');
    else if (f !== 'json' && f !== 'extract') ours.push(f);
  }
  const json = modelJsonFormat(options, wanted);
  if (json) ours.push(json);
  // The document's metadata is always answered (title, status, …), as Firecrawl does.
  ours.push('metadata');
  const timeoutMs = options.timeout === undefined ? undefined : Math.min(Math.ceil(options.timeout), MAX_FIRECRAWL_TIMEOUT_MS);
  // Firecrawl's PDF parser options: `maxPages` limits the pages read, as our `document.max_pages`.
  const pdfParser = options.parsers?.find((p): p is { type: string; maxPages?: number } => typeof p === 'object' && p.type === 'pdf');
  const maxPages = pdfParser?.maxPages === undefined ? undefined : Math.min(pdfParser.maxPages, MAX_DOCUMENT_PAGES);
  const request = parseScrapeRequest({
    url: withScheme(url),
    mode,
    formats: ours,
    only_main_content: options.onlyMainContent ?? true,
    ...(options.includeTags?.length ? { include_tags: options.includeTags } : {}),
    ...(options.excludeTags?.length ? { exclude_tags: options.excludeTags } : {}),
    ...(options.headers && Object.keys(options.headers).length ? { headers: options.headers } : {}),
    ...proxy,
    ...(options.session ? { session: options.session } : {}),
    ...(maxPages !== undefined ? { document: { max_pages: maxPages } } : {}),
    ...actionsOf(options),
    ...(options.mobile === true ? { mobile: true } : {}),
    ...(options.skipTlsVerification === true ? { skip_tls_verification: true } : {}),
    // One attempt may not outlast the answer's deadline.
    ...(timeoutMs !== undefined ? { options: { retry_count: 2, timeout_ms: Math.min(timeoutMs, MAX_TIMEOUT_MS) } } : {}),
    ...cacheOptions(options),
  });
  return { request, wanted, ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
}
