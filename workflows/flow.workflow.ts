/**
 * Flow runs (docs/flows.md). `flowWorkflow` runs a flow's DAG: every node starts as soon as the
 * nodes it needs have succeeded, so independent branches run in parallel; a failed node skips
 * its dependants and the other branches go on. Node types:
 *   scrape  - one scrape (prepare → debit once → scrape activity with retries → record), inline;
 *   foreach - a child workflow (`foreachWorkflow`) scraping each item of an earlier node's list
 *             with bounded parallelism; it continues as new every FOREACH_ITEMS_PER_EXECUTION
 *             items, so a list of thousands never grows one history past a few thousand events;
 *   delay   - a durable timer;
 *   webhook - an activity POSTing the run's outputs (through the engine's SSRF guard);
 *   input   - waits for a person's answer (the `flowInput` Update) or its timeout: a condition
 *             with a timer, so a waiting run holds no worker slot and spends nothing.
 * The run's state answers the `flowRunState` query and is written to PostgreSQL when each node
 * starts and ends. Cancelling the workflow cancels what is in flight, records the cancellation
 * and refunds nothing already spent.
 */
import {
  ApplicationFailure,
  CancellationScope,
  ParentClosePolicy,
  condition,
  continueAsNew,
  defineQuery,
  defineUpdate,
  executeChild,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from './activities';
import { NON_RETRYABLE_CODES } from '../platform/errors';
import {
  FOREACH_ITEMS_PER_EXECUTION,
  MAX_REPORTED_ITEM_FAILURES,
  type FlowInputAnswer,
  type FlowInputWaiting,
  type FlowNodeDefinition,
  type FlowNodeError,
  type FlowNodeState,
  type FlowRunState,
  type FlowScrapeInput,
  type FlowWorkflowInput,
  type FlowWorkflowOutput,
  type ForeachSummary,
  type ForeachWorkflowInput,
  workflowIds,
} from './definitions';
import { PlaceholderError, resolvePlaceholders, topologicalLevels } from './flow-dag';
import { FLOW_NODE_KINDS, type FlowNodeKind, type NodeRunContext, type Rendered, type ScrapeOutcome } from './flow-nodes';
import { describeFailure, runScrapeSteps } from './scrape-steps';
import { emitWebhookEvents } from './webhook.workflow';
import type { ResolveScope } from './flow-nodes/kind';

export const flowRunStateQuery = defineQuery<FlowRunState>('flowRunState');
/**
 * The answer to a waiting input node (docs/flows.md, "The input node"). An Update rather than a
 * Signal: its validator refuses an answer for a node that is not waiting (never started, already
 * answered, timed out, or no such node), and the caller learns it (409) instead of the answer
 * vanishing; a refused answer leaves nothing in the history.
 */
export const flowInputUpdate = defineUpdate<{ node: string; accepted: true }, [FlowInputAnswer]>('flowInput');

/**
 * Input nodes (`workflows/flow-nodes/input.ts`): the type is new in this version. A run recorded by
 * workers without it failed such a node as an unknown type; replaying it must do the same.
 */
export const FLOW_INPUT_PATCH = 'flow-input-v1';

/**
 * The wait of an input node ends at the `expires_at` it advertised (issue 37): its timer runs for
 * what is left of the timeout once the wait is recorded and announced, not the whole timeout
 * again. Runs recorded before waited the whole timeout from there; replaying them keeps that.
 */
export const INPUT_EXPIRY_PATCH = 'flow-input-expiry-v1';

export const foreachProgressQuery = defineQuery<ForeachSummary & { nextIndex: number; inFlight: number }>('foreachProgress');

/** Bookkeeping against PostgreSQL: short, retried until the database answers. */
const bookkeeping = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '5 seconds' },
});

/** Preparing a scrape validates its rendered request: an invalid one is final, not retried. */
const prepare = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '5 seconds', nonRetryableErrorTypes: [...NON_RETRYABLE_CODES] },
});

const webhook = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    maximumAttempts: 3,
    initialInterval: '500 milliseconds',
    backoffCoefficient: 2,
    nonRetryableErrorTypes: [...NON_RETRYABLE_CODES],
  },
});


/** One scrape of a flow: a scrape node, or one item of a foreach. */
async function runFlowScrape(input: FlowScrapeInput): Promise<ScrapeOutcome> {
  let prepared;
  try {
    prepared = await prepare.prepareFlowScrape(input);
  } catch (error) {
    if (isCancellation(error)) throw error;
    return { ok: false, error: describeFailure(error), attempts: 0, credits: 0 };
  }
  const outcome = await runScrapeSteps({
    runId: input.scrapeRunId,
    userId: input.userId,
    apiKeyId: input.apiKeyId,
    cost: prepared.cost,
    request: prepared.request,
    browserQueue: input.browserQueue,
  });
  const described = await bookkeeping.describeFlowScrape({ scrapeRunId: input.scrapeRunId });
  if (outcome.status === 'succeeded' && described.output) return { ok: true, output: described.output, attempts: described.attempts, credits: described.credits };
  const error: FlowNodeError = outcome.status === 'failed' ? { code: outcome.code, message: outcome.message } : { code: 'SCRAPE_FAILED', message: 'the scrape left no result' };
  return { ok: false, error, attempts: described.attempts, credits: described.credits };
}


/** Renders a node's config against earlier outputs; a missing value fails the node, not the run. */
function render<T>(value: T, outputs: Record<string, unknown>, scope: ResolveScope = {}): Rendered<T> {
  try {
    return { ok: true, value: resolvePlaceholders(value, outputs, scope) };
  } catch (error) {
    if (error instanceof PlaceholderError) return { ok: false, error: { code: 'PLACEHOLDER', message: error.message } };
    throw error;
  }
}

/**
 * The run's input nodes (workflows/flow-nodes/input.ts): the `flowInput` Update's handler, and each
 * node's wait, recorded and announced, then a condition with a timer (no activity).
 */
function inputWaits(input: FlowWorkflowInput, state: FlowRunState, outputs: Record<string, unknown>) {
  // Input nodes waiting for an answer, by node id (`answer` set by the flowInput Update).
  const waitingInputs = new Map<string, { answer?: string }>();
  setHandler(
    flowInputUpdate,
    // Synchronous: the answer is taken before the next Update's validator runs, so a second answer
    // in the same activation is refused too. Validators do not run on replay; this handler does.
    ({ node, value }: FlowInputAnswer) => {
      const slot = waitingInputs.get(node);
      if (!slot || slot.answer !== undefined) throw ApplicationFailure.nonRetryable(`node "${node}" is not waiting for input`, 'CONFLICT');
      slot.answer = value;
      return { node, accepted: true as const };
    },
    {
      validator: (answer: FlowInputAnswer | undefined) => {
        const slot = answer && typeof answer.node === 'string' ? waitingInputs.get(answer.node) : undefined;
        if (!slot || slot.answer !== undefined) throw new Error(`node "${String(answer?.node)}" is not waiting for input`);
        if (typeof answer?.value !== 'string') throw new Error('value must be a string');
      },
    },
  );

  /** The screenshot a needed node's scrape took (the first need that has one). */
  function screenshotOfNeeds(node: FlowNodeDefinition): unknown {
    for (const need of node.needs) {
      const shot = (outputs[need] as { screenshot?: unknown } | undefined)?.screenshot;
      if (shot !== undefined) return shot;
    }
    return undefined;
  }

  async function waitFor(node: FlowNodeDefinition, ask: { prompt: string; timeoutMs: number; screenshot: boolean }) {
    const screenshot = ask.screenshot ? screenshotOfNeeds(node) : undefined;
    const waiting: FlowInputWaiting = {
      prompt: ask.prompt,
      expires_at: new Date(Date.now() + ask.timeoutMs).toISOString(),
      ...(screenshot !== undefined ? { screenshot } : {}),
    };
    const slot: { answer?: string } = {};
    waitingInputs.set(node.id, slot);
    state.nodes[node.id] = { ...state.nodes[node.id]!, status: 'waiting_input', waiting };
    state.status = 'waiting_input';
    const event = await bookkeeping.recordFlowInputRequired({ flowRunId: input.flowRunId, nodeId: node.id, waiting });
    // flow.input_required (docs/webhooks.md): the run's own webhook and the account's endpoints.
    await emitWebhookEvents([
      {
        kind: 'custom',
        userId: input.userId,
        type: 'flow.input_required',
        subject: `flow_input:${input.flowRunId}:${node.id}`,
        data: event,
        ...(input.events?.webhook ? { webhook: input.events.webhook } : {}),
      },
    ]);
    // The workflow's clock moved on while the two activities above ran: wait only what is left (at
    // least 1 ms, so the wait is a timer as before, and an answer already taken still counts).
    const waitMs = patched(INPUT_EXPIRY_PATCH) ? Math.max(1, Date.parse(waiting.expires_at) - Date.now()) : ask.timeoutMs;
    let answered: boolean;
    try {
      answered = await condition(() => slot.answer !== undefined, waitMs);
    } finally {
      // From here on an answer for this node is refused (the validator finds no slot).
      waitingInputs.delete(node.id);
      const { waiting: _shown, ...rest } = state.nodes[node.id]!;
      state.nodes[node.id] = { ...rest, status: 'running' };
      if (waitingInputs.size === 0 && state.status === 'waiting_input') state.status = 'running';
    }
    if (waitingInputs.size === 0) await bookkeeping.recordFlowRunWaiting({ flowRunId: input.flowRunId, waiting: false });
    return answered ? { answered: true as const, value: slot.answer! } : { answered: false as const };
  }

  return { waitFor };
}

export async function flowWorkflow(input: FlowWorkflowInput): Promise<FlowWorkflowOutput> {
  const state: FlowRunState = { status: 'running', nodes: {} };
  for (const node of input.nodes) state.nodes[node.id] = { status: 'pending', attempts: 0, credits: 0 };
  setHandler(flowRunStateQuery, () => state);

  const outputs: Record<string, unknown> = {};
  const flowRunWorkflowId = workflowInfo().workflowId;
  const inputs = inputWaits(input, state, outputs);

  const finishNode = async (id: string, patch: Partial<FlowNodeState> & Pick<FlowNodeState, 'status'>) => {
    const node = { ...state.nodes[id]!, ...patch };
    state.nodes[id] = node;
    await bookkeeping.recordFlowNode({ flowRunId: input.flowRunId, nodeId: id, ...patch });
  };

  /** What a node's runner may do (workflows/flow-nodes/kind.ts), bound to the node. */
  const contextOf = (node: FlowNodeDefinition): NodeRunContext => ({
    render: (value, scope) => render(value, outputs, scope),
    setOutput: (value) => {
      outputs[node.id] = value;
    },
    succeed: async (patch) => {
      await finishNode(node.id, { status: 'succeeded', ...patch });
      return true;
    },
    fail: (error, patch) => failNode(node.id, error, patch),
    sleep: (ms) => sleep(ms),
    scrape: (request) =>
      runFlowScrape({
        scrapeRunId: uuid4(),
        flowRunId: input.flowRunId,
        flowRunWorkflowId,
        nodeId: node.id,
        userId: input.userId,
        apiKeyId: input.apiKeyId,
        request,
        browserQueue: input.browserQueue,
      }),
    scrapeEach: (items, request, concurrency) =>
      executeChild(foreachWorkflow, {
        workflowId: workflowIds.flowForeach(flowRunWorkflowId, node.id),
        // The run's cancellation reaches the child; the child never outlives the run.
        parentClosePolicy: ParentClosePolicy.TERMINATE,
        args: [
          {
            flowRunId: input.flowRunId,
            flowRunWorkflowId,
            nodeId: node.id,
            userId: input.userId,
            apiKeyId: input.apiKeyId,
            items,
            request,
            concurrency,
            browserQueue: input.browserQueue,
            nextIndex: 0,
            summary: { total: items.length, succeeded: 0, failed: 0, failures: [] },
          } satisfies ForeachWorkflowInput,
        ],
      }),
    credits: () => bookkeeping.flowNodeCredits({ flowRunId: input.flowRunId, nodeId: node.id }),
    postWebhook: (url) => webhook.postFlowWebhook({ flowRunId: input.flowRunId, nodeId: node.id, url }),
    waitForInput: (ask) => inputs.waitFor(node, ask),
  });

  async function runNode(node: FlowNodeDefinition): Promise<boolean> {
    state.nodes[node.id]!.status = 'running';
    await bookkeeping.recordFlowNode({ flowRunId: input.flowRunId, nodeId: node.id, status: 'running' });
    const kind: FlowNodeKind | undefined = node.type === 'input' && !patched(FLOW_INPUT_PATCH) ? undefined : FLOW_NODE_KINDS[node.type];
    if (!kind) return failNode(node.id, { code: 'BAD_REQUEST', message: `unknown node type ${String(node.type)}` });
    try {
      return await kind.run(node, contextOf(node));
    } catch (error) {
      if (isCancellation(error)) {
        state.nodes[node.id]!.status = 'cancelled';
        throw error;
      }
      // A bug or an unexpected failure (a webhook refused): the node fails, the run records why.
      return failNode(node.id, describeFailure(error));
    }
  }

  async function failNode(id: string, error: FlowNodeError, extra: Partial<FlowNodeState> = {}): Promise<false> {
    await finishNode(id, { status: 'failed', error, ...extra });
    return false;
  }

  await bookkeeping.recordFlowRun({ flowRunId: input.flowRunId, status: 'running' });
  try {
    // Each node waits for exactly the nodes it needs (no barrier per level).
    const order = topologicalLevels(input.nodes).flat();
    const byId = new Map(input.nodes.map((n) => [n.id, n]));
    const done = new Map<string, Promise<boolean>>();
    for (const id of order) {
      const node = byId.get(id)!;
      done.set(
        id,
        (async () => {
          const needs = await Promise.all(node.needs.map((n) => done.get(n)!));
          if (needs.every(Boolean)) return runNode(node);
          await finishNode(id, { status: 'skipped' });
          return false;
        })(),
      );
    }
    await Promise.all(done.values());
  } catch (error) {
    if (isCancellation(error)) {
      state.status = 'cancelled';
      for (const node of Object.values(state.nodes)) if (node.status === 'pending' || node.status === 'running') node.status = 'cancelled';
      await CancellationScope.nonCancellable(() =>
        bookkeeping.recordFlowRun({ flowRunId: input.flowRunId, status: 'cancelled', error: { code: 'CANCELLED', message: 'the run was cancelled' } }),
      );
    }
    throw error;
  }

  const failedNodes = Object.entries(state.nodes)
    .filter(([, n]) => n.status === 'failed')
    .map(([id]) => id);
  state.status = failedNodes.length ? 'failed' : 'succeeded';
  const error: FlowNodeError = { code: 'NODE_FAILED', message: `failed nodes: ${failedNodes.join(', ')}` };
  await bookkeeping.recordFlowRun({ flowRunId: input.flowRunId, status: state.status, ...(failedNodes.length ? { error } : {}) });
  // flow.run.completed / flow.run.failed (docs/webhooks.md); runs started before have no `events`.
  if (input.events) await emitWebhookEvents([{ kind: 'flow_run', id: input.flowRunId, ...(input.events.webhook ? { webhook: input.events.webhook } : {}) }]);
  // A failed run fails its workflow too, so operators find it by `ExecutionStatus = "Failed"`.
  if (failedNodes.length) throw ApplicationFailure.nonRetryable(error.message, error.code, { failedNodes });
  return { status: state.status, failedNodes };
}

/**
 * A foreach node: scrapes each item with at most `concurrency` in flight; a failed item is
 * counted and reported, the others go on. Continues as new every FOREACH_ITEMS_PER_EXECUTION
 * items (after the in-flight ones finish), carrying only the counts and the first failures.
 */
export async function foreachWorkflow(input: ForeachWorkflowInput): Promise<ForeachSummary> {
  const summary: ForeachSummary = { ...input.summary, failures: [...input.summary.failures] };
  const end = Math.min(input.items.length, input.nextIndex + FOREACH_ITEMS_PER_EXECUTION);
  let next = input.nextIndex;
  let inFlight = 0;
  setHandler(foreachProgressQuery, () => ({ ...summary, nextIndex: next, inFlight }));

  async function runItem(index: number): Promise<void> {
    const request = render(input.request, {}, { item: input.items[index] });
    const outcome: ScrapeOutcome = !request.ok
      ? { ok: false, error: request.error, attempts: 0, credits: 0 }
      : await runFlowScrape({
          scrapeRunId: uuid4(),
          flowRunId: input.flowRunId,
          flowRunWorkflowId: input.flowRunWorkflowId,
          nodeId: input.nodeId,
          itemIndex: index,
          userId: input.userId,
          apiKeyId: input.apiKeyId,
          request: request.value,
          browserQueue: input.browserQueue,
        });
    if (outcome.ok) {
      summary.succeeded += 1;
    } else {
      summary.failed += 1;
      if (summary.failures.length < MAX_REPORTED_ITEM_FAILURES) summary.failures.push({ index, ...outcome.error });
    }
  }

  async function lane(): Promise<void> {
    while (next < end) {
      const index = next++;
      inFlight += 1;
      try {
        await runItem(index);
      } finally {
        inFlight -= 1;
      }
    }
  }

  await Promise.all(Array.from({ length: Math.max(1, input.concurrency) }, lane));
  summary.failures.sort((a, b) => a.index - b.index);
  if (end < input.items.length) {
    await continueAsNew<typeof foreachWorkflow>({ ...input, nextIndex: end, summary });
  }
  return summary;
}
