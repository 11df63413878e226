/**
 * The OpenAPI 3.1 document, generated from the route table (api/route-table.ts) with zod 4's
 * `z.toJSONSchema` (JSON Schema 2020-12, OpenAPI 3.1's dialect): request schemas in their input
 * form (what a client sends: defaults optional), responses in their output form. Schemas named
 * with `.meta({ id })` become `components.schemas`. Error responses use one `ErrorBody` schema
 * whose `code` lists only the codes the table's routes can answer, and each status names its
 * codes and their meanings (platform/errors.ts).
 */
import { z } from 'zod';
import { ERRORS, type ErrorCode } from '../platform/errors';
import { IDEMPOTENCY_DESCRIPTION, IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH } from './idempotency';
import { type Responses, type Route, routeErrors } from './route-table';
import { FIRECRAWL_TAG } from './firecrawl/schemas';
import { errorBodySchema } from './schemas/responses';

type Json = Record<string, unknown>;

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

const SECURITY_SCHEMES = {
  apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key (create one with POST /api/users/create-api-keys).' },
  apiKeyQuery: { type: 'apiKey', in: 'query', name: 'apiKey', description: 'The same API key as a query parameter.' },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'better-auth.session_token',
    description: 'The session cookie set by POST /api/auth/sign-in/email (`__Secure-` prefixed behind https).',
  },
} as const;

const SECURITY: Record<Route['credential'], Json[]> = {
  apiKey: [{ apiKeyHeader: [] }, { apiKeyQuery: [] }],
  session: [{ sessionCookie: [] }],
  either: [{ apiKeyHeader: [] }, { apiKeyQuery: [] }, { sessionCookie: [] }],
  none: [],
  signature: [],
};

const TAGS: Record<string, string> = {
  scraping: 'Scrape pages (API key).',
  flows: 'Flows: DAGs of scrape, foreach, delay and webhook nodes, and their runs.',
  templates: 'Saved scrape requests with {{param}} placeholders.',
  auth: "The auth library's routes (its own error shape, `{code, message}`).",
  account: 'The account: session, API keys, usage, notifications, consent, export.',
  payments: 'Credit packs and payments.',
  subscriptions: 'Subscription plans.',
  webhooks: 'Event webhooks: endpoints, signing secrets, deliveries and redelivery (docs/webhooks.md).',
  operations: 'Health, readiness, metrics, this document.',
  crawl: 'Multi-page jobs: map, crawl and batch scrape (docs/crawl.md).',
  search: 'Web search over the configured backend (SearXNG), each result optionally scraped (docs/search.md).',
  sessions: 'Stored sessions: cookies and local storage that scrapes start from and save (docs/scraping.md "Sessions").',
  [FIRECRAWL_TAG.name]: FIRECRAWL_TAG.description,
};

/** Express `/flows/:id` → OpenAPI `/flows/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** Converts zod schemas, collecting every `meta({ id })` schema into `components.schemas`. */
class SchemaCollector {
  readonly components: Record<string, Json> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): Json {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
    const defs = (json.$defs ?? {}) as Record<string, Json>;
    delete json.$defs;
    delete json.$schema;
    // The same id converted in the other direction may differ (defaults are optional on input).
    const names = new Map<string, string>();
    for (const id of Object.keys(defs)) names.set(id, this.nameFor(id, defs[id]!));
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (node === null || typeof node !== 'object') return node;
      const out: Json = {};
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) out[key] = `#/components/schemas/${names.get(value.slice(8)) ?? value.slice(8)}`;
        else out[key] = rewrite(value);
      }
      return out;
    };
    for (const [id, def] of Object.entries(defs)) this.components[names.get(id)!] = rewrite(def) as Json;
    return rewrite(json) as Json;
  }

  private nameFor(id: string, def: Json): string {
    const existing = this.components[id];
    if (!existing) return id;
    // Compared after the refs inside are rewritten the same way.
    const same = JSON.stringify(existing) === JSON.stringify(def).replaceAll('#/$defs/', '#/components/schemas/');
    return same ? id : `${id}Input`;
  }
}

/**
 * One error status of an operation: the shared `ErrorBody`, its codes listed in the description.
 * Not a per-operation `allOf` narrowing `code`: client generators make a type of each such schema
 * (hundreds of near-identical models in the Python client), and a client must take a code its
 * generated version does not know yet (docs/api.md, "Generated clients").
 */
function errorResponse(codes: ErrorCode[]): Json {
  const lines = codes.map((code) => `- \`${code}\`: ${ERRORS[code].description}`);
  return { description: lines.join('\n'), content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } };
}

/** The OpenAPI 3.1 document of `routes`. */
export function buildOpenApi(routes: readonly Route[], info: OpenApiInfo): Json {
  const schemas = new SchemaCollector();
  const paths: Record<string, Record<string, Json>> = {};
  const usedCodes = new Set<ErrorCode>();
  const usedTags = new Set<string>();
  // Every error response refers to it, whether or not a route declares it among its own bodies.
  schemas.convert(errorBodySchema, 'output');

  for (const r of routes) {
    const operation: Json = {
      operationId: `${r.method}${openApiPath(r.path).replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: r.summary,
      tags: [r.tag],
      security: SECURITY[r.credential],
    };
    usedTags.add(r.tag);
    if (r.description) operation.description = r.description;
    if (r.credential === 'signature') operation.description = "Authenticated by the payment provider's signature over the raw body (its own header).";

    const parameters: Json[] = [];
    for (const name of r.params ?? []) {
      parameters.push(
        name === 'provider'
          ? { name, in: 'path', required: true, schema: { type: 'string' } }
          : { name, in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' } },
      );
    }
    for (const match of r.path.matchAll(/:([A-Za-z0-9_]+)/g)) {
      if (!(r.params ?? []).includes(match[1]!)) parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
    }
    if (r.query) {
      const query = schemas.convert(r.query.schema, 'input');
      for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, Json>)) {
        const { description, ...rest } = schema;
        parameters.push({ name, in: 'query', required: false, schema: rest, ...(typeof description === 'string' ? { description } : {}) });
      }
    }
    if (r.idempotent) {
      parameters.push({ name: IDEMPOTENCY_HEADER, in: 'header', required: false, description: IDEMPOTENCY_DESCRIPTION, schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH } });
    }
    if (parameters.length) operation.parameters = parameters;

    if (r.body) {
      const contentType = r.bodyContentType ?? 'application/json';
      const media: Json = { schema: schemas.convert(r.body.schema, 'input') };
      if (r.body.example !== undefined) media.example = r.body.example;
      operation.requestBody = { required: !r.body.optional && (r.method !== 'post' || r.body.example !== undefined), content: { [contentType]: media } };
    }

    const responses: Record<string, Json> = {};
    const declared = r.responses as Responses;
    for (const [status, schema] of Object.entries(declared)) {
      if (schema === undefined) continue;
      const code = Number(status);
      if (schema === null) {
        responses[status] = { description: code === 204 ? 'No content' : 'OK' };
        continue;
      }
      const contentType = code < 400 ? (r.responseContentType ?? 'application/json') : 'application/json';
      responses[status] = { description: code < 300 ? 'OK' : 'See the body', content: { [contentType]: { schema: schemas.convert(schema, 'output') } } };
    }
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of routeErrors(r)) {
      usedCodes.add(code);
      const status = ERRORS[code].status;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    for (const [status, codes] of [...byStatus.entries()].sort(([a], [b]) => a - b)) {
      const existing = responses[String(status)];
      const described = errorResponse(codes);
      // A declared status with a body of its own (a failed scrape, readiness) keeps it; the codes are added to its description.
      responses[String(status)] = existing ? { ...existing, description: described.description } : described;
    }
    operation.responses = responses;

    const path = openApiPath(r.path);
    (paths[path] ??= {})[r.method] = operation;
  }

  const errorBody = schemas.components.ErrorBody;
  if (errorBody) {
    // The table's codes, only those a route here can answer.
    const properties = errorBody.properties as Record<string, Json>;
    properties.code = { type: 'string', enum: [...usedCodes].sort() };
  }

  return {
    openapi: '3.1.0',
    info,
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '/' }],
    tags: Object.entries(TAGS)
      .filter(([name]) => usedTags.has(name))
      .map(([name, description]) => ({ name, description })),
    paths,
    components: { securitySchemes: SECURITY_SCHEMES, schemas: schemas.components },
  };
}
