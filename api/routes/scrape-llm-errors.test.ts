/**
 * The model formats' failures as a user meets them (docs/scraping.md "Structured output"), on the
 * real API and worker, Temporal, PostgreSQL, a local product page and a local chat-completions
 * server (test/helpers/fake-llm.ts) standing in for the operator's model:
 *   - a 4xx from the model endpoint: 502 LLM_FAILED with its status and a fixed message; the
 *     endpoint's body (which may echo the masked key) is in no answer, and the run is refunded;
 *   - a model that never answers: LLM_TIMEOUT_MS, tried once more, then LLM_FAILED, refunded.
 */
import { type FakeLlm, startFakeLlm } from '../../test/helpers/fake-llm';
import { type ProductsServer, startProductsServer } from '../../test/fixtures/products';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance } from '../../test/helpers/accounts';
import { type Stack, startStack } from '../../test/helpers/stack';

jest.setTimeout(300_000);

const LLM_KEY = 'sk-test-llm-key-never-shown-91c2';
const ECHOED = 'Incorrect API key provided: sk-test-****91c2. You can find your API key at https://platform.example/account/api-keys.';
const START = 100;

let stack: Stack;
let llm: FakeLlm;
let site: ProductsServer;
let account: TestAccount;

beforeAll(async () => {
  [llm, site] = await Promise.all([startFakeLlm(), startProductsServer()]);
  stack = await startStack({ env: { LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: LLM_KEY, LLM_MODEL: 'fixture-model-1', LLM_TIMEOUT_MS: '1000' } });
  account = await createAccount(stack.baseUrl);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await Promise.all([llm?.close(), site?.close()]);
});

beforeEach(async () => {
  llm.reset();
  await setBalance(stack.databaseUrl, account.userId, START);
});

type Body = Record<string, unknown> & { id?: string; code?: string; message?: string };

async function scrape(body: unknown): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${stack.baseUrl}/webhook/unblocker`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Body };
}

async function run(id: string): Promise<Body> {
  return (await (await fetch(`${stack.baseUrl}/webhook/runs/${id}`, { headers: { 'x-api-key': account.apiKey } })).json()) as Body;
}

const ledgerOfRun = async (runId: string) => (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.runId === runId).map((row) => row.reason);

it('a 4xx from the model endpoint: LLM_FAILED with its status and a fixed message, never its body; not retried; refunded', async () => {
  llm.script({ status: 401, content: ECHOED });
  const { status, body } = await scrape({ url: `${site.url}/products`, formats: ['summary'] });
  expect(status).toBe(502);
  expect(body).toMatchObject({ code: 'LLM_FAILED', refunded: true, message: 'the model endpoint refused the request (HTTP 401)' });
  expect(llm.calls).toHaveLength(1);
  const stored = await run(body.id!);
  for (const answer of [body, stored]) {
    expect(JSON.stringify(answer)).not.toContain('Incorrect API key');
    expect(JSON.stringify(answer)).not.toContain('91c2');
  }
  expect(await ledgerOfRun(body.id!)).toEqual(['debit', 'refund']);
  expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START);
});

it('a model that never answers: given up after LLM_TIMEOUT_MS, tried once more, then LLM_FAILED, refunded', async () => {
  llm.script({ hang: true }, { hang: true });
  const { status, body } = await scrape({ url: `${site.url}/products`, formats: ['summary'] });
  expect(status).toBe(502);
  expect(body).toMatchObject({ code: 'LLM_FAILED', refunded: true });
  expect(String(body.message)).toContain('no answer within 1000 ms');
  // One retry: two calls, then the failure (the page is not fetched again for it).
  expect(llm.calls).toHaveLength(2);
  expect(await ledgerOfRun(body.id!)).toEqual(['debit', 'refund']);
  expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START);
});
