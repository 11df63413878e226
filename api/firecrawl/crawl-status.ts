/**
 * A crawl or batch job as Firecrawl's status and errors answers show it (`GET /v2/crawl/:id`,
 * `GET /v2/batch/scrape/:id`, their v1 twins and `…/errors`; docs/firecrawl.md "Crawl and batch
 * scrape"). Read from the same rows the native `GET /crawl/:id` reads (crawl, crawl_page, the
 * pages' scrape runs, the ledger): nothing of its own is stored.
 *
 * - `status`: v2 knows exactly `scraping | completed | failed | cancelled` (the Python SDK refuses
 *   any other value, and the waiting helpers stop on the last three): queued and running are
 *   `scraping`; credit_exhausted is `failed` (the job can still be resumed natively).
 * - `data`: the documents of the pages that succeeded, in frontier order, `limit` (≤ 100) at a
 *   time and at most 10 MiB of documents per answer; `next` is the absolute URL of the following
 *   slice (`?skip=`), present only while more documents exist. The JS SDK follows it verbatim.
 * - `completed`: pages that succeeded; `total`: pages to fetch (queued, running, done; pages
 *   robots.txt disallows are not counted, they are in `robotsBlocked`); `creditsUsed`: what the
 *   job's pages kept (debits less refunds, from the ledger).
 */
import type { Database } from '../../platform/db';
import type { CrawlRow, CrawlStatus, PageCounts } from '../../crawl/store';

export const STATUS_PAGE_MAX = 100;
/** Documents of one status answer at most (Firecrawl's own bound): a page larger than this is answered alone. */
export const STATUS_PAGE_MAX_BYTES = 10 * 1024 * 1024;
/** How long Firecrawl says a job's results stay readable. Ours are kept (they are scrape runs); the field is a lower bound. */
const EXPIRES_AFTER_MS = 24 * 60 * 60 * 1000;

export type FirecrawlJobStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';
/** v1's waiting helpers keep polling on `scraping` and raise on `failed`/`cancelled`: the same four values serve it. */
export function firecrawlStatus(status: CrawlStatus): FirecrawlJobStatus {
  switch (status) {
    case 'queued':
    case 'running':
      return 'scraping';
    case 'completed':
      return 'completed';
    case 'cancelled':
      return 'cancelled';
    case 'failed':
    case 'credit_exhausted':
      return 'failed';
  }
}

export type ScrapeRunRow = NonNullable<Awaited<ReturnType<Database['scrapeRun']['findUnique']>>>;

/** A succeeded page's scrape run → its Firecrawl document, showing what the job asked for (`wanted`, kept with the job). */
export type DocumentMapper = (run: ScrapeRunRow, wanted: unknown) => Promise<Record<string, unknown>>;

export interface StatusQuery {
  skip: number;
  limit: number;
}

/** `?skip=&limit=` of a status request; anything unreadable falls back to the defaults (a status read never fails on them). */
export function statusQuery(query: Record<string, unknown>): StatusQuery {
  const int = (value: unknown) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : undefined);
  const skip = int(query.skip) ?? 0;
  const limit = Math.min(STATUS_PAGE_MAX, Math.max(1, int(query.limit) ?? STATUS_PAGE_MAX));
  return { skip, limit };
}

/** The succeeded pages' runs from `skip` on, `limit + 1` at most (one more tells whether a next slice exists). */
async function succeededRuns(db: Database, crawlId: string, query: StatusQuery): Promise<ScrapeRunRow[]> {
  const pages = await db.$queryRawUnsafe<Array<{ runId: string }>>(
    `SELECT "runId" FROM crawl_page WHERE "crawlId" = $1 AND status = 'succeeded' ORDER BY seq OFFSET $2 LIMIT $3`,
    crawlId,
    query.skip,
    query.limit + 1,
  );
  const ids = pages.map((p) => p.runId);
  const runs = await db.scrapeRun.findMany({ where: { id: { in: ids } } });
  const byId = new Map(runs.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is ScrapeRunRow => r !== undefined);
}

export interface StatusInput {
  crawl: CrawlRow;
  counts: PageCounts;
  credits: number;
  query: StatusQuery;
  /** The absolute URL of this job's status route (`<public base>/v2/crawl/<id>`), for `next`. */
  selfUrl: string;
  wanted: unknown;
}

export async function statusBody(db: Database, toDocument: DocumentMapper, input: StatusInput) {
  const { crawl, counts, credits, query } = input;
  const runs = await succeededRuns(db, crawl.id, query);
  const data: Array<Record<string, unknown>> = [];
  let bytes = 0;
  for (const run of runs.slice(0, query.limit)) {
    const document = await toDocument(run, input.wanted);
    const size = Buffer.byteLength(JSON.stringify(document));
    if (data.length > 0 && bytes + size > STATUS_PAGE_MAX_BYTES) break;
    data.push(document);
    bytes += size;
  }
  const more = runs.length > data.length;
  const next = more ? `${input.selfUrl}?skip=${query.skip + data.length}${query.limit !== STATUS_PAGE_MAX ? `&limit=${query.limit}` : ''}` : undefined;
  return {
    success: true as const,
    status: firecrawlStatus(crawl.status),
    completed: counts.completed,
    total: counts.total,
    creditsUsed: credits,
    expiresAt: new Date(crawl.createdAt.getTime() + EXPIRES_AFTER_MS).toISOString(),
    ...(next ? { next } : {}),
    data,
  };
}

/**
 * `GET …/errors`: the pages whose every attempt failed (each refunded), and the URLs robots.txt
 * disallowed (never fetched, never charged).
 */
export async function errorsBody(db: Database, crawlId: string) {
  const rows = await db.$queryRawUnsafe<Array<{ runId: string | null; url: string; status: string; error: { code?: string; message?: string } | null; finishedAt: Date | null }>>(
    `SELECT "runId", url, status, error, "finishedAt" FROM crawl_page WHERE "crawlId" = $1 AND status IN ('failed', 'skipped') ORDER BY seq LIMIT 10000`,
    crawlId,
  );
  const errors = rows
    .filter((r) => r.status === 'failed')
    .map((r) => ({
      id: r.runId ?? '',
      ...(r.finishedAt ? { timestamp: new Date(r.finishedAt).toISOString() } : {}),
      url: r.url,
      ...(r.error?.code ? { code: r.error.code } : {}),
      error: r.error?.message ?? 'the page could not be scraped',
    }));
  const robotsBlocked = rows.filter((r) => r.status === 'skipped' && r.error?.code === 'ROBOTS_DISALLOWED').map((r) => r.url);
  return { errors, robotsBlocked };
}
