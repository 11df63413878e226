/**
 * The MCP tools (docs/mcp.md): each one is a route of the table (api/route-table.ts) called in
 * process. A tool names its route by method and path; its input JSON Schema is converted from the
 * route's own zod schemas (path ids, query, body) with zod 4's `z.toJSONSchema`, as the OpenAPI
 * document is; a call runs the route's own parsers (the same error codes as over HTTP) and its
 * own handler (the same runs, ledger, limits and ownership checks). Nothing is reimplemented and
 * nothing loops back over HTTP.
 */
import { z } from 'zod';
import type { Request } from 'express';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AppError, type ErrorBody, errorBody } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import type { AuthContext } from '../middleware/auth';
import { dependencyUnavailable, unreachableDependency } from '../middleware/dependencies';
import { MALFORMED_ID_MESSAGE, idSchema } from '../params';
import type { HttpMethod, Route, TableRoute } from '../route-table';
import { type RouteCaller, RouteRefused, jobPagesArgs, jobWithPages, routeCaller } from './job-pages';

type Json = Record<string, unknown>;

/** How a tool reaches its route: path ids under tool argument names, the query built from the arguments. */
interface ToolSpec {
  name: string;
  title: string;
  description: string;
  method: HttpMethod;
  path: string;
  /** Route path id → the tool argument that carries it (`id` → `flow_id`) and what it names. */
  ids?: Record<string, { arg: string; description: string }>;
  /** Extra arguments that become the route's query (their schema, and how they turn into query strings). */
  query?: { schema: z.ZodObject; toQuery: (args: Json) => Record<string, string> };
  /** Defaults the tool applies before the route's parser sees the body. */
  bodyDefaults?: (body: Json) => Json;
  /** The text content of a success: the markdown when the answer has one, else the JSON. */
  text?: (body: Json) => string | undefined;
  /** Arguments the tool itself reads (never the route's), and what it adds to the route's answer with them. */
  compose?: { schema: z.ZodObject; answer: (answer: Json, args: Json, callRoute: RouteCaller) => Promise<Json> };
}

const markdownOf = (body: Json): string | undefined => (typeof body.markdown === 'string' ? body.markdown : undefined);
/** A scrape's text: its markdown, else its summary, else its json (the structured formats, docs/scraping.md "Structured output"). */
const scrapeTextOf = (body: Json): string | undefined =>
  markdownOf(body) ?? (typeof body.summary === 'string' ? body.summary : body.json !== undefined ? JSON.stringify(body.json, null, 2) : undefined);
/** A crawl's or batch's pages come back as markdown with their metadata, as a scrape through the tool does, unless the request says what it wants. */
const jobScrapeDefaults = (body: Json): Json => {
  const scrape = (body.scrape ?? {}) as Json;
  if (typeof scrape !== 'object' || scrape === null || scrape.formats !== undefined || scrape.selectors !== undefined) return body;
  return { ...body, scrape: { ...scrape, formats: ['markdown', 'metadata'], only_main_content: scrape.only_main_content ?? true } };
};
/** crawl_status and batch_status: the job with one slice of its pages' markdown (api/mcp/job-pages.ts). */
const jobPages: ToolSpec['compose'] = { schema: jobPagesArgs, answer: (job, args, callRoute) => jobWithPages(job, args, callRoute) };
const runMarkdownOf = (body: Json): string | undefined => {
  const result = body.result as Json | undefined;
  return result && typeof result.markdown === 'string' ? result.markdown : undefined;
};

const SPECS: readonly ToolSpec[] = [
  {
    name: 'scrape',
    title: 'Scrape a page',
    description:
      'Scrape one URL and answer its content (1 credit in http mode; browser mode and screenshots cost more: GET /pricing). Without `formats` or `selectors` the page comes back as markdown (main content). `formats` also takes {type: "json", css: {baseSelector?, fields}} (JSON by CSS selectors, no extra cost), {type: "json", schema, prompt?} and "summary" (by the operator\'s model, priced per format). Browser mode takes `actions` (wait, click, write, press, scroll, screenshot, scrape, executeJavascript), run in order before the page is read. A PDF or DOCX URL comes back as markdown too, with its title, author and page count in metadata (`document: {max_pages}` limits the pages of a PDF read). The text result is the markdown when asked, else the summary, else the json; structured content is the whole run (id, status, credits). Waits up to the synchronous limit (50 s), then answers TIMEOUT with the run id: fetch it later with get_run. `async: true` answers the run id at once.',
    method: 'post',
    path: '/webhook/unblocker',
    bodyDefaults: (body) => (body.formats === undefined && body.selectors === undefined ? { ...body, formats: ['markdown', 'metadata'], only_main_content: body.only_main_content ?? true } : body),
    text: scrapeTextOf,
  },
  {
    name: 'map',
    title: "List a site's URLs",
    description: "A site's URLs without their content: the start page's links and its sitemaps' URLs, normalised and deduplicated (1 credit). robots.txt is honoured unless `ignore_robots: true`.",
    method: 'post',
    path: '/map',
  },
  {
    name: 'search',
    title: 'Search the web',
    description:
      'Search the web (the service\'s SearXNG backend) and answer ranked results per source (`sources`: web, news, images), each with url, title, description and position, at most `limit` (default 5) per source; 1 credit a search (GET /pricing). With `scrape` (a scrape request without url, e.g. {formats: ["markdown"]}), every web and news result is also scraped, paid per page like a scrape, and answered under its `scrape.result`. SEARCH_NOT_CONFIGURED when the service has no search backend.',
    method: 'post',
    path: '/search',
  },
  {
    name: 'crawl',
    title: 'Start a crawl',
    description:
      'Start crawling from a URL (pages found by links and sitemaps, each an ordinary scrape run paid per page). Without `scrape.formats` or `scrape.selectors` each page is kept as markdown (main content) with its metadata. Answers at once with the crawl id; follow it with crawl_status, which answers the pages\' markdown a slice at a time (`cursor`, `limit`).',
    method: 'post',
    path: '/crawl',
    bodyDefaults: jobScrapeDefaults,
  },
  {
    name: 'crawl_status',
    title: 'A crawl\'s status',
    description:
      "A crawl's status, counts and credits, and a slice of its pages in crawl order, each with its url, status, `run_id`, title and markdown (`limit` pages, 10 by default). `next_cursor` is null on the last slice; else pass it back as `cursor` for the following pages.",
    method: 'get',
    path: '/crawl/:id',
    ids: { id: { arg: 'id', description: 'The crawl id (crawl answered it)' } },
    compose: jobPages,
  },
  {
    name: 'batch_scrape',
    title: 'Start a batch scrape',
    description:
      'Scrape a list of URLs as one job, paid per page. Without `scrape.formats` or `scrape.selectors` each page is kept as markdown (main content) with its metadata. Answers at once with the job id; follow it with batch_status, which answers the pages\' markdown a slice at a time.',
    method: 'post',
    path: '/batch/scrape',
    bodyDefaults: jobScrapeDefaults,
  },
  {
    name: 'batch_status',
    title: "A batch scrape's status",
    description:
      "A batch scrape's status, counts and credits, and a slice of its pages, each with its url, status, `run_id`, title and markdown (`limit` pages, 10 by default). `next_cursor` is null on the last slice; else pass it back as `cursor` for the following pages.",
    method: 'get',
    path: '/crawl/:id',
    ids: { id: { arg: 'id', description: 'The batch scrape id (batch_scrape answered it)' } },
    compose: jobPages,
  },
  {
    name: 'get_run',
    title: 'A scrape run',
    description: 'A scrape run (a scrape, a map, a page of a crawl or batch, a flow\'s scrape): its status, then its result or error. The text result is the markdown when the run has one.',
    method: 'get',
    path: '/webhook/runs/:id',
    ids: { id: { arg: 'id', description: 'The run id (a scrape, map or page `run_id`)' } },
    text: runMarkdownOf,
  },
  // Firecrawl's parse and extract (docs/firecrawl.md "Parse", "Extract"): a document at a URL, and the operator's model over pages.
  {
    name: 'parse',
    title: 'Parse a PDF or DOCX at a URL',
    description:
      'Convert a PDF or DOCX at a URL to markdown, with its title, author and page count in metadata (the file is fetched and converted as a document scrape: 1 credit in http mode, refunded when it cannot be read; `document: {max_pages}` limits the pages of a PDF read). A web page at that URL comes back as its markdown. To convert a file you hold, upload it to POST /documents or POST /v2/parse instead.',
    method: 'post',
    path: '/webhook/unblocker',
    bodyDefaults: (body) => ({ ...body, formats: body.formats ?? ['markdown', 'metadata'] }),
    text: markdownOf,
  },
  {
    name: 'extract',
    title: "Extract structured data from pages with the operator's model",
    description:
      "Start an extract job: `urls` (a URL ending in /* crawls that site, at most 10 pages), `prompt` and/or `schema` (a JSON Schema the answer must match), `showSources` (the pages each field came from). Every page is scraped (its scrape's price), then the operator's model reads their main content (5 credits, refunded when it fails). Needs a model configured on the service (else LLM_NOT_CONFIGURED, nothing charged). Answers the job id at once: follow it with extract_status until `completed` (then `data`) or `failed`.",
    method: 'post',
    path: '/v2/extract',
  },
  {
    name: 'extract_status',
    title: "An extract job's status and data",
    description: "An extract job: `status` (processing, completed, failed, cancelled), `data` once completed, `sources` when asked, the credits and model tokens used.",
    method: 'get',
    path: '/v2/extract/:id',
    ids: { id: { arg: 'id', description: 'The extract job id (extract answered it)' } },
  },
  {
    name: 'run_flow',
    title: 'Run a flow',
    description: 'Start a run of one of your flows (created with POST /flows). Answers the run at once; with `wait: true` waits for it up to the synchronous limit (50 s), then answers TIMEOUT with the run id. Follow it with flow_run_status.',
    method: 'post',
    path: '/flows/:id/runs',
    ids: { id: { arg: 'flow_id', description: 'The flow id' } },
    query: {
      schema: z.object({ wait: z.boolean().optional().meta({ description: 'Wait for the run to finish (up to 50 s) and answer it whole' }) }),
      toQuery: (args): Record<string, string> => (args.wait === true ? { wait: 'true' } : {}),
    },
  },
  {
    name: 'flow_run_status',
    title: "A flow run's status",
    description: 'A flow run: each node with its status, attempts, output, credits and error; foreach items.',
    method: 'get',
    path: '/flows/:id/runs/:runId',
    ids: { id: { arg: 'flow_id', description: 'The flow id' }, runId: { arg: 'run_id', description: 'The flow run id (run_flow answered it)' } },
  },
  {
    name: 'flow_input',
    title: 'Answer a flow run waiting for input',
    description:
      "Answer an input node of a flow run that is waiting for it (status `waiting_input`; flow_run_status shows the node's prompt): `node` is the input node's id, `value` the answer (a string), which later nodes read as {{ nodes.<node>.value }}. The run goes on at once; follow it with flow_run_status. CONFLICT when the node is not waiting (already answered, timed out, not reached yet).",
    method: 'post',
    path: '/flows/:id/runs/:runId/input',
    ids: { id: { arg: 'flow_id', description: 'The flow id' }, runId: { arg: 'run_id', description: 'The flow run id' } },
  },
];

export interface McpTool {
  /** What tools/list shows. */
  definition: Tool;
  call(args: Json, caller: { auth: AuthContext; logger: Logger }): Promise<CallToolResult>;
}

/** A zod schema's input form as a self-contained JSON Schema object (its `$defs` kept inside). */
function jsonSchemaOf(schema: z.ZodType): Json {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
}

/** The tool's arguments: path ids, then the query's arguments, then the body's fields. */
function inputSchemaOf(spec: ToolSpec, route: TableRoute): Tool['inputSchema'] {
  const base: Json = route.body ? jsonSchemaOf(route.body.schema) : { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {}, additionalProperties: false };
  if (base.type !== 'object') throw new Error(`MCP tool ${spec.name}: the body of ${route.method.toUpperCase()} ${route.path} is not an object schema`);
  const properties: Json = {};
  const required: string[] = [];
  const idJson = jsonSchemaOf(idSchema);
  delete idJson.$schema;
  for (const { arg, description } of Object.values(spec.ids ?? {})) {
    properties[arg] = { ...idJson, description };
    required.push(arg);
  }
  for (const extra of [spec.query?.schema, spec.compose?.schema]) {
    if (!extra) continue;
    const query = jsonSchemaOf(extra);
    Object.assign(properties, query.properties as Json);
    required.push(...((query.required as string[] | undefined) ?? []));
  }
  for (const name of Object.keys(properties)) {
    if ((base.properties as Json | undefined)?.[name] !== undefined) throw new Error(`MCP tool ${spec.name}: argument ${name} is also a body field`);
  }
  return {
    ...base,
    type: 'object',
    properties: { ...properties, ...((base.properties as Json | undefined) ?? {}) },
    ...(required.length || base.required ? { required: [...required, ...((base.required as string[] | undefined) ?? [])] } : {}),
  } as Tool['inputSchema'];
}

/** A tool error: our error body as structured content, `CODE: message` and the body as text. */
export function toolError(body: ErrorBody): CallToolResult {
  const message = Array.isArray(body.message) ? body.message.join('; ') : body.message;
  return { isError: true, content: [{ type: 'text', text: `${body.code}: ${message}\n${JSON.stringify(body, null, 2)}` }], structuredContent: body };
}

/** Any failure of a call as a tool error in the HTTP API's body shape (never a dropped connection). */
export function errorResult(error: unknown, logger: Logger): CallToolResult {
  const dependency = unreachableDependency(error);
  if (dependency) return toolError(dependencyUnavailable(dependency).toBody());
  if (error instanceof AppError) {
    if (error.status >= 500) logger.error({ err: error, code: error.code }, 'MCP tool call failed');
    return toolError(error.toBody());
  }
  logger.error({ err: error }, 'MCP tool call failed unexpectedly');
  return toolError(errorBody('INTERNAL', 'Internal server error'));
}

/**
 * What a route's handler reads of the request besides its parsed parts: the Idempotency-Key
 * header (api/idempotency.ts), which a tool call never carries — an MCP client's headers are the
 * same for every call of its session, so honouring one would make every later call a "reuse".
 */
function requestFor(route: TableRoute, body: unknown): Request {
  return Object.freeze({ method: route.method.toUpperCase(), originalUrl: route.path, path: route.path, headers: {}, query: {}, body }) as unknown as Request;
}

function bindTool(spec: ToolSpec, routes: readonly Route[]): McpTool {
  const route = routes.find((r): r is TableRoute => r.kind === 'table' && r.method === spec.method && r.path === spec.path);
  if (!route) throw new Error(`MCP tool ${spec.name}: no route ${spec.method.toUpperCase()} ${spec.path} in the table`);
  const definition: Tool = {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: inputSchemaOf(spec, route),
    annotations: { title: spec.title, readOnlyHint: spec.method === 'get', destructiveHint: false, openWorldHint: true },
  };
  const queryArgs = new Set(Object.keys(spec.query?.schema.shape ?? {}));
  const composeArgs = new Set(Object.keys(spec.compose?.schema.shape ?? {}));
  const idArgs = new Map(Object.entries(spec.ids ?? {}).map(([param, { arg }]) => [param, arg]));
  return {
    definition,
    async call(args, { auth, logger }) {
      try {
        // Path ids first, as the table does: a malformed id is a 404 before anything else.
        const params: Record<string, string> = {};
        for (const [param, arg] of idArgs) {
          const value = args[arg];
          if (value === undefined) throw new AppError('BAD_REQUEST', `${arg} is required`);
          if (!idSchema.safeParse(value).success) throw new AppError('NOT_FOUND', MALFORMED_ID_MESSAGE);
          params[param] = value as string;
        }
        let rawQuery: Record<string, string> = {};
        if (spec.query) {
          const picked = Object.fromEntries(Object.entries(args).filter(([name]) => queryArgs.has(name)));
          const checked = spec.query.schema.safeParse(picked);
          if (!checked.success) throw new AppError('BAD_REQUEST', checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
          rawQuery = spec.query.toQuery(checked.data);
        }
        let composed: Json = {};
        if (spec.compose) {
          const checked = spec.compose.schema.safeParse(Object.fromEntries(Object.entries(args).filter(([name]) => composeArgs.has(name))));
          if (!checked.success) throw new AppError('BAD_REQUEST', checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
          composed = checked.data;
        }
        const rest = Object.fromEntries(Object.entries(args).filter(([name]) => !queryArgs.has(name) && !composeArgs.has(name) && ![...idArgs.values()].includes(name)));
        if (!route.body && Object.keys(rest).length) throw new AppError('BAD_REQUEST', `unknown argument${Object.keys(rest).length > 1 ? 's' : ''}: ${Object.keys(rest).join(', ')}`);
        const rawBody = route.body ? (spec.bodyDefaults ? spec.bodyDefaults(rest) : rest) : undefined;
        const query: unknown = route.query ? route.query.parse(rawQuery) : undefined;
        const body: unknown = route.body ? route.body.parse(rawBody) : undefined;
        const reply = await route.handler({ params, query, body, auth, req: requestFor(route, rawBody) });
        let answer = (reply.body ?? {}) as Json;
        // A run that failed answers its failure's status and body (a 502, a 403 from the target…).
        if (reply.status >= 400) return toolError(answer as unknown as ErrorBody);
        if (spec.compose) answer = await spec.compose.answer(answer, composed, routeCaller(routes, auth));
        const text = spec.text?.(answer) ?? JSON.stringify(answer, null, 2);
        return { content: [{ type: 'text', text }], structuredContent: answer };
      } catch (error) {
        if (error instanceof RouteRefused) return toolError(error.body);
        return errorResult(error, logger);
      }
    },
  };
}

/** The tools, bound to the routes of the table (throws at start-up when one is missing). */
export function mcpTools(routes: readonly Route[]): Map<string, McpTool> {
  return new Map(SPECS.map((spec) => [spec.name, bindTool(spec, routes)]));
}
