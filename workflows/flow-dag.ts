/**
 * Flow definitions: validation, execution order and placeholder resolution.
 *
 * Pure and deterministic (no Node built-ins, no clock, no randomness): the API validates a flow
 * with it on save and the flow workflow orders and renders nodes with it inside Temporal's
 * sandbox. The scrape request schema (zod, scrape/request.ts) is not imported here; the API
 * plugs it in through `ValidateFlowOptions.checkScrapeRequest`, this module keeps the structural
 * checks. Each node type's own rules come with its file (workflows/flow-nodes/). Reference:
 * docs/flows.md.
 */

import { SCRAPE_MODES } from '../scrape/engines';
import { SCRAPE_REQUEST_KEYS } from '../scrape/request-keys';
import type { FlowNodeKind, ResolveScope } from './flow-nodes/kind';

export const MAX_NODES = 100;
export const MAX_DELAY_MS = 86_400_000;
export const MAX_FOREACH_CONCURRENCY = 16;
export const DEFAULT_FOREACH_CONCURRENCY = 4;
/** Node ids appear in placeholder paths (`nodes.<id>.x`), so no dots or spaces. */
const NODE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** `{{ ... }}` anywhere in a string. */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
/** A string that is exactly one placeholder (its value keeps its JSON type). */
export const WHOLE_PLACEHOLDER = /^\s*\{\{\s*([^{}]*?)\s*\}\}\s*$/;
/** `nodes.<id>` or `item`, then `.segment` parts (numeric segments index arrays). */
const EXPRESSION = /^(?:nodes\.([A-Za-z0-9_-]{1,64})|(item))((?:\.[A-Za-z0-9_-]+)*)$/;

export interface PlaceholderRef {
  /** The expression inside the braces, e.g. `nodes.list.data.0.results`. */
  expression: string;
  /** Referenced node id (`nodes.<id>...`), absent for `item` references. */
  nodeId?: string;
  /** `item` references (the current element of a foreach). */
  item: boolean;
  path: string[];
}

/** Parses a placeholder expression; undefined when it is not one of the supported forms. */
export function parseExpression(expression: string): PlaceholderRef | undefined {
  const match = EXPRESSION.exec(expression);
  if (!match) return undefined;
  const path = match[3] ? match[3].slice(1).split('.') : [];
  return match[1] !== undefined ? { expression, nodeId: match[1], item: false, path } : { expression, item: true, path };
}

/** Every placeholder in a JSON value's strings, with where it was found (`config.url`). */
function collectPlaceholders(value: unknown, where: string, out: Array<{ where: string; expression: string }>): void {
  if (typeof value === 'string') {
    for (const m of value.matchAll(PLACEHOLDER)) out.push({ where, expression: m[1]! });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => collectPlaceholders(v, `${where}.${i}`, out));
  } else if (isRecord(value)) {
    for (const [k, v] of Object.entries(value)) collectPlaceholders(v, `${where}.${k}`, out);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function hasPlaceholder(value: string): boolean {
  return /\{\{[^{}]*\}\}/.test(value);
}

/** http(s) URL check; the regex stands in where a sandbox lacks the URL global. */
export function isHttpUrl(value: string): boolean {
  if (typeof URL !== 'function') return /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i.test(value);
  try {
    const protocol = new URL(value).protocol;
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export function isInt(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

// The scrape request's fields a flow node may set: all of the schema's (scrape/request-keys.ts, one
// list with the schema), each checked in full by the API's scrape schema; `async` is refused below.
const SCRAPE_KEYS: ReadonlySet<string> = new Set(SCRAPE_REQUEST_KEYS);

/**
 * Structural checks of a scrape request inside a flow (placeholders allowed in strings; a URL is
 * checked only when it has none). The full schema runs in the API through `checkScrapeRequest`.
 */
export function flowScrapeRequestProblems(request: unknown, at: string): string[] {
  if (!isRecord(request)) return [`${at} must be an object (a scrape request)`];
  const problems: string[] = [];
  for (const key of Object.keys(request)) {
    if (key === 'async') problems.push(`${at}.async is not allowed in a flow (nodes always run to completion)`);
    else if (!SCRAPE_KEYS.has(key)) problems.push(`${at}.${key} is not allowed`);
  }
  const url = request.url;
  if (url === undefined) problems.push(`${at}.url is required`);
  else if (typeof url !== 'string' || url.trim() === '') problems.push(`${at}.url must be a non-empty string`);
  else if (!hasPlaceholder(url) && !isHttpUrl(url.trim())) problems.push(`${at}.url must be an absolute http(s) URL`);
  if (request.mode !== undefined && !(SCRAPE_MODES as readonly unknown[]).includes(request.mode)) {
    problems.push(`${at}.mode must be ${SCRAPE_MODES.map((m) => `"${m}"`).join(' or ')}`);
  }
  if (request.method !== undefined && (typeof request.method !== 'string' || !['GET', 'POST'].includes(request.method.toUpperCase()))) {
    problems.push(`${at}.method must be "GET" or "POST"`);
  }
  if (request.selectors !== undefined && !Array.isArray(request.selectors)) problems.push(`${at}.selectors must be an array`);
  if (request.headers !== undefined && (!isRecord(request.headers) || Object.values(request.headers).some((v) => typeof v !== 'string'))) {
    problems.push(`${at}.headers must be an object of strings`);
  }
  if (request.options !== undefined && !isRecord(request.options)) problems.push(`${at}.options must be an object`);
  return problems;
}

/** Each node's ancestors through `needs` (unknown ids ignored; terminates on cycles). */
function ancestorsOf(nodes: ReadonlyArray<{ id: string; needs: readonly string[] }>): Map<string, Set<string>> {
  const needs = new Map<string, readonly string[]>();
  for (const n of nodes) if (!needs.has(n.id)) needs.set(n.id, n.needs);
  const result = new Map<string, Set<string>>();
  for (const id of needs.keys()) {
    const seen = new Set<string>();
    const stack = [...(needs.get(id) ?? [])];
    while (stack.length) {
      const next = stack.pop()!;
      if (seen.has(next) || !needs.has(next)) continue;
      seen.add(next);
      stack.push(...(needs.get(next) ?? []));
    }
    result.set(id, seen);
  }
  return result;
}

/**
 * Every cycle reachable through `needs`, each named once as `a → b → a` (rotated to start at its
 * first node in definition order, so the report is stable).
 */
export function findCycles(nodes: ReadonlyArray<{ id: string; needs: readonly string[] }>): string[][] {
  const order = new Map<string, number>();
  nodes.forEach((n, i) => {
    if (!order.has(n.id)) order.set(n.id, i);
  });
  const needs = new Map<string, readonly string[]>();
  for (const n of nodes) if (!needs.has(n.id)) needs.set(n.id, n.needs);
  const state = new Map<string, 'visiting' | 'done'>();
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const path: string[] = [];

  const visit = (id: string): void => {
    state.set(id, 'visiting');
    path.push(id);
    for (const next of needs.get(id) ?? []) {
      if (!needs.has(next)) continue;
      const s = state.get(next);
      if (s === 'visiting') {
        const cycle = path.slice(path.indexOf(next));
        let start = 0;
        cycle.forEach((c, i) => {
          if (order.get(c)! < order.get(cycle[start]!)!) start = i;
        });
        const rotated = [...cycle.slice(start), ...cycle.slice(0, start)];
        const key = rotated.join('\u0000');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(rotated);
        }
      } else if (s === undefined) {
        visit(next);
      }
    }
    path.pop();
    state.set(id, 'done');
  };
  for (const id of needs.keys()) if (!state.has(id)) visit(id);
  return cycles;
}

/** What validation needs of a node type (workflows/flow-nodes/kind.ts). */
export type NodeRules = Pick<FlowNodeKind, 'configProblems' | 'scrapeRequest' | 'itemScope'>;

export interface ValidateFlowOptions {
  /** The node types and their rules (the registry, workflows/flow-nodes/index.ts). */
  kinds: Readonly<Record<string, NodeRules>>;
  /**
   * Full check of a scrape request (the API passes the zod schema here); receives the request
   * with placeholders replaced by sample values and answers problems ([] when valid).
   */
  checkScrapeRequest?: (request: Record<string, unknown>) => string[];
}

/** Replaces each placeholder by a sample value, for `checkScrapeRequest` (URLs stay URLs). */
function withSampleValues(value: unknown): unknown {
  if (typeof value === 'string') {
    if (WHOLE_PLACEHOLDER.test(value)) return 'https://example.com/sample';
    return value.replace(PLACEHOLDER, 'sample');
  }
  if (Array.isArray(value)) return value.map(withSampleValues);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withSampleValues(v)]));
  return value;
}

/**
 * Every problem of a flow definition, as human messages ([] when it is valid): shape, unknown
 * node types, duplicate ids, unknown needs, cycles (named), placeholders that refer to a node that
 * is not an ancestor, and each node type's config rules.
 */
export function validateFlow(def: unknown, options: ValidateFlowOptions): string[] {
  const kinds = new Map(Object.entries(options.kinds));
  if (!isRecord(def)) return ['body must be an object { name, nodes }'];
  const problems: string[] = [];
  if (typeof def.name !== 'string' || def.name.trim() === '') problems.push('name is required');
  else if (def.name.length > 200) problems.push('name must be at most 200 characters');
  if (!Array.isArray(def.nodes) || def.nodes.length === 0) {
    problems.push('nodes must be a non-empty array');
    return problems;
  }
  if (def.nodes.length > MAX_NODES) problems.push(`nodes must contain at most ${MAX_NODES} items`);

  // Shape of each node; well-formed ones go on to the graph checks.
  const shaped: Array<{ id: string; type: string; config: unknown; needs: string[]; index: number }> = [];
  def.nodes.forEach((raw: unknown, index) => {
    const at = `nodes.${index}`;
    if (!isRecord(raw)) {
      problems.push(`${at} must be an object { id, type, config, needs }`);
      return;
    }
    let ok = true;
    if (typeof raw.id !== 'string' || !NODE_ID.test(raw.id)) {
      problems.push(`${at}.id must be 1-64 characters of letters, digits, _ or -`);
      ok = false;
    }
    const needs = raw.needs === undefined ? [] : raw.needs;
    if (!Array.isArray(needs) || needs.some((n) => typeof n !== 'string')) {
      problems.push(`${at}.needs must be an array of node ids`);
      ok = false;
    }
    for (const key of Object.keys(raw)) if (!['id', 'type', 'config', 'needs'].includes(key)) problems.push(`${at}.${key} is not allowed`);
    if (ok) shaped.push({ id: raw.id as string, type: String(raw.type), config: raw.config, needs: needs as string[], index });
  });

  const byId = new Map<string, number[]>();
  for (const n of shaped) byId.set(n.id, [...(byId.get(n.id) ?? []), n.index]);
  for (const [id, indexes] of byId) {
    if (indexes.length > 1) problems.push(`duplicate node id "${id}" (nodes ${indexes.join(', ')})`);
  }

  for (const node of shaped) {
    if (!kinds.has(node.type)) {
      problems.push(`node "${node.id}" has unknown type "${node.type}" (expected one of ${[...kinds.keys()].join(', ')})`);
    }
    for (const need of node.needs) {
      if (!byId.has(need)) problems.push(`node "${node.id}" needs unknown node "${need}"`);
    }
    if (new Set(node.needs).size !== node.needs.length) problems.push(`node "${node.id}" lists a node twice in needs`);
  }

  for (const cycle of findCycles(shaped)) problems.push(`cycle: ${[...cycle, cycle[0]!].join(' → ')}`);

  const ancestors = ancestorsOf(shaped);
  for (const node of shaped) {
    const refs: Array<{ where: string; expression: string }> = [];
    collectPlaceholders(node.config, 'config', refs);
    for (const { where, expression } of refs) {
      const ref = parseExpression(expression);
      const label = `node "${node.id}" ${where}: {{ ${expression} }}`;
      if (!ref) {
        problems.push(`${label} is not a valid placeholder (use {{ nodes.<id>.<path> }})`);
      } else if (ref.item) {
        const itemScope = kinds.get(node.type)?.itemScope;
        if (itemScope === undefined || !where.startsWith(itemScope)) problems.push(`${label}: {{ item }} is only available in a foreach node's request`);
      } else if (!byId.has(ref.nodeId!)) {
        problems.push(`${label} refers to unknown node "${ref.nodeId}"`);
      } else if (!ancestors.get(node.id)?.has(ref.nodeId!)) {
        problems.push(`${label} refers to node "${ref.nodeId}", which is not an ancestor through needs`);
      }
    }
    const kind = kinds.get(node.type);
    if (kind) {
      const at = `node "${node.id}" config`;
      const configProblems = isRecord(node.config) ? kind.configProblems(node.config, at) : [`${at} must be an object`];
      problems.push(...configProblems);
      if (configProblems.length === 0 && options.checkScrapeRequest && kind.scrapeRequest) {
        const request = kind.scrapeRequest.of(node.config as Record<string, unknown>);
        for (const p of options.checkScrapeRequest(withSampleValues(request) as Record<string, unknown>)) problems.push(`node "${node.id}" ${kind.scrapeRequest.at}: ${p}`);
      }
    }
  }
  return problems;
}

/**
 * Nodes grouped by depth: level 0 needs nothing, each later level needs only earlier levels, so
 * every node of a level can run in parallel. Order inside a level follows the definition.
 * Throws on unknown needs or a cycle (run `validateFlow` first).
 */
export function topologicalLevels(nodes: ReadonlyArray<{ id: string; needs: readonly string[] }>): string[][] {
  const ids = new Set(nodes.map((n) => n.id));
  for (const n of nodes) {
    for (const need of n.needs) if (!ids.has(need)) throw new Error(`node "${n.id}" needs unknown node "${need}"`);
  }
  const levels: string[][] = [];
  const placed = new Set<string>();
  let remaining = [...nodes];
  while (remaining.length) {
    const level = remaining.filter((n) => n.needs.every((need) => placed.has(need)));
    if (level.length === 0) {
      const cycle = findCycles(remaining)[0] ?? remaining.map((n) => n.id);
      throw new Error(`cycle: ${[...cycle, cycle[0]].join(' → ')}`);
    }
    levels.push(level.map((n) => n.id));
    for (const n of level) placed.add(n.id);
    remaining = remaining.filter((n) => !placed.has(n.id));
  }
  return levels;
}

/** A placeholder whose value is missing at run time (the node fails with this message). */
export class PlaceholderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlaceholderError';
  }
}

function lookup(ref: PlaceholderRef, outputs: Readonly<Record<string, unknown>>, scope: { item?: unknown }): unknown {
  let current: unknown;
  if (ref.item) {
    if (!('item' in scope)) throw new PlaceholderError(`{{ ${ref.expression} }}: no foreach item here`);
    current = scope.item;
  } else {
    if (!Object.prototype.hasOwnProperty.call(outputs, ref.nodeId!)) throw new PlaceholderError(`{{ ${ref.expression} }}: node "${ref.nodeId}" has no output`);
    current = outputs[ref.nodeId!];
  }
  for (const segment of ref.path) {
    if (current !== null && typeof current === 'object' && Object.prototype.hasOwnProperty.call(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      throw new PlaceholderError(`{{ ${ref.expression} }}: nothing at "${segment}"`);
    }
  }
  if (current === undefined) throw new PlaceholderError(`{{ ${ref.expression} }}: no value`);
  return current;
}


/**
 * Replaces placeholders in every string of `value` with values from earlier nodes' outputs (and
 * `scope.item` inside a foreach). A string that is exactly one placeholder takes the value with
 * its JSON type (number, list, object...); placeholders inside longer strings are interpolated
 * (objects as JSON). Throws PlaceholderError when a value is missing. `value` is not modified.
 */
export function resolvePlaceholders<T>(value: T, outputs: Readonly<Record<string, unknown>>, scope: ResolveScope = {}): T {
  const resolve = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = WHOLE_PLACEHOLDER.exec(v);
      if (whole) {
        const ref = parseExpression(whole[1]!);
        if (!ref) throw new PlaceholderError(`{{ ${whole[1]} }} is not a valid placeholder`);
        if (ref.item && scope.keepItem) return v;
        return lookup(ref, outputs, scope);
      }
      return v.replace(PLACEHOLDER, (match: string, expression: string) => {
        const ref = parseExpression(expression);
        if (!ref) throw new PlaceholderError(`{{ ${expression} }} is not a valid placeholder`);
        if (ref.item && scope.keepItem) return match;
        const found = lookup(ref, outputs, scope);
        return typeof found === 'string' ? found : JSON.stringify(found);
      });
    }
    if (Array.isArray(v)) return v.map(resolve);
    if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
    return v;
  };
  return resolve(value) as T;
}
