/**
 * `/mcp` (docs/mcp.md): a Model Context Protocol endpoint over Streamable HTTP, on the official
 * TypeScript SDK (`@modelcontextprotocol/sdk`), stateless. Every POST gets a server and a
 * transport of its own (one shared server refuses concurrent requests: "Already connected"),
 * after the checks the SDK does not do for us:
 *
 * 1. `Origin`, only when present (browsers send it; Node and desktop clients send none): one of
 *    the service's own origins (BETTER_AUTH_URL, else localhost:PORT) or TRUSTED_ORIGINS, else
 *    403 — the DNS-rebinding guard the MCP specification asks for. The `Host` header is not
 *    checked (the SDK's ready-made Express app does, and refuses every host but localhost, which
 *    breaks behind a proxy).
 * 2. The API key, in `x-api-key` or `Authorization: Bearer`, before the transport (`initialize`
 *    included): missing or refused → 401; then the key's requests per minute (api/limits.ts),
 *    counted per POST as any request → 429 with Retry-After. A JSON-RPC batch counts each of its
 *    `tools/call` messages: the first one past the limit refuses the POST (429); past the limit
 *    later in the batch, those calls answer the RATE_LIMITED tool error. The calls of one POST run
 *    one after the other, so a batch cannot pass the runs-in-flight limit by starting its runs
 *    together (each call's check sees the runs the earlier ones started).
 *
 * GET (the optional server-to-client stream) and DELETE (ending a session) → 405: a stateless
 * server has neither, and clients take 405 as "no stream" (a 404 is reported as an error).
 * Answers are plain JSON (`enableJsonResponse`): a tool answers once, nothing is streamed.
 */
import type { IncomingMessage } from 'node:http';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { trustedOrigins } from '../../accounts/auth-config';
import { AppError, type ErrorBody, errorBody } from '../../platform/errors';
import { UNAUTHORIZED_BODY, bearerToken, verifyApiKey } from '../middleware/auth';
import type { Route } from '../route-table';
import type { AppDeps } from '../deps';
import { mcpTools, toolError } from './tools';

export const MCP_PATH = '/mcp';
/** The name and version the server gives in `initialize`. */
export const MCP_SERVER_INFO = { name: 'scrape-api', version: '0.1.0' } as const;

const MESSAGES = {
  keyMissing: 'An API key is required: send it in the x-api-key header or as Authorization: Bearer <key>',
  origin: 'Origin not allowed: /mcp answers pages of the service\'s own origin and TRUSTED_ORIGINS only',
  method: 'Method not allowed: this MCP server is stateless and answers POST only',
} as const;

/** The ids of the `tools/call` requests a POST carries (one message or a JSON-RPC batch), in order. */
function toolCallIds(body: unknown): Array<string | number> {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => {
    const { method, id } = (message ?? {}) as { method?: unknown; id?: unknown };
    return method === 'tools/call' && (typeof id === 'string' || typeof id === 'number') ? [id] : [];
  });
}

/** The key a request presents: `x-api-key`, else a Bearer token; `malformed` when sent but unusable. */
function presentedKey(req: Request): { key?: string; malformed: boolean } {
  const header = req.headers['x-api-key'];
  if (Array.isArray(header)) return { malformed: true };
  if (header !== undefined) return header.trim() ? { key: header.trim(), malformed: false } : { malformed: true };
  const authorization = req.headers.authorization;
  if (authorization === undefined) return { malformed: false };
  const token = bearerToken(authorization);
  return token ? { key: token, malformed: false } : { malformed: true };
}

/**
 * A refusal before the transport: the JSON-RPC error envelope MCP clients read, our error body in
 * its `data` (the same code and message as the HTTP API's), the HTTP status of that body.
 */
function refuse(res: Response, body: ErrorBody | typeof UNAUTHORIZED_BODY, headers: Record<string, string> = {}): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  const message = Array.isArray(body.message) ? body.message.join('; ') : body.message;
  res.status(body.statusCode).json({ jsonrpc: '2.0', error: { code: -32000, message: `${body.code}: ${message}`, data: body }, id: null });
}

/** The `/mcp` routes; `routes` is the route table the tools call into (api/mcp/tools.ts). */
export function mcpRouter(deps: AppDeps, routes: readonly Route[]): Router {
  const tools = mcpTools(routes);
  const definitions = [...tools.values()].map((tool) => tool.definition);
  const allowedOrigins = new Set(trustedOrigins(deps.config).map((origin) => origin.toLowerCase()));
  const router = Router();

  router.post(MCP_PATH, (req: Request, res: Response, next: NextFunction) => {
    void (async () => {
      const origin = req.headers.origin;
      if (origin !== undefined && !allowedOrigins.has(origin.replace(/\/+$/, '').toLowerCase())) {
        refuse(res, errorBody('INVALID_ORIGIN', MESSAGES.origin));
        return;
      }
      const presented = presentedKey(req);
      if (presented.key === undefined && !presented.malformed) {
        refuse(res, errorBody('UNAUTHORIZED', MESSAGES.keyMissing), { 'www-authenticate': 'Bearer' });
        return;
      }
      // Unknown, revoked, expired or malformed: the same answer for every cause (api/middleware/auth.ts).
      const verified = await verifyApiKey(deps, presented.key);
      if (!verified) {
        refuse(res, UNAUTHORIZED_BODY, { 'www-authenticate': 'Bearer' });
        return;
      }
      const auth = { userId: verified.userId, apiKeyId: verified.apiKeyId, method: 'api-key' as const };
      try {
        await deps.limits?.countRequest(verified.apiKeyId);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const retryAfter = error.extra.retryAfter;
        refuse(res, error.toBody(), typeof retryAfter === 'number' ? { 'retry-after': String(retryAfter) } : {});
        return;
      }
      // The POST counted for its first tool call; every further call of a batch counts too.
      const refusedCalls = new Map<string | number, ErrorBody>();
      for (const id of toolCallIds(req.body).slice(1)) {
        try {
          await deps.limits?.countRequest(verified.apiKeyId);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          refusedCalls.set(id, error.toBody());
        }
      }
      // One tool call at a time per POST (the runs-in-flight check is check-then-start).
      let previousCall: Promise<unknown> = Promise.resolve();

      const server = new Server(MCP_SERVER_INFO, {
        capabilities: { tools: {} },
        instructions: 'Scrape pages to markdown, map and crawl sites, batch-scrape URLs and run saved flows, paid with the credit of the API key this connection uses. crawl, batch_scrape and run_flow answer an id at once: poll crawl_status, batch_status or flow_run_status, and read pages with get_run.',
      });
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: definitions }));
      server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
        const refused = refusedCalls.get(extra.requestId);
        if (refused) return toolError(refused);
        const tool = tools.get(request.params.name);
        if (!tool) return toolError(errorBody('NOT_FOUND', `No tool named ${request.params.name}: tools/list lists them`));
        const call = previousCall.then(() => tool.call(request.params.arguments ?? {}, { auth, logger: req.log }));
        previousCall = call.catch(() => undefined);
        return call;
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      // Our JSON body parser already read the body: the transport takes it parsed. (Its `auth` is
      // the SDK's OAuth token info, which we do not use: our caller is `auth` above.)
      await transport.handleRequest(req as IncomingMessage, res, req.body);
    })().catch(next);
  });

  const notAllowed = (_req: Request, res: Response) => {
    res.setHeader('allow', 'POST');
    res.status(405).json({ jsonrpc: '2.0', error: { code: -32000, message: MESSAGES.method }, id: null });
  };
  router.get(MCP_PATH, notAllowed);
  router.delete(MCP_PATH, notAllowed);
  return router;
}
