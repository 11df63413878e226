/**
 * Crawl throughput (docs/crawl.md "Throughput"): the whole crawl fixture site (test/fixtures/
 * crawl-site.ts, 317 pages; the crawl fetches the ~307 that links and sitemaps reach and robots.txt
 * allows) through the real service (API and worker processes, PostgreSQL, a file-backed Temporal
 * dev server), at concurrency 4 and 16, no politeness delay (`per_host_delay_ms: 0`, no
 * Crawl-delay: otherwise the delay, not the service, sets the pace), robots and sitemaps on,
 * markdown + links per page. Pages/s = pages settled / (finished_at - started_at) of the crawl's
 * own record; the wall time from POST /crawl to its end is printed too. Rounds alternate (4, 16,
 * 16, 4) so drift in the shared machine's load hits both; the load average is printed along.
 *   node --import tsx bench/crawl.ts
 *   BENCH_ROUNDS=N (default 2), BENCH_PAGE_DELAY_MS=N (the site's answer time, default 0)
 */
import { readFileSync } from 'node:fs';
import { startCrawlSite } from '../test/fixtures/crawl-site';
import { createAccount, setBalance } from '../test/helpers/accounts';
import { call } from '../test/helpers/http';
import { startStack } from '../test/helpers/stack';
import { runBench, startBenchServices } from './services';

const rounds = Number(process.env.BENCH_ROUNDS ?? '2');
const pageDelayMs = Number(process.env.BENCH_PAGE_DELAY_MS ?? '0');
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

runBench(async () => {
  const services = await startBenchServices({ name: 'crawl-bench' });
  const site = await startCrawlSite({ pageDelayMs: pageDelayMs });
  let stack: Awaited<ReturnType<typeof startStack>> | undefined;
  try {
    stack = await startStack({});
    const account = await createAccount(stack.baseUrl);
    await setBalance(stack.databaseUrl, account.userId, 1_000_000);
    const auth = { 'x-api-key': account.apiKey };
    const results: Record<number, number[]> = { 4: [], 16: [] };
    const order = Array.from({ length: rounds }, (_, i) => (i % 2 === 0 ? [4, 16] : [16, 4])).flat();
    for (const concurrency of order) {
      site.reset();
      const t0 = performance.now();
      const started = await call(stack.baseUrl, 'POST', '/crawl', auth, {
        url: `${site.url}/`,
        limit: 10_000,
        max_depth: 100,
        per_host_delay_ms: 0,
        concurrency,
        scrape: { options: { retry_count: 0 } },
      });
      if (started.status !== 202) throw new Error(`POST /crawl answered ${started.status}: ${JSON.stringify(started.body)}`);
      let body: Record<string, unknown>;
      for (;;) {
        body = (await call(stack.baseUrl, 'GET', `/crawl/${started.body.id}`, auth)).body;
        if (body.status !== 'queued' && body.status !== 'running') break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const wall = (performance.now() - t0) / 1000;
      const pages = (body.completed as number) + (body.failed as number);
      const seconds = (Date.parse(body.finished_at as string) - Date.parse(body.started_at as string)) / 1000;
      const rate = pages / seconds;
      results[concurrency]!.push(rate);
      console.log(
        `concurrency ${String(concurrency).padStart(2)}: ${String(body.status)}, ${pages} pages (${body.skipped as number} skipped by robots) in ${seconds.toFixed(1)} s = ${rate.toFixed(1)} pages/s; wall ${wall.toFixed(1)} s; load ${loadavg()}`,
      );
    }
    for (const [concurrency, rates] of Object.entries(results)) {
      const sorted = [...rates].sort((a, b) => a - b);
      console.log(`concurrency ${concurrency}: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} pages/s over ${rates.length} crawls (${rates.map((r) => r.toFixed(1)).join(', ')})`);
    }
  } finally {
    await stack?.stop();
    await site.close();
    await services.stop();
  }
});
