/**
 * A search, run (docs/search.md): shared by `POST /search`, the Firecrawl-compatible
 * `POST /v2/search` and `/v1/search`, and the MCP `search` tool (through the native route).
 *
 * 1. Refused before any debit: no backend (SEARCH_NOT_CONFIGURED), a bad scrape request (as
 *    POST /batch/scrape refuses it), a balance short of the search's price (plus one page when
 *    scraping), the account's runs-in-flight limit.
 * 2. The search's price is debited once (`debit:search:<id>`, the ledger row's `runId` is the
 *    search id, mode `search`), then the backend is asked (search/collect.ts keeps the results
 *    the target guard accepts); any failure there is refunded and answered (SEARCH_UNAVAILABLE).
 * 3. With a scrape request, the web and news results are scraped as ONE batch job
 *    (api/crawl-jobs.ts `startJob`, the job of POST /batch/scrape: its workflow, per-page
 *    debits and refunds, the guard, the limits), waited for until the deadline; past it the job
 *    is cancelled and the results come back with what finished.
 */
import { randomUUID } from 'node:crypto';
import { debitCredit, getBalance, refundCredit } from '../accounts/credit';
import { type ParsedJob, parseBatchRequest } from '../crawl/job-request';
import { AppError } from '../platform/errors';
import { collectResults, type SearchResults } from '../search/collect';
import { searchProviderOf } from '../search/backends';
import type { SearchSource } from '../search/provider';
import { SEARCH_PRICE, type SearchRequest, localeOf } from '../search/request';
import { assertModelFormatsConfigured } from '../scrape/llm/model-formats';
import { crawlWorkflowId } from '../workflows/definitions';
import { awaitWorkflow } from './await-workflow';
import { createCrawlJobs } from './crawl-jobs';
import type { AuthContext } from './middleware/auth';
import { precheck } from './scrape-run';
import type { ScrapeRunRow } from './firecrawl/crawl-status';
import type { AppDeps } from './deps';

/** The ledger key of a search's own debit (its refund is `refund:<this>`). */
export const searchDebitKey = (searchId: string) => `debit:search:${searchId}`;

/** Sources whose results are pages to scrape (an image result's page is not what was searched for). */
const SCRAPED_SOURCES: readonly SearchSource[] = ['web', 'news'];

export interface SearchRunInput {
  request: SearchRequest;
  /** The native page scrape request every web/news result is scraped with (POST /batch/scrape's `scrape`); none: no scraping. */
  scrape?: Record<string, unknown>;
}

/** A scraped result's page: its run and how it ended. */
export interface ScrapedResultPage {
  runId: string | null;
  status: string;
  error?: { code: string; message: string };
  /** The run, when the page succeeded. */
  run?: ScrapeRunRow;
}

export interface SearchOutcome {
  id: string;
  results: SearchResults;
  /** Normalised URL → its page of the batch, when the results were scraped. */
  pages: Map<string, ScrapedResultPage>;
  batchId?: string;
  /** Credits kept: the search's price plus each page's (debits less refunds). */
  cost: number;
  remaining: number;
  /** Said when some results were not scraped (failed, cancelled at the deadline). */
  warning?: string;
}

/** The batch job of the scrape request, checked before anything is charged (a 422 / 400 as POST /batch/scrape answers). */
function checkedScrape(deps: AppDeps, scrape: Record<string, unknown> | undefined): ParsedJob | undefined {
  if (!scrape) return undefined;
  const parsed = parseBatchRequest({ urls: ['http://example.com/'], scrape });
  assertModelFormatsConfigured(deps.config, parsed.request.scrape.formats);
  return parsed;
}

async function guardAccepts(deps: AppDeps, url: URL): Promise<boolean> {
  try {
    await precheck(deps, { url: url.href });
    return true;
  } catch (error) {
    if (error instanceof AppError && ['BLACKLISTED', 'PRIVATE_TARGET', 'INVALID_URL', 'BAD_REQUEST'].includes(error.code)) return false;
    throw error;
  }
}

/** The results' pages to scrape, in order, each once. */
function pageUrls(results: SearchResults): string[] {
  const urls = new Set<string>();
  for (const source of SCRAPED_SOURCES) for (const result of results[source] ?? []) urls.add(result.normalizedUrl);
  return [...urls];
}

interface PageRow {
  url: string;
  status: string;
  runId: string | null;
  error: { code: string; message: string } | null;
}

async function scrapeResults(deps: AppDeps, auth: AuthContext, job: ParsedJob, urls: string[], deadline: number) {
  const jobs = createCrawlJobs(deps);
  const batchId = randomUUID();
  const parsed = parseBatchRequest({ urls, scrape: job.request.scrape, concurrency: Math.min(8, urls.length) });
  await jobs.startJob(auth, parsed, batchId);
  const client = await deps.temporal.get();
  // A job that ended badly (its workflow failed) still has its pages' rows: they are the answer.
  const waited = await awaitWorkflow(client, client.workflow.getHandle(crawlWorkflowId(batchId)), Math.max(1000, deadline - Date.now())).catch((error: unknown) => {
    deps.logger.warn({ batchId, err: error }, 'the search batch ended with a failure');
    return { timedOut: false as const, result: undefined };
  });
  // Past the deadline: the rest of the job is cancelled (its pages not yet fetched cost nothing).
  if (waited.timedOut) await jobs.cancelJob(batchId, auth.userId).catch((error: unknown) => deps.logger.warn({ batchId, err: error }, 'the search batch could not be cancelled'));
  const rows = await deps.db.$queryRawUnsafe<PageRow[]>(`SELECT url, status, "runId", error FROM crawl_page WHERE "crawlId" = $1`, batchId);
  const succeeded = rows.filter((row) => row.status === 'succeeded' && row.runId).map((row) => row.runId!);
  const runs = new Map((await deps.db.scrapeRun.findMany({ where: { id: { in: succeeded } } })).map((run) => [run.id, run]));
  const pages = new Map<string, ScrapedResultPage>();
  for (const row of rows) {
    const run = row.runId ? runs.get(row.runId) : undefined;
    pages.set(row.url, { runId: row.runId, status: row.status, ...(row.error ? { error: row.error } : {}), ...(run ? { run } : {}) });
  }
  const crawl = await jobs.store.byId(batchId);
  const pageCredits = crawl ? await jobs.store.credits(crawl.workflowId) : 0;
  const missed = urls.length - succeeded.length;
  const warning = missed > 0 ? `${missed} of ${urls.length} results could not be scraped${waited.timedOut ? ' before the timeout' : ''}; they are answered without content (a failed page is refunded; batch ${batchId})` : undefined;
  return { batchId, pages, pageCredits, warning };
}

export async function runSearch(deps: AppDeps, auth: AuthContext, input: SearchRunInput): Promise<SearchOutcome> {
  const acceptedAt = Date.now();
  const provider = searchProviderOf(deps.config);
  if (!provider) throw new AppError('SEARCH_NOT_CONFIGURED', 'Search needs a search backend, and this service has none configured (the operator sets SEARXNG_ENDPOINT)');
  const { request } = input;
  const job = checkedScrape(deps, input.scrape);
  const needed = SEARCH_PRICE + (job?.pageCost ?? 0);
  const balance = deps.limits ? await deps.limits.balanceForNewRun(auth.userId) : await getBalance(deps.sql, auth.userId);
  if (balance < needed) {
    throw new AppError('INSUFFICIENT_CREDIT', `A search costs ${SEARCH_PRICE} credit${job ? ` and each scraped result ${job.pageCost}` : ''}; ${balance} remaining`, { remaining: balance, cost: needed });
  }
  const deadline = acceptedAt + (request.timeout_ms ?? deps.config.SYNC_TIMEOUT_MS);
  const id = randomUUID();
  const debitKey = searchDebitKey(id);
  await debitCredit(deps.sql, { userId: auth.userId, apiKeyId: auth.apiKeyId, amount: SEARCH_PRICE, idempotencyKey: debitKey, runId: id, mode: 'search' });
  let results: SearchResults;
  try {
    results = await collectResults({
      provider,
      query: { query: request.query, timeRange: request.time_range, language: localeOf(request.language, request.country), safeSearch: request.safe_search, deadline },
      sources: [...new Set(request.sources)],
      limit: request.limit,
      includeDomains: request.include_domains,
      excludeDomains: request.exclude_domains,
      accept: (url) => guardAccepts(deps, url),
    });
  } catch (error) {
    await refundCredit(deps.sql, { debitKey });
    if (error instanceof AppError) throw new AppError(error.code, error.messages, { ...error.extra, id, refunded: true });
    throw error;
  }
  const urls = pageUrls(results);
  if (!job || urls.length === 0) {
    return { id, results, pages: new Map(), cost: SEARCH_PRICE, remaining: await getBalance(deps.sql, auth.userId) };
  }
  let scraped: Awaited<ReturnType<typeof scrapeResults>>;
  try {
    scraped = await scrapeResults(deps, auth, job, urls, deadline);
  } catch (error) {
    // The batch could not be started or read (a 429 at the runs-in-flight limit, a 402 raced): the search is given back.
    await refundCredit(deps.sql, { debitKey });
    throw error;
  }
  return {
    id,
    results,
    pages: scraped.pages,
    batchId: scraped.batchId,
    cost: SEARCH_PRICE + scraped.pageCredits,
    remaining: await getBalance(deps.sql, auth.userId),
    ...(scraped.warning ? { warning: scraped.warning } : {}),
  };
}
