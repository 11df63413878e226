/**
 * Firecrawl's search (docs/firecrawl.md "Search"): `POST /v2/search` and `POST /v1/search` →
 * the native search (api/search-run.ts: the same backend, guard, ledger and batch job as
 * `POST /search`) → Firecrawl's answers:
 * - v2 `{success, data: {web: [{url, title, description, position}], news: [{title, url,
 *   snippet, date, imageUrl, position}], images: [{title, imageUrl, imageWidth, imageHeight, url,
 *   position}]}, creditsUsed, id}`, a scraped result carrying its document's fields beside these;
 * - v1 `{success, data: [{url, title, description, …document}]}` (web results only, as v1 had).
 *
 * Fields: `query`, `limit`, `sources` (strings or `{type}`), `tbs` (qdr:h/d/w/m/y), `lang`,
 * `country`, `location` (its country), `includeDomains`/`excludeDomains`, `timeout`,
 * `scrapeOptions` are honoured; `ignoreInvalidURLs` is what we do anyway (results the guard
 * refuses are dropped); the `alexandria` source, `categories`, `filter`, `domainTools`,
 * `toolDetail`, `highlights`, `enterprise`, `origin`, `integration` are accepted and ignored.
 */
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { parseBody } from '../../platform/validate';
import type { SearchResult } from '../../search/collect';
import { SEARCH_SOURCES, type SearchSource } from '../../search/provider';
import { type SearchRequest, SEARCH_TIMEOUT_MAX_MS, countryOfLocation, searchRequestSchema, timeRangeOfTbs } from '../../search/request';
import { type Route, parsedBy, reply, route } from '../route-table';
import { type SearchOutcome, runSearch } from '../search-run';
import type { AppDeps } from '../deps';
import { type FirecrawlVersion, type ScrapeOptionsMapper } from './crawl-request';
import { type DocumentMapper } from './crawl-status';
import { documentMapper, scrapeOptionsMapper } from './crawl-mappers';
import { FIRECRAWL_CREDENTIALS, FIRECRAWL_ERROR_RESPONSES } from './schemas';

/** Sources of Firecrawl's catalogue (firecrawl-mcp asks for them by default): nothing here to search, dropped. */
const CATALOGUE_SOURCES = new Set(['alexandria', 'exchange']);

const sourceEntry = z.union([z.string(), z.looseObject({ type: z.string() })], { error: 'must be a source name or {type}' });
const firecrawlSearchSchema = z
  .looseObject({
    query: z.string(),
    limit: z.number().int().optional(),
    sources: z.array(sourceEntry).optional(),
    tbs: z.string().optional(),
    lang: z.string().optional(),
    country: z.string().optional(),
    location: z.string().optional(),
    includeDomains: z.array(z.string()).optional(),
    excludeDomains: z.array(z.string()).optional(),
    timeout: z.number().int().positive().optional(),
    ignoreInvalidURLs: z.boolean().optional(),
    scrapeOptions: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({
    id: 'FirecrawlSearchRequest',
    description: 'Firecrawl search request: query, limit, sources, tbs, lang, country, location, includeDomains, excludeDomains, timeout, ignoreInvalidURLs, scrapeOptions; other fields are accepted and ignored (docs/firecrawl.md "Search").',
  });
type FirecrawlSearch = z.output<typeof firecrawlSearchSchema>;

export interface MappedSearch {
  request: SearchRequest;
  /** The native page scrape request, when the results are to be scraped. */
  scrape?: Record<string, unknown>;
  wanted?: unknown;
}

function sourcesOf(given: FirecrawlSearch['sources']): SearchSource[] {
  const names = (given ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.type)).filter((name) => !CATALOGUE_SOURCES.has(name));
  for (const name of names) {
    if (!(SEARCH_SOURCES as readonly string[]).includes(name)) throw new AppError('BAD_REQUEST', `sources: ${JSON.stringify(name)} is not a source (${SEARCH_SOURCES.join(', ')})`);
  }
  return names.length ? [...new Set(names as SearchSource[])] : ['web'];
}

/** `tbs`: its `qdr:` part is the time range; `sbd:` (sort by date) is ignored; a custom range cannot be asked of SearXNG. */
function timeRangeOf(tbs: string | undefined): SearchRequest['time_range'] {
  if (tbs === undefined || tbs.trim() === '') return undefined;
  const parts = tbs.split(',').map((part) => part.trim()).filter((part) => part && !part.startsWith('sbd:'));
  if (parts.length === 0) return undefined;
  const range = parts.length === 1 ? timeRangeOfTbs(parts[0]!) : null;
  if (!range) throw new AppError('BAD_REQUEST', `tbs: ${JSON.stringify(tbs.slice(0, 100))} is not supported; use qdr:h, qdr:d, qdr:w, qdr:m or qdr:y (SearXNG has no custom date range)`);
  return range;
}

function countryOf(fc: FirecrawlSearch): string | undefined {
  const given = fc.country?.trim();
  if (given && /^[A-Za-z]{2}$/.test(given)) return given.toLowerCase();
  return countryOfLocation(given || fc.location || '');
}

/** Whether the results are scraped: v2 with `scrapeOptions` (unless its `formats` is empty), v1 only with formats (its SDK sends `formats: []` by default). */
function wantsScrape(options: Record<string, unknown> | undefined, version: FirecrawlVersion): options is Record<string, unknown> {
  if (!options) return false;
  const formats = options.formats;
  if (Array.isArray(formats)) return formats.length > 0;
  return version === 'v2';
}

export function mapFirecrawlSearch(raw: unknown, version: FirecrawlVersion, mapScrape: ScrapeOptionsMapper): MappedSearch {
  const fc = parseBody(firecrawlSearchSchema, raw);
  if (fc.includeDomains?.length && fc.excludeDomains?.length) throw new AppError('BAD_REQUEST', 'includeDomains and excludeDomains cannot both be specified');
  const lang = fc.lang?.trim();
  const native = {
    query: fc.query,
    ...(fc.limit !== undefined ? { limit: fc.limit } : {}),
    sources: version === 'v1' ? ['web'] : sourcesOf(fc.sources),
    ...(timeRangeOf(fc.tbs) ? { time_range: timeRangeOf(fc.tbs) } : {}),
    ...(lang && /^[a-z]{2,3}(-[A-Za-z]{2})?$/i.test(lang) ? { language: lang.toLowerCase() } : {}),
    ...(countryOf(fc) ? { country: countryOf(fc) } : {}),
    ...(fc.includeDomains?.length ? { include_domains: fc.includeDomains } : {}),
    ...(fc.excludeDomains?.length ? { exclude_domains: fc.excludeDomains } : {}),
    ...(fc.timeout !== undefined ? { timeout_ms: Math.min(Math.max(fc.timeout, 1000), SEARCH_TIMEOUT_MAX_MS) } : {}),
  };
  const request = parseBody(searchRequestSchema, native);
  if (!wantsScrape(fc.scrapeOptions, version)) return { request };
  const page = mapScrape(fc.scrapeOptions, version);
  return { request, scrape: page.scrape, wanted: page.wanted };
}

/** One result in Firecrawl's shape of its source, with its page's document when it was scraped. */
async function firecrawlResult(source: SearchSource, result: SearchResult, outcome: SearchOutcome, toDocument: DocumentMapper, wanted: unknown): Promise<Record<string, unknown>> {
  const defined = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
  const base =
    source === 'news'
      ? defined({ title: result.title, url: result.url, snippet: result.description, date: result.publishedDate, imageUrl: result.imageUrl, position: result.position })
      : source === 'images'
        ? defined({ title: result.title, imageUrl: result.imageUrl, imageWidth: result.imageWidth, imageHeight: result.imageHeight, url: result.url, position: result.position })
        : defined({ url: result.url, title: result.title, description: result.description, position: result.position });
  const run = outcome.pages.get(result.normalizedUrl)?.run;
  if (!run || source === 'images') return base;
  return { ...base, ...(await toDocument(run, wanted)) };
}

export function firecrawlSearchRouteTable(deps: AppDeps, mappers: { scrape: ScrapeOptionsMapper; document: DocumentMapper } = { scrape: scrapeOptionsMapper('scrapeOptions.'), document: documentMapper(deps) }): Route[] {
  const responses = {
    200: z.looseObject({ success: z.literal(true), data: z.unknown(), creditsUsed: z.number().optional(), id: z.string().optional(), warning: z.string().optional() }),
    ...FIRECRAWL_ERROR_RESPONSES,
  };
  const routeOf = (version: FirecrawlVersion): Route =>
    route({
      method: 'post',
      path: `/${version}/search`,
      credential: 'apiKey',
      tag: 'firecrawl',
      summary: `Firecrawl ${version} search: web${version === 'v2' ? ', news and image' : ''} results over the configured backend (the native POST /search), optionally scraped`,
      description: `${FIRECRAWL_CREDENTIALS} 400 SEARCH_NOT_CONFIGURED without a search backend; 502 SEARCH_UNAVAILABLE when it fails (refunded; the status the SDKs retry).`,
      body: parsedBy(firecrawlSearchSchema, (value) => mapFirecrawlSearch(value, version, mappers.scrape), { query: 'temporal workflows', limit: 5, sources: ['web'], scrapeOptions: { formats: ['markdown'] } }),
      responses,
      errors: ['BAD_REQUEST', 'SEARCH_NOT_CONFIGURED', 'SEARCH_UNAVAILABLE', 'LLM_NOT_CONFIGURED', 'INSUFFICIENT_CREDIT', 'RATE_LIMITED'],
      handler: async ({ auth, body }) => {
        const outcome = await runSearch(deps, auth, { request: body.request, scrape: body.scrape });
        const warning = outcome.warning ? { warning: outcome.warning } : {};
        if (version === 'v1') {
          const data = await Promise.all((outcome.results.web ?? []).map((result) => firecrawlResult('web', result, outcome, mappers.document, body.wanted)));
          return reply(200, { success: true, data, ...warning });
        }
        const data: Record<string, unknown[]> = {};
        for (const source of SEARCH_SOURCES) {
          const results = outcome.results[source];
          if (results) data[source] = await Promise.all(results.map((result) => firecrawlResult(source, result, outcome, mappers.document, body.wanted)));
        }
        return reply(200, { success: true, data, creditsUsed: outcome.cost, id: outcome.id, ...warning });
      },
    });
  return [routeOf('v2'), routeOf('v1')];
}
