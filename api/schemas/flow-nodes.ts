/**
 * The API side's registry of flow node types: what each costs at least before a run starts
 * (402 below the sum). One line per type, typed over the declared names (workflows/flow-definitions.ts
 * FLOW_NODE_TYPES); the types' config rules and runners are their files in workflows/flow-nodes/.
 */
import { SCRAPE_MODES, type ScrapeMode } from '../../scrape/engines';
import { scrapeCost } from '../../scrape/request';
import type { FlowNodeType } from '../../workflows/definitions';

export interface FlowNodePricing {
  /** Credits the node costs for sure, known from its config (each scrape debits its own price when it runs). */
  minimumCost(config: Record<string, unknown>): number;
  /** What the node spends, in words, for the price list (GET /pricing). */
  spends: string;
}

function scrapeNodeCost(config: Record<string, unknown>): number {
  const mode = (SCRAPE_MODES as readonly unknown[]).includes(config.mode) ? (config.mode as ScrapeMode) : 'http';
  return scrapeCost({ mode, capture_network: config.capture_network === true, formats: Array.isArray(config.formats) ? config.formats : undefined, actions: Array.isArray(config.actions) ? config.actions : undefined });
}

export const FLOW_NODE_PRICING = {
  scrape: { minimumCost: scrapeNodeCost, spends: 'the price of its scrape request, when it runs' },
  // Its items' prices, as they run: unknown up front.
  foreach: { minimumCost: () => 0, spends: 'the price of each scrape its items run' },
  delay: { minimumCost: () => 0, spends: 'nothing' },
  webhook: { minimumCost: () => 0, spends: 'nothing' },
  // Waiting is a timer in the run's workflow: no activity, no worker slot.
  input: { minimumCost: () => 0, spends: 'nothing, however long it waits' },
} satisfies Record<FlowNodeType, FlowNodePricing>;
