/**
 * /mcp under the key's requests-per-minute limit (api/limits.ts), on a stack of its own with a
 * low limit: every POST counts, past the limit → 429 with Retry-After in the JSON-RPC envelope,
 * before the transport: a tool call then starts nothing.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type TestAccount, createAccount, setBalance, sql } from '../../test/helpers/accounts';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';

const RATE = 5;
let stack: Stack;
let account: TestAccount;

beforeAll(async () => {
  stack = await startStack({ worker: false, env: { RATE_LIMIT_PER_MINUTE: String(RATE) } });
  account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 100);
});

afterAll(async () => {
  await stack?.stop();
});

const post = (message: unknown) =>
  fetch(`${stack.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${account.apiKey}` },
    body: JSON.stringify(message),
  });

it('counts every POST as a request of the key: past the limit 429 with Retry-After, and a tool call starts nothing', async () => {
  // Until a 429 with at least 5 s left in its minute (a minute may roll over meanwhile).
  let passed = 0;
  const limited = await waitFor('a 429 with time left in its minute', async () => {
    const answer = await post({ jsonrpc: '2.0', id: passed + 1, method: 'tools/list' });
    const body = (await answer.json()) as Record<string, unknown>;
    if (answer.status !== 429) {
      expect(answer.status).toBe(200);
      passed++;
      return undefined;
    }
    return Number(answer.headers.get('retry-after')) >= 5 ? { answer, body } : undefined;
  }, 150_000);
  expect(passed).toBeGreaterThanOrEqual(RATE);
  expect(limited.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { statusCode: 429, code: 'RATE_LIMITED' } } });

  const scrape = await post({ jsonrpc: '2.0', id: 'scrape', method: 'tools/call', params: { name: 'scrape', arguments: { url: 'http://127.0.0.1:9/' } } });
  expect(scrape.status).toBe(429);
  expect(scrape.headers.get('retry-after')).toMatch(/^\d+$/);
  expect((await sql<{ n: string }>(stack.databaseUrl, 'SELECT count(*) AS n FROM scrape_run WHERE "userId" = $1', [account.userId]))[0]!.n).toBe('0');

  // The official client sees the status, as for a refused key.
  const client = new Client({ name: 'scrape-api-tests', version: '1.0.0' });
  const refused = await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp`), { requestInit: { headers: { 'x-api-key': account.apiKey } } })).then(
    () => undefined,
    (error: unknown) => error,
  );
  await client.close();
  expect(refused).toBeInstanceOf(StreamableHTTPError);
  expect((refused as StreamableHTTPError).code).toBe(429);
});
