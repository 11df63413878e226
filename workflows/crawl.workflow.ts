/**
 * A crawl or a batch scrape (docs/crawl.md "How a crawl runs"): `crawl-<id>`, search attributes
 * AccountId and CrawlId. The frontier is in PostgreSQL (crawl_page), so this workflow holds only
 * what is in flight: it claims queued pages (at most `concurrency` at once), runs each as an
 * ordinary scrape run (`runScrapeSteps`: debit once by the run, the scrape activity with its
 * retries, refund when every attempt failed), and settles it (the page's links become new pages:
 * activities/crawl.ts). Per origin, when a politeness delay applies (`per_host_delay_ms`, or a
 * larger robots.txt `Crawl-delay`), one request at a time and the next one starts at least the
 * delay after the previous one ended, timed by workflow timers; a page waiting for its origin's
 * turn holds no concurrency slot, and pages of an origin whose robots.txt cannot be read wait in
 * the frontier until it can be (CRAWL_FREE_SLOTS_PATCH).
 *
 * Continue-as-new every CRAWL_PAGES_PER_EXECUTION pages (after the pages in flight finish): the
 * next execution needs only the crawl id and each origin's next allowed start. Credit running out
 * at a page's debit puts the page back in the frontier and ends the execution `credit_exhausted`
 * once the others in flight finish; POST /crawl/:id/resume starts a new execution on the same
 * frontier (nothing fetched or billed twice). A cancel cancels the scrapes in flight (recorded as
 * cancelled runs) and records the crawl cancelled.
 */
import {
  CancellationScope,
  condition,
  continueAsNew,
  isCancellation,
  patched,
  proxyActivities,
  sleep,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from './activities';
import { NON_RETRYABLE_CODES } from '../platform/errors';
import { CRAWL_PAGES_PER_EXECUTION, type CrawlPageClaim, type CrawlPageOutcome, type CrawlPlan, type CrawlWorkflowInput, type CrawlWorkflowOutput } from './definitions';
import { runScrapeSteps } from './scrape-steps';
import { climbCrawlPage } from './crawl-escalation';
import { emitWebhookEvents } from './webhook.workflow';
import type { WebhookEventSource } from '../webhooks/types';

/** Opening an execution may discover sitemaps (several guarded fetches): a regular activity. */
const opening = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds', nonRetryableErrorTypes: [...NON_RETRYABLE_CODES] },
});

/**
 * The frontier's bookkeeping. Regular activities, not local ones: what the loop decides (how many
 * pages to claim, whether to stop) depends on when pages end, and regular activity completions
 * are history events a replay meets exactly as the first run did; local activity results may
 * reach a replay grouped differently, which made a replay after a worker crash diverge (a
 * nondeterminism error). Retried until PostgreSQL answers.
 */
const BOOKKEEPING_RETRY = { initialInterval: '200 milliseconds', maximumInterval: '5 seconds', nonRetryableErrorTypes: [...NON_RETRYABLE_CODES] };
/** Short deadlines: an activity started by a worker that then died is retried elsewhere this soon. */
const bookkeeping = proxyActivities<Activities>({ startToCloseTimeout: '10 seconds', retry: BOOKKEEPING_RETRY });
/** Settling a page may fetch the robots.txt of an origin met for the first time (its own 15 s deadline). */
const settling = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: BOOKKEEPING_RETRY });

/** Fetching held origins' robots.txt again (several guarded fetches of 15 s at most, in parallel). */
const robotsRecheck = proxyActivities<Activities>({ startToCloseTimeout: '1 minute', retry: BOOKKEEPING_RETRY });

/**
 * From this patch on, a page waiting for its origin's politeness delay holds no concurrency slot
 * (the claim keeps back the origins that are not ready, and pages already claimed that wait do not
 * count), and, when the job respects robots.txt, pages of an origin whose robots.txt cannot be read
 * wait in the frontier until it can be (docs/crawl.md "How a crawl runs", "robots.txt").
 * Executions started before it replay the loop they ran. Remove once none can still be open.
 */
export const CRAWL_FREE_SLOTS_PATCH = 'crawl-free-slots-v1';

/** From this patch on, a page of a job with `max_age` may be answered from the results cache (docs/crawl.md). */
export const CRAWL_RESULTS_CACHE_PATCH = 'crawl-results-cache-v1';

interface HostSlot {
  busy: boolean;
  /** Pages waiting for the origin, first come first served. */
  waiters: Array<() => void>;
}

export async function crawlWorkflow(input: CrawlWorkflowInput): Promise<CrawlWorkflowOutput> {
  const { crawlId } = input;
  const plan = await openCrawl(input);
  if (!plan.proceed) return { status: 'cancelled' };
  const freeSlots = patched(CRAWL_FREE_SLOTS_PATCH);

  /** Epoch ms before which an origin takes no request (carried over continue-as-new). */
  const readyAt: Record<string, number> = { ...(input.readyAt ?? {}) };
  const inFlight = new Map<string, Promise<void>>();
  let started = 0;
  let settled = 0;
  let exhausted = false;
  const turns = hostTurns(readyAt);

  const { emit, emitted } = eventsBeside();

  async function runPage(page: CrawlPageClaim): Promise<void> {
    // No await unless the job allows the cache (pageFromCache null): older histories keep their order.
    const fromCache = pageFromCache(plan, page), cached = fromCache && (await fromCache);
    if (cached) return emit(await settling.settleCrawlPage({ crawlId, runId: page.runId, outcome: { status: 'succeeded', ...cached }, events: plan.events }));
    let outcome: CrawlPageOutcome;
    await turns.acquire(page);
    try {
      const job = { runId: page.runId, userId: plan.userId, apiKeyId: plan.apiKeyId, cost: plan.pageCost, request: { ...plan.scrape, url: page.url } };
      // An `auto` job's page climbs its ladder, charged once when served (only plans carrying `escalation`: new jobs).
      const steps = plan.escalation
        ? await climbCrawlPage({ ...job, escalation: plan.escalation }, input.browserQueue)
        : await runScrapeSteps({ ...job, browserQueue: input.browserQueue }, { remoteBookkeeping: true });
      outcome = steps.status === 'succeeded' ? steps : { status: 'failed', code: steps.code, message: steps.message };
      if (steps.status === 'failed' && steps.code === 'INSUFFICIENT_CREDIT' && !steps.refunded) {
        // Nothing was debited or fetched: the page waits in the frontier for a resume.
        exhausted = true;
        await bookkeeping.requeueCrawlPage({ runId: page.runId });
        return;
      }
    } finally {
      turns.release(page);
    }
    emit(await settling.settleCrawlPage({ crawlId, runId: page.runId, outcome, events: plan.events }));
  }

  /** A page's unexpected failure (a bug, not a failed scrape): it fails the workflow task, where an operator sees it. */
  let broken: Error | undefined;

  function failIfBroken(): void {
    if (broken) throw broken;
  }

  function launch(page: CrawlPageClaim): void {
    started++;
    const run = runPage(page)
      .catch((error: unknown) => {
        // A cancellation is the crawl's (handled below); anything else is kept and rethrown by the loop.
        if (!isCancellation(error)) broken ??= error instanceof Error ? error : new Error(String(error));
      })
      .finally(() => {
        inFlight.delete(page.runId);
        settled++;
      });
    inFlight.set(page.runId, run);
  }

  /**
   * The loop from CRAWL_FREE_SLOTS_PATCH on: `concurrency` bounds the pages fetching, not those
   * waiting for their origin's turn. Each claim keeps back the origins not ready (and the held
   * robots.txt origins); when it cannot fill the free slots, the loop waits for a page to settle
   * (it may add pages, or free its origin) or for the first kept-back origin to become ready.
   * Returns true when the frontier is done, false when it stopped claiming (continue-as-new, credit).
   */
  async function claimAndRunFreely(): Promise<boolean> {
    const fetching = () => inFlight.size - turns.waiting;
    for (;;) {
      failIfBroken();
      if (exhausted || started >= CRAWL_PAGES_PER_EXECUTION || workflowInfo().continueAsNewSuggested) {
        await condition(() => inFlight.size === 0);
        return false;
      }
      const free = Math.min(plan.concurrency - fetching(), CRAWL_PAGES_PER_EXECUTION - started);
      if (free <= 0) {
        await condition(() => fetching() < plan.concurrency || exhausted || broken !== undefined);
        continue;
      }
      const seen = settled;
      const avoid = turns.originsNotReady();
      const claim = await bookkeeping.claimCrawlFrontier({ crawlId, runIds: Array.from({ length: free }, () => uuid4()), avoid });
      for (const page of claim.pages) launch(page);
      if (claim.pages.length >= free) continue;
      if (claim.robotsDue.length) {
        await robotsRecheck.recheckCrawlRobots({ crawlId, origins: claim.robotsDue });
        continue;
      }
      if (inFlight.size === 0 && !claim.held) return true;
      // Nothing more to claim for now.
      await condition(() => settled > seen || exhausted || broken !== undefined, turns.nextWakeMs(avoid, claim.robotsDueInMs));
    }
  }

  let frontierDone = false;
  try {
    if (freeSlots) frontierDone = await claimAndRunFreely();
    // Executions started before CRAWL_FREE_SLOTS_PATCH: the loop they ran, left inline exactly as
    // it was (a page waiting for its origin's turn holds its slot), so they replay unchanged.
    else for (;;) {
      failIfBroken();
      if (exhausted || started >= CRAWL_PAGES_PER_EXECUTION || workflowInfo().continueAsNewSuggested) {
        // Stop claiming; what is in flight finishes (and may still add pages for the next execution).
        await condition(() => inFlight.size === 0);
        break;
      }
      const free = Math.min(plan.concurrency - inFlight.size, CRAWL_PAGES_PER_EXECUTION - started);
      const seen = settled;
      const claims = free > 0 ? await bookkeeping.claimCrawlPages({ crawlId, runIds: Array.from({ length: free }, () => uuid4()) }) : [];
      for (const page of claims) launch(page);
      if (claims.length < free) {
        if (inFlight.size === 0) {
          frontierDone = true;
          break;
        }
        // The frontier is empty for now: a page in flight may add to it when it settles.
        await condition(() => settled > seen);
      } else {
        await condition(() => inFlight.size < plan.concurrency || exhausted);
      }
    }
    failIfBroken();
  } catch (error) {
    if (isCancellation(error)) {
      await CancellationScope.nonCancellable(async () => {
        // Each scrape in flight records its own cancellation first (runScrapeSteps); then the
        // crawl, and its pages caught in flight, are recorded cancelled.
        const runIds = [...inFlight.keys()];
        await Promise.all(inFlight.values());
        await bookkeeping.cancelCrawl({ crawlId, runIds });
      });
    }
    throw error;
  }

  if (!frontierDone && !exhausted) {
    await emitted();
    await continueAsNew<typeof crawlWorkflow>({ ...input, seeded: true, readyAt });
  }
  const closed = await bookkeeping.closeCrawl({ crawlId, exhausted, events: plan.events });
  emit(closed.event);
  await emitted();
  return { status: closed.status };
}

/**
 * Politeness per origin: one request at a time, `delayMs` after the previous one ended
 * (`readyAt`, carried over continue-as-new). Only pages with a delay take a turn.
 */
function hostTurns(readyAt: Record<string, number>) {
  const slots = new Map<string, HostSlot>();
  /** Pages claimed that wait for their origin's turn (counted apart from concurrency from CRAWL_FREE_SLOTS_PATCH on). */
  let waiting = 0;

    async function acquire(page: CrawlPageClaim): Promise<void> {
      if (page.delayMs <= 0) return;
      let slot = slots.get(page.origin);
      if (!slot) {
        slot = { busy: false, waiters: [] };
        slots.set(page.origin, slot);
      }
      waiting++;
      let holding = false;
      try {
        if (slot.busy) {
          // Handed over by release (busy stays true): strictly one request per origin at a time.
          await new Promise<void>((resolve) => slot.waiters.push(resolve));
        } else slot.busy = true;
        holding = true;
        const wait = (readyAt[page.origin] ?? 0) - Date.now();
        if (wait > 0) await sleep(wait);
      } catch (error) {
        // Cancelled while waiting its turn: the turn goes on to the next page (which, cancelled
        // too, passes it on), so no page of the origin waits for ever.
        if (holding) handOver(page.origin);
        throw error;
      } finally {
        waiting--;
      }
    }

    function handOver(origin: string): void {
      const slot = slots.get(origin)!;
      const next = slot.waiters.shift();
      if (next) next();
      else slot.busy = false;
    }

    /** Origins that cannot take a request now (one in flight, or its delay not over): the claim keeps their pages back. */
    function originsNotReady(): string[] {
      const now = Date.now();
      const origins = new Set<string>();
      for (const [origin, slot] of slots) if (slot.busy) origins.add(origin);
      for (const [origin, at] of Object.entries(readyAt)) if (at > now) origins.add(origin);
      return [...origins].sort();
    }

    /**
     * When the first origin a claim kept back becomes ready by itself (its delay ends with no request
     * of it in flight: one whose delay ended while the claim ran is ready now), or a held robots.txt
     * is due. undefined: only a page settling can change anything.
     */
    function nextWakeMs(avoided: readonly string[], robotsDueInMs: number | null): number | undefined {
      const now = Date.now();
      let wake = robotsDueInMs ?? Infinity;
      for (const origin of avoided) if (!slots.get(origin)?.busy) wake = Math.min(wake, Math.max(0, (readyAt[origin] ?? 0) - now));
      // At least 100 ms: a timer per claim never turns the loop into a busy one.
      return Number.isFinite(wake) ? Math.max(100, wake) : undefined;
    }

    function release(page: CrawlPageClaim): void {
      if (page.delayMs <= 0) return;
      // Workflow time of the task that saw the page end: never before the request really ended.
      readyAt[page.origin] = Date.now() + page.delayMs;
      handOver(page.origin);
    }

  return {
    acquire,
    release,
    originsNotReady,
    nextWakeMs,
    get waiting() {
      return waiting;
    },
  };
}

/** The job's start (marked running, seeded on the first execution); cancelled before it began, it is recorded cancelled all the same. */
/**
 * A page whose identical request the account scraped within `max_age` is taken from the results
 * cache: not fetched (no politeness turn), not charged. Null: scrape it. Histories of jobs
 * without max_age (all those before the cache existed) never reach the patch.
 */
function pageFromCache(plan: CrawlPlan, page: CrawlPageClaim): Promise<{ httpStatus: number } | null> | null {
  if ((plan.scrape.max_age ?? 0) <= 0 || !patched(CRAWL_RESULTS_CACHE_PATCH)) return null;
  return bookkeeping.answerCrawlPageFromCache({ runId: page.runId, userId: plan.userId, request: { ...plan.scrape, url: page.url } });
}

async function openCrawl(input: CrawlWorkflowInput): Promise<CrawlPlan> {
  const { crawlId } = input;
  try {
    return await opening.openCrawl({ crawlId, seed: !input.seeded });
  } catch (error) {
    if (isCancellation(error)) await CancellationScope.nonCancellable(() => bookkeeping.cancelCrawl({ crawlId, runIds: [] }));
    throw error;
  }
}

/**
 * Events go out beside the crawl, never in its way: their recording is a local activity, so no
 * decision of the loop may wait for it (see `bookkeeping`); `emitted` before the execution ends.
 */
function eventsBeside() {
  const emitting: Array<Promise<void>> = [];
  return {
    emit: (event: WebhookEventSource | null): void => {
      // A failure here never fails the crawl (webhooks are best effort beside the job: docs/webhooks.md).
      if (event) emitting.push(emitWebhookEvents([event]).catch(() => undefined));
    },
    emitted: () => Promise.all(emitting),
  };
}
