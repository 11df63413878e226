/**
 * What the crawl routes (api/routes/crawl.ts) do beyond their table: a job's bodies, ownership,
 * and the Temporal side of starting, cancelling and resuming a job. Rows are written through the
 * crawl store (crawl/store.ts).
 */
import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import { getBalance } from '../accounts/credit';
import { AppError } from '../platform/errors';
import { type CrawlRow, CRAWL_FINISHED, type CrawlPageRow, createCrawlStore } from '../crawl/store';
import type { CrawlJobRequest, ParsedJob } from '../crawl/job-request';
import { type CrawlWorkflowInput, crawlWorkflowId } from '../workflows/definitions';
import { crawlWorkflow } from '../workflows/crawl.workflow';
import { awaitWorkflow } from './await-workflow';
import type { AppDeps } from './deps';
import type { AuthContext } from './middleware/auth';
import { ownedBy } from './ownership';
import { reply } from './route-table';
import { SEARCH_ATTRIBUTE_KEYS } from './scrape-dispatch';
import { precheck } from './scrape-run';
import { proxyPlan } from './scrape-escalation';
import type { ScrapeRequest } from '../scrape/request';
import { configuredKeyring } from '../sessions/keys';
import { sealHeaderValues, sealRequestSecrets } from '../sessions/request-secrets';
import { apiWebhooks } from './webhooks';
import type { WebhookSpec } from '../webhooks/spec';

/** Search attribute of a crawl's executions (registered with the others: scripts/runtime/temporal-server.ts). */
export const CRAWL_ID_ATTRIBUTE = defineSearchAttributeKey('CrawlId', SearchAttributeType.KEYWORD);

/** Pages listed in GET /crawl/:id (the rest through GET /crawl/:id/pages). */
const FIRST_PAGES = 100;
/** How long a cancel waits for the crawl to record its cancellation before answering. */
const CANCEL_WAIT_MS = 10_000;

export function links(id: string) {
  return { self: `/crawl/${id}`, pages: `/crawl/${id}/pages`, cancel: `/crawl/${id}/cancel`, resume: `/crawl/${id}/resume` };
}

/** Cursor of GET /crawl/:id/pages: the last page's frontier position, opaque to clients. */
export const pageCursor = (seq: number) => Buffer.from(`p${seq}`).toString('base64url');
export function decodePageCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^p\d{1,15}$/.test(text)) throw new AppError('BAD_REQUEST', 'cursor is not valid');
  return Number(text.slice(1));
}

export function pageBody(page: CrawlPageRow) {
  return {
    url: page.url,
    depth: page.depth,
    status: page.status,
    run_id: page.runId,
    http_status: page.httpStatus,
    ...(page.error ? { error: page.error as { code: string; message: string } } : {}),
  };
}

export function createCrawlJobs(deps: AppDeps) {
  const store = createCrawlStore(deps.db);

  async function summary(crawl: CrawlRow) {
    const [counts, credits] = await Promise.all([store.counts(crawl.id), store.credits(crawl.workflowId)]);
    const job = crawl.request as CrawlJobRequest;
    return {
      id: crawl.id,
      kind: crawl.kind,
      status: crawl.status,
      url: job.kind === 'crawl' ? job.url : null,
      total: counts.total,
      completed: counts.completed,
      failed: counts.failed,
      skipped: counts.skipped,
      queued: counts.queued,
      running: counts.running,
      credits,
      ...(crawl.error ? { error: crawl.error } : {}),
      created_at: crawl.createdAt.toISOString(),
      started_at: crawl.startedAt?.toISOString() ?? null,
      finished_at: crawl.finishedAt?.toISOString() ?? null,
      links: links(crawl.id),
    };
  }

  async function body(crawl: CrawlRow) {
    const pages = await store.pages(crawl.id, { limit: FIRST_PAGES + 1 });
    const shown = pages.slice(0, FIRST_PAGES);
    return { ...(await summary(crawl)), pages: shown.map(pageBody), next: pages.length > FIRST_PAGES ? pageCursor(shown[shown.length - 1]!.seq) : null };
  }

  async function own(id: string, userId: string): Promise<CrawlRow> {
    return ownedBy(await store.byId(id), userId, 'crawl');
  }

  /** 402 when `balance` cannot pay one page. */
  function requirePage(balance: number, pageCost: number): void {
    if (balance < pageCost) {
      throw new AppError('INSUFFICIENT_CREDIT', `A page costs ${pageCost} credit${pageCost === 1 ? '' : 's'}; ${balance} remaining`, { remaining: balance, cost: pageCost });
    }
  }

  async function startExecution(crawl: CrawlRow, seeded: boolean): Promise<void> {
    const client = await deps.temporal.get();
    const input: CrawlWorkflowInput = { crawlId: crawl.id, browserQueue: deps.queues.browser, seeded };
    await client.workflow.start(crawlWorkflow, {
      taskQueue: deps.queues.main,
      workflowId: crawl.workflowId,
      args: [input],
      memo: { accountId: crawl.userId, kind: crawl.kind },
      typedSearchAttributes: [
        { key: SEARCH_ATTRIBUTE_KEYS.accountId, value: crawl.userId },
        { key: CRAWL_ID_ATTRIBUTE, value: crawl.id },
      ],
    });
  }

  /**
   * `auto` pages (docs/scraping.md "Escalation"): the ladder every page climbs, built from this
   * API's tiers as a standalone scrape's is (a country no pool serves: 400 naming it).
   */
  function withEscalation(request: CrawlJobRequest): CrawlJobRequest {
    if (!request.scrape.escalate) return request;
    const url = request.kind === 'crawl' ? request.url : request.urls[0]!;
    const { escalation } = proxyPlan(deps.config, { ...request.scrape, url } as ScrapeRequest);
    return escalation ? { ...request, escalation } : request;
  }

  /** Checks, records and starts a job under `id`; 202 with its links. */
  async function startJob(auth: AuthContext, parsed: ParsedJob, id: string) {
    const { pageCost } = parsed;
    const request = withEscalation(parsed.request);
    // The start URL is refused now as a scrape's would be (blacklist, private target); a DNS failure is left to the page.
    if (request.kind === 'crawl') await precheck(deps, request);
    if (request.webhook) await apiWebhooks(deps).guard.check(request.webhook.url);
    // One statement reads the balance and refuses at the account's runs-in-flight limit (429, before the 402), as a scrape's start does.
    requirePage(deps.limits ? await deps.limits.balanceForNewRun(auth.userId) : await getBalance(deps.sql, auth.userId), pageCost);
    // The page template's secrets are sealed at rest, opened only into the workflow's plan (activities/crawl.ts `openCrawl`);
    // a Firecrawl webhook's own headers are sealed too, opened only for each POST (webhooks/deliver.ts).
    const keyring = configuredKeyring(deps.config);
    const owner = { userId: auth.userId, kind: 'crawl' } as const;
    // (The compatible routes put `firecrawl` beside the native fields: api/firecrawl/crawl-webhooks.ts.)
    const sent: WebhookSpec | undefined = request.webhook;
    const target = sent?.firecrawl;
    const webhook: WebhookSpec | undefined = sent && target ? { ...sent, firecrawl: { ...target, headers: sealHeaderValues(keyring, owner, target.headers) } } : sent;
    const stored = { ...request, scrape: sealRequestSecrets(keyring, owner, request.scrape), ...(webhook ? { webhook } : {}) };
    const crawl = await store.create({ id, userId: auth.userId, apiKeyId: auth.apiKeyId, kind: request.kind, request: stored, workflowId: crawlWorkflowId(id), pageCost });
    try {
      await startExecution(crawl, false);
    } catch (error) {
      // Never half-started: nothing ran, nothing was charged.
      await store.finish(id, 'failed', { code: 'INTERNAL', message: 'the crawl could not be started' });
      throw error;
    }
    return reply(202, { id, kind: crawl.kind, status: 'queued', links: links(id) });
  }

  /** Cancels the caller's job: 200 once it recorded its cancellation, 202 while it is still stopping. */
  async function cancelJob(id: string, userId: string) {
    const crawl = await own(id, userId);
    if (CRAWL_FINISHED.includes(crawl.status)) throw new AppError('CONFLICT', `The job already ended (${crawl.status})`, { id: crawl.id, status: crawl.status });
    const client = await deps.temporal.get();
    const handle = client.workflow.getHandle(crawl.workflowId);
    await handle.cancel().catch((error: unknown) => deps.logger.info({ crawlId: crawl.id, err: error }, 'cancel of a closed crawl workflow'));
    await awaitWorkflow(client, handle, CANCEL_WAIT_MS).catch(() => undefined);
    const after = (await store.byId(crawl.id))!;
    return reply(CRAWL_FINISHED.includes(after.status) ? 200 : 202, await body(after));
  }

  /** Resumes the caller's job stopped at credit_exhausted, on the same frontier (202). */
  async function resumeJob(id: string, userId: string) {
    const crawl = await own(id, userId);
    if (crawl.status !== 'credit_exhausted') throw new AppError('CONFLICT', `Only a job stopped by credit_exhausted can be resumed (this one is ${crawl.status})`, { id: crawl.id, status: crawl.status });
    requirePage(await getBalance(deps.sql, userId), crawl.pageCost);
    // The execution that stopped may still be closing (its end event): a new one starts after it.
    const client = await deps.temporal.get();
    await awaitWorkflow(client, client.workflow.getHandle(crawl.workflowId), CANCEL_WAIT_MS).catch(() => undefined);
    const reopened = await store.reopen(crawl.id);
    if (!reopened) throw new AppError('CONFLICT', 'The job was resumed by another request', { id: crawl.id });
    try {
      await startExecution(reopened, true);
    } catch (error) {
      await store.finish(crawl.id, 'credit_exhausted', { code: 'INSUFFICIENT_CREDIT', message: 'credit ran out' });
      throw error;
    }
    return reply(202, { id: crawl.id, kind: crawl.kind, status: 'queued', links: links(crawl.id) });
  }

  return { store, summary, body, own, startJob, cancelJob, resumeJob };
}

export type CrawlJobs = ReturnType<typeof createCrawlJobs>;
