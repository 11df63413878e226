/**
 * mountRoutes, in process: the order of checks (path ids before the credential, then query, then
 * body), each part's failure status, the reply's status, headers and empty 204.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { z } from 'zod';
import { parseConfig } from '../platform/config';
import { MESSAGES } from './middleware/auth';
import { errorHandler } from './middleware/errors';
import { MALFORMED_ID_MESSAGE } from './params';
import { badRequest, mountRoutes, reply, route, unprocessable } from './route-table';
import type { AppDeps } from './deps';

const verified = { userId: 'u1', apiKeyId: 'k1' };
const deps = {
  config: parseConfig({ DATABASE_URL: 'postgresql://unused@127.0.0.1:1/unused' }),
  apiKeys: { verify: (key: string) => Promise.resolve(key === 'sk_good' ? verified : null) },
} as unknown as AppDeps;

const routes = [
  route({
    method: 'post',
    path: '/things/:id',
    params: ['id'],
    credential: 'apiKey',
    tag: 'test',
    summary: 'test',
    query: badRequest(z.object({ limit: z.coerce.number().int().min(1).default(5) })),
    body: unprocessable(z.strictObject({ name: z.string() })),
    responses: { 201: z.unknown() },
    errors: [],
    handler: ({ params, query, body, auth }) => reply(201, { id: params.id, limit: query.limit, name: body.name, userId: auth.userId }, { 'x-test': 'yes' }),
  }),
  route({
    method: 'delete',
    path: '/things/:id',
    params: ['id'],
    credential: 'none',
    tag: 'test',
    summary: 'test',
    responses: { 204: null },
    errors: [],
    handler: () => reply(204),
  }),
];

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use(mountRoutes(express.Router(), deps, routes));
  app.use(errorHandler);
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function post(path: string, body: unknown, key?: string) {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as unknown, test: res.headers.get('x-test') };
}

describe('mountRoutes', () => {
  it('answers a malformed id 404 before looking at the credential', async () => {
    expect(await post('/things/a%00b', {})).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', message: MALFORMED_ID_MESSAGE } });
  });

  it('then authenticates, with the middleware bodies', async () => {
    expect(await post('/things/t1', { name: 'x' })).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED', message: MESSAGES.keyMissing } });
    expect(await post('/things/t1', { name: 'x' }, 'sk_bad')).toMatchObject({ status: 401, body: { statusCode: 401, message: 'Unauthorized', error: 'Unauthorized', code: 'UNAUTHORIZED' } });
  });

  it('then parses the query (400) before the body (422)', async () => {
    expect(await post('/things/t1?limit=0', { nope: 1 }, 'sk_good')).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    expect(await post('/things/t1', { nope: 1 }, 'sk_good')).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED', message: ['name is required', 'nope is not allowed'] } });
  });

  it('calls the handler with typed input and sends its status, headers and body', async () => {
    expect(await post('/things/t1?limit=7', { name: 'x' }, 'sk_good')).toEqual({ status: 201, body: { id: 't1', limit: 7, name: 'x', userId: 'u1' }, test: 'yes' });
  });

  it('sends no body for a reply without one', async () => {
    const res = await fetch(`${base}/things/t1`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });
});
