/**
 * What `crawl_status` and `batch_status` add to `GET /crawl/:id` (docs/mcp.md "Tools"): the
 * job's pages with their markdown, a slice at a time, so an agent reads a crawl's content as
 * firecrawl-mcp's status tool answers documents. Built from the table's own routes, called in
 * process with the caller's credential (ownership checked by each): `GET /crawl/:id/pages`
 * (frontier order, its opaque cursor) and `GET /webhook/runs/:id` for each page's stored result.
 * Nothing is read from the database here.
 */
import { z } from 'zod';
import type { Request } from 'express';
import type { ErrorBody } from '../../platform/errors';
import type { AuthContext } from '../middleware/auth';
import type { Route, TableRoute } from '../route-table';

type Json = Record<string, unknown>;

/** Pages of one answer by default: markdown is large, and an agent's context is not. */
export const JOB_PAGES_DEFAULT = 10;
export const JOB_PAGES_MAX = 100;

/** The tool arguments beside `id`: where the slice starts and how many pages it holds. */
export const jobPagesArgs = z.object({
  cursor: z.string().max(100).optional().meta({ description: 'The `next_cursor` of the previous answer: the pages after it' }),
  limit: z
    .number()
    .int()
    .min(1)
    .max(JOB_PAGES_MAX)
    .optional()
    .meta({ description: `Pages per answer, each with its markdown (default ${JOB_PAGES_DEFAULT}, at most ${JOB_PAGES_MAX})` }),
});

/** A route's refusal while a tool composes its answer: the tool answers this body as its error. */
export class RouteRefused extends Error {
  constructor(readonly body: ErrorBody) {
    super(String(body.code));
  }
}

/** Calls a GET route of the table in process, as the caller; its refusal throws `RouteRefused`. */
export type RouteCaller = (path: string, params: Record<string, string>, rawQuery?: Record<string, string>) => Promise<Json>;

export function routeCaller(routes: readonly Route[], auth: AuthContext): RouteCaller {
  return async (path, params, rawQuery = {}) => {
    const route = routes.find((r): r is TableRoute => r.kind === 'table' && r.method === 'get' && r.path === path);
    if (!route) throw new Error(`MCP: no route GET ${path} in the table`);
    const query: unknown = route.query ? route.query.parse(rawQuery) : undefined;
    const req = Object.freeze({ method: 'GET', originalUrl: path, path, headers: {}, query: {}, body: undefined }) as unknown as Request;
    const reply = await route.handler({ params, query, body: undefined, auth, req });
    const body = (reply.body ?? {}) as Json;
    if (reply.status >= 400) throw new RouteRefused(body as unknown as ErrorBody);
    return body;
  };
}

/** A page as the status tools list it: the native page fields, then its title and markdown when it has them. */
async function withContent(page: Json, callRoute: RouteCaller): Promise<Json> {
  if (page.status !== 'succeeded' || typeof page.run_id !== 'string') return { ...page, title: null, markdown: null };
  const run = await callRoute('/webhook/runs/:id', { id: page.run_id });
  const result = (run.result ?? {}) as Json;
  const metadata = (result.metadata ?? {}) as Json;
  return {
    ...page,
    title: typeof metadata.title === 'string' ? metadata.title : null,
    markdown: typeof result.markdown === 'string' ? result.markdown : null,
  };
}

/** `GET /crawl/:id`'s answer with `pages` replaced by one slice of pages with their content, and `next_cursor`. */
export async function jobWithPages(job: Json, args: z.output<typeof jobPagesArgs>, callRoute: RouteCaller): Promise<Json> {
  const limit = args.limit ?? JOB_PAGES_DEFAULT;
  const slice = await callRoute('/crawl/:id/pages', { id: job.id as string }, { limit: String(limit), ...(args.cursor !== undefined ? { cursor: args.cursor } : {}) });
  // One page at a time: each is a run lookup; a slice is at most JOB_PAGES_MAX of them.
  const pages: Json[] = [];
  for (const page of slice.pages as Json[]) pages.push(await withContent(page, callRoute));
  return { ...job, pages, next_cursor: (slice.next) ?? null };
}
