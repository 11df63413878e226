/**
 * Activities of crawls and batch scrapes (workflows/crawl.workflow.ts; docs/crawl.md). The
 * frontier is in PostgreSQL (lib/crawls.ts), so each activity reads what it needs by the crawl's
 * id and the workflow carries only ids and small plans. All idempotent: a retry or a replay finds
 * its earlier writes (claims by run id, pages by UNIQUE url, outcomes guarded by status).
 *
 *   openCrawl      – each execution's start: marks the job running; on the first, robots.txt of
 *                    the start origin, sitemap discovery (per `sitemap`) and the seeds.
 *   claimCrawlPages – the next queued pages for run ids the workflow chose, each with its
 *                    scrape_run row and its origin's politeness delay.
 *   settleCrawlPage – a page's outcome; after a success, the links its scrape stored (never a
 *                    second fetch) become new pages: normalised, in scope, robots-checked, deduplicated
 *                    by the table, up to `limit`.
 *   requeueCrawlPage – credit ran out at the page's debit: the page goes back to the frontier.
 *   closeCrawl / cancelCrawl – the job's end.
 */
import { Context } from '@temporalio/activity';
import { CRAWLER_USER_AGENT_TOKEN, type RobotsRules, parseRobots, robotsUrlOf } from '../crawl/robots';
import { type DiscoveryDeps, discoverSitemapUrls, fetchRobots } from '../crawl/fetch';
import { compileScope, normalizeUrl } from '../crawl/url';
import type { CrawlJobRequest } from '../crawl/job-request';
import { type CrawlRow, type CrawlStore, type NewPage, createCrawlStore } from '../lib/crawls';
import type { Database } from '../lib/db';
import type { Logger } from '../lib/logger';
import type { WorkerMetrics } from '../lib/metrics';
import type { ProxyRotation } from '../scrape/proxies';
import type { StoredResult } from '../scrape/types';
import {
  type CrawlEndStatus,
  type CrawlPageClaim,
  type CrawlPageOutcome,
  type CrawlPlan,
  type WebhookEventSource,
  crawlEventSubjects,
} from '../workflows/definitions';
import type { HttpEngine } from './scrape/http';
import type { Blacklist } from './scrape/blacklist';

export interface CrawlActivityDeps {
  db: Database;
  logger: Logger;
  metrics: WorkerMetrics;
  httpEngine: HttpEngine;
  blacklist: Blacklist;
  proxies?: ProxyRotation;
  proxySticky?: boolean;
}

/** Parsed robots rules kept per process (crawl|origin → rules); the text itself is in crawl_host. */
const ROBOTS_CACHE_MAX = 1000;

/** Links of one page considered (a page with more is read up to here). */
const MAX_LINKS_PER_PAGE = 5000;

const originOfUrl = (url: string) => new URL(url).origin;

function jobOf(crawl: CrawlRow): CrawlJobRequest {
  return crawl.request as CrawlJobRequest;
}

/** The effective politeness delay of an origin: the job's, or a larger robots.txt Crawl-delay when robots are respected. */
function delayOf(job: CrawlJobRequest, crawlDelayMs: number | null | undefined): number {
  const robots = job.kind === 'crawl' && job.respect_robots ? (crawlDelayMs ?? 0) : 0;
  return Math.max(job.per_host_delay_ms, robots);
}

export function createCrawlActivities(deps: CrawlActivityDeps) {
  const store: CrawlStore = createCrawlStore(deps.db);
  const robotsCache = new Map<string, RobotsRules>();

  const discovery = (crawlId: string): DiscoveryDeps => ({
    httpEngine: deps.httpEngine,
    blacklist: deps.blacklist,
    ...(deps.proxies ? { proxies: deps.proxies, proxySticky: deps.proxySticky ?? false, proxyScope: `crawl:${crawlId}` } : {}),
  });

  const signal = (): AbortSignal | undefined => {
    try {
      return Context.current().cancellationSignal;
    } catch {
      return undefined;
    }
  };

  /** An origin's robots rules: fetched once per crawl (crawl_host), parsed once per process. */
  async function rulesOf(crawlId: string, origin: string): Promise<RobotsRules> {
    const key = `${crawlId}|${origin}`;
    const cached = robotsCache.get(key);
    if (cached) return cached;
    let row = await store.host(crawlId, origin);
    if (!row) {
      let fetched: { status: number | null; body: string | null };
      try {
        fetched = await fetchRobots(discovery(crawlId), origin, signal());
      } catch (error) {
        // A guard refusal (private, blacklisted): nothing of this origin may be fetched; its pages fail on their own.
        deps.logger.info({ crawlId, origin, err: error instanceof Error ? error.message : String(error) }, 'robots.txt refused');
        fetched = { status: null, body: null };
      }
      const rules = parseRobots(robotsUrlOf(origin), fetched.body, CRAWLER_USER_AGENT_TOKEN);
      await store.saveHost(crawlId, origin, { status: fetched.status, body: fetched.body, crawlDelayMs: rules.crawlDelayMs });
      row = (await store.host(crawlId, origin))!;
    }
    const rules = parseRobots(robotsUrlOf(origin), row.robots, CRAWLER_USER_AGENT_TOKEN);
    if (robotsCache.size >= ROBOTS_CACHE_MAX) robotsCache.delete(robotsCache.keys().next().value!);
    robotsCache.set(key, rules);
    return rules;
  }

  /** Pages for `urls` at `depth`: robots-disallowed ones recorded as skipped (when robots are respected). */
  async function pagesFor(crawl: CrawlRow, urls: readonly string[], depth: number): Promise<NewPage[]> {
    const job = jobOf(crawl);
    const pages: NewPage[] = [];
    for (const url of urls) {
      if (job.kind === 'crawl' && job.respect_robots) {
        const rules = await rulesOf(crawl.id, originOfUrl(url));
        if (!rules.isAllowed(url)) {
          pages.push({ url, depth, skipped: { code: 'ROBOTS_DISALLOWED', message: 'robots.txt disallows this URL' } });
          continue;
        }
      }
      pages.push({ url, depth });
    }
    return pages;
  }

  function scopeOf(job: Extract<CrawlJobRequest, { kind: 'crawl' }>) {
    return compileScope({ startUrl: job.url, sameOrigin: job.same_origin, allowSubdomains: job.allow_subdomains, includePaths: job.include_paths, excludePaths: job.exclude_paths });
  }

  async function seed(crawl: CrawlRow): Promise<void> {
    const job = jobOf(crawl);
    if (job.kind === 'batch') {
      await store.addPages(crawl.id, job.urls.map((url) => ({ url, depth: 0 })), job.urls.length);
      return;
    }
    const origin = originOfUrl(job.url);
    const inScope = scopeOf(job);
    const urls: string[] = job.sitemap === 'only' ? [] : [job.url];
    if (job.sitemap !== 'skip') {
      // robots.txt names the sitemaps; fetched (once) even when its rules are not respected.
      const rules = await rulesOf(crawl.id, origin);
      const found = await discoverSitemapUrls(discovery(crawl.id), origin, rules.sitemaps, job.limit, signal());
      urls.push(...found.filter((url) => inScope(url).ok));
    }
    // `only` with an empty (or missing) sitemap: the start URL alone.
    if (urls.length === 0) urls.push(job.url);
    await store.addPages(crawl.id, await pagesFor(crawl, [...new Set(urls)], 0), job.limit);
  }

  async function countsEvent(crawl: CrawlRow, status: CrawlEndStatus): Promise<WebhookEventSource | null> {
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
        scrape: job.scrape,
        events: false,
        resumes: crawl.resumes,
      };
      if (!plan.proceed) return plan;
      if (input.seed) await seed(crawl);
      plan.events = job.webhook !== undefined || (await deps.db.webhookEndpoint.count({ where: { userId: crawl.userId, deletedAt: null } })) > 0;
      return plan;
    },

    async claimCrawlPages(input: { crawlId: string; runIds: string[] }): Promise<CrawlPageClaim[]> {
      const crawl = await mustCrawl(input.crawlId);
      const job = jobOf(crawl);
      const pages = await store.claim(crawl.id, input.runIds, {
        userId: crawl.userId,
        apiKeyId: crawl.apiKeyId,
        workflowId: crawl.workflowId,
        mode: job.scrape.mode,
        cost: crawl.pageCost,
        request: job.scrape,
      });
      const origins = [...new Set(pages.map((p) => originOfUrl(p.url)))];
      const hosts = new Map((await store.hosts(crawl.id, origins)).map((h) => [h.origin, h.crawlDelayMs]));
      return pages.map((p) => {
        const origin = originOfUrl(p.url);
        return { runId: p.runId, url: p.url, depth: p.depth, origin, delayMs: delayOf(job, hosts.get(origin)) };
      });
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
      const data: Record<string, unknown> = {
        object: 'crawl_page',
        crawl_id: crawl.id,
        url: page.url,
        depth: page.depth,
        status: outcome.status,
        run_id: input.runId,
        http_status: outcome.status === 'succeeded' ? outcome.httpStatus : null,
        ...(outcome.status === 'failed' ? { error: { code: outcome.code, message: outcome.message } } : {}),
        links: { run: `/webhook/runs/${input.runId}`, crawl: `/crawl/${crawl.id}` },
        ...(job.webhook?.metadata ? { metadata: job.webhook.metadata } : {}),
      };
      return { kind: 'custom', userId: crawl.userId, type: 'crawl.page', subject: crawlEventSubjects.page(crawl.id, input.runId), data, ...(job.webhook ? { webhook: job.webhook } : {}) };
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
      return { status, event: input.events ? await countsEvent(await mustCrawl(crawl.id), status) : null };
    },

    /** A cancel: the job is recorded cancelled; pages caught in flight fail CANCELLED (what they spent stays spent), and their runs are closed. */
    async cancelCrawl(input: { crawlId: string; runIds: string[] }): Promise<void> {
      await store.finish(input.crawlId, 'cancelled', { code: 'CANCELLED', message: 'the crawl was cancelled' });
      const error = { code: 'CANCELLED', message: 'the crawl was cancelled' };
      for (const runId of input.runIds) await store.finishPage(runId, { status: 'failed', error });
      // Pages a claim took as the cancel arrived, which the workflow never ran.
      const claimedOnly = await store.failClaimedPages(input.crawlId, error);
      // Runs that never reached their scrape (waiting for their origin's turn, or never launched) are closed too.
      await deps.db.scrapeRun.updateMany({
        where: { id: { in: [...input.runIds, ...claimedOnly] }, status: { in: ['queued', 'running'] } },
        data: { status: 'cancelled', error: { ...error, refunded: false }, finishedAt: new Date() },
      });
    },
  };
}

export type CrawlActivities = ReturnType<typeof createCrawlActivities>;
