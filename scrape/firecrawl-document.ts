/**
 * Our scrape result → a Firecrawl document (docs/firecrawl.md "Document"): the format fields
 * asked for, and `metadata` as Firecrawl names it. Shared by the compatible scrape, crawl and
 * batch answers and by the `crawl.page` / `batch_scrape.page` webhooks (sent by the worker, which
 * is why it lives in the scrape domain: webhooks/firecrawl.ts is handed it by the activity), so an
 * event's document is the status route's document of the same page.
 *
 * `metadata.proxyUsed` and `metadata.cacheState` only ever hold the values the Python SDK's
 * models accept (`basic`|`stealth`, `hit`|`miss`): any other value fails its parse after the
 * work was done and paid.
 */
import type { Database } from '../platform/db';
import type { ChangeTracking, PageLink, PageMetadata, StoredActionOutputs } from './types';
import { servedStepOf } from './run-attempts';

/** The formats a document shows (the compatible scrape mapper's `WantedFormats`, api/firecrawl/scrape-options.ts). */
export interface WantedDocumentFormats {
  formats: readonly string[];
  fullPage?: boolean;
  /** `{type: "changeTracking", modes: ["git-diff"]}`: the document's changeTracking carries `diff`. */
  changeTrackingDiff?: boolean;
  /** `removeBase64Images: false`: the markdown keeps its base64 images. */
  keepBase64Images?: boolean;
}

/** A markdown image whose source is a base64 data URL (Firecrawl's `removeBase64Images`, its default). */
const BASE64_IMAGE = /(!\[[^\]]*\]\()data:image\/[^;)\s]*;base64,[^)\s]*/g;

/** The markdown without its base64 images' data (the image stays, as `<Base64-Image-Removed>`, as at Firecrawl). */
export function withoutBase64Images(markdown: string): string {
  return markdown.replace(BASE64_IMAGE, '$1<Base64-Image-Removed>');
}

/** What the mapper reads of a finished run's body (api/scrape-run.ts `runBody`). */
export interface ScrapedPage {
  id: string;
  url: string;
  final_url: string;
  status: number | null;
  cost: number;
  /** The results cache's state (api/scrape-run.ts `runBody`). */
  cache?: { state: 'hit' | 'miss'; cached_at?: string };
  /** An `auto` run: the engine and proxy tier that served it (api/scrape-run.ts `runBody`). */
  served_by?: { engine: string; proxy_tier: string };
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: PageLink[];
  metadata?: PageMetadata;
  json?: unknown;
  summary?: string;
  changeTracking?: ChangeTracking;
  actions?: StoredActionOutputs;
}

/** Firecrawl's changeTracking field: `visibility` is always "visible" (we do not track links); `diff` in git-diff mode, when changed. */
export interface FirecrawlChangeTracking {
  previousScrapeAt: string | null;
  changeStatus: ChangeTracking['changeStatus'];
  visibility: 'visible';
  diff?: { text: string };
}

/** The PNGs a document carries as data URLs: the screenshot format's, and the `screenshot` actions' in order. */
export interface DocumentImages {
  screenshot?: Uint8Array;
  actionScreenshots?: Uint8Array[];
}

/** Firecrawl's `actions` of a document: what the page's actions produced (`pdfs`: we have no pdf action). */
export interface FirecrawlActions {
  screenshots: string[];
  scrapes: Array<{ url: string; html: string }>;
  javascriptReturns: Array<{ type: string; value: unknown }>;
  pdfs: string[];
}

export interface FirecrawlMetadata {
  title?: string;
  description?: string;
  language?: string;
  sourceURL: string;
  url: string;
  statusCode: number;
  contentType?: string;
  scrapeId: string;
  creditsUsed: number;
  proxyUsed: 'basic' | 'stealth';
  cacheState: 'hit' | 'miss';
  [tag: string]: unknown;
}

export interface FirecrawlDocument {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  screenshot?: string;
  json?: unknown;
  /** v1's `extract` format: the same value as `json`. */
  extract?: unknown;
  summary?: string;
  changeTracking?: FirecrawlChangeTracking;
  actions?: FirecrawlActions;
  metadata: FirecrawlMetadata;
}

const dataUrl = (png: Uint8Array) => `data:image/png;base64,${Buffer.from(png).toString('base64')}`;

/** `og:title` → `ogTitle`, as Firecrawl's named fields (the verbatim keys are kept too). */
function camelTag(name: string): string | undefined {
  const match = /^og:([a-z_:]+)$/i.exec(name);
  if (!match) return undefined;
  return `og${match[1]!
    .split(/[_:]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}`;
}

/**
 * `metadata.statusCode`, one rule for every answer and event: the run's HTTP status, else the one
 * its stored result recorded, else 0 (unknown: never a made-up 200).
 */
export function firecrawlStatusCode(page: Pick<ScrapedPage, 'status' | 'metadata'>): number {
  return page.status ?? page.metadata?.status ?? 0;
}

function metadataOf(page: ScrapedPage): FirecrawlMetadata {
  const meta = page.metadata;
  const tags: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(meta ?? {})) {
    if (!name.startsWith('og:') && !name.startsWith('twitter:')) continue;
    tags[name] = value;
    const camel = camelTag(name);
    if (camel) tags[camel] = value;
  }
  return {
    ...(meta?.title ? { title: meta.title } : {}),
    ...(meta?.description ? { description: meta.description } : {}),
    ...(meta?.language ? { language: meta.language } : {}),
    ...(meta?.favicon ? { favicon: meta.favicon } : {}),
    // A PDF or DOCX target: its page count and author, as Firecrawl names them.
    ...(typeof meta?.page_count === 'number' ? { numPages: meta.page_count } : {}),
    ...(meta?.author ? { author: meta.author } : {}),
    ...tags,
    sourceURL: page.url,
    url: meta?.final_url ?? page.final_url,
    statusCode: firecrawlStatusCode(page),
    ...(meta?.content_type ? { contentType: meta.content_type } : {}),
    scrapeId: page.id,
    creditsUsed: page.cost,
    // The tier that served the page (docs/scraping.md "Escalation"): `stealth` only when a stealth
    // pool did; basic pools, no proxy and runs with no escalation record are the SDK's "basic".
    proxyUsed: page.served_by?.proxy_tier === 'stealth' ? 'stealth' : 'basic',
    // The results cache (docs/scraping.md "Results cache"): `hit` with when the answering run finished.
    cacheState: page.cache?.state === 'hit' ? 'hit' : 'miss',
    ...(page.cache?.cached_at ? { cachedAt: page.cache.cached_at } : {}),
  };
}

/**
 * The document of one scraped page, with the formats asked for (`wanted`), what its `actions`
 * produced, and the screenshots (the format's, the actions') as `data:image/png;base64,…` URLs (Firecrawl answers a URL; ours needs the key in `x-api-key`,
 * which the SDKs cannot send, so the image travels in the answer).
 */
export function toFirecrawlDocument(page: ScrapedPage, wanted: WantedDocumentFormats, images: DocumentImages = {}): FirecrawlDocument {
  const { screenshot, actionScreenshots = [] } = images;
  const has = (format: string) => wanted.formats.includes(format);
  return {
    ...(has('markdown') ? { markdown: wanted.keepBase64Images ? (page.markdown ?? '') : withoutBase64Images(page.markdown ?? '') } : {}),
    ...(has('html') ? { html: page.html ?? '' } : {}),
    ...(has('rawHtml') ? { rawHtml: page.rawHtml ?? '' } : {}),
    ...(has('links') ? { links: (page.links ?? []).map((link) => link.url) } : {}),
    ...(has('screenshot') && screenshot ? { screenshot: dataUrl(screenshot) } : {}),
    ...(has('json') ? { json: page.json ?? null } : {}),
    ...(has('extract') ? { extract: page.json ?? null } : {}),
    ...(has('summary') ? { summary: page.summary ?? '' } : {}),
    ...(has('changeTracking') && page.changeTracking ? { changeTracking: firecrawlChangeTracking(page.changeTracking, wanted.changeTrackingDiff === true) } : {}),
    ...(page.actions
      ? {
          actions: {
            screenshots: actionScreenshots.map(dataUrl),
            scrapes: page.actions.scrapes,
            javascriptReturns: page.actions.javascriptReturns,
            pdfs: [],
          },
        }
      : {}),
    metadata: metadataOf(page),
  };
}

function firecrawlChangeTracking(tracking: ChangeTracking, withDiff: boolean): FirecrawlChangeTracking {
  return {
    previousScrapeAt: tracking.previousScrapeAt,
    changeStatus: tracking.changeStatus,
    visibility: 'visible',
    ...(withDiff && tracking.changeStatus === 'changed' && tracking.diff !== null ? { diff: { text: tracking.diff } } : {}),
  };
}

/** What the mappers read of a `scrape_run` row. */
export interface ScrapeRunRecord {
  id: string;
  url: string;
  httpStatus: number | null;
  cost: number;
  result: unknown;
  /** `cached`: a results-cache hit (docs/scraping.md "Results cache"), answered from the run that finished at `cachedAt`. */
  status?: string;
  cachedAt?: Date | null;
  /** An `auto` run's steps (scrape/run-attempts.ts EscalationEntry): what served it. */
  escalation?: unknown;
}

/**
 * The columns of `scrape_run` a document is made of, for a reader that selects columns (the page
 * webhooks; the status routes read whole rows): without `status` and `cachedAt` a page answered
 * from the results cache would say `cacheState: miss` in its event and `hit` on the status route.
 */
export const SCRAPE_RUN_RECORD_SELECT = { id: true, url: true, httpStatus: true, cost: true, result: true, status: true, cachedAt: true, escalation: true } as const;

/** The output fields a document may show, read from a run's stored result. */
const DOCUMENT_SOURCE_FIELDS = ['markdown', 'html', 'rawHtml', 'links', 'metadata', 'json', 'summary', 'changeTracking', 'actions'] as const;

/** A succeeded run's row → the page the document is made of. */
export function scrapedPageOfRun(run: ScrapeRunRecord): ScrapedPage {
  const stored = (run.result ?? {}) as Partial<ScrapedPage>;
  const page: ScrapedPage = { id: run.id, url: run.url, final_url: stored.final_url ?? run.url, status: run.httpStatus, cost: run.cost };
  for (const field of DOCUMENT_SOURCE_FIELDS) if (stored[field] !== undefined) (page as unknown as Record<string, unknown>)[field] = stored[field];
  if (run.status === 'cached') page.cache = { state: 'hit', ...(run.cachedAt ? { cached_at: new Date(run.cachedAt).toISOString() } : {}) };
  const served = servedStepOf(run.escalation);
  if (served) page.served_by = served;
  return page;
}

/** The PNGs of a run that its document carries: the screenshot format's when asked, and every `screenshot` action's. */
export async function documentImages(db: Database, page: ScrapedPage, wanted: WantedDocumentFormats): Promise<DocumentImages> {
  const images: DocumentImages = {};
  if (wanted.formats.includes('screenshot')) {
    images.screenshot = (await db.scrapeScreenshot.findUnique({ where: { runId: page.id }, select: { png: true } }))?.png ?? undefined;
  }
  if (page.actions?.screenshots.length) {
    const shots = await db.scrapeActionScreenshot.findMany({ where: { runId: page.id }, orderBy: { idx: 'asc' }, select: { png: true } });
    images.actionScreenshots = shots.map((shot) => shot.png);
  }
  return images;
}

/** A succeeded run's row → its Firecrawl document: what the status routes answer and the page webhooks carry. */
export async function firecrawlDocumentOfRun(db: Database, run: ScrapeRunRecord, wanted: WantedDocumentFormats): Promise<FirecrawlDocument> {
  const page = scrapedPageOfRun(run);
  return toFirecrawlDocument(page, wanted, await documentImages(db, page, wanted));
}
