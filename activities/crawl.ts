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
 */
import { Context } from '@temporalio/activity';
import { CRAWLER_USER_AGENT_TOKEN, DISALLOW_ALL, type RobotsRules, type RobotsVerdict, parseRobots, robotsFailure, robotsUrlOf, robotsVerdict } from '../crawl/robots';
import { type DiscoveryDeps, discoverSitemapUrls, fetchRobots } from '../crawl/fetch';
import { compileScope, normalizeUrl } from '../crawl/url';
import type { CrawlJobRequest } from '../crawl/job-request';
import { type CrawlHostRow, type CrawlRow, type CrawlStore, type FrontierHold, type NewPage, createCrawlStore } from '../crawl/store';
import type { Database } from '../platform/db';
import type { Logger } from '../platform/logger';
import type { WorkerMetrics } from '../platform/metrics';
import type { ProxyRotation } from '../scrape/proxies';
import type { ScrapeRunStore } from '../scrape/runs';
import type { StoredResult } from '../scrape/types';
import { type CrawlEndStatus, type CrawlFrontierClaim, type CrawlPageClaim, type CrawlPageOutcome, type CrawlPlan, crawlEventSubjects } from '../workflows/definitions';
import type { HttpEngine } from '../scrape/http/engine';
import type { Blacklist } from '../scrape/blacklist';
import type { WebhookEventSource } from '../webhooks/types';

export interface CrawlActivityDeps {
  db: Database;
  logger: Logger;
  metrics: WorkerMetrics;
  httpEngine: HttpEngine;
  blacklist: Blacklist;
  proxies?: ProxyRotation;
  proxySticky?: boolean;
  /** The scrape_run row's owner: a cancelled crawl's unfinished runs are closed through it. */
  runs: Pick<ScrapeRunStore, 'cancelUnfinished'>;
  /** CRAWL_ROBOTS_RETRY_MS / CRAWL_ROBOTS_GIVE_UP_MS (defaults: 30 s, 30 min). */
  crawlRobots?: { retryMs: number; giveUpMs: number };
}

/** The longest wait between two fetches of a robots.txt that cannot be read. */
const ROBOTS_RETRY_MAX_MS = 5 * 60_000;

/** robots.txt of held origins fetched again by one recheck at most (in parallel). */
const ROBOTS_RECHECKS_PER_CALL = 8;

/** What a crawl's rules say of an origin: its rules, or `held` (robots.txt not readable yet: its pages wait). */
type HostRules = RobotsRules | 'held';

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

  const robotsRetryMs = deps.crawlRobots?.retryMs ?? 30_000;
  const robotsGiveUpMs = deps.crawlRobots?.giveUpMs ?? 1_800_000;

  /**
   * GET robots.txt of an origin. A guard refusal (private, blacklisted) reads as "no robots.txt":
   * nothing of the origin may be fetched anyway, and its pages fail on their own with the reason.
   */
  async function fetchRobotsOf(crawlId: string, origin: string): Promise<{ status: number | null; body: string | null; verdict: RobotsVerdict }> {
    try {
      const fetched = await fetchRobots(discovery(crawlId), origin, signal());
      return { ...fetched, verdict: robotsVerdict(fetched) };
    } catch (error) {
      if (signal()?.aborted) throw error;
      deps.logger.info({ crawlId, origin, err: error instanceof Error ? error.message : String(error) }, 'robots.txt refused');
      return { status: null, body: null, verdict: 'allow-all' };
    }
  }

  /** The rules a host's row stands for: held while robots.txt cannot be read; disallow all once given up on. */
  function rulesOfRow(origin: string, row: CrawlHostRow): HostRules {
    if (row.robotsRetryAt) return 'held';
    if (row.robotsFailedSince) return DISALLOW_ALL;
    return parseRobots(robotsUrlOf(origin), row.robots, CRAWLER_USER_AGENT_TOKEN);
  }

  /** The next wait before fetching an unreadable robots.txt again: as long as it has failed, at least CRAWL_ROBOTS_RETRY_MS, at most 5 min. */
  const nextRetryMs = (failingForMs: number) => Math.min(Math.max(robotsRetryMs, failingForMs), Math.max(robotsRetryMs, ROBOTS_RETRY_MAX_MS));

  /**
   * A held origin's robots.txt fetched again. Readable now: the hold is lifted, and the pages it
   * kept back that the rules disallow are skipped (they were added before the rules were known).
   * Still not: held again (backing off), or, after CRAWL_ROBOTS_GIVE_UP_MS, given up on: its
   * waiting pages are skipped and the host stays disallowed for the crawl.
   */
  async function fetchHeldRobots(crawl: CrawlRow, origin: string): Promise<void> {
    const fetched = await fetchRobotsOf(crawl.id, origin);
    if (fetched.verdict === 'unreachable') {
      const row = await store.host(crawl.id, origin);
      if (!row?.robotsRetryAt) return;
      const failingForMs = Date.now() - (row.robotsFailedSince ?? new Date()).getTime();
      if (failingForMs < robotsGiveUpMs) {
        await store.robotsFetchedAgain(crawl.id, origin, { status: fetched.status, body: null, crawlDelayMs: null, retryInMs: nextRetryMs(failingForMs) });
        deps.logger.info({ crawlId: crawl.id, origin, reason: robotsFailure(fetched.status) }, 'robots.txt still cannot be read; the host stays disallowed');
        return;
      }
      if (!(await store.giveUpRobots(crawl.id, origin, fetched.status))) return;
      const seconds = Math.round(failingForMs / 1000);
      const skipped = await store.skipQueued(crawl.id, await store.queuedUrlsOf(crawl.id, origin), {
        code: 'ROBOTS_DISALLOWED',
        message: `robots.txt could not be read for ${seconds} s (${robotsFailure(fetched.status)}): RFC 9309 disallows the whole host then`,
      });
      deps.logger.info({ crawlId: crawl.id, origin, reason: robotsFailure(fetched.status), skipped }, 'robots.txt could not be read; the crawl gave up on the host');
      return;
    }
    const rules = parseRobots(robotsUrlOf(origin), fetched.body, CRAWLER_USER_AGENT_TOKEN);
    if (!(await store.robotsFetchedAgain(crawl.id, origin, { status: fetched.status, body: fetched.body, crawlDelayMs: rules.crawlDelayMs }))) return;
    const disallowed = (await store.queuedUrlsOf(crawl.id, origin)).filter((url) => !rules.isAllowed(url));
    const skipped = await store.skipQueued(crawl.id, disallowed, { code: 'ROBOTS_DISALLOWED', message: 'robots.txt disallows this URL' });
    deps.logger.info({ crawlId: crawl.id, origin, status: fetched.status, skipped }, 'robots.txt read after it could not be; its waiting pages go on');
  }

  /**
   * An origin's robots rules: fetched once per crawl (crawl_host), parsed once per process. An
   * origin whose robots.txt cannot be read is `held` (RFC 9309: disallow all until it can be read;
   * docs/crawl.md "robots.txt"), and fetched again here when it is due (the next page of it met).
   */
  async function rulesOf(crawl: CrawlRow, origin: string): Promise<HostRules> {
    const key = `${crawl.id}|${origin}`;
    const cached = robotsCache.get(key);
    if (cached) return cached;
    let row = await store.host(crawl.id, origin);
    if (!row) {
      const fetched = await fetchRobotsOf(crawl.id, origin);
      const readable = fetched.verdict !== 'unreachable';
      const rules = parseRobots(robotsUrlOf(origin), fetched.body, CRAWLER_USER_AGENT_TOKEN);
      await store.saveHost(crawl.id, origin, { status: fetched.status, body: fetched.body, crawlDelayMs: rules.crawlDelayMs, ...(readable ? {} : { retryInMs: robotsRetryMs }) });
      if (!readable) deps.logger.info({ crawlId: crawl.id, origin, reason: robotsFailure(fetched.status) }, 'robots.txt cannot be read; the host is disallowed until it can be');
      row = (await store.host(crawl.id, origin))!;
    } else if (row.robotsDue) {
      await fetchHeldRobots(crawl, origin);
      row = (await store.host(crawl.id, origin))!;
    }
    const rules = rulesOfRow(origin, row);
    // A held origin is not cached: it is read again until it can be.
    if (rules !== 'held') {
      if (robotsCache.size >= ROBOTS_CACHE_MAX) robotsCache.delete(robotsCache.keys().next().value!);
      robotsCache.set(key, rules);
    }
    return rules;
  }

  /**
   * Pages for `urls` at `depth`, when robots are respected: robots-disallowed ones recorded as
   * skipped; those of a held origin queued (the claim keeps them back until its robots.txt is
   * read, and they are judged then).
   */
  async function pagesFor(crawl: CrawlRow, urls: readonly string[], depth: number): Promise<NewPage[]> {
    const job = jobOf(crawl);
    const pages: NewPage[] = [];
    for (const url of urls) {
      if (job.kind === 'crawl' && job.respect_robots) {
        const rules = await rulesOf(crawl, originOfUrl(url));
        if (rules !== 'held' && !rules.isAllowed(url)) {
          pages.push({ url, depth, skipped: { code: 'ROBOTS_DISALLOWED', message: 'robots.txt disallows this URL' } });
          continue;
        }
      }
      pages.push({ url, depth });
    }
    return pages;
  }

  /** Whether the job's claims keep back the pages of origins whose robots.txt cannot be read. */
  const holdsRobots = (job: CrawlJobRequest) => job.kind === 'crawl' && job.respect_robots;

  /** Claims queued pages under `runIds` (crawl/store.ts `claim`), each with its origin's politeness delay. */
  async function claimPages(crawl: CrawlRow, runIds: readonly string[], hold: FrontierHold): Promise<CrawlPageClaim[]> {
    const job = jobOf(crawl);
    const pages = await store.claim(
      crawl.id,
      runIds,
      { userId: crawl.userId, apiKeyId: crawl.apiKeyId, workflowId: crawl.workflowId, mode: job.scrape.mode, cost: crawl.pageCost, request: job.scrape },
      hold,
    );
    const origins = [...new Set(pages.map((p) => originOfUrl(p.url)))];
    const hosts = new Map((await store.hosts(crawl.id, origins)).map((h) => [h.origin, h.crawlDelayMs]));
    return pages.map((p) => {
      const origin = originOfUrl(p.url);
      return { runId: p.runId, url: p.url, depth: p.depth, origin, delayMs: delayOf(job, hosts.get(origin)) };
    });
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
      const rules = await rulesOf(crawl, origin);
      // Unreadable robots.txt with its rules respected: the whole host is disallowed, the sitemaps
      // too; the start URL waits for robots.txt (docs/crawl.md "robots.txt").
      if (rules !== 'held' || !job.respect_robots) {
        const found = await discoverSitemapUrls(discovery(crawl.id), origin, rules === 'held' ? [] : rules.sitemaps, job.limit, signal());
        urls.push(...found.filter((url) => inScope(url).ok));
      }
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
      await deps.runs.cancelUnfinished([...input.runIds, ...claimedOnly], error);
    },
  };
}

export type CrawlActivities = ReturnType<typeof createCrawlActivities>;
