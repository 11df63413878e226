/**
 * Stored sessions of the account (docs/scraping.md, "Sessions"), API key or session cookie:
 *   GET    /sessions          the account's sessions: name, domains, size, dates (never a cookie)
 *   GET    /sessions/:name    one of them, the same metadata
 *   PUT    /sessions/:name    import a Playwright storage state (replaces the session's whole state)
 *   DELETE /sessions/:name    delete it
 * A name the account has no session of, another account's included → 404 SESSION_NOT_FOUND.
 */
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { storageStateSchema } from '../../scrape/cookies';
import type { SessionStore } from '../../sessions/store';
import { type Route, badRequest, reply, route } from '../route-table';
import type { AppDeps } from '../deps';

const sessionSchema = z
  .object({
    name: z.string(),
    domains: z.array(z.string()).meta({ description: 'The domains of its cookies and the hosts of its local storage.' }),
    size_bytes: z.int().meta({ description: 'Its storage state as JSON, in bytes (bounded by SESSION_MAX_BYTES).' }),
    cookie_count: z.int(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    last_used_at: z.iso.datetime().nullable().meta({ description: 'When a scrape last started from it.' }),
    expires_at: z.iso.datetime().nullable().meta({ description: 'The latest expiry among its cookies; null when they are session cookies.' }),
  })
  .meta({ id: 'Session' });

const STORAGE_STATE_EXAMPLE = {
  cookies: [{ name: 'sid', value: 'abc123', domain: 'example.com', path: '/', expires: -1, httpOnly: true, secure: true, sameSite: 'Lax' }],
  origins: [{ origin: 'https://example.com', localStorage: [{ name: 'theme', value: 'dark' }] }],
};

function notFound(name: string): AppError {
  return new AppError('SESSION_NOT_FOUND', `No session named ${name}`);
}

export function sessionRouteTable(deps: AppDeps): Route[] {
  const store = (): SessionStore => deps.sessions!;
  return [
    route({
      method: 'get',
      path: '/sessions',
      credential: 'either',
      tag: 'sessions',
      summary: "The account's stored sessions (metadata only: no cookie names or values)",
      responses: { 200: z.object({ sessions: z.array(sessionSchema) }) },
      errors: [],
      handler: async ({ auth }) => reply(200, { sessions: await store().list(auth.userId) }),
    }),
    route({
      method: 'get',
      path: '/sessions/:name',
      params: ['name'],
      credential: 'either',
      tag: 'sessions',
      summary: 'One stored session (metadata only)',
      responses: { 200: sessionSchema },
      errors: ['SESSION_NOT_FOUND'],
      handler: async ({ auth, params }) => {
        const session = await store().get(auth.userId, params.name);
        if (!session) throw notFound(params.name);
        return reply(200, session);
      },
    }),
    route({
      method: 'put',
      path: '/sessions/:name',
      params: ['name'],
      credential: 'either',
      tag: 'sessions',
      summary: 'Import a Playwright storage state (`context.storageState()`) as the session of that name, replacing its state',
      description:
        'The body is the JSON Playwright writes (`cookies`, `origins` with `localStorage`; other keys are ignored). 201 when the session is new, 200 when replaced. Stored encrypted; the answer is its metadata only. Limits: SESSION_MAX_BYTES (413 `SESSION_TOO_LARGE`), SESSIONS_PER_ACCOUNT (409 `SESSION_LIMIT_REACHED`). docs/scraping.md "Sessions".',
      body: badRequest(storageStateSchema, STORAGE_STATE_EXAMPLE),
      responses: { 200: sessionSchema, 201: sessionSchema },
      errors: ['BAD_REQUEST', 'SESSION_TOO_LARGE', 'SESSION_LIMIT_REACHED'],
      handler: async ({ auth, params, body }) => {
        const { created, session } = await store().importState(auth.userId, params.name, body);
        return created ? reply(201, session) : reply(200, session);
      },
    }),
    route({
      method: 'delete',
      path: '/sessions/:name',
      params: ['name'],
      credential: 'either',
      tag: 'sessions',
      summary: 'Delete a stored session',
      responses: { 204: null },
      errors: ['SESSION_NOT_FOUND'],
      handler: async ({ auth, params }) => {
        if (!(await store().delete(auth.userId, params.name))) throw notFound(params.name);
        return reply(204);
      },
    }),
  ];
}
