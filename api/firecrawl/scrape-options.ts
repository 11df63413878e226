/**
 * Firecrawl's scrape options → our scrape request (docs/firecrawl.md "Scrape fields"). Shared by
 * `/v2/scrape`, `/v1/scrape` and the crawl and batch routes' `scrapeOptions`.
 *
 * Every field is one of three kinds:
 * - honoured: mapped onto our request (`formats`, `onlyMainContent`, `includeTags`,
 *   `excludeTags`, `headers`, `timeout`; `actions`, the same objects as ours; `waitFor`, a
 *   leading `wait` action; `mobile`, our `mobile` (a phone's viewport, user agent and touch));
 * - ignored: accepted with its type checked and not acted on (the SDKs' defaulted fields, and
 *   fields naming features we do not have: `location`, `proxy`, `skipTlsVerification`, …);
 * - refused: a 400 naming the field, for what we cannot do and a caller relies on (`json`,
 *   `summary`, `changeTracking` formats; an action we do not have, e.g. `pdf`).
 * Unknown fields are ignored (Firecrawl's own server is strict; its SDKs and MCP server add
 * fields release after release, and a 400 for those would break them).
 *
 * Mode: http, unless the request needs a browser (a screenshot, actions, `waitFor` > 0, `mobile: true`);
 * the extension field `mode` (`"http"` | `"browser"`) forces one. The extension field `session`
 * names a stored session (docs/scraping.md "Sessions"); `headers.cookie` works in both modes.
 */
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { MAX_TIMEOUT_MS, type ScrapeRequest, parseScrapeRequest } from '../../scrape/request';
import type { OutputFormat } from '../../scrape/types';
import { SCRAPE_MODES, type ScrapeMode } from '../../scrape/engines';
import { scrapeSessionSchema } from '../../scrape/cookies';

/** The Firecrawl formats we produce, and the field each fills in the document. */
export const SUPPORTED_FORMATS = ['markdown', 'html', 'rawHtml', 'links', 'screenshot'] as const;
export type FirecrawlFormat = (typeof SUPPORTED_FORMATS)[number];

/** Formats Firecrawl has and we do not produce (yet): refused, by name. */
const UNSUPPORTED_FORMATS: Record<string, string> = {
  json: 'LLM extraction is not available on this service',
  extract: 'LLM extraction is not available on this service',
  summary: 'LLM summaries are not available on this service',
  changeTracking: 'change tracking is not available on this service',
};

/** The longest `timeout` honoured (ms): the whole answer's deadline. */
export const MAX_FIRECRAWL_TIMEOUT_MS = 300_000;

const formatObject = z.looseObject({ type: z.string({ error: 'must be a format name' }), fullPage: z.boolean().optional() });
const format = z.union([z.string(), formatObject], { error: 'must be a format name or {type, …}' });

const stringList = z.array(z.string());

/** Firecrawl's scrape options, as its SDKs send them; unknown fields pass (see above). */
export const firecrawlScrapeOptionsSchema = z.looseObject({
  formats: z.array(format).optional().meta({ description: 'markdown (default), html, rawHtml, links, screenshot or {type: "screenshot", fullPage}; json, summary, changeTracking → 400' }),
  onlyMainContent: z.boolean().optional().meta({ description: 'Default true: the page\'s main content' }),
  includeTags: stringList.optional(),
  excludeTags: stringList.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  waitFor: z.number().min(0).optional().meta({ description: 'ms to wait once the page loaded (a leading wait action); > 0 renders the page in a browser' }),
  timeout: z.number().positive().optional().meta({ description: 'ms: the answer comes within it (408 after; the run is cancelled and refunded)' }),
  mobile: z.boolean().optional().meta({ description: "true renders the page in a browser as a phone (viewport, user agent, touch)" }),
  actions: z.array(z.unknown()).optional().meta({ description: 'Browser actions, the same objects as ours (docs/scraping.md "Actions"); not empty renders the page in a browser' }),
  location: z.looseObject({ country: z.string().optional(), languages: stringList.optional() }).optional().meta({ description: 'Ignored' }),
  proxy: z.string().optional().meta({ description: 'Ignored (our proxies are PROXY_URLS\')' }),
  skipTlsVerification: z.boolean().optional().meta({ description: 'Ignored: TLS is always verified' }),
  removeBase64Images: z.boolean().optional(),
  fastMode: z.boolean().optional(),
  blockAds: z.boolean().optional(),
  storeInCache: z.boolean().optional(),
  maxAge: z.number().optional(),
  minAge: z.number().optional(),
  parsers: z.array(z.unknown()).optional(),
  zeroDataRetention: z.boolean().optional(),
  integration: z.string().nullable().optional(),
  origin: z.string().optional(),
  mode: z.enum(SCRAPE_MODES).optional().meta({ description: 'Extension: force the engine ("http" or "browser") instead of the choice above' }),
  session: scrapeSessionSchema.optional().meta({ description: 'Extension: a stored session {name, save?} to start from and save (docs/scraping.md "Sessions")' }),
});

export type FirecrawlScrapeOptions = z.output<typeof firecrawlScrapeOptionsSchema>;

/** What the answer carries, from the request's formats. */
export interface WantedFormats {
  formats: FirecrawlFormat[];
  fullPage: boolean;
}

/** Reads `formats` (strings or `{type}` objects; v1's `screenshot@fullPage` too); refuses what we cannot produce. */
export function wantedFormats(formats: FirecrawlScrapeOptions['formats'], field = 'formats'): WantedFormats {
  const wanted = new Set<FirecrawlFormat>();
  let fullPage = false;
  for (const [index, item] of (formats ?? ['markdown']).entries()) {
    let name = typeof item === 'string' ? item : item.type;
    if (name === 'screenshot@fullPage') {
      name = 'screenshot';
      fullPage = true;
    }
    if (name === 'screenshot' && typeof item === 'object' && item.fullPage === true) fullPage = true;
    if ((SUPPORTED_FORMATS as readonly string[]).includes(name)) {
      wanted.add(name as FirecrawlFormat);
      continue;
    }
    const reason = UNSUPPORTED_FORMATS[name];
    throw new AppError('BAD_REQUEST', `${field}[${index}] "${name}" is not supported: ${reason ?? `supported formats are ${SUPPORTED_FORMATS.join(', ')}`}`);
  }
  return { formats: [...wanted], fullPage };
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

/** http, unless the request needs a browser; `mode` forces one. */
export function chosenMode(options: FirecrawlScrapeOptions, wanted: WantedFormats): ScrapeMode {
  if (options.mode) return options.mode;
  const needsBrowser = wanted.formats.includes('screenshot') || (options.waitFor ?? 0) > 0 || options.mobile === true || (options.actions?.length ?? 0) > 0;
  return needsBrowser ? 'browser' : 'http';
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
 * Firecrawl scrape options (already shape-checked by `firecrawlScrapeOptionsSchema`) and a URL →
 * our validated scrape request. Throws AppError BAD_REQUEST (400) naming the field.
 */
export function toScrapeRequest(url: unknown, options: FirecrawlScrapeOptions, where = ''): MappedScrape {
  const wanted = wantedFormats(options.formats, `${where}formats`);
  const mode = chosenMode(options, wanted);
  const ours: OutputFormat[] = wanted.formats.map((f) => (f === 'screenshot' ? (wanted.fullPage ? 'screenshot@fullPage' : 'screenshot') : f));
  // The document's metadata is always answered (title, status, …), as Firecrawl does.
  ours.push('metadata');
  const timeoutMs = options.timeout === undefined ? undefined : Math.min(Math.ceil(options.timeout), MAX_FIRECRAWL_TIMEOUT_MS);
  const request = parseScrapeRequest({
    url: withScheme(url),
    mode,
    formats: ours,
    only_main_content: options.onlyMainContent ?? true,
    ...(options.includeTags?.length ? { include_tags: options.includeTags } : {}),
    ...(options.excludeTags?.length ? { exclude_tags: options.excludeTags } : {}),
    ...(options.headers && Object.keys(options.headers).length ? { headers: options.headers } : {}),
    ...actionsOf(options),
    ...(options.mobile === true ? { mobile: true } : {}),
    ...(options.session ? { session: options.session } : {}),
    // One attempt may not outlast the answer's deadline.
    ...(timeoutMs !== undefined ? { options: { retry_count: 2, timeout_ms: Math.min(timeoutMs, MAX_TIMEOUT_MS) } } : {}),
  });
  return { request, wanted, ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
}
