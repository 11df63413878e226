/**
 * robots.txt rules (docs/crawl.md "robots.txt"), parsed by `robots-parser` (RFC 9309 groups,
 * `*` and `$` wildcards, longest match wins, Allow beats Disallow on a tie; it matches without
 * regexes, so a hostile robots.txt cannot make matching slow). Pure: crawl/fetch.ts fetches the file.
 */
import robotsParser from 'robots-parser';
import { normalizeUrl } from './url';

export interface RobotsRules {
  /** Whether `url` may be fetched. URLs of another origin are not governed by these rules: true. */
  isAllowed(url: string): boolean;
  /** `Crawl-delay` of the matching group in ms (capped at MAX_CRAWL_DELAY_MS), null without one. */
  crawlDelayMs: number | null;
  /** The `Sitemap:` lines, normalised absolute http(s) URLs, deduplicated. */
  sitemaps: string[];
}

/** The product token our crawler matches `User-agent:` groups with (docs/crawl.md "robots.txt"). */
export const CRAWLER_USER_AGENT_TOKEN = 'ScrapeApiBot';

/** A larger `Crawl-delay` is clamped: a site asking for one page a day would stall a crawl for ever. */
export const MAX_CRAWL_DELAY_MS = 60_000;

/** What is read of a robots.txt (Google reads 500 KiB; RFC 9309 asks for at least 500 KiB). */
export const MAX_ROBOTS_BYTES = 512 * 1024;

/** The rules when there is no robots.txt (4xx, or not fetched): everything allowed. */
export const ALLOW_ALL: RobotsRules = Object.freeze({ isAllowed: () => true, crawlDelayMs: null, sitemaps: [] as string[] });

/** The rules of a host whose robots.txt could not be read (RFC 9309 2.3.1.4: "complete disallow"). */
export const DISALLOW_ALL: RobotsRules = Object.freeze({ isAllowed: () => false, crawlDelayMs: null, sitemaps: [] as string[] });

/**
 * What a robots.txt answer means for its host (RFC 9309 2.3.1; docs/crawl.md "robots.txt"):
 * - `rules`: a 2xx answer, whose text is the rules;
 * - `allow-all`: 4xx (404, 403, 401, 410 …) but 429: the file is unavailable, nothing is disallowed;
 * - `unreachable`: 5xx, 429, any other status, or no answer (network failure, timeout, a body over
 *   the size cap): the file is undefined, so the whole host is disallowed until it can be read.
 */
export type RobotsVerdict = 'rules' | 'allow-all' | 'unreachable';

export function robotsVerdict(fetched: { status: number | null; body: string | null }): RobotsVerdict {
  if (fetched.body !== null) return 'rules';
  if (fetched.status !== null && fetched.status >= 400 && fetched.status < 500 && fetched.status !== 429) return 'allow-all';
  return 'unreachable';
}

/** A short reason for an unreadable robots.txt: `HTTP 503`, or `no answer`. */
export function robotsFailure(status: number | null): string {
  return status === null ? 'no answer' : `HTTP ${status}`;
}

/**
 * The rules of `body` (the robots.txt at `robotsUrl`) for `userAgent`; null body = allow all.
 * Text past MAX_ROBOTS_BYTES is ignored.
 */
export function parseRobots(robotsUrl: string, body: string | null, userAgent: string): RobotsRules {
  if (body === null) return ALLOW_ALL;
  const text = body.length > MAX_ROBOTS_BYTES ? body.slice(0, MAX_ROBOTS_BYTES) : body;
  const robots = robotsParser(robotsUrl, text);
  const delay = robots.getCrawlDelay(userAgent);
  const crawlDelayMs = typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? Math.min(Math.round(delay * 1000), MAX_CRAWL_DELAY_MS) : null;
  const sitemaps = [...new Set(robots.getSitemaps().map((s) => normalizeUrl(s)).filter((s): s is string => s !== null))];
  return {
    isAllowed(url: string): boolean {
      const normalised = normalizeUrl(url);
      if (normalised === null) return false;
      // robots-parser answers undefined for a URL of another origin: not these rules' business.
      return robots.isAllowed(normalised, userAgent) ?? true;
    },
    crawlDelayMs,
    sitemaps,
  };
}

/** `scheme://host[:port]/robots.txt` of a URL's origin. */
export function robotsUrlOf(originOrUrl: string): string {
  return new URL('/robots.txt', originOrUrl).href;
}
