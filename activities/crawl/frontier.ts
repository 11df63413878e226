/**
 * The crawl activities' frontier work: the seeds (start URL, sitemaps, a batch's URLs), new pages
 * judged by robots.txt, and claims with each origin's politeness delay.
 */
import { discoverSitemapUrls } from '../../crawl/fetch';
import { compileScope, withoutQuery } from '../../crawl/url';
import type { CrawlJobRequest } from '../../crawl/job-request';
import type { CrawlRow, CrawlStore, FrontierHold, NewPage } from '../../crawl/store';
import type { CrawlPageClaim } from '../../workflows/definitions';
import { delayOf, jobOf, originOfUrl } from './deps';
import type { CrawlRobots } from './robots';

/** Whether the job's claims keep back the pages of origins whose robots.txt cannot be read. */
export const holdsRobots = (job: CrawlJobRequest) => job.kind === 'crawl' && job.respect_robots;

export function scopeOf(job: Extract<CrawlJobRequest, { kind: 'crawl' }>) {
  return compileScope({ startUrl: job.url, sameOrigin: job.same_origin, allowSubdomains: job.allow_subdomains, includePaths: job.include_paths, excludePaths: job.exclude_paths });
}

export function createCrawlFrontier(store: CrawlStore, robots: CrawlRobots) {
  const { rulesOf, discovery, signal } = robots;

  /**
   * Pages for `urls` at `depth`, when robots are respected: robots-disallowed ones recorded as
   * skipped; those of a held origin queued (the claim keeps them back until its robots.txt is
   * read, and they are judged then).
   */
  async function pagesFor(crawl: CrawlRow, urls: readonly string[], depth: number): Promise<NewPage[]> {
    const job = jobOf(crawl);
    const pages: NewPage[] = [];
    // `ignore_query_parameters`: a page is its path; the frontier's unique URL keeps it to one row.
    const wanted = job.kind === 'crawl' && job.ignore_query_parameters === true ? [...new Set(urls.map(withoutQuery))] : urls;
    for (const url of wanted) {
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

  return { pagesFor, claimPages, seed };
}
