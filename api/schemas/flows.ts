/**
 * Flow bodies (`/flows/*`): `{ name, description?, nodes }`. The DAG rules live in
 * workflows/flow-dag.ts (shared with the flow workflow); this module plugs the API's scrape
 * request schema into them, so a node's request is checked exactly as POST /webhook/unblocker
 * checks a body. Every problem is reported at once, as a 422 list.
 */
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { FLOW_NODE_TYPES, type FlowNodeDefinition } from '../../workflows/definitions';
import { validateFlow } from '../../workflows/flow-dag';
import { FLOW_NODE_KINDS } from '../../workflows/flow-nodes';
import { parseScrapeRequest } from '../../scrape/request';
import { FLOW_NODE_PRICING } from './flow-nodes';

export const MAX_DESCRIPTION = 1000;

/**
 * The shape of a flow body, for the document: `parseFlow` (the DAG rules of workflows/flow-dag.ts)
 * is what validates it.
 */
export const flowBodySchema = z
  .strictObject({
    name: z.string().min(1),
    description: z.string().max(MAX_DESCRIPTION).nullable().optional(),
    nodes: z.array(
      z.strictObject({
        id: z.string(),
        type: z.enum(FLOW_NODE_TYPES),
        config: z.record(z.string(), z.unknown()),
        needs: z.array(z.string()).optional(),
      }),
    ),
  })
  .meta({ id: 'FlowBody' });

/** PATCH /flows/:id: any of the fields. */
export const flowPatchSchema = flowBodySchema.partial().meta({ id: 'FlowPatch' });

/** GET /flows/:id/runs?limit=&cursor=: lenient as it always was (a bad limit means 50, clamped to 1..200). */
export const listRunsQuery = z.object({
  limit: z
    .preprocess((v) => Math.min(Math.max(Number.parseInt(typeof v === 'string' ? v : '50', 10) || 50, 1), 200), z.int().min(1).max(200))
    .meta({ description: '1 to 200 (default 50)' }),
  cursor: z.preprocess((v) => (typeof v === 'string' ? v : undefined), z.string().optional()),
});

/** POST /flows/:id/runs?wait=true: wait for the result (up to SYNC_TIMEOUT_MS) instead of 202. */
export const startRunQuery = z.object({
  wait: z.preprocess((v) => v === 'true' || v === '1', z.boolean()).meta({ description: '"true" or "1" waits for the run' }),
});

export interface FlowBody {
  name: string;
  description: string | null;
  nodes: FlowNodeDefinition[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The scrape schema's problems for one (sample-rendered) node request; [] when valid. */
export function scrapeRequestProblems(request: Record<string, unknown>): string[] {
  try {
    parseScrapeRequest(request);
    return [];
  } catch (error) {
    if (error instanceof AppError) return Array.isArray(error.messages) ? error.messages : [error.messages];
    throw error;
  }
}

/**
 * Validates a whole flow (create, replace, or the merge of a patch). Throws a 422 listing every
 * problem; returns the normalised flow (`needs` defaulted to []).
 */
export function parseFlow(body: unknown, options: { partial?: boolean; current?: FlowBody } = {}): FlowBody {
  if (!isRecord(body)) throw new AppError('VALIDATION_FAILED', ['body must be an object { name, description?, nodes }']);
  const problems: string[] = [];
  for (const key of Object.keys(body)) if (!['name', 'description', 'nodes'].includes(key)) problems.push(`${key} is not allowed`);
  const description = body.description === undefined ? (options.current?.description ?? null) : body.description;
  if (description !== null && (typeof description !== 'string' || description.length > MAX_DESCRIPTION)) {
    problems.push(`description must be a string of at most ${MAX_DESCRIPTION} characters, or null`);
  }
  const merged = {
    name: body.name === undefined && options.partial ? options.current?.name : body.name,
    nodes: body.nodes === undefined && options.partial ? options.current?.nodes : body.nodes,
  };
  problems.push(...validateFlow(merged, { kinds: FLOW_NODE_KINDS, checkScrapeRequest: scrapeRequestProblems }));
  if (problems.length) throw new AppError('VALIDATION_FAILED', problems);
  const nodes = (merged.nodes as Array<Record<string, unknown>>).map((n) => ({
    id: n.id as string,
    type: n.type as FlowNodeDefinition['type'],
    config: n.config as Record<string, unknown>,
    needs: (n.needs as string[] | undefined) ?? [],
  }));
  return { name: (merged.name as string).trim(), description: description as string | null, nodes };
}

/**
 * What a run costs at least, checked before it starts (402 below it): the sum of each node type's
 * known minimum (api/schemas/flow-nodes.ts): the scrape nodes' prices.
 */
export function minimumRunCost(nodes: readonly FlowNodeDefinition[]): number {
  let cost = 0;
  for (const node of nodes) cost += FLOW_NODE_PRICING[node.type].minimumCost(node.config);
  return cost;
}
