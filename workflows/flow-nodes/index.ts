/**
 * The workflow side's registry of flow node types: one line per type, each type one file here
 * (./kind.ts says what a type provides). The API side's is api/schemas/flow-nodes.ts.
 */
import type { FlowNodeType } from '../definitions';
import { delayNode } from './delay';
import { foreachNode } from './foreach';
import { inputNode } from './input';
import type { FlowNodeKind } from './kind';
import { scrapeNode } from './scrape';
import { webhookNode } from './webhook';

export const FLOW_NODE_KINDS = {
  scrape: scrapeNode,
  foreach: foreachNode,
  delay: delayNode,
  webhook: webhookNode,
  input: inputNode,
} satisfies Record<FlowNodeType, FlowNodeKind>;

export type { FlowNodeKind, NodeRunContext, Rendered, ScrapeOutcome } from './kind';
