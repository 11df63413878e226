/**
 * What the crawl activities (activities/crawl.ts) share: their dependencies, the job's request
 * read from its row, and the limits they keep.
 */
import { Context } from '@temporalio/activity';
import type { RobotsRules } from '../../crawl/robots';
import type { CrawlJobRequest } from '../../crawl/job-request';
import type { CrawlRow } from '../../crawl/store';
import type { SessionKeyring } from '../../sessions/keys';
import type { Database } from '../../platform/db';
import type { Logger } from '../../platform/logger';
import type { WorkerMetrics } from '../../platform/metrics';
import type { ProxyRotation } from '../../scrape/proxies';
import type { ScrapeRunStore } from '../../scrape/runs';
import type { HttpEngine } from '../../scrape/http/engine';
import type { Blacklist } from '../../scrape/blacklist';

export interface CrawlActivityDeps {
  db: Database;
  logger: Logger;
  metrics: WorkerMetrics;
  httpEngine: HttpEngine;
  blacklist: Blacklist;
  proxies?: ProxyRotation;
  proxySticky?: boolean;
  /** The scrape_run row's owner: a cancelled crawl's unfinished runs are closed through it. */
  runs: Pick<ScrapeRunStore, 'cancelUnfinished' | 'answerQueuedRun'>;
  /** CRAWL_ROBOTS_RETRY_MS / CRAWL_ROBOTS_GIVE_UP_MS (defaults: 30 s, 30 min). */
  crawlRobots?: { retryMs: number; giveUpMs: number };
  /** What a crawl's page-template secrets are sealed under (sessions/request-secrets.ts). */
  secretKeyring: SessionKeyring;
}

/** The longest wait between two fetches of a robots.txt that cannot be read. */
export const ROBOTS_RETRY_MAX_MS = 5 * 60_000;

/** robots.txt of held origins fetched again by one recheck at most (in parallel). */
export const ROBOTS_RECHECKS_PER_CALL = 8;

/** What a crawl's rules say of an origin: its rules, or `held` (robots.txt not readable yet: its pages wait). */
export type HostRules = RobotsRules | 'held';

/** Parsed robots rules kept per process (crawl|origin → rules); the text itself is in crawl_host. */
export const ROBOTS_CACHE_MAX = 1000;

/** Links of one page considered (a page with more is read up to here). */
export const MAX_LINKS_PER_PAGE = 5000;

export const originOfUrl = (url: string) => new URL(url).origin;

export function jobOf(crawl: CrawlRow): CrawlJobRequest {
  return crawl.request as CrawlJobRequest;
}

/** The effective politeness delay of an origin: the job's, or a larger robots.txt Crawl-delay when robots are respected. */
export function delayOf(job: CrawlJobRequest, crawlDelayMs: number | null | undefined): number {
  const robots = job.kind === 'crawl' && job.respect_robots ? (crawlDelayMs ?? 0) : 0;
  return Math.max(job.per_host_delay_ms, robots);
}

/** The running activity's cancellation signal (none outside an activity). */
export function activitySignal(): AbortSignal | undefined {
  try {
    return Context.current().cancellationSignal;
  } catch {
    return undefined;
  }
}
