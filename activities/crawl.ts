/**
 * Activities of crawls and batch scrapes (workflows/crawl.workflow.ts; docs/crawl.md). The
 * frontier is in PostgreSQL (crawl/store.ts), so each activity reads what it needs by the crawl's
 * id and the workflow carries only ids and small plans. All idempotent: a retry or a replay finds
 * its earlier writes (claims by run id, pages by UNIQUE url, outcomes guarded by status).
 *
 *   openCrawl      – each execution's start: marks the job running; on the first, robots.txt of
 *                    the start origin, sitemap discovery (per `sitemap`) and the seeds.
 *   claimCrawlPages – the next queued pages for run ids the workflow chose, each with its
 *                    scrape_run row and its origin's politeness delay; claimCrawlFrontier the
 *                    same, keeping back origins not ready (politeness) or whose robots.txt cannot
 *                    be read yet, and saying what it kept back.
 *   recheckCrawlRobots – robots.txt of held origins fetched again when due.
 *   settleCrawlPage – a page's outcome; after a success, the links its scrape stored (never a
 *                    second fetch) become new pages: normalised, in scope, robots-checked, deduplicated
 *                    by the table, up to `limit`.
 *   requeueCrawlPage – credit ran out at the page's debit: the page goes back to the frontier.
 *   closeCrawl / cancelCrawl – the job's end.
 *
 * In crawl/: deps.ts (dependencies, shared limits), robots.ts (robots.txt per origin),
 * frontier.ts (seeds, new pages, claims), events.ts (webhook events).
 */
import { normalizeUrl } from '../crawl/url';
import { type CrawlRow, type CrawlStore, createCrawlStore } from '../crawl/store';
import type { StoredResult } from '../scrape/types';
import type { CrawlEndStatus, CrawlFrontierClaim, CrawlPageClaim, CrawlPageOutcome, CrawlPlan } from '../workflows/definitions';
import type { WebhookEventSource } from '../webhooks/types';
import { unsealRequestSecrets } from '../sessions/request-secrets';
import { type CrawlActivityDeps, MAX_LINKS_PER_PAGE, ROBOTS_RECHECKS_PER_CALL, jobOf } from './crawl/deps';
import { countsEvent, pageEvent } from './crawl/events';
import { createCrawlFrontier, holdsRobots, scopeOf } from './crawl/frontier';
import { createCrawlRobots } from './crawl/robots';
import { type CacheableRequest, lookupCacheKey } from '../scrape/cache-key';

export type { CrawlActivityDeps } from './crawl/deps';

export function createCrawlActivities(deps: CrawlActivityDeps) {
  const store: CrawlStore = createCrawlStore(deps.db);
  const robots = createCrawlRobots(deps, store);
  const { fetchHeldRobots } = robots;
  const { pagesFor, claimPages, seed } = createCrawlFrontier(store, robots);

  async function mustCrawl(crawlId: string): Promise<CrawlRow> {
    const crawl = await store.byId(crawlId);
    if (!crawl) throw new Error(`crawl ${crawlId} does not exist`);
    return crawl;
  }

  return {
    async openCrawl(input: { crawlId: string; seed: boolean }): Promise<CrawlPlan> {
      const crawl = await mustCrawl(input.crawlId);
      const job = jobOf(crawl);
      const plan: CrawlPlan = {
        proceed: await store.markRunning(crawl.id),
        kind: crawl.kind,
        userId: crawl.userId,
        apiKeyId: crawl.apiKeyId,
        concurrency: job.concurrency,
        pageCost: crawl.pageCost,
        // The plan is the workflow's input (encrypted by the payload codec): the one place the page template's secrets are opened.
        scrape: unsealRequestSecrets(deps.secretKeyring, { userId: crawl.userId, kind: 'crawl' }, job.scrape),
        events: false,
        resumes: crawl.resumes,
        ...(job.escalation ? { escalation: job.escalation } : {}),
      };
      if (!plan.proceed) return plan;
      if (input.seed) await seed(crawl);
      plan.events = job.webhook !== undefined || (await deps.db.webhookEndpoint.count({ where: { userId: crawl.userId, deletedAt: null } })) > 0;
      return plan;
    },

    /** Executions started before CRAWL_FREE_SLOTS_PATCH: the next queued pages, nothing kept back. */
    async claimCrawlPages(input: { crawlId: string; runIds: string[] }): Promise<CrawlPageClaim[]> {
      return claimPages(await mustCrawl(input.crawlId), input.runIds, { avoid: [], robots: false });
    },

    /**
     * claimCrawlPages, keeping back what must wait (workflows/crawl.workflow.ts from
     * CRAWL_FREE_SLOTS_PATCH on): pages of the origins in `avoid` (waiting for their politeness
     * delay: the next claim takes them when the origin is ready, so a page never waits holding a
     * slot), and, when the job respects robots.txt, pages of origins whose robots.txt cannot be read
     * yet. Answers what was kept back, so the workflow knows when to claim again.
     */
    async claimCrawlFrontier(input: { crawlId: string; runIds: string[]; avoid: string[] }): Promise<CrawlFrontierClaim> {
      const crawl = await mustCrawl(input.crawlId);
      const robots = holdsRobots(jobOf(crawl));
      const pages = await claimPages(crawl, input.runIds, { avoid: input.avoid, robots });
      if (pages.length >= input.runIds.length) return { pages, held: false, robotsDue: [], robotsDueInMs: null };
      return { pages, ...(await store.frontierHeld(crawl.id, robots)) };
    },

    /** robots.txt of held origins whose retry time has come, fetched again (at most a few per call, in parallel). */
    async recheckCrawlRobots(input: { crawlId: string; origins: string[] }): Promise<void> {
      const crawl = await mustCrawl(input.crawlId);
      await Promise.all(input.origins.slice(0, ROBOTS_RECHECKS_PER_CALL).map((origin) => fetchHeldRobots(crawl, origin)));
    },

    /** A page's outcome; returns its `crawl.page` event when the job emits events. */
    async settleCrawlPage(input: { crawlId: string; runId: string; outcome: CrawlPageOutcome; events: boolean }): Promise<WebhookEventSource | null> {
      const crawl = await mustCrawl(input.crawlId);
      const job = jobOf(crawl);
      const page = await store.pageByRun(input.runId);
      if (!page) return null;
      const { outcome } = input;
      if (outcome.status === 'succeeded' && page.status === 'running' && job.kind === 'crawl' && job.sitemap !== 'only' && page.depth < job.max_depth) {
        const run = await deps.db.scrapeRun.findUnique({ where: { id: input.runId }, select: { result: true } });
        const links = ((run?.result ?? {}) as Partial<StoredResult>).links ?? [];
        const inScope = scopeOf(job);
        const found = new Set<string>();
        for (const link of links.slice(0, MAX_LINKS_PER_PAGE)) {
          const url = normalizeUrl(link.url);
          if (url !== null && inScope(url).ok) found.add(url);
        }
        const added = await store.addPages(crawl.id, await pagesFor(crawl, [...found], page.depth + 1), job.limit);
        deps.logger.debug({ crawlId: crawl.id, url: page.url, links: links.length, inScope: found.size, added }, 'crawl page links');
      }
      const changed =
        outcome.status === 'succeeded'
          ? await store.finishPage(input.runId, { status: 'succeeded', httpStatus: outcome.httpStatus })
          : await store.finishPage(input.runId, { status: 'failed', error: { code: outcome.code, message: outcome.message } });
      if (changed) deps.metrics.crawlPages.inc({ kind: crawl.kind, outcome: outcome.status });
      if (!input.events) return null;
      return pageEvent(crawl, page, input.runId, outcome);
    },

    /**
     * A page whose request allows a cached answer (`max_age`): when the account has an identical
     * run that succeeded within it, the page's run becomes `cached` (its result copied, cost 0) and
     * its HTTP status is returned: the page is neither fetched nor debited. Null: scrape it.
     */
    async answerCrawlPageFromCache(input: { runId: string; userId: string; request: CacheableRequest }): Promise<{ httpStatus: number } | null> {
      const lookup = lookupCacheKey(input.request);
      if (!lookup) return null;
      return deps.runs.answerQueuedRun({ runId: input.runId, userId: input.userId, key: lookup.key, maxAgeMs: lookup.maxAgeMs });
    },

    async requeueCrawlPage(input: { runId: string }): Promise<void> {
      if (await store.requeuePage(input.runId)) deps.metrics.crawlPages.inc({ kind: 'crawl', outcome: 'requeued' });
    },

    /**
     * The job's end when its frontier is done, or credit ran out (`exhausted`): completed, or
     * failed when no page succeeded and some failed. Returns its status and its end event (null
     * when it emits none).
     */
    async closeCrawl(input: { crawlId: string; exhausted: boolean; events: boolean }): Promise<{ status: CrawlEndStatus; event: WebhookEventSource | null }> {
      const crawl = await mustCrawl(input.crawlId);
      let status: CrawlEndStatus = 'completed';
      if (input.exhausted) status = 'credit_exhausted';
      else {
        const counts = await store.counts(crawl.id);
        if (counts.completed === 0 && counts.failed > 0) status = 'failed';
      }
      const error = status === 'failed' ? { code: 'SCRAPE_FAILED', message: 'no page could be fetched' } : status === 'credit_exhausted' ? { code: 'INSUFFICIENT_CREDIT', message: 'credit ran out' } : undefined;
      if (!(await store.finish(crawl.id, status, error))) {
        const now = await mustCrawl(crawl.id);
        status = now.status as CrawlEndStatus;
      }
      return { status, event: input.events ? await countsEvent(store, await mustCrawl(crawl.id), status) : null };
    },

    /** A cancel: the job is recorded cancelled; pages caught in flight fail CANCELLED (what they spent stays spent), and their runs are closed. */
    async cancelCrawl(input: { crawlId: string; runIds: string[] }): Promise<void> {
      await store.finish(input.crawlId, 'cancelled', { code: 'CANCELLED', message: 'the crawl was cancelled' });
      const error = { code: 'CANCELLED' as const, message: 'the crawl was cancelled' };
      for (const runId of input.runIds) await store.finishPage(runId, { status: 'failed', error });
      // Pages a claim took as the cancel arrived, which the workflow never ran.
      const claimedOnly = await store.failClaimedPages(input.crawlId, error);
      // Runs that never reached their scrape (waiting for their origin's turn, or never launched) are closed too.
      await deps.runs.cancelUnfinished([...input.runIds, ...claimedOnly], error);
    },
  };
}

export type CrawlActivities = ReturnType<typeof createCrawlActivities>;
