/**
 * Records the workflow histories that workflows/replay.test.ts replays against today's workflow
 * code (docs/workflows-versioning.md). Real runs, never hand-written events: it boots PostgreSQL,
 * a Temporal dev server, the worker and the API as the tests do (test/helpers/stack.ts), the
 * fixture servers, and drives the API as a client would; each history is then fetched from the
 * server (`fetchHistory`) and written in the form `temporal workflow show --output json` writes.
 *
 *   npm run record-histories                   every case
 *   npm run record-histories -- <name> ...     the cases whose name starts with one of these
 *                                              (`crawlWorkflow`, `scrapeLaneWorkflow.http`)
 *   npm run record-histories -- --list         the cases and what each covers
 *
 * A history goes to test/replay/histories/<workflow type>.<case>.<YYYY-MM-DD>.json. A file is
 * never replaced: a history of an older shape must stay while runs of that shape may be in flight
 * (docs/workflows-versioning.md says when one may be deleted). A new history whose steps are
 * those of a stored history of the same case is not written (nothing new to protect).
 *
 * Each case checks that its history holds what the case is about (a lane with several batches
 * has several Signals...), so a recording that did not take the path it names fails instead of
 * being stored; and no history is written that holds a secret this run created (API keys,
 * session tokens, webhook and payment secrets) or anything shaped like one.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { parseConfig } from '../../platform/config';
import { LOCAL_SIGNATURE_HEADER, localEvent, signLocalEvent } from '../../billing/payments/provider';
import { freePort } from '../../platform/free-port';
import { startEmbeddedPostgres } from '../../scripts/runtime/postgres';
import { resolveTemporalCli, startTemporalDevServer } from '../../scripts/runtime/temporal-server';
import { type HistoryJson, historyToJson, readHistories } from '../../workers/workflow-replay';
import { parseScrapeRequest } from '../../scrape/request';
import { type ScrapeWorkflowInput, taskQueues, workflowIds } from '../../workflows/definitions';
import { scrapeWorkflow } from '../../workflows/scrape.workflow';
import { type CrawlSite, startCrawlSite } from '../fixtures/crawl-site';
import { type FixtureServer, startFixtureServer } from '../fixtures/server';
import { type TestAccount, createAccount, setBalance, sql } from '../helpers/accounts';
import { TEST_ENV } from '../helpers/env';
import { fourNodeFlow, startWebhookReceiver, type WebhookReceiver } from '../helpers/flows';
import { type Json, call } from '../helpers/http';
import { type FakeLlm, startFakeLlm } from '../helpers/fake-llm';
import { type Stack, startStack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { type EventReceiver, startEventReceiver } from '../helpers/webhook-receiver';
import { historyPatches, historySteps, secretsIn } from './history-shape';
import { testDataConverter } from '../helpers/temporal-codec';

const HISTORIES_DIR = path.join(__dirname, 'histories');
/** Secrets a case sends in its requests: a history holding one in clear is not written. */
const CASE_SECRETS: string[] = [];

/**
 * The server suggests continue-as-new past this many events (its default is 4 Ki): a crawl then
 * continues as new after a few pages, through the same branch that 200 pages take in production
 * (workflows/crawl.workflow.ts), and both executions stay small enough to keep in the repository.
 */
const SUGGEST_CONTINUE_AS_NEW_EVENTS = 60;

const SUBSCRIPTION_PERIOD_S = 4;
const PLANS = [
  { id: 'basic', name: 'Basic', creditsPerPeriod: 7, priceCents: 0, currency: 'usd' },
  { id: 'paid', name: 'Paid', creditsPerPeriod: 50, priceCents: 500, currency: 'usd' },
];
/**
 * Webhook deliveries retry fast and give up after 60 s, so a failed delivery ends within the
 * recording (while the lanes idle out), and one that needs a second attempt gets it however loaded
 * the machine is.
 */
const WEBHOOK_ENV = { WEBHOOK_PRIVATE_ALLOWLIST: '127.0.0.1', WEBHOOK_RETRY_INITIAL_MS: '100', WEBHOOK_RETRY_MAX_INTERVAL_MS: '2000', WEBHOOK_RETRY_WINDOW_MS: '60000' };
/** A lane ends 60 s after its last batch (workflows/scrape.workflow.ts); every wait allows well beyond. */
const CLOSE_WAIT_MS = 240_000;

/** One history to keep: a workflow execution and what its steps must include. */
interface Recording {
  /** `<workflow type>.<case>` */
  name: string;
  workflowId: string;
  /** A given execution of a chain (continue-as-new); the latest when absent. */
  runId?: string;
  /** Steps (history-shape.ts) and how many times at least each must appear. */
  covers: Record<string, number>;
}

interface Context {
  stack: Stack;
  client: Client;
  fixtures: FixtureServer;
  site: CrawlSite;
  events: EventReceiver;
  flowHook: WebhookReceiver;
  /** The operator's model, scripted (Firecrawl's extract). */
  llm: FakeLlm;
  account: TestAccount;
  localPaymentSecret: string;
  /** A new account (subscriptions: one live subscription per account). */
  newAccount(): Promise<TestAccount>;
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Json }>;
}

interface Scenario {
  /** The recordings it makes (for `--list` and for choosing scenarios by name). */
  produces: Record<string, string>;
  run(ctx: Context): Promise<Recording[]>;
}

const key = (account: TestAccount) => ({ 'x-api-key': account.apiKey });
const session = (account: TestAccount) => ({ cookie: account.cookie });

async function ok(answer: Promise<{ status: number; body: Json }>, want: number, what: string): Promise<Json> {
  const { status, body } = await answer;
  if (status !== want) throw new Error(`${what}: answered ${status}, expected ${want}: ${JSON.stringify(body).slice(0, 1000)}`);
  return body;
}

async function workflowOfRun(ctx: Context, runId: string): Promise<string> {
  const [row] = await sql<{ workflowId: string }>(ctx.stack.databaseUrl, 'SELECT "workflowId" FROM scrape_run WHERE id = $1', [runId]);
  if (!row) throw new Error(`no scrape_run ${runId}`);
  return row.workflowId;
}

/** A scrape through POST /webhook/unblocker (answered, or queued when async); its run id and workflow id. */
async function scrape(ctx: Context, request: Json): Promise<{ id: string; workflowId: string; body: Json }> {
  const body = await ok(ctx.api('POST', '/webhook/unblocker', request), request.async ? 202 : 200, `scrape ${String(request.url)}`);
  const id = body.id as string;
  return { id, workflowId: await workflowOfRun(ctx, id), body };
}

/** The same lane for every request of a scenario, or the scenario did not record what it names. */
function sameLane(ids: string[]): string {
  // A lane a request gave up on (504) takes nothing more: on a machine that slow, record again.
  if (new Set(ids).size !== 1) throw new Error(`the requests went to several lanes (${[...new Set(ids)].join(', ')})`);
  return ids[0]!;
}

async function waitForDelivery(ctx: Context, url: string, status: 'succeeded' | 'failed'): Promise<string> {
  const ended = await waitFor(`the webhook delivery to ${url} ended`, async () => {
    const [row] = await sql<{ id: string; status: string; attempts: number }>(ctx.stack.databaseUrl, 'SELECT id, status, attempts FROM webhook_delivery WHERE url = $1', [url]);
    return row && row.status !== 'pending' ? row : undefined;
  }, CLOSE_WAIT_MS);
  if (ended.status !== status) throw new Error(`the webhook delivery to ${url} ended ${ended.status} after ${ended.attempts} attempts, expected ${status}`);
  return ended.id;
}

async function listWorkflows(ctx: Context, query: string): Promise<Array<{ workflowId: string; runId: string; startTime: Date }>> {
  const found: Array<{ workflowId: string; runId: string; startTime: Date }> = [];
  for await (const execution of ctx.client.workflow.list({ query })) found.push({ workflowId: execution.workflowId, runId: execution.runId, startTime: execution.startTime });
  return found.sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
}

const SCENARIOS: Scenario[] = [
  {
    produces: {
      'scrapeLaneWorkflow.http-batches-retries': 'an http lane: its first batch, then four batches by Signal: a scrape that succeeds on its second attempt, one whose every attempt fails (refunded), a 404 target, an async scrape with its own webhook (the event recorded, its delivery started as a child workflow)',
      'webhookDeliveryWorkflow.delivered-after-retry': 'that delivery: the receiver answers 500 once, then 200',
      'webhookDeliveryWorkflow.failed-window': 'a delivery whose receiver never answers 2xx: it gives up after the retry window and records the failure',
    },
    async run(ctx): Promise<Recording[]> {
      const url = ctx.fixtures.url;
      const okUrl = `${ctx.events.origin}/replay-ok-${randomUUID()}`;
      const downUrl = `${ctx.events.origin}/replay-down-${randomUUID()}`;
      ctx.events.failNext(new URL(okUrl).pathname, 1, 500);
      ctx.events.failNext(new URL(downUrl).pathname, 1_000_000, 503);
      const first = await scrape(ctx, { url: `${url}/page/1`, selectors: ['h1'] });
      // One after another, each answered before the next: each is a batch of its own, by Signal to the same lane.
      const retried = await scrape(ctx, { url: `${url}/flaky?key=lane-http-${randomUUID()}&fail=1`, options: { retry_count: 2 } });
      if ((retried.body.attempts as number) !== 2) throw new Error(`the flaky scrape took ${String(retried.body.attempts)} attempts, expected 2`);
      const failing = await ctx.api('POST', '/webhook/unblocker', { url: `${url}/status/503`, options: { retry_count: 1 } });
      const failedId = failing.body.id as string | undefined;
      if (!failedId) throw new Error(`the failing scrape answered ${failing.status} without a run id: ${JSON.stringify(failing.body)}`);
      const missing = await scrape(ctx, { url: `${url}/status/404` });
      // An async batch is the last a lane takes (its end is not seen by the API process).
      const notified = await scrape(ctx, { url: `${url}/page/3`, async: true, webhook: { url: okUrl, metadata: { case: 'replay' } } });
      const lane = sameLane([first.workflowId, retried.workflowId, await workflowOfRun(ctx, failedId), missing.workflowId, notified.workflowId]);
      // In a lane of its own (the first one takes nothing more): only its delivery is kept.
      await scrape(ctx, { url: `${url}/page/4`, async: true, webhook: { url: downUrl } });
      const [delivered, abandoned] = await Promise.all([waitForDelivery(ctx, okUrl, 'succeeded'), waitForDelivery(ctx, downUrl, 'failed')]);
      return [
        {
          name: 'scrapeLaneWorkflow.http-batches-retries',
          workflowId: lane,
          covers: {
            'signal:scrapes': 4,
            'patch:scrape-lane-unlisted-runs-v1': 1,
            'local-activity:scrapeFirstAttempts': 5,
            timer: 2,
            'local-activity:retryScrape': 2,
            'local-activity:settleFailedScrapes': 1,
            'local-activity:emitWebhookEvents': 1,
            'child:webhookDeliveryWorkflow': 1,
            'end:completed': 1,
          },
        },
        { name: 'webhookDeliveryWorkflow.delivered-after-retry', workflowId: workflowIds.webhookDelivery(delivered), covers: { 'activity:deliverWebhook': 1, 'end:completed': 1 } },
        { name: 'webhookDeliveryWorkflow.failed-window', workflowId: workflowIds.webhookDelivery(abandoned), covers: { 'activity:deliverWebhook': 1, 'activity:failWebhookDelivery': 1, 'end:completed': 1 } },
      ];
    },
  },
  {
    produces: {
      'scrapeLaneWorkflow.http-run-cancelled':
        'an http lane whose running run is cancelled by its owner (POST /webhook/runs/:id/cancel): its first attempt stopped, the lane\'s cancelRun Signal, the cancel recorded again by a local activity',
    },
    async run(ctx): Promise<Recording[]> {
      const hold = `replay-cancel-${randomUUID()}`;
      const held = await scrape(ctx, { url: `${ctx.fixtures.url}/hold?key=${hold}`, async: true, options: { retry_count: 0 } });
      await waitFor('the held run under way', async () => {
        const [row] = await sql<{ status: string }>(ctx.stack.databaseUrl, 'SELECT status::text AS status FROM scrape_run WHERE id = $1', [held.id]);
        return row?.status === 'running';
      });
      await ok(ctx.api('POST', `/webhook/runs/${held.id}/cancel`), 200, 'cancel the run');
      ctx.fixtures.release(hold);
      return [
        {
          name: 'scrapeLaneWorkflow.http-run-cancelled',
          workflowId: held.workflowId,
          covers: { 'local-activity:scrapeFirstAttempts': 1, 'signal:cancelRun': 1, 'local-activity:cancelScrapes': 1, 'end:completed': 1 },
        },
      ];
    },
  },
  {
    produces: {
      'scrapeLaneWorkflow.encrypted-cookies':
        'an http lane after the payload codec (platform/temporal-payload-codec.ts): every payload encrypted; a scrape with inline cookies by start, one with a cookie header by Signal (neither value in clear in the history)',
    },
    async run(ctx): Promise<Recording[]> {
      const cookieValue = `replay${randomBytes(8).toString('hex')}`;
      const headerValue = `replay${randomBytes(8).toString('hex')}`;
      CASE_SECRETS.push(cookieValue, headerValue);
      const first = await scrape(ctx, { url: `${ctx.fixtures.url}/page/1`, selectors: ['h1'], cookies: [{ name: 'sid', value: cookieValue }] });
      const second = await scrape(ctx, { url: `${ctx.fixtures.url}/page/2`, selectors: ['h1'], headers: { cookie: `remember=${headerValue}` } });
      const lane = sameLane([first.workflowId, second.workflowId]);
      return [{ name: 'scrapeLaneWorkflow.encrypted-cookies', workflowId: lane, covers: { 'signal:scrapes': 1, 'end:completed': 1 } }];
    },
  },
  {
    produces: { 'scrapeLaneWorkflow.browser-batches': 'a browser lane on the browser queue: three batches (one by start, two by Signal), each page a local activity, one page retried' },
    async run(ctx): Promise<Recording[]> {
      const url = ctx.fixtures.url;
      const first = await scrape(ctx, { url: `${url}/page/1`, mode: 'browser', selectors: ['h1'] });
      const retried = await scrape(ctx, { url: `${url}/flaky?key=lane-browser-${randomUUID()}&fail=1`, mode: 'browser', options: { retry_count: 1 } });
      const third = await scrape(ctx, { url: `${url}/page/2`, mode: 'browser', wait_for: 'h1' });
      const lane = sameLane([first.workflowId, retried.workflowId, third.workflowId]);
      return [{ name: 'scrapeLaneWorkflow.browser-batches', workflowId: lane, covers: { 'signal:scrapes': 2, 'local-activity:renderPage': 3, 'end:completed': 1 } }];
    },
  },
  {
    produces: {
      'scrapeBatchWorkflow.template-http': 'a user template run (an execution of its own, on the sync queue)',
      'scrapeBatchWorkflow.template-browser': 'a browser template run (on the browser queue, the page a local activity)',
    },
    async run(ctx): Promise<Recording[]> {
      const recordings: Recording[] = [];
      for (const mode of ['http', 'browser'] as const) {
        const template = await ok(
          ctx.api('POST', '/user-templates', {
            name: `Replay ${mode}`,
            request: { url: '{{base}}/page/{{page}}', mode, selectors: [{ name: 'title', selector: 'h1' }], options: { retry_count: '{{retries}}' } },
            params: [
              { name: 'base', type: 'url', required: true },
              { name: 'page', type: 'number', required: true },
              { name: 'retries', type: 'number', required: false, default: 1 },
            ],
          }),
          201,
          'create a template',
        );
        const run = await ok(ctx.api('POST', `/user-templates/${String(template.id)}/run`, { params: { base: ctx.fixtures.url, page: 7 } }), 200, 'run the template');
        const workflowId = await workflowOfRun(ctx, run.id as string);
        const page = mode === 'http' ? 'local-activity:scrapeFirstAttempts' : 'local-activity:renderPage';
        recordings.push({ name: `scrapeBatchWorkflow.template-${mode}`, workflowId, covers: { [page]: 1, 'end:completed': 1 } });
      }
      return recordings;
    },
  },
  {
    produces: { 'scrapeWorkflow.standalone-retried': 'a standalone scrape workflow (no route starts one any more; registered for executions started before batches): debit, the fetch retried once, success' },
    async run(ctx): Promise<Recording[]> {
      const runId = randomUUID();
      const { async: _async, webhook: _webhook, ...request } = parseScrapeRequest({ url: `${ctx.fixtures.url}/flaky?key=standalone-${runId}&fail=1`, selectors: ['h1'], options: { retry_count: 1 } });
      const workflowId = workflowIds.scrape(runId);
      await sql(ctx.stack.databaseUrl, `INSERT INTO scrape_run (id, "userId", "apiKeyId", "workflowId", mode, url, request, cost) VALUES ($1, $2, $3, $4, 'http', $5, $6::jsonb, 1)`, [
        runId,
        ctx.account.userId,
        ctx.account.apiKeyId,
        workflowId,
        request.url,
        JSON.stringify(request),
      ]);
      const queues = taskQueues(ctx.stack.env.TASK_QUEUE_PREFIX);
      const input: ScrapeWorkflowInput = { runId, userId: ctx.account.userId, apiKeyId: ctx.account.apiKeyId, cost: 1, request, browserQueue: queues.browser };
      const outcome = await ctx.client.workflow.execute(scrapeWorkflow, { taskQueue: queues.sync, workflowId, args: [input] });
      if (outcome.status !== 'succeeded') throw new Error(`the standalone scrape ended ${JSON.stringify(outcome)}`);
      return [{ name: 'scrapeWorkflow.standalone-retried', workflowId, covers: { 'patch:scrape-local-activities-v1': 1, 'local-activity:debitCredit': 1, 'local-activity:fetchPage': 1, 'end:completed': 1 } }];
    },
  },
  {
    produces: {
      'flowWorkflow.foreach-delay-webhook': 'a flow run: scrape a link list → foreach over the links (a child workflow) → delay (a timer) → webhook node; its own webhook gets flow.run.completed',
      'foreachWorkflow.three-links': 'the foreach node\'s child workflow: three scrapes, two at a time',
    },
    async run(ctx): Promise<Recording[]> {
      const flow = await ok(ctx.api('POST', '/flows', fourNodeFlow(ctx.fixtures.url, ctx.flowHook.url, { links: 3 })), 201, 'create the flow');
      const started = await ok(ctx.api('POST', `/flows/${String(flow.id)}/runs`, { webhook: { url: `${ctx.events.origin}/replay-flow-${randomUUID()}` } }), 202, 'start the flow run');
      const run = await waitFor('the flow run finished', async () => {
        const { body } = await ctx.api('GET', `/flows/${String(flow.id)}/runs/${String(started.id)}`);
        return ['succeeded', 'failed', 'cancelled'].includes(body.status as string) ? body : undefined;
      }, CLOSE_WAIT_MS);
      if (run.status !== 'succeeded') throw new Error(`the flow run ended ${String(run.status)}`);
      const workflowId = started.workflowId as string;
      return [
        { name: 'flowWorkflow.foreach-delay-webhook', workflowId, covers: { 'activity:prepareFlowScrape': 1, 'child:foreachWorkflow': 1, timer: 1, 'activity:postFlowWebhook': 1, 'local-activity:emitWebhookEvents': 1, 'child:webhookDeliveryWorkflow': 1, 'end:completed': 1 } },
        { name: 'foreachWorkflow.three-links', workflowId: workflowIds.flowForeach(workflowId, 'pages'), covers: { 'activity:prepareFlowScrape': 3, 'activity:fetchPage': 3, 'end:completed': 1 } },
      ];
    },
  },
  {
    produces: {
      'flowWorkflow.input-answered': 'a flow run: scrape → input node (patch flow-input-v1; waits on a timer, flow.input_required emitted) answered by POST …/input (the flowInput Update) → scrape using {{ nodes.code.value }}',
      'flowWorkflow.input-timeout': 'a flow run whose input node gets no answer within its 1 s timeout: the node fails, its dependant is skipped, the run fails',
    },
    async run(ctx): Promise<Recording[]> {
      const nodes = (timeout?: number) => [
        { id: 'first', type: 'scrape', config: { url: `${ctx.fixtures.url}/page/1`, selectors: ['h1'] } },
        { id: 'code', type: 'input', needs: ['first'], config: { prompt: 'Which page?', ...(timeout ? { timeout } : {}) } },
        { id: 'after', type: 'scrape', needs: ['code'], config: { url: `${ctx.fixtures.url}/page/{{ nodes.code.value }}`, selectors: ['h1'] } },
      ];
      const runOf = async (name: string, timeout?: number) => {
        const flow = await ok(ctx.api('POST', '/flows', { name, nodes: nodes(timeout) }), 201, `create the flow ${name}`);
        const hookPath = `/replay-flow-input-${randomUUID()}`;
        const started = await ok(ctx.api('POST', `/flows/${String(flow.id)}/runs`, { webhook: { url: `${ctx.events.origin}${hookPath}` } }), 202, `start ${name}`);
        return { flowId: String(flow.id), runId: String(started.id), workflowId: started.workflowId as string, hookPath };
      };
      const runState = async (ids: { flowId: string; runId: string }) => (await ctx.api('GET', `/flows/${ids.flowId}/runs/${ids.runId}`)).body;
      const answered = await runOf('input answered');
      await waitFor('the run waiting for input', async () => ((await runState(answered)).status === 'waiting_input' ? true : undefined), CLOSE_WAIT_MS);
      // Its flow.input_required delivered: the run is past the event, most likely waiting on its timer.
      await waitFor('flow.input_required delivered', () => Promise.resolve(ctx.events.received.some((d) => d.path === answered.hookPath && d.event.type === 'flow.input_required')), CLOSE_WAIT_MS);
      await ok(ctx.api('POST', `/flows/${answered.flowId}/runs/${answered.runId}/input`, { node: 'code', value: '7' }), 200, 'answer the input node');
      const timedOut = await runOf('input timeout', 1);
      for (const [ids, want] of [[answered, 'succeeded'], [timedOut, 'failed']] as const) {
        const run = await waitFor('the flow run finished', async () => {
          const body = await runState(ids);
          return ['succeeded', 'failed', 'cancelled'].includes(body.status as string) ? body : undefined;
        }, CLOSE_WAIT_MS);
        if (run.status !== want) throw new Error(`the flow run ended ${String(run.status)}, expected ${want}`);
      }
      const inputSteps = { 'patch:flow-input-v1': 1, 'activity:recordFlowInputRequired': 1, 'local-activity:emitWebhookEvents': 2 };
      return [
        // No timer required here: an answer taken in the workflow task that started the wait cancels its timer before it is recorded.
        { name: 'flowWorkflow.input-answered', workflowId: answered.workflowId, covers: { ...inputSteps, 'update:flowInput': 1, 'activity:recordFlowRunWaiting': 1, 'activity:prepareFlowScrape': 2, 'end:completed': 1 } },
        { name: 'flowWorkflow.input-timeout', workflowId: timedOut.workflowId, covers: { ...inputSteps, timer: 1, 'activity:recordFlowRunWaiting': 1, 'activity:prepareFlowScrape': 1, 'end:failed': 1 } },
      ];
    },
  },
  {
    produces: {
      'crawlWorkflow.first-execution': 'a crawl\'s first execution: sitemap skipped, robots.txt read, a politeness delay (the claim keeps the origin back, a timer wakes the loop: crawl-free-slots-v1), continued as new when the server suggested it',
      'crawlWorkflow.last-execution': 'the same crawl\'s last execution: started from the continue-as-new input, it claims what is left of the frontier, closes the crawl and emits crawl.completed',
    },
    async run(ctx): Promise<Recording[]> {
      const body = await ok(
        ctx.api('POST', '/crawl', {
          url: `${ctx.site.url}/`,
          limit: 8,
          max_depth: 100,
          sitemap: 'skip',
          per_host_delay_ms: 50,
          concurrency: 2,
          scrape: { options: { retry_count: 0 } },
          webhook: { url: `${ctx.events.origin}/replay-crawl-${randomUUID()}`, events: ['crawl.completed'] },
        }),
        202,
        'start the crawl',
      );
      const id = body.id as string;
      const ended = await waitFor('the crawl ended', async () => {
        const { body: crawl } = await ctx.api('GET', `/crawl/${id}`);
        return ['completed', 'failed', 'cancelled', 'credit_exhausted'].includes(crawl.status as string) ? crawl : undefined;
      }, CLOSE_WAIT_MS);
      if (ended.status !== 'completed') throw new Error(`the crawl ended ${String(ended.status)}`);
      const executions = await waitFor('the crawl\'s executions listed', async () => {
        const found = await listWorkflows(ctx, `WorkflowId = "crawl-${id}"`);
        return found.length >= 2 ? found : undefined;
      }, 60_000);
      const first = executions[0]!;
      const last = executions[executions.length - 1]!;
      return [
        {
          name: 'crawlWorkflow.first-execution',
          workflowId: first.workflowId,
          runId: first.runId,
          covers: { 'activity:openCrawl': 1, 'patch:crawl-free-slots-v1': 1, 'activity:claimCrawlFrontier': 1, 'activity:debitCredit': 1, 'activity:fetchPage': 1, 'activity:settleCrawlPage': 1, timer: 1, 'continue-as-new': 1 },
        },
        // How many pages the last execution still fetches depends on when the server suggested continuing.
        { name: 'crawlWorkflow.last-execution', workflowId: last.workflowId, runId: last.runId, covers: { 'activity:openCrawl': 1, 'patch:crawl-free-slots-v1': 1, 'activity:claimCrawlFrontier': 1, 'activity:closeCrawl': 1, 'local-activity:emitWebhookEvents': 1, 'end:completed': 1 } },
      ];
    },
  },
  {
    produces: { 'mapWorkflow.site': 'a map of the fixture site (start page, robots.txt, sitemaps) as one local activity' },
    async run(ctx): Promise<Recording[]> {
      const body = await ok(ctx.api('POST', '/map', { url: ctx.site.url }), 200, 'map the site');
      return [{ name: 'mapWorkflow.site', workflowId: workflowIds.map(body.id as string), covers: { 'local-activity:mapSite': 1, 'end:completed': 1 } }];
    },
  },
  {
    produces: {
      'subscriptionRefillWorkflow.granted': 'a free plan\'s period started by the subscription\'s Schedule: granted at once',
      'subscriptionRefillWorkflow.charge-due': 'a paid plan\'s next period started by the Schedule: charged first (awaiting its payment\'s webhook)',
      'subscriptionEndWorkflow.cancelled': 'a cancelled subscription ended at its period\'s end by a durable timer',
    },
    async run(ctx): Promise<Recording[]> {
      const refills = (account: TestAccount) => listWorkflows(ctx, `WorkflowType = "subscriptionRefillWorkflow" AND AccountId = "${account.userId}"`);
      const closedRefill = async (account: TestAccount, step: string) =>
        waitFor(`a refill of ${account.userId} with ${step}`, async () => {
          for (const execution of await refills(account)) {
            const handle = ctx.client.workflow.getHandle(execution.workflowId, execution.runId);
            if ((await handle.describe()).status.name === 'RUNNING') continue;
            if (historySteps(JSON.parse(historyToJson(await handle.fetchHistory())) as HistoryJson).includes(step)) return execution;
          }
          return undefined;
        }, CLOSE_WAIT_MS);

      const free = await ctx.newAccount();
      const created = await ok(call(ctx.stack.baseUrl, 'POST', '/api/subscriptions', session(free), { planId: 'basic' }), 201, 'subscribe to the free plan');
      const subscriptionId = (created.subscription as Json).id as string;
      const granted = await closedRefill(free, 'activity:refillSubscription');
      await ok(call(ctx.stack.baseUrl, 'POST', '/api/subscriptions/current/cancel', session(free)), 200, 'cancel the free plan');
      const endWorkflowId = `subscription-${subscriptionId}-end`;
      await ctx.client.workflow.getHandle(endWorkflowId).result();

      const paid = await ctx.newAccount();
      const subscribed = await ok(call(ctx.stack.baseUrl, 'POST', '/api/subscriptions', session(paid), { planId: 'paid' }), 202, 'subscribe to the paid plan');
      const signed = signLocalEvent(ctx.localPaymentSecret, localEvent('succeeded', (subscribed.payment as Json).id as string));
      await ok(call(ctx.stack.baseUrl, 'POST', '/api/payments/webhook/local', { 'content-type': 'application/json', [LOCAL_SIGNATURE_HEADER]: signed.signature }, signed.body), 200, 'pay the first period');
      const charged = await closedRefill(paid, 'activity:chargeSubscriptionPeriod');
      await ok(call(ctx.stack.baseUrl, 'POST', '/api/subscriptions/current/cancel', session(paid)), 200, 'cancel the paid plan');
      return [
        { name: 'subscriptionRefillWorkflow.granted', workflowId: granted.workflowId, runId: granted.runId, covers: { 'activity:refillSubscription': 1, 'end:completed': 1 } },
        { name: 'subscriptionRefillWorkflow.charge-due', workflowId: charged.workflowId, runId: charged.runId, covers: { 'activity:refillSubscription': 1, 'activity:chargeSubscriptionPeriod': 1, 'end:completed': 1 } },
        { name: 'subscriptionEndWorkflow.cancelled', workflowId: endWorkflowId, covers: { timer: 1, 'activity:endSubscription': 1, 'end:completed': 1 } },
      ];
    },
  },
  {
    produces: {
      'monitorCheckWorkflow.changed':
        'a monitor\'s check started by its Schedule ("check now"): the check recorded, the scrape steps (debit, page activity), the check settled as changed against the previous one, its monitor.changed event emitted',
    },
    async run(ctx): Promise<Recording[]> {
      const account = await ctx.newAccount();
      await setBalance(ctx.stack.databaseUrl, account.userId, 100);
      const monitor = await ok(
        call(ctx.stack.baseUrl, 'POST', '/monitors', key(account), { name: 'replay', request: { url: `${ctx.fixtures.url}/page/1` }, schedule: { every: '1h' } }),
        201,
        'create a monitor',
      );
      const checksOf = async () => ((await ok(call(ctx.stack.baseUrl, 'GET', `/monitors/${monitor.id as string}/checks`, key(account)), 200, 'list checks')).checks as Json[]);
      const checkNow = async (count: number, status: string) => {
        await ok(call(ctx.stack.baseUrl, 'POST', `/monitors/${monitor.id as string}/check`, key(account)), 202, 'check now');
        return waitFor(`check ${count} ${status}`, async () => {
          const list = await checksOf();
          return list.length >= count && list[0]!.status === status ? list[0] : undefined;
        }, CLOSE_WAIT_MS);
      };
      await checkNow(1, 'new');
      // The page the monitor watches changes (another page): the second check reports it.
      await ok(call(ctx.stack.baseUrl, 'PATCH', `/monitors/${monitor.id as string}`, key(account), { request: { url: `${ctx.fixtures.url}/page/2` } }), 200, 'change the watched page');
      const changed = await checkNow(2, 'changed');
      const execution = await waitFor('the changed check\'s execution', async () => {
        for (const found of await listWorkflows(ctx, `WorkflowType = "monitorCheckWorkflow" AND AccountId = "${account.userId}"`)) {
          const handle = ctx.client.workflow.getHandle(found.workflowId, found.runId);
          if ((await handle.describe()).status.name !== 'COMPLETED') continue;
          if (((await handle.result()) as { checkId: string }).checkId === changed.id) return found;
        }
        return undefined;
      }, CLOSE_WAIT_MS);
      await ok(call(ctx.stack.baseUrl, 'DELETE', `/monitors/${monitor.id as string}`, key(account)), 204, 'delete the monitor');
      return [
        {
          name: 'monitorCheckWorkflow.changed',
          workflowId: execution.workflowId,
          runId: execution.runId,
          covers: { 'activity:startMonitorCheck': 1, 'activity:debitCredit': 1, 'activity:settleMonitorCheck': 1, 'local-activity:emitWebhookEvents': 1, 'end:completed': 1 },
        },
      ];
    },
  },
  {
    produces: {
      'monitorCheckSettleWorkflow.terminated-check':
        "a check whose workflow was terminated mid-scrape, settled by the closed-workflow sweep's own workflow: the check settled failed, no event (the first failure)",
    },
    async run(ctx): Promise<Recording[]> {
      const account = await ctx.newAccount();
      const hold = `replay-settle-${randomUUID()}`;
      const monitor = await ok(
        call(ctx.stack.baseUrl, 'POST', '/monitors', key(account), { name: 'replay-settle', request: { url: `${ctx.fixtures.url}/hold?key=${hold}`, options: { retry_count: 0 } }, schedule: { every: '1h' } }),
        201,
        'create a monitor on a held page',
      );
      await ok(call(ctx.stack.baseUrl, 'POST', `/monitors/${monitor.id as string}/check`, key(account)), 202, 'check now');
      const check = await waitFor('the check fetching its page', async () => {
        const [row] = await sql<{ id: string; workflowId: string; status: string }>(
          ctx.stack.databaseUrl,
          `SELECT c.id, c."workflowId", r.status::text AS status FROM monitor_check c JOIN scrape_run r ON r.id = c."scrapeRunId" WHERE c."monitorId" = $1`,
          [monitor.id],
        );
        return row?.status === 'running' ? row : undefined;
      }, CLOSE_WAIT_MS);
      await ctx.client.workflow.getHandle(check.workflowId).terminate('replay recording');
      const settleId = workflowIds.monitorCheckSettle(check.id);
      await waitFor('the settle workflow started by the sweep', async () => {
        try {
          return (await ctx.client.workflow.getHandle(settleId).describe()).status.name === 'COMPLETED' ? true : undefined;
        } catch {
          return undefined;
        }
      }, CLOSE_WAIT_MS);
      ctx.fixtures.release(hold);
      await ok(call(ctx.stack.baseUrl, 'DELETE', `/monitors/${monitor.id as string}`, key(account)), 204, 'delete the monitor');
      return [{ name: 'monitorCheckSettleWorkflow.terminated-check', workflowId: settleId, covers: { 'activity:settleMonitorCheck': 1, 'end:completed': 1 } }];
    },
  },
  {
    produces: { 'extractWorkflow.completed': "a Firecrawl extract of one page: its batch job awaited, then the model's step (one chunk)" },
    async run(ctx): Promise<Recording[]> {
      ctx.llm.script({ content: JSON.stringify({ title: 'Docs 0' }) });
      const started = await ok(ctx.api('POST', '/v2/extract', { urls: [`${ctx.site.url}/docs/0`], prompt: 'the page title' }), 200, 'start an extract');
      const id = started.id as string;
      await waitFor('the extract completed', async () => {
        const [row] = await sql<{ status: string }>(ctx.stack.databaseUrl, 'SELECT status FROM extract_job WHERE id = $1', [id]);
        if (row && row.status !== 'processing' && row.status !== 'completed') throw new Error(`the extract ended ${row.status}`);
        return row?.status === 'completed' ? row : undefined;
      }, CLOSE_WAIT_MS);
      await ctx.client.workflow.getHandle(workflowIds.extract(id)).result();
      return [{ name: 'extractWorkflow.completed', workflowId: workflowIds.extract(id), covers: { 'activity:awaitExtractJobs': 1, 'activity:runExtraction': 1, 'end:completed': 1 } }];
    },
  },
  {
    produces: { 'echoWorkflow.diagnostics': 'POST /diagnostics/echo: one activity round trip' },
    async run(ctx): Promise<Recording[]> {
      const body = await ok(call(ctx.stack.baseUrl, 'POST', '/diagnostics/echo', {}, { message: 'replay' }), 200, 'echo');
      return [{ name: 'echoWorkflow.diagnostics', workflowId: body.workflowId as string, covers: { 'activity:echo': 1, 'end:completed': 1 } }];
    },
  },
];

/** Steps the history lacks, as `step (seen n, expected at least m)`. */
function missingSteps(steps: string[], covers: Record<string, number>): string[] {
  return Object.entries(covers)
    .map(([step, atLeast]) => [step, atLeast, steps.filter((s) => s === step).length] as const)
    .filter(([, atLeast, seen]) => seen < atLeast)
    .map(([step, atLeast, seen]) => `${step} (seen ${seen}, expected at least ${atLeast})`);
}

const stepsKey = (steps: string[]) => steps.join('\n');

/** The steps of every stored history, by case name (`<workflow type>.<case>`). */
function storedSteps(): Map<string, Set<string>> {
  const byCase = new Map<string, Set<string>>();
  if (!existsSync(HISTORIES_DIR)) return byCase;
  for (const stored of readHistories([HISTORIES_DIR])) {
    const name = stored.name.replace(/\.\d{4}-\d{2}-\d{2}(-\d+)?\.json$/, '');
    byCase.set(name, (byCase.get(name) ?? new Set()).add(stepsKey(historySteps(stored.history))));
  }
  return byCase;
}

/** `<name>.<YYYY-MM-DD>.json`, or `-2`, `-3`… when that file exists (never replaced). */
function newFileName(name: string): string {
  const day = new Date().toISOString().slice(0, 10);
  const taken = new Set(existsSync(HISTORIES_DIR) ? readdirSync(HISTORIES_DIR) : []);
  for (let n = 1; ; n++) {
    const file = `${name}.${day}${n === 1 ? '' : `-${n}`}.json`;
    if (!taken.has(file)) return file;
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--list')) {
    for (const scenario of SCENARIOS) for (const [name, about] of Object.entries(scenario.produces)) console.log(`${name}\n    ${about}`);
    return;
  }
  const wanted = (name: string) => args.length === 0 || args.some((prefix) => name.startsWith(prefix));
  const scenarios = SCENARIOS.filter((scenario) => Object.keys(scenario.produces).some(wanted));
  if (scenarios.length === 0) throw new Error(`no case starts with ${args.join(' or ')} (npm run record-histories -- --list)`);

  const log = (line: string) => console.log(line);
  const config = parseConfig(process.env);
  const cliPath = resolveTemporalCli(config.dataDir, log, config.TEMPORAL_CLI_PATH);
  if (!cliPath) throw new Error('No Temporal CLI: install Go (the pinned CLI is built from deploy/temporal-cli) or put `temporal` on PATH.');
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'record-histories-'));
  // PostgreSQL runs as the `postgres` user when we are root: it must be able to traverse this.
  chmodSync(scratch, 0o755);
  const [postgres, temporal] = await Promise.all([
    freePort().then((port) => startEmbeddedPostgres({ dataDir: path.join(scratch, 'pg'), port, database: 'postgres' })),
    freePort().then((port) => startTemporalDevServer({ cliPath, port, dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': SUGGEST_CONTINUE_AS_NEW_EVENTS } })),
  ]);
  process.env[TEST_ENV.adminDatabaseUrl] = postgres.url('postgres');
  process.env[TEST_ENV.temporalAddress] = temporal.address;

  const localPaymentSecret = randomBytes(24).toString('hex');
  const [fixtures, site, events, flowHook, llm] = await Promise.all([startFixtureServer(), startCrawlSite(), startEventReceiver(), startWebhookReceiver(), startFakeLlm()]);
  let stack: Stack | undefined;
  let connection: Connection | undefined;
  try {
    stack = await startStack({
      env: {
        DIAGNOSTICS_ENABLED: 'true',
        SUBSCRIPTION_PERIOD_SECONDS: String(SUBSCRIPTION_PERIOD_S),
        SUBSCRIPTION_PLANS: JSON.stringify(PLANS),
        PAYMENT_PROVIDER: 'local',
        LOCAL_PAYMENT_SECRET: localPaymentSecret,
        LLM_BASE_URL: llm.baseUrl,
        LLM_MODEL: 'fixture-model',
        // The case of a terminated check waits for the sweep that settles it.
        CLOSED_WORKFLOW_SWEEP_MS: '1000',
        CLOSED_WORKFLOW_GRACE_MS: '2000',
        ...WEBHOOK_ENV,
      },
    });
    const running = stack;
    connection = await Connection.connect({ address: temporal.address });
    const client = new Client({ connection, dataConverter: testDataConverter() });
    const accounts: TestAccount[] = [];
    const newAccount = async () => {
      const account = await createAccount(running.baseUrl, { prefix: 'sk_rec_' });
      await setBalance(running.databaseUrl, account.userId, 100_000);
      accounts.push(account);
      return account;
    };
    const account = await newAccount();
    const secrets = [running.env.BETTER_AUTH_SECRET!, localPaymentSecret];
    const ctx: Context = {
      stack: running,
      client,
      fixtures,
      site,
      events,
      flowHook,
      llm,
      account,
      localPaymentSecret,
      newAccount,
      api: (method, urlPath, body, headers = key(account)) => call(running.baseUrl, method, urlPath, headers, body),
    };

    const recordings: Recording[] = [];
    for (const scenario of scenarios) {
      const names = Object.keys(scenario.produces).join(', ');
      log(`recording ${names}`);
      recordings.push(...(await scenario.run(ctx)).filter((recording) => wanted(recording.name)));
    }

    // Every secret of every account this run made: its API key, its session, its webhook signing secret.
    for (const made of accounts) {
      const signing = await ok(call(running.baseUrl, 'GET', '/api/webhook-secret', session(made)), 200, 'read the webhook secret');
      secrets.push(made.apiKey, made.cookie.split('=')[1]!, signing.secret as string);
    }

    secrets.push(...CASE_SECRETS);
    const stored = storedSteps();
    mkdirSync(HISTORIES_DIR, { recursive: true });
    const problems: string[] = [];
    for (const recording of recordings) {
      const handle = client.workflow.getHandle(recording.workflowId, recording.runId);
      // A history is kept whole: wait for the execution to close (a lane idles 60 s before it ends).
      await waitFor(`${recording.name} (${recording.workflowId}) closed`, async () => (await handle.describe()).status.name !== 'RUNNING', CLOSE_WAIT_MS);
      const text = historyToJson(await handle.fetchHistory());
      const history = JSON.parse(text) as HistoryJson;
      const steps = historySteps(history);
      const missing = missingSteps(steps, recording.covers);
      const leaked = secretsIn(history, secrets);
      if (missing.length || leaked.length) {
        problems.push(`${recording.name} (${recording.workflowId}): ${[...missing.map((m) => `lacks ${m}`), ...leaked.map((s) => `holds ${s}`)].join('; ')}`);
        continue;
      }
      if (stored.get(recording.name)?.has(stepsKey(steps))) {
        log(`  ${recording.name}: same steps as a stored history, not written`);
        continue;
      }
      const file = newFileName(recording.name);
      writeFileSync(path.join(HISTORIES_DIR, file), `${text}\n`);
      const patches = historyPatches(history);
      log(`  wrote ${path.relative(process.cwd(), path.join(HISTORIES_DIR, file))} (${history.events.length} events${patches.length ? `; patches: ${patches.join(', ')}` : ''})`);
    }
    if (problems.length) throw new Error(`not recorded:\n  ${problems.join('\n  ')}`);
  } finally {
    await connection?.close();
    await stack?.stop();
    await Promise.all([fixtures.close(), site.close(), events.close(), flowHook.close(), llm.close()]);
    await temporal.stop();
    await postgres.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
