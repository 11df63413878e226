/**
 * robots.txt for the crawl activities (docs/crawl.md "robots.txt"): an origin's rules fetched once
 * per crawl (crawl_host) and parsed once per process; an origin whose robots.txt cannot be read is
 * held, fetched again with a back-off, and given up on after CRAWL_ROBOTS_GIVE_UP_MS.
 */
import { CRAWLER_USER_AGENT_TOKEN, DISALLOW_ALL, type RobotsRules, type RobotsVerdict, parseRobots, robotsFailure, robotsUrlOf, robotsVerdict } from '../../crawl/robots';
import { type DiscoveryDeps, fetchRobots } from '../../crawl/fetch';
import type { CrawlHostRow, CrawlRow, CrawlStore } from '../../crawl/store';
import { type CrawlActivityDeps, type HostRules, ROBOTS_CACHE_MAX, ROBOTS_RETRY_MAX_MS, activitySignal } from './deps';

export function createCrawlRobots(deps: CrawlActivityDeps, store: CrawlStore) {
  const robotsCache = new Map<string, RobotsRules>();

  const discovery = (crawlId: string): DiscoveryDeps => ({
    httpEngine: deps.httpEngine,
    blacklist: deps.blacklist,
    ...(deps.proxies ? { proxies: deps.proxies, proxySticky: deps.proxySticky ?? false, proxyScope: `crawl:${crawlId}` } : {}),
  });
  const signal = activitySignal;

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

  return { rulesOf, fetchHeldRobots, discovery, signal };
}

export type CrawlRobots = ReturnType<typeof createCrawlRobots>;
