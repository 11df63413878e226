/**
 * Hostile path ids and cursors, end to end (real API and worker processes, Temporal, PostgreSQL):
 * a NUL byte, an overlong id or a path trick in an id answers 404 in the standard body with its
 * code, a malformed cursor 400, never a 500 (PostgreSQL refuses NUL bytes in text, which used
 * to surface as one).
 */
import { type TestAccount, createAccount } from '../../test/helpers/accounts';
import { call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { MALFORMED_ID_MESSAGE } from '../params';

let stack: Stack;
let owner: TestAccount;
let flowId: string;

beforeAll(async () => {
  stack = await startStack();
  owner = await createAccount(stack.baseUrl);
  const created = await call(stack.baseUrl, 'POST', '/flows', { 'x-api-key': owner.apiKey }, { name: 'pause', nodes: [{ id: 'p', type: 'delay', config: { ms: 5 } }] });
  expect(created.status).toBe(201);
  flowId = created.body.id as string;
});

afterAll(async () => {
  await stack?.stop();
});

const BAD_IDS = ['%00', 'a%00b', 'x'.repeat(129), '%E2%80%AE', 'a%20b', "1'%20OR%20'1'='1"];

/** [method, path with ID where the id goes, credential]. */
const ROUTES: Array<[string, string, 'key' | 'session']> = [
  ['GET', '/webhook/runs/ID', 'key'],
  ['GET', '/flows/ID', 'key'],
  ['PATCH', '/flows/ID', 'key'],
  ['PUT', '/flows/ID', 'key'],
  ['DELETE', '/flows/ID', 'key'],
  ['POST', '/flows/ID/runs', 'key'],
  ['GET', '/flows/ID/runs', 'key'],
  ['GET', `/flows/FLOW/runs/ID`, 'key'],
  ['POST', `/flows/FLOW/runs/ID/cancel`, 'key'],
  ['GET', '/user-templates/ID', 'key'],
  ['PATCH', '/user-templates/ID', 'key'],
  ['DELETE', '/user-templates/ID', 'key'],
  ['POST', '/user-templates/ID/run', 'key'],
  ['DELETE', '/api/users/api-keys/ID', 'session'],
  ['POST', '/api/notifications/ID/read', 'session'],
  ['GET', '/api/payments/ID', 'session'],
];

describe('hostile ids and cursors', () => {
  it.each(ROUTES)('%s %s answers 404 NOT_FOUND for every malformed id', async (method, template, credential) => {
    const headers: Record<string, string> = credential === 'key' ? { 'x-api-key': owner.apiKey } : { cookie: owner.cookie };
    const body = method === 'GET' || method === 'DELETE' ? undefined : {};
    for (const id of BAD_IDS) {
      const path = template.replace('FLOW', flowId).replace('ID', id);
      const answer = await call(stack.baseUrl, method, path, headers, body);
      expect({ path, ...answer }).toEqual({ path, status: 404, body: { statusCode: 404, message: MALFORMED_ID_MESSAGE, error: 'Not Found', code: 'NOT_FOUND' } });
    }
  });

  it('a well-formed unknown id still answers the resource\'s own 404', async () => {
    const answer = await call(stack.baseUrl, 'GET', '/webhook/runs/00000000-0000-0000-0000-000000000000', { 'x-api-key': owner.apiKey });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'NOT_FOUND' });
    expect(answer.body.message).not.toBe(MALFORMED_ID_MESSAGE);
  });

  it('a malformed cursor answers 400 BAD_REQUEST on every paged list', async () => {
    const cursors = [
      Buffer.from('2026-01-01T00:00:00.000Z|a\u0000b').toString('base64url'),
      Buffer.from('2026-01-01T00:00:00.000Z|a|b').toString('base64url'),
      Buffer.from('not a time|abc').toString('base64url'),
      '%00',
      'x'.repeat(5000),
    ];
    const lists: Array<[string, Record<string, string>]> = [
      [`/flows/${flowId}/runs`, { 'x-api-key': owner.apiKey }],
      ['/api/notifications', { cookie: owner.cookie }],
      ['/api/payments', { cookie: owner.cookie }],
    ];
    for (const [path, headers] of lists) {
      for (const [which, cursor] of cursors.entries()) {
        const answer = await call(stack.baseUrl, 'GET', `${path}?cursor=${cursor}`, headers);
        // A list whose query schema caps the cursor's length says so instead.
        expect({ path, which, ...answer }).toEqual({ path, which, status: 400, body: { statusCode: 400, message: expect.stringMatching(/^cursor (is not valid|must be at most \d+ characters)$/), error: 'Bad Request', code: 'BAD_REQUEST' } });
      }
    }
  });
});
