/**
 * Crawl and batch-scrape contracts for the route table (docs/crawl.md): the request schemas are
 * crawl/job-request.ts's; these describe the answers and the query strings.
 */
import { z } from 'zod';
import { CRAWL_PAGE_STATUSES } from '../../crawl/store';

const time = z.iso.datetime();
const nullableTime = time.nullable();

export const CRAWL_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled', 'credit_exhausted'] as const;

const crawlLinks = z.looseObject({ self: z.string(), pages: z.string(), cancel: z.string(), resume: z.string() });

export const crawlQueuedSchema = z
  .object({ id: z.string(), kind: z.enum(['crawl', 'batch']), status: z.enum(CRAWL_STATUSES), links: crawlLinks })
  .meta({ id: 'CrawlQueued' });

export const crawlPageSchema = z
  .looseObject({
    url: z.string(),
    depth: z.int(),
    status: z.enum(CRAWL_PAGE_STATUSES as [string, ...string[]]),
    run_id: z.string().nullable(),
    http_status: z.int().nullable(),
    error: z.looseObject({ code: z.string(), message: z.string() }).optional(),
  })
  .meta({ id: 'CrawlPage' });

export const crawlSummarySchema = z
  .looseObject({
    id: z.string(),
    kind: z.enum(['crawl', 'batch']),
    status: z.enum(CRAWL_STATUSES),
    url: z.string().nullable(),
    total: z.int(),
    completed: z.int(),
    failed: z.int(),
    skipped: z.int(),
    credits: z.int(),
    created_at: time,
    started_at: nullableTime,
    finished_at: nullableTime,
    links: crawlLinks,
  })
  .meta({ id: 'CrawlSummary' });

export const crawlSchema = crawlSummarySchema
  .extend({ pages: z.array(crawlPageSchema), next: z.string().nullable() })
  .meta({ id: 'Crawl', description: 'A crawl or batch scrape with its first pages; `next` is the cursor of GET /crawl/{id}/pages.' });

export const crawlPagesSchema = z.object({ pages: z.array(crawlPageSchema), next: z.string().nullable() }).meta({ id: 'CrawlPages' });

export const crawlListSchema = z.object({ crawls: z.array(crawlSummarySchema), nextCursor: z.string().nullable() });

export const crawlPagesQuery = z.strictObject({
  cursor: z.string().max(100).optional(),
  status: z.enum(CRAWL_PAGE_STATUSES as [string, ...string[]]).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const crawlListQuery = z.strictObject({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
