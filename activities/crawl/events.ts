/**
 * The crawl activities' webhook events: `crawl.page` for each page's outcome, and the job's end
 * (`crawl.completed`, `crawl.failed`) with its counts and credits.
 */
import type { CrawlPageRow, CrawlRow, CrawlStore } from '../../crawl/store';
import { type CrawlEndStatus, type CrawlPageOutcome, crawlEventSubjects } from '../../workflows/definitions';
import type { WebhookEventSource } from '../../webhooks/types';
import { jobOf } from './deps';

export async function countsEvent(store: CrawlStore, crawl: CrawlRow, status: CrawlEndStatus): Promise<WebhookEventSource | null> {
  const job = jobOf(crawl);
  const type = status === 'completed' ? 'crawl.completed' : status === 'cancelled' ? null : 'crawl.failed';
  if (!type) return null;
  const [counts, credits] = await Promise.all([store.counts(crawl.id), store.credits(crawl.workflowId)]);
  const data: Record<string, unknown> = {
    object: 'crawl',
    id: crawl.id,
    kind: crawl.kind,
    url: job.kind === 'crawl' ? job.url : null,
    status,
    total: counts.total,
    completed: counts.completed,
    failed: counts.failed,
    skipped: counts.skipped,
    credits,
    ...(status === 'credit_exhausted' ? { error: { code: 'INSUFFICIENT_CREDIT', message: 'credit ran out; top up and POST /crawl/:id/resume' } } : {}),
    ...(status === 'failed' ? { error: { code: 'SCRAPE_FAILED', message: 'no page could be fetched' } } : {}),
    links: { self: `/crawl/${crawl.id}`, pages: `/crawl/${crawl.id}/pages` },
    ...(job.webhook?.metadata ? { metadata: job.webhook.metadata } : {}),
  };
  return { kind: 'custom', userId: crawl.userId, type, subject: crawlEventSubjects.end(crawl.id, crawl.resumes), data, ...(job.webhook ? { webhook: job.webhook } : {}) };
}

/** A page's `crawl.page` event. */
export function pageEvent(crawl: CrawlRow, page: CrawlPageRow, runId: string, outcome: CrawlPageOutcome): WebhookEventSource {
  const job = jobOf(crawl);
  const data: Record<string, unknown> = {
    object: 'crawl_page',
    crawl_id: crawl.id,
    url: page.url,
    depth: page.depth,
    status: outcome.status,
    run_id: runId,
    http_status: outcome.status === 'succeeded' ? outcome.httpStatus : null,
    ...(outcome.status === 'failed' ? { error: { code: outcome.code, message: outcome.message } } : {}),
    links: { run: `/webhook/runs/${runId}`, crawl: `/crawl/${crawl.id}` },
    ...(job.webhook?.metadata ? { metadata: job.webhook.metadata } : {}),
  };
  return { kind: 'custom', userId: crawl.userId, type: 'crawl.page', subject: crawlEventSubjects.page(crawl.id, runId), data, ...(job.webhook ? { webhook: job.webhook } : {}) };
}
