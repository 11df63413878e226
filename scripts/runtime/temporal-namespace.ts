/**
 * The namespace and the custom search attributes the service writes, and their registration on
 * any Temporal cluster through the frontend's operator service (`@temporalio/client`; no CLI).
 *
 * `SEARCH_ATTRIBUTES` is the one list: the dev server gets it on its command line
 * (temporal-server.ts), `npm start` checks it on every Temporal it uses (scripts/start.ts), the
 * cluster topology registers it (temporal-cluster.ts), and `npm run temporal:setup`
 * (scripts/temporal-setup.ts) registers it on any other cluster, docker-compose.yml's included
 * (docs/operations.md, "Namespace and search attributes").
 */
import type { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal as proto } from '@temporalio/proto';

export type SearchAttributeKind = 'Keyword' | 'KeywordList' | 'Text' | 'Int';

/** Every custom search attribute a workflow of the service is started or upserted with. */
export const SEARCH_ATTRIBUTES = {
  AccountId: 'Keyword',
  ScrapeMode: 'Keyword',
  TargetHost: 'Keyword',
  /** Every run of a standalone scrape lane or template run (several when concurrent requests were grouped). */
  ScrapeRunIds: 'KeywordList',
  FlowId: 'Keyword',
  TemplateId: 'Keyword',
  /** A crawl's or batch scrape's id (workflow `crawl-<id>`; docs/crawl.md). */
  CrawlId: 'Keyword',
} as const satisfies Record<string, SearchAttributeKind>;

/** How long closed workflows are kept in a namespace this module registers (as the dev server and Temporal's own docker set-up). */
export const NAMESPACE_RETENTION_SECONDS = 24 * 3600;

const INDEXED_TYPE: Record<SearchAttributeKind, proto.api.enums.v1.IndexedValueType> = {
  Keyword: proto.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  KeywordList: proto.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
  Text: proto.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_TEXT,
  Int: proto.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_INT,
};

/** The name `temporal operator search-attribute` uses for a server's type (Keyword, Datetime, ...). */
function kindName(type: proto.api.enums.v1.IndexedValueType | null | undefined): string {
  const ours = (Object.entries(INDEXED_TYPE) as Array<[SearchAttributeKind, proto.api.enums.v1.IndexedValueType]>).find(([, value]) => value === type);
  if (ours) return ours[0];
  const raw = type === null || type === undefined ? undefined : proto.api.enums.v1.IndexedValueType[type];
  return raw ? raw.replace('INDEXED_VALUE_TYPE_', '').toLowerCase().replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase()) : 'Unknown';
}

/** An attribute the namespace already has under one of our names, with another type: the service cannot write it. */
export class SearchAttributeTypeError extends Error {
  constructor(
    readonly namespace: string,
    readonly mismatches: Array<{ name: string; expected: SearchAttributeKind; found: string }>,
  ) {
    super(
      `Temporal namespace ${namespace} has search attribute(s) of another type than the service writes: ` +
        `${mismatches.map((m) => `${m.name} is ${m.found}, needs ${m.expected}`).join('; ')}. ` +
        `Remove them (temporal operator search-attribute remove --namespace ${namespace} --name <name>) and run npm run temporal:setup again, or use another TEMPORAL_NAMESPACE.`,
    );
    this.name = 'SearchAttributeTypeError';
  }
}

function grpcCode(error: unknown): number | undefined {
  const direct = (error as { code?: unknown }).code;
  if (typeof direct === 'number') return direct;
  const cause = (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof cause === 'number' ? cause : undefined;
}
const NOT_FOUND = 5;

/**
 * Adds the attributes of SEARCH_ATTRIBUTES the namespace lacks; one it has with the right type is
 * left alone, one it has with another type is a SearchAttributeTypeError (nothing is added then).
 * Answers what it did, one line per step (none when everything was there).
 */
export async function registerSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const operator = connection.operatorService;
  const listed = await connection.withDeadline(Date.now() + 5000, () => operator.listSearchAttributes({ namespace }));
  const present = listed.customAttributes ?? {};
  const mismatches = (Object.entries(SEARCH_ATTRIBUTES) as Array<[string, SearchAttributeKind]>)
    .filter(([name, kind]) => name in present && present[name] !== INDEXED_TYPE[kind])
    .map(([name, kind]) => ({ name, expected: kind, found: kindName(present[name]) }));
  if (mismatches.length) throw new SearchAttributeTypeError(namespace, mismatches);
  const missing = (Object.entries(SEARCH_ATTRIBUTES) as Array<[string, SearchAttributeKind]>).filter(([name]) => !(name in present));
  if (missing.length === 0) return [];
  await connection.withDeadline(Date.now() + 10_000, () =>
    operator.addSearchAttributes({ namespace, searchAttributes: Object.fromEntries(missing.map(([name, kind]) => [name, INDEXED_TYPE[kind]])) }),
  );
  return [`registered search attributes ${missing.map(([name, kind]) => `${name} (${kind})`).join(', ')} on namespace ${namespace}`];
}

/**
 * Registers the namespace (when missing, retention NAMESPACE_RETENTION_SECONDS) and the search
 * attributes (registerSearchAttributes), and resolves once the frontend lists them all. A server
 * still starting answers "not enough hosts" (or refuses connections) until its membership ring
 * forms: every step is retried until `deadline`, except a type mismatch, which no retry can fix.
 */
export async function prepareNamespace(connection: Connection, namespace: string, deadline: number, signal?: AbortSignal): Promise<string[]> {
  const done: string[] = [];
  let last: unknown;
  const service = connection.workflowService;
  for (;;) {
    if (signal?.aborted) throw new Error('namespace set-up aborted');
    try {
      await connection.withDeadline(Date.now() + 5000, async () => {
        try {
          await service.describeNamespace({ namespace });
        } catch (error) {
          if (grpcCode(error) !== NOT_FOUND) throw error;
          await service.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(NAMESPACE_RETENTION_SECONDS * 1000) });
          done.push(`registered namespace ${namespace}`);
        }
      });
      const added = await registerSearchAttributes(connection, namespace);
      done.push(...added);
      // Listed again: ready only once the frontend shows every attribute (an add is not always visible at once).
      if (added.length === 0) return done;
    } catch (error) {
      if (error instanceof SearchAttributeTypeError) throw error;
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Temporal did not accept the namespace ${namespace} and its search attributes in time: ${last instanceof Error ? last.message : String(last)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
