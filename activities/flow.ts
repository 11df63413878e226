/**
 * Activities of flow runs (workflows/flow.workflow.ts): prepare one scrape of a flow (validate the
 * rendered request, record its scrape_run row), read back what later nodes may use, persist node
 * and run state to PostgreSQL, and POST a webhook node's payload through the scrape engine's
 * guards (SSRF, blacklist, redirect limit). All idempotent: Temporal may run any of them twice.
 */
import type { DescribedFlowScrape, RecordFlowNodeInput } from '../workflows/activities';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { parseScrapeRequest, scrapeCost } from '../scrape/request';
import { flowRunCreditsByNode, scrapeRunCredits } from '../accounts/credit';
import { type Database, toJsonColumn } from '../platform/db';
import { AppError, ERRORS, type ErrorCode } from '../platform/errors';
import type { Logger } from '../platform/logger';
import { notify } from '../notifications/notifications';
import { createFlowStore } from '../flows/store';
import { FLOW_HTML_OUTPUT_LIMIT, type FlowInputWaiting, type FlowNodeError, type FlowRunStatus, type FlowScrapeInput, type FlowScrapeOutput } from '../workflows/definitions';
import type { Blacklist } from '../scrape/blacklist';
import type { HttpEngine } from '../scrape/http/engine';
import type { ScrapeRequestPayload } from '../scrape/request';
import type { ScrapeRunStore } from '../scrape/runs';

export interface FlowActivityDeps {
  db: Database;
  logger: Logger;
  blacklist: Blacklist;
  httpEngine: HttpEngine;
  /** The scrape_run row's owner: a flow's scrapes are recorded through it. */
  runs: Pick<ScrapeRunStore, 'insertFlowRun'>;
}



/** Webhook answers that a retry may fix; any other 4xx is final (the receiver refused the payload). */
const RETRYABLE_WEBHOOK_STATUS = (status: number) => status >= 500 || status === 429 || status === 408;


const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

function nonRetryable(code: ErrorCode, message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: code, message, nonRetryable: true });
}

export function createFlowActivities(deps: FlowActivityDeps) {
  const { db } = deps;
  const flows = createFlowStore(db);

  return {
    ...createFlowInputActivities(db),

    /**
     * Validates a rendered scrape request with the API's own schema and records its scrape_run
     * (once: a retry finds the row). A request that placeholders made invalid fails the scrape
     * without a retry and without a debit.
     */
    async prepareFlowScrape(input: FlowScrapeInput): Promise<{ request: ScrapeRequestPayload; cost: number }> {
      let request;
      try {
        request = parseScrapeRequest(input.request);
      } catch (error) {
        if (error instanceof AppError) {
          const message = Array.isArray(error.message) ? error.message.join('; ') : error.message;
          throw nonRetryable(error.code, `the rendered request is invalid: ${message}`);
        }
        throw error;
      }
      const cost = scrapeCost(request);
      const workflowId = input.itemIndex === undefined ? `${input.flowRunWorkflowId}/${input.nodeId}` : `${input.flowRunWorkflowId}/${input.nodeId}/${input.itemIndex}`;
      await deps.runs.insertFlowRun({
        id: input.scrapeRunId,
        userId: input.userId,
        apiKeyId: input.apiKeyId,
        workflowId,
        mode: request.mode,
        url: request.url,
        request,
        cost,
        flowRunId: input.flowRunId,
        flowNodeId: input.nodeId,
        flowItemIndex: input.itemIndex ?? null,
      });
      const { async: _async, ...payload } = request;
      return { request: payload, cost };
    },

    /** Attempts, credits kept and (when it succeeded) the output later nodes may read. */
    async describeFlowScrape(input: { scrapeRunId: string }): Promise<DescribedFlowScrape> {
      const run = await db.scrapeRun.findUnique({ where: { id: input.scrapeRunId } });
      if (!run) return { attempts: 0, credits: 0 };
      const credits = await scrapeRunCredits(db, run.id);
      if (run.status !== 'succeeded') return { attempts: run.attempts, credits };
      const stored = (run.result ?? {}) as { final_url?: string; status?: number; data?: unknown[]; html?: string; screenshot?: unknown };
      const output: FlowScrapeOutput = { url: run.url, final_url: stored.final_url ?? run.url, status: run.httpStatus };
      if (stored.data !== undefined) output.data = stored.data;
      else if (typeof stored.html === 'string') {
        output.html = stored.html.slice(0, FLOW_HTML_OUTPUT_LIMIT);
        if (stored.html.length > FLOW_HTML_OUTPUT_LIMIT) output.html_truncated = true;
      }
      // An input node with `screenshot: true` shows it to the person who answers.
      if (stored.screenshot !== undefined) output.screenshot = stored.screenshot;
      return { attempts: run.attempts, credits, output };
    },

    /** Credits kept by every scrape of one node (a foreach's items). */
    async flowNodeCredits(input: { flowRunId: string; nodeId: string }): Promise<number> {
      return (await flowRunCreditsByNode(db, input.flowRunId)).get(input.nodeId) ?? 0;
    },

    /** Writes a node's state (when it starts and when it ends). A finished node is never reopened. */
    async recordFlowNode(input: RecordFlowNodeInput): Promise<void> {
      await flows.recordNode(input);
    },

    /** Writes the run's status; a finished run is never reopened (a replayed "running" is ignored). */
    async recordFlowRun(input: { flowRunId: string; status: FlowRunStatus; error?: FlowNodeError }): Promise<void> {
      await flows.recordRun(input);
      if (input.status === 'succeeded' || input.status === 'failed') {
        // Once per run (the dedupe key), however often this activity is retried.
        const run = await db.flowRun.findUniqueOrThrow({ where: { id: input.flowRunId }, include: { flow: { select: { name: true } } } });
        const base = { flowId: run.flowId, runId: run.id, flowName: run.flow.name };
        const event =
          input.status === 'succeeded'
            ? { type: 'flow.run.succeeded' as const, ...base, credits: sum((await flowRunCreditsByNode(db, run.id)).values()) }
            : { type: 'flow.run.failed' as const, ...base, error: input.error?.message };
        await notify(db, run.userId, event, { dedupeKey: `flow.run:${run.id}` });
      }
      if (input.status === 'cancelled') {
        // Nodes that had not finished are cancelled with the run.
        await flows.cancelOpenNodes(input.flowRunId);
      }
    },

    /**
     * POSTs the run's outputs so far (every finished node, each foreach item) as JSON to a
     * webhook node's URL, through the http engine: the same SSRF guard, blacklist, redirect and
     * size limits as a scrape. 5xx/429/408 and network errors are retried; another 4xx is final.
     */
    async postFlowWebhook(input: { flowRunId: string; nodeId: string; url: string }): Promise<{ status: number; attempts: number }> {
      const ctx = Context.current();
      const attempt = ctx.info.attempt;
      await flows.recordNodeAttempt(input.flowRunId, input.nodeId, attempt);
      const payload = await flowRunPayload(db, input.flowRunId);
      try {
        const result = await deps.httpEngine.scrape(
          { url: input.url, method: 'POST', headers: { 'content-type': 'application/json', 'x-flow-run-id': input.flowRunId }, body: payload },
          { signal: ctx.cancellationSignal, timeoutMs: 15_000, isBlacklisted: deps.blacklist.isBlacklisted },
        );
        if (result.status >= 400) {
          const message = `the webhook answered HTTP ${result.status}`;
          if (RETRYABLE_WEBHOOK_STATUS(result.status)) throw ApplicationFailure.create({ type: 'TARGET_ERROR', message });
          throw nonRetryable('WEBHOOK_REJECTED', message);
        }
        return { status: result.status, attempts: attempt };
      } catch (error) {
        if (error instanceof ApplicationFailure) throw error;
        if (error instanceof AppError) {
          const final = !ERRORS[error.code].retryable;
          throw ApplicationFailure.create({ type: error.code, message: String(error.message), nonRetryable: final });
        }
        throw error;
      }
    },
  };
}

export type FlowActivities = ReturnType<typeof createFlowActivities>;

/** The input nodes' bookkeeping (workflows/flow-nodes/input.ts). */
function createFlowInputActivities(db: Database) {
  const flows = createFlowStore(db);
  return {
    /**
     * An input node starts waiting (docs/flows.md, "The input node"): the node shows its prompt
     * (its output while it waits), the run turns `waiting_input`, the account gets a
     * notification (once: keyed by run and node). Answers the data of the flow.input_required
     * event, which the workflow emits. Idempotent: a retry writes the same and notifies nothing new.
     */
    async recordFlowInputRequired(input: { flowRunId: string; nodeId: string; waiting: FlowInputWaiting }): Promise<Record<string, unknown>> {
      await flows.recordNode({ flowRunId: input.flowRunId, nodeId: input.nodeId, status: 'waiting_input', output: input.waiting });
      await flows.recordRunWaiting(input.flowRunId, true);
      const run = await db.flowRun.findUniqueOrThrow({ where: { id: input.flowRunId }, include: { flow: { select: { name: true } } } });
      const links = flowInputLinks(run.flowId, run.id);
      await notify(
        db,
        run.userId,
        { type: 'flow.input_required', flowId: run.flowId, runId: run.id, flowName: run.flow.name, node: input.nodeId, prompt: input.waiting.prompt, expiresAt: input.waiting.expires_at, answer: links.input, dashboard: links.dashboard },
        { dedupeKey: `flow.input:${run.id}:${input.nodeId}` },
      );
      return {
        object: 'flow_run',
        id: run.id,
        flow_id: run.flowId,
        flow_name: run.flow.name,
        flow_version: run.flowVersion,
        status: 'waiting_input',
        node: input.nodeId,
        prompt: input.waiting.prompt,
        expires_at: input.waiting.expires_at,
        ...(input.waiting.screenshot !== undefined ? { screenshot: input.waiting.screenshot } : {}),
        links,
      };
    },

    async recordFlowRunWaiting(input: { flowRunId: string; waiting: boolean }): Promise<void> {
      await flows.recordRunWaiting(input.flowRunId, input.waiting);
    },
  };
}

/** Where a waiting run is answered: the API route (POST `{ node, value }`) and the dashboard page. Relative to the service's address, like every event's links. */
export function flowInputLinks(flowId: string, runId: string) {
  return { self: `/flows/${flowId}/runs/${runId}`, input: `/flows/${flowId}/runs/${runId}/input`, dashboard: `/dashboard/flows/${flowId}/runs/${runId}` };
}

/**
 * A run's outputs as a webhook receives them: `{ flow, run, nodes: { <id>: { type, status,
 * output, error, items? } } }`, where a foreach node lists each item's url, status and data.
 */
export async function flowRunPayload(db: Database, flowRunId: string) {
  const run = await db.flowRun.findUniqueOrThrow({ where: { id: flowRunId }, include: { nodes: true, flow: { select: { id: true, name: true } } } });
  const items = await db.scrapeRun.findMany({
    where: { flowRunId, flowItemIndex: { not: null } },
    orderBy: [{ flowNodeId: 'asc' }, { flowItemIndex: 'asc' }],
    select: { id: true, flowNodeId: true, flowItemIndex: true, url: true, status: true, httpStatus: true, result: true, error: true },
  });
  const nodes: Record<string, unknown> = {};
  for (const node of run.nodes) {
    const entry: Record<string, unknown> = { type: node.type, status: node.status, output: node.output, error: node.error ?? undefined };
    if (node.type === 'foreach') {
      entry.items = items
        .filter((i) => i.flowNodeId === node.nodeId)
        .map((i) => ({
          index: i.flowItemIndex,
          run_id: i.id,
          url: i.url,
          status: i.status,
          http_status: i.httpStatus,
          data: (i.result as { data?: unknown } | null)?.data,
          error: i.error ?? undefined,
        }));
    }
    nodes[node.nodeId] = entry;
  }
  return toJsonColumn({ flow: { id: run.flow.id, name: run.flow.name, version: run.flowVersion }, run: { id: run.id, status: run.status }, nodes }) as Record<string, unknown>;
}
