/**
 * The route table (docs/api.md): every route is data — method, path, credential, zod schemas of
 * its path ids, query, body and responses, the error codes it can answer, a summary and a tag.
 * `mountRoutes` turns the data into Express routes (path ids → auth → query → body → handler →
 * JSON), and api/openapi.ts turns the same data into the OpenAPI document, so the two cannot
 * drift apart. Handlers receive typed input and return `{ status, body }`; errors are thrown as
 * AppError and answered by the error middleware.
 *
 * Order of checks, as the routes had it before the table:
 * 1. path ids (`idSchema`): a malformed id answers 404 before anything else, even the credential;
 * 2. the credential (`authenticate`: its 401/403 bodies);
 * 3. the query string, then the body, each by its own parser (400 or 422: see `BodySpec`).
 */
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import { AppError, type ErrorCode } from '../platform/errors';
import { type AuthContext, authenticate } from './middleware/auth';
import { MALFORMED_ID_MESSAGE, idSchema } from './params';
import { parseBody, parseOrUnprocessable } from '../platform/validate';
import type { AppDeps } from './deps';

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * Who may call: an API key (`x-api-key` header or `apiKey` query), a session cookie, either, no
 * one in particular, or the payment provider (its signature over the raw body).
 */
export type Credential = 'apiKey' | 'session' | 'either' | 'none' | 'signature';

const ACCEPT: Record<'apiKey' | 'session' | 'either', { apiKey: boolean; session: boolean }> = {
  apiKey: { apiKey: true, session: false },
  session: { apiKey: false, session: true },
  either: { apiKey: true, session: true },
};

/**
 * A request part (query or body): the schema the document shows, and the parser that decides
 * the status of a failure. The spec's rules differ per route (400 naming the field, 422 listing
 * every item, or a domain parser with cross-field rules), so the parser is part of the data.
 */
export interface PartSpec<T> {
  schema: z.ZodType;
  parse: (value: unknown) => T;
  /** An example for the document. */
  example?: unknown;
  /** The body may be left out (the parser gets `undefined`); the document says it is not required. */
  optional?: boolean;
}

/** Failures → 400 BAD_REQUEST naming the field (`parseBody`). */
export function badRequest<S extends z.ZodType>(schema: S, example?: unknown): PartSpec<z.output<S>> {
  return { schema, parse: (value) => parseBody(schema, value), example };
}

/** Failures → 422 VALIDATION_FAILED listing every item (`parseOrUnprocessable`). */
export function unprocessable<S extends z.ZodType>(schema: S, example?: unknown): PartSpec<z.output<S>> {
  return { schema, parse: (value) => parseOrUnprocessable(schema, value), example };
}

/** A domain parser (cross-field rules, custom statuses); `schema` describes the part for the document. */
export function parsedBy<T>(schema: z.ZodType, parse: (value: unknown) => T, example?: unknown): PartSpec<T> {
  return { schema, parse, example };
}

/** A response: its status and the schema of its body (none for 204). */
export type Responses = Partial<Record<number, z.ZodType | null>>;

/** What a handler answers: one of the declared statuses, its body (JSON, or bytes sent as they are), and optional headers. */
export type Reply<R extends Responses> = {
  [S in keyof R & number]: { status: S; body?: unknown; headers?: Record<string, string> };
}[keyof R & number];

export interface RouteInput<P extends string, Q, B> {
  params: Record<P, string>;
  query: Q;
  body: B;
  /** The authenticated caller; null only on routes whose credential is 'none' or 'signature'. */
  auth: AuthContext;
  req: Request;
}

interface RouteDoc {
  method: HttpMethod;
  /** Express path (`/flows/:id`); the document shows `{id}`. */
  path: string;
  credential: Credential;
  summary: string;
  tag: string;
  description?: string;
  /** Path parameters: each is an id (`idSchema`). */
  params?: readonly string[];
  query?: PartSpec<unknown>;
  body?: PartSpec<unknown>;
  /** Body content type when not JSON (the payment webhook takes any bytes). */
  bodyContentType?: string;
  responses: Responses;
  /** Content type of the success answers when not JSON (`/metrics`, `/docs`). */
  responseContentType?: string;
  /** The codes this route can answer (beside those every route can: see `COMMON_ERRORS`). */
  errors: readonly ErrorCode[];
  /** Takes the `Idempotency-Key` header (api/idempotency.ts; the handler honours it). */
  idempotent?: boolean;
}

/** A route the table mounts: parsed input in, `{ status, body }` out. */
export interface TableRoute<P extends string = string, Q = unknown, B = unknown, R extends Responses = Responses> extends RouteDoc {
  kind: 'table';
  params?: readonly P[];
  query?: PartSpec<Q>;
  body?: PartSpec<B>;
  responses: R;
  handler: (input: RouteInput<P, Q, B>) => Promise<Reply<NoInfer<R>>> | Reply<NoInfer<R>>;
}

/**
 * A route that keeps its own Express handlers (raw body, the auth library, a text stream): the
 * table still declares it for the document; `mount` installs it on the router.
 */
export interface CustomRoute extends RouteDoc {
  kind: 'custom';
  mount?: (router: Router) => void;
  /**
   * Catch-all Express patterns this route's `mount` installs (the auth library's `/api/auth/*splat`):
   * a document cannot list a wildcard, so the table names them here and declares the paths
   * clients use as routes of their own.
   */
  serves?: readonly string[];
}

export type Route = TableRoute<string, any, any, any> | CustomRoute; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A handler's answer: the literal status keeps it checked against the route's declared responses. */
export function reply<const S extends number>(status: S, body?: unknown, headers?: Record<string, string>): { status: S; body?: unknown; headers?: Record<string, string> } {
  return { status, body, headers };
}

/** Declares a table route; the generics give the handler typed params, query and body. */
export function route<const P extends string = never, Q = undefined, B = undefined, R extends Responses = Responses>(spec: Omit<TableRoute<P, Q, B, R>, 'kind'>): TableRoute<P, Q, B, R> {
  return { ...spec, kind: 'table' };
}

/** Declares a route with its own handlers (see `CustomRoute`). */
export function customRoute(spec: Omit<CustomRoute, 'kind'>): CustomRoute {
  return { ...spec, kind: 'custom' };
}

/** Codes any route can answer whatever it does: a dependency down, an unexpected error. */
export const COMMON_ERRORS: readonly ErrorCode[] = ['DEPENDENCY_UNAVAILABLE', 'INTERNAL'];

/** Codes a credential adds to a route's answers. */
export function credentialErrors(credential: Credential): ErrorCode[] {
  if (credential === 'either') return ['UNAUTHORIZED', 'INVALID_ORIGIN', 'RATE_LIMITED'];
  if (credential === 'session') return ['UNAUTHORIZED', 'INVALID_ORIGIN'];
  // An API key's requests per minute (api/limits.ts).
  if (credential === 'apiKey') return ['UNAUTHORIZED', 'RATE_LIMITED'];
  return [];
}

/** Every code a route can answer: its own, its credential's, its parsers', the common ones. */
export function routeErrors(r: Route): ErrorCode[] {
  const codes = new Set<ErrorCode>([...r.errors, ...credentialErrors(r.credential), ...COMMON_ERRORS]);
  if (r.params?.length) codes.add('NOT_FOUND');
  if (r.idempotent) {
    codes.add('BAD_REQUEST');
    codes.add('IDEMPOTENCY_KEY_REUSED');
    codes.add('REQUEST_IN_PROGRESS');
  }
  if (r.body && r.bodyContentType === undefined) {
    codes.add('MALFORMED_JSON');
    // A string holding U+0000 (api/middleware/json-body.ts).
    codes.add('BAD_REQUEST');
    codes.add('PAYLOAD_TOO_LARGE');
  }
  return [...codes];
}

function checkIds(names: readonly string[]): RequestHandler {
  return (req, _res, next) => {
    for (const name of names) {
      if (!idSchema.safeParse(req.params[name]).success) {
        next(new AppError('NOT_FOUND', MALFORMED_ID_MESSAGE));
        return;
      }
    }
    next();
  };
}

/** Installs `routes` on `router`, in order. */
export function mountRoutes(router: Router, deps: AppDeps, routes: readonly Route[]): Router {
  for (const r of routes) {
    if (r.kind === 'custom') {
      r.mount?.(router);
      continue;
    }
    const chain: RequestHandler[] = [];
    if (r.params?.length) chain.push(checkIds(r.params));
    if (r.credential === 'apiKey' || r.credential === 'session' || r.credential === 'either') chain.push(authenticate(deps, ACCEPT[r.credential]));
    chain.push(async (req: Request, res: Response, _next: NextFunction) => {
      const params = Object.fromEntries((r.params ?? []).map((name) => [name, String(req.params[name])]));
      const query: unknown = r.query ? r.query.parse(req.query) : undefined;
      const body: unknown = r.body ? r.body.parse(req.body) : undefined;
      const reply = await r.handler({ params, query, body, auth: req.auth!, req });
      for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
      res.status(reply.status);
      if (reply.body === undefined) res.end();
      // Bytes (a screenshot's PNG) go as they are, under the content type the reply's headers name.
      else if (reply.body instanceof Uint8Array) res.send(Buffer.from(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength));
      else res.json(reply.body);
    });
    router[r.method](r.path, ...chain);
  }
  return router;
}
