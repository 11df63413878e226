/**
 * /mcp under the key's requests-per-minute limit (api/limits.ts), on a stack of its own with a
 * low limit: every POST counts, past the limit → 429 with Retry-After in the JSON-RPC envelope,
 * before the transport: a tool call then starts nothing. A JSON-RPC batch (one POST carrying
 * several `tools/call` messages) counts each call, and its calls start one after the other, so
 * it can pass neither the per-minute limit nor the runs-in-flight limit (CONCURRENCY_LIMIT).
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type TestAccount, createAccount, setBalance, sql } from '../../test/helpers/accounts';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';

jest.setTimeout(300_000);

const RATE = 5;
const CONCURRENCY = 2;
let stack: Stack;
let account: TestAccount;

beforeAll(async () => {
  stack = await startStack({ worker: false, env: { RATE_LIMIT_PER_MINUTE: String(RATE), CONCURRENCY_LIMIT: String(CONCURRENCY) } });
  account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 100);
});

afterAll(async () => {
  await stack?.stop();
});

const post = (message: unknown, apiKey = account.apiKey) =>
  fetch(`${stack.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(message),
  });

type RpcAnswer = { id: number; result?: { isError?: boolean; structuredContent?: { code?: string; statusCode?: number } }; error?: unknown };

/** One POST carrying `calls` as a JSON-RPC batch; the answers by id. */
async function batch(apiKey: string, calls: Array<{ name: string; arguments: Record<string, unknown> }>): Promise<{ status: number; answers: RpcAnswer[] }> {
  const answer = await post(calls.map((params, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params })), apiKey);
  const body = (await answer.json()) as RpcAnswer[] | RpcAnswer;
  return { status: answer.status, answers: (Array.isArray(body) ? body : [body]).sort((a, b) => a.id - b.id) };
}

/** A minute of the key's fixed windows with at least 10 s left, so a batch is counted in one window. */
const minuteWithTimeLeft = () => waitFor('a minute with 10 s left', () => Promise.resolve(Date.now() % 60_000 < 50_000 || undefined), 15_000);

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

it('counts each tools/call of a JSON-RPC batch: the calls past the limit answer RATE_LIMITED, the others are served', async () => {
  const fresh = await createAccount(stack.baseUrl);
  await minuteWithTimeLeft();
  const { status, answers } = await batch(fresh.apiKey, Array.from({ length: RATE + 2 }, () => ({ name: 'get_run', arguments: { id: randomUUID() } })));
  expect(status).toBe(200);
  expect(answers.map((a) => a.id)).toEqual(Array.from({ length: RATE + 2 }, (_, i) => i + 1));
  // Served: the run is unknown. Past the limit: the limit's error, as a tool error.
  expect(answers.map((a) => [a.result?.isError, a.result?.structuredContent?.code])).toEqual([
    ...Array.from({ length: RATE }, () => [true, 'NOT_FOUND']),
    [true, 'RATE_LIMITED'],
    [true, 'RATE_LIMITED'],
  ]);
  // The key's minute is spent: the next POST is refused whole.
  expect((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, fresh.apiKey)).status).toBe(429);
});

it('a batch of run-starting calls cannot pass the runs-in-flight limit', async () => {
  const fresh = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, fresh.userId, 100);
  await minuteWithTimeLeft();
  // No worker on this stack: an async scrape stays queued, a run in flight.
  const { status, answers } = await batch(fresh.apiKey, Array.from({ length: CONCURRENCY + 2 }, (_, i) => ({ name: 'scrape', arguments: { url: `http://127.0.0.1:9/page-${i}`, async: true } })));
  expect(status).toBe(200);
  expect(answers.map((a) => [a.result?.isError ?? false, a.result?.structuredContent?.code])).toEqual([
    ...Array.from({ length: CONCURRENCY }, () => [false, undefined]),
    [true, 'RATE_LIMITED'],
    [true, 'RATE_LIMITED'],
  ]);
  const runs = await sql<{ n: string }>(stack.databaseUrl, 'SELECT count(*) AS n FROM scrape_run WHERE "userId" = $1', [fresh.userId]);
  expect(Number(runs[0]!.n)).toBe(CONCURRENCY);
});
