/**
 * What a flow node type is: its config rules (checked by the API when a flow is saved) and its
 * runner (run by the flow workflow). Each type is one file in this folder; the registries list
 * them: `FLOW_NODE_KINDS` here (./index.ts), the API's pricing in api/schemas/flow-nodes.ts,
 * both typed over `FlowNodeType` (workflows/flow-definitions.ts), so the compiler names every slot a
 * new type must fill.
 *
 * Pure: no Temporal import. What a runner does in the workflow (timers, activities, child
 * workflows) it asks of its `NodeRunContext`, so the same file loads in the API and in the sandbox.
 */
import type { FlowNodeDefinition, FlowNodeError, FlowNodeState, FlowScrapeOutput, ForeachSummary } from '../definitions';

/** How placeholders are resolved for a node (workflows/flow-dag.ts resolvePlaceholders). */
export interface ResolveScope {
  /** The current element of a foreach, for `{{ item... }}`. */
  item?: unknown;
  /** Leave `{{ item... }}` as written (a foreach's request is rendered against `nodes` first, per item later). */
  keepItem?: boolean;
}

export type Rendered<T> = { ok: true; value: T } | { ok: false; error: FlowNodeError };

export type ScrapeOutcome =
  | { ok: true; output: FlowScrapeOutput; attempts: number; credits: number }
  | { ok: false; error: FlowNodeError; attempts: number; credits: number };

/** What the flow workflow offers a node's runner. */
export interface NodeRunContext {
  /** Renders a value's placeholders against the outputs of earlier nodes; a missing value fails the node (PLACEHOLDER). */
  render<T>(value: T, scope?: ResolveScope): Rendered<T>;
  /** Makes a value this node's output (`{{ nodes.<id>... }}` of later nodes). */
  setOutput(value: unknown): void;
  /** Records the node as succeeded. */
  succeed(patch: Partial<FlowNodeState>): Promise<true>;
  /** Records the node as failed. */
  fail(error: FlowNodeError, patch?: Partial<FlowNodeState>): Promise<false>;
  /** A durable timer. */
  sleep(ms: number): Promise<void>;
  /** One scrape of a rendered request: prepare, debit once, the page with retries, record. */
  scrape(request: Record<string, unknown>): Promise<ScrapeOutcome>;
  /** Scrapes each item of a list with `request` (its `{{ item }}` placeholders still in it), in a child workflow. */
  scrapeEach(items: unknown[], request: Record<string, unknown>, concurrency: number): Promise<ForeachSummary>;
  /** Credits the node's scrapes spent (from the ledger). */
  credits(): Promise<number>;
  /** POSTs the run's outputs to a URL (retried, through the SSRF guard). */
  postWebhook(url: string): Promise<{ status: number; attempts: number }>;
  /**
   * Shows the node as waiting for a person (`waiting_input`, flow.input_required) and waits for
   * the answer (the `flowInput` Update) or the timeout, whichever comes first.
   */
  waitForInput(ask: { prompt: string; timeoutMs: number; screenshot: boolean }): Promise<{ answered: true; value: string } | { answered: false }>;
}

export interface FlowNodeKind {
  /** Problems of a node's config ([] when valid); `at` names it in messages (`node "x" config`). */
  configProblems(config: Record<string, unknown>, at: string): string[];
  /** Where the config holds a scrape request, for the API's full check of it (with sample values for placeholders). */
  scrapeRequest?: { at: 'config' | 'config.request'; of(config: Record<string, unknown>): unknown };
  /** Where in the config `{{ item }}` may appear (a path prefix); nowhere when absent. */
  itemScope?: string;
  /** Runs the node; true when it succeeded (its dependants run), false when it failed. */
  run(node: FlowNodeDefinition, ctx: NodeRunContext): Promise<boolean>;
}
