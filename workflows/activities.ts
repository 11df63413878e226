/**
 * The activities the workflows call, declared where the workflows are (the contract): their
 * names, inputs and outputs. activities/ implements them (`createActivities(deps)` is checked
 * against `Activities` by the compiler), and the workflows proxy them by this type, so workflow
 * code never imports activity code, not even its types (docs/architecture.md). Type-only.
 */
import type { CreditChange, DebitInput, RefundInput } from '../accounts/credit';
import type { ScrapeRequestPayload } from '../scrape/request';
import type { ScrapeMode } from '../scrape/engines';
import type { ProxyTier } from '../scrape/proxy-tiers';
import type { CacheableRequest } from '../scrape/cache-key';
import type { WebhookEventSource } from '../webhooks/types';
import type { ErrorCode } from '../platform/errors';
import type {
  ChargePeriodInput,
  CrawlEndStatus,
  CrawlFrontierClaim,
  CrawlPageClaim,
  CrawlPageOutcome,
  CrawlPlan,
  EchoInput,
  EchoOutput,
  EmittedWebhookEvents,
  ExtractEndStatus,
  FirstAttemptOutcome,
  FlowInputWaiting,
  FlowNodeError,
  FlowNodeStatus,
  FlowRunStatus,
  FlowScrapeInput,
  FlowScrapeOutput,
  ForeachSummary,
  MapWorkflowInput,
  MonitorCheckOutcome,
  StartMonitorCheckInput,
  StartedMonitorCheck,
  RefillActivityInput,
  RefillOutcome,
  ScrapeActivityOutput,
  ScrapeJob,
  SubscriptionEndInput,
} from './definitions';

export interface ScrapeActivityInput {
  runId: string;
  request: ScrapeRequestPayload;
  /**
   * Record the run as succeeded with the result (status and finishedAt in the same write), so
   * the workflow needs no separate step on success. Pre-patch flow histories pass false: they
   * record the outcome with finishScrapeRun.
   */
  finishOnSuccess?: boolean;
  /**
   * Debit the run's price before the first attempt, once (keyed by the run): standalone scrapes.
   * Flow scrapes debit in a step of their own and leave this out.
   */
  debit?: { userId: string; apiKeyId: string | null; amount: number };
  /**
   * An `auto` run's step (docs/scraping.md "Escalation"): nothing is debited before the fetch;
   * the run is charged `charge.amount` once, in the statement that records its success. A block
   * (or, on http, a page needing JavaScript) before the last step fails at once, for the
   * workflow to move on to `next`. Absent on every other run (and in histories before it).
   */
  step?: ScrapeStep;
}

/** One step of an `auto` run's ladder as its activity sees it. */
export interface ScrapeStep {
  index: number;
  /** The proxy tier of its attempts (absent: the configured tiers serve no pool, direct). */
  tier?: ProxyTier;
  /** The step after it; absent on the last one (which retries a block as any run does). */
  next?: { engine: ScrapeMode; tier?: ProxyTier };
  charge: { userId: string; apiKeyId: string | null; amount: number };
}

export interface FailedScrape {
  runId: string;
  code: ErrorCode;
  message: string;
}

export interface FinishScrapeRunInput {
  runId: string;
  status: 'succeeded' | 'failed' | 'cancelled';
  error?: { code: ErrorCode; message: string };
  refunded?: boolean;
}

export interface RecordFlowNodeInput {
  flowRunId: string;
  nodeId: string;
  status: FlowNodeStatus;
  attempts?: number;
  credits?: number;
  output?: unknown;
  error?: FlowNodeError;
  items?: ForeachSummary;
}

export interface DescribedFlowScrape {
  attempts: number;
  /** Credits this scrape kept (its debit, less a refund). */
  credits: number;
  output?: FlowScrapeOutput;
}

/** One page of a scrape, by one engine: the activity each engine registers under its table name (scrape/engines.ts). */
export type PageActivity = (input: ScrapeActivityInput) => Promise<ScrapeActivityOutput>;

/** The page activities, by the names the engine table gives them. */
export type PageActivities = Record<string, PageActivity>;

/** Every activity of the main task queue, by name (an own-queue engine's queue has a subset: `EngineQueueActivities`). */
export interface Activities {
  echo(input: EchoInput): Promise<EchoOutput>;

  // Credit (accounts/credit.ts).
  debitCredit(input: DebitInput): Promise<CreditChange>;
  refundCredit(input: RefundInput): Promise<CreditChange>;

  // Standalone scrapes: lanes, template runs, flow scrapes (activities/scrape/).
  scrapeFirstAttempts(input: { scrapes: ScrapeJob[] }): Promise<FirstAttemptOutcome[]>;
  retryScrape(input: { scrape: ScrapeJob }): Promise<ScrapeActivityOutput>;
  scrapeStep(input: { scrape: ScrapeJob; step: number }): Promise<ScrapeActivityOutput>;
  settleFailedScrapes(input: { failures: FailedScrape[] }): Promise<void>;
  cancelScrapes(input: { runIds: string[] }): Promise<void>;
  finishScrapeRun(input: FinishScrapeRunInput): Promise<void>;

  // Maps (activities/map.ts).
  mapSite(input: MapWorkflowInput): Promise<ScrapeActivityOutput>;

  // Flows (activities/flow.ts).
  prepareFlowScrape(input: FlowScrapeInput): Promise<{ request: ScrapeRequestPayload; cost: number }>;
  describeFlowScrape(input: { scrapeRunId: string }): Promise<DescribedFlowScrape>;
  flowNodeCredits(input: { flowRunId: string; nodeId: string }): Promise<number>;
  recordFlowNode(input: RecordFlowNodeInput): Promise<void>;
  recordFlowRun(input: { flowRunId: string; status: FlowRunStatus; error?: FlowNodeError }): Promise<void>;
  /** An input node starts waiting: node and run `waiting_input`, the account notified; answers the flow.input_required event's data. */
  recordFlowInputRequired(input: { flowRunId: string; nodeId: string; waiting: FlowInputWaiting }): Promise<Record<string, unknown>>;
  /** The run's last waiting input node stopped waiting (`running` again; a finished run stays finished). */
  recordFlowRunWaiting(input: { flowRunId: string; waiting: boolean }): Promise<void>;
  postFlowWebhook(input: { flowRunId: string; nodeId: string; url: string }): Promise<{ status: number; attempts: number }>;

  // Crawls and batch scrapes (activities/crawl.ts).
  openCrawl(input: { crawlId: string; seed: boolean }): Promise<CrawlPlan>;
  claimCrawlPages(input: { crawlId: string; runIds: string[] }): Promise<CrawlPageClaim[]>;
  claimCrawlFrontier(input: { crawlId: string; runIds: string[]; avoid: string[] }): Promise<CrawlFrontierClaim>;
  recheckCrawlRobots(input: { crawlId: string; origins: string[] }): Promise<void>;
  settleCrawlPage(input: { crawlId: string; runId: string; outcome: CrawlPageOutcome; events: boolean }): Promise<WebhookEventSource | null>;
  answerCrawlPageFromCache(input: { runId: string; userId: string; request: CacheableRequest }): Promise<{ httpStatus: number } | null>;
  requeueCrawlPage(input: { runId: string }): Promise<void>;
  closeCrawl(input: { crawlId: string; exhausted: boolean; events: boolean }): Promise<{ status: CrawlEndStatus; event: WebhookEventSource | null }>;
  cancelCrawl(input: { crawlId: string; runIds: string[] }): Promise<void>;

  // Subscriptions (activities/subscriptions.ts).
  refillSubscription(input: RefillActivityInput): Promise<RefillOutcome>;
  chargeSubscriptionPeriod(input: ChargePeriodInput): Promise<{ providerPaymentId: string | null }>;
  endSubscription(input: SubscriptionEndInput): Promise<{ status: string }>;

  // Monitors (activities/monitors.ts).
  startMonitorCheck(input: StartMonitorCheckInput): Promise<StartedMonitorCheck>;
  settleMonitorCheck(input: { checkId: string }): Promise<MonitorCheckOutcome & { events: WebhookEventSource[] }>;

  // Firecrawl extract jobs (activities/extract.ts).
  awaitExtractJobs(input: { extractId: string }): Promise<{ cancelled: boolean }>;
  runExtraction(input: { extractId: string }): Promise<{ status: ExtractEndStatus }>;
  failExtraction(input: { extractId: string; code: ErrorCode; message: string }): Promise<void>;

  // Event webhooks (activities/webhooks.ts).
  emitWebhookEvents(input: { sources: WebhookEventSource[] }): Promise<EmittedWebhookEvents>;
  deliverWebhook(input: { deliveryId: string }): Promise<{ statusCode: number }>;
  failWebhookDelivery(input: { deliveryId: string }): Promise<void>;
}

/** An own-queue engine's task queue (the browser's): the bookkeeping of the batches that run there, beside its page activity. */
export type EngineQueueActivities = Pick<Activities, 'emitWebhookEvents' | 'settleFailedScrapes' | 'cancelScrapes'>;
