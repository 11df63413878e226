/**
 * Client-safe definitions of flow runs (docs/flows.md) shared by the API, workers and workflows:
 * node types, inputs, states and outputs. No Node built-ins and no activity code here.
 * definitions.ts re-exports them.
 */
import type { ErrorCode } from '../platform/errors';
import type { WebhookSpec } from '../webhooks/spec';

/** `waiting_input`: an input node waiting for a person's answer (workflows/flow-nodes/input.ts). */
export type FlowNodeStatus = 'pending' | 'running' | 'waiting_input' | 'succeeded' | 'failed' | 'skipped' | 'cancelled';
/** `waiting_input`: at least one of the run's input nodes is waiting for an answer, and nothing else is running. */
export type FlowRunStatus = 'queued' | 'running' | 'waiting_input' | 'succeeded' | 'failed' | 'cancelled';

/**
 * The flow node types, declared once. Each is a file in workflows/flow-nodes/ and a line in the
 * two registries typed over these names (FLOW_NODE_KINDS there, FLOW_NODE_PRICING in
 * api/schemas/flow-nodes.ts).
 */
export const FLOW_NODE_TYPES = ['scrape', 'foreach', 'delay', 'webhook', 'input'] as const;
export type FlowNodeType = (typeof FLOW_NODE_TYPES)[number];

export interface FlowNodeDefinition {
  id: string;
  type: FlowNodeType;
  config: Record<string, unknown>;
  needs: string[];
}

export interface FlowWorkflowInput {
  flowRunId: string;
  flowId: string;
  flowVersion: number;
  userId: string;
  apiKeyId: string | null;
  /** The definition this run executes (a snapshot: editing the flow never changes a run). */
  nodes: FlowNodeDefinition[];
  browserQueue: string;
  /**
   * Emit `flow.run.completed` / `flow.run.failed` when the run ends (docs/webhooks.md): to this
   * request's own webhook, if any, and the account's endpoints. Absent (runs started before): none.
   */
  events?: { webhook?: WebhookSpec };
}

export interface FlowNodeError {
  code: ErrorCode;
  message: string;
}

/** A node's state, as the `flowRunState` query answers and flow_run_node stores it. */
export interface FlowNodeState {
  status: FlowNodeStatus;
  attempts: number;
  credits: number;
  output?: unknown;
  error?: FlowNodeError;
  items?: ForeachSummary;
  /** An input node while it waits: what it asks (and the screenshot it shows). */
  waiting?: FlowInputWaiting;
}

export interface FlowRunState {
  status: FlowRunStatus;
  nodes: Record<string, FlowNodeState>;
}

/** A run with failed nodes fails its workflow (ApplicationFailure NODE_FAILED, details `{ failedNodes }`). */
export type FlowWorkflowOutput = { status: 'succeeded' | 'failed'; failedNodes: string[] };

/** What a scrape node exposes to later nodes' placeholders (the full result stays in scrape_run). */
export interface FlowScrapeOutput {
  url: string;
  final_url: string;
  status: number | null;
  data?: unknown[];
  /** The document when the request had no selectors, up to FLOW_HTML_OUTPUT_LIMIT characters. */
  html?: string;
  html_truncated?: boolean;
  /** The page's screenshot when the request asked for one (`formats`): its reference `{ url, width, height, bytes }`, never the PNG. */
  screenshot?: unknown;
}

/** Characters of a selector-less scrape's HTML carried into the flow (its history and placeholders). */
export const FLOW_HTML_OUTPUT_LIMIT = 64 * 1024;

export interface ForeachItemFailure {
  index: number;
  code: ErrorCode;
  message: string;
}

/** A foreach node's output: counts and the first failures (each item's content is in scrape_run). */
export interface ForeachSummary {
  total: number;
  succeeded: number;
  failed: number;
  /** The first MAX_REPORTED_ITEM_FAILURES failures, by index. */
  failures: ForeachItemFailure[];
}

export const MAX_REPORTED_ITEM_FAILURES = 100;
/** Items one foreach execution handles before it continues as new (keeps each history small). */
export const FOREACH_ITEMS_PER_EXECUTION = 100;

export interface ForeachWorkflowInput {
  flowRunId: string;
  flowRunWorkflowId: string;
  nodeId: string;
  userId: string;
  apiKeyId: string | null;
  items: unknown[];
  /** The request with `{{ item... }}` placeholders still in it (`{{ nodes... }}` already resolved). */
  request: Record<string, unknown>;
  concurrency: number;
  browserQueue: string;
  /** Continue-as-new state: where this execution starts and what the earlier ones counted. */
  nextIndex: number;
  summary: ForeachSummary;
}

/** One scrape of a flow (a scrape node, or one item of a foreach). */
export interface FlowScrapeInput {
  scrapeRunId: string;
  flowRunId: string;
  flowRunWorkflowId: string;
  nodeId: string;
  itemIndex?: number;
  userId: string;
  apiKeyId: string | null;
  /** Rendered but not yet validated: the prepare activity parses it with the API's schema. */
  request: Record<string, unknown>;
  browserQueue: string;
}

/** What an input node shows while it waits (flow_run_node.output until it is answered). */
export interface FlowInputWaiting {
  prompt: string;
  /** When the node stops waiting and fails with INPUT_TIMEOUT (ISO time). */
  expires_at: string;
  /** The screenshot of the page the node's needed scrape left (`screenshot: true`), as that scrape stored it. */
  screenshot?: unknown;
}

/** The answer to an input node: `POST /flows/:id/runs/:runId/input` carries it to the run as the `flowInput` Update. */
export interface FlowInputAnswer {
  node: string;
  value: string;
}

/** An input node waits this long by default, and at least / at most these (its `timeout`, in seconds). */
export const INPUT_TIMEOUT_DEFAULT_S = 86_400;
export const INPUT_TIMEOUT_MIN_S = 1;
export const INPUT_TIMEOUT_MAX_S = 7 * 86_400;
/** An answer's `value` is a string of at most this many characters (a code, a choice, a line of text). */
export const INPUT_VALUE_MAX_CHARS = 10_000;
/** A prompt's length bound. */
export const INPUT_PROMPT_MAX_CHARS = 2_000;
