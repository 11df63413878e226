/**
 * The secrets in a flow's nodes at rest (docs/flows.md "Secrets in a flow"): the request of a
 * `scrape` node (its config) and of a `foreach` node (`config.request`) is sealed as every saved
 * definition's is (sessions/request-secrets.ts), bound to the owner's account; `flow.definition`
 * and `flow_run.definition` keep them sealed, reads show them masked, and they are opened only
 * when a run's workflow input is built (api/flow-runs.ts).
 */
import type { SessionKeyring } from '../sessions/keys';
import { sealRequestSecrets, unsealRequestSecrets } from '../sessions/request-secrets';
import { redactRequestSecrets } from '../scrape/request-redaction';

interface FlowNodeLike {
  id: string;
  type: string;
  config?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Each node with `change` applied to the request it holds (and the node of the same id in `stored`, for a save). */
function mapNodeRequests<N extends FlowNodeLike>(nodes: readonly N[], change: (request: unknown, storedRequest: unknown) => unknown, stored: readonly FlowNodeLike[] = []): N[] {
  const storedById = new Map(stored.map((node) => [node.id, node]));
  return nodes.map((node) => {
    const before = storedById.get(node.id);
    if (node.type === 'scrape' && isRecord(node.config)) return { ...node, config: change(node.config, before?.type === 'scrape' ? before.config : undefined) };
    if (node.type === 'foreach' && isRecord(node.config) && isRecord(node.config.request)) {
      const storedRequest = before?.type === 'foreach' && isRecord(before.config) ? before.config.request : undefined;
      return { ...node, config: { ...node.config, request: change(node.config.request, storedRequest) } };
    }
    return node;
  });
}

/** The nodes as `flow.definition` stores them; a secret sent back masked keeps the stored node's (same node id). */
export function sealFlowNodes<N extends FlowNodeLike>(keyring: SessionKeyring, userId: string, nodes: readonly N[], stored?: readonly FlowNodeLike[]): N[] {
  return mapNodeRequests(nodes, (request, storedRequest) => sealRequestSecrets(keyring, { userId, kind: 'flow' }, request, storedRequest), stored);
}

/** The nodes with their real secrets, for a run's workflow input only. */
export function unsealFlowNodes<N extends FlowNodeLike>(keyring: SessionKeyring, userId: string, nodes: readonly N[]): N[] {
  return mapNodeRequests(nodes, (request) => unsealRequestSecrets(keyring, { userId, kind: 'flow' }, request));
}

/** The nodes as every read shows them: secrets `[redacted]`. */
export function maskFlowNodes<N extends FlowNodeLike>(nodes: readonly N[]): N[] {
  return mapNodeRequests(nodes, (request) => redactRequestSecrets(request));
}

/** The columns of flows whose nodes hold requests, for a key rotation (sessions/reseal-definitions.ts). */
export function flowNodeRequests(nodes: unknown, change: (request: unknown) => unknown): unknown {
  return Array.isArray(nodes) ? mapNodeRequests(nodes as FlowNodeLike[], (request) => change(request)) : nodes;
}
