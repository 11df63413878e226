/**
 * The synchronous limit (504, with the run found later) and the SSRF guard when the deployment
 * does not allow private targets. Separate stacks, because both are deployment settings.
 */
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestAccount, balanceOf, createAccount, waitForRun } from '../../test/helpers/accounts';
import { type Stack, startStack } from '../../test/helpers/stack';

let fixtures: FixtureServer;

beforeAll(async () => {
  fixtures = await startFixtureServer();
});

afterAll(async () => {
  await fixtures?.close();
});

async function scrape(stack: Stack, account: TestAccount, body: unknown) {
  const res = await fetch(`${stack.baseUrl}/webhook/unblocker`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('past the synchronous limit (SYNC_TIMEOUT_MS=1500)', () => {
  let stack: Stack;
  let account: TestAccount;

  beforeAll(async () => {
    stack = await startStack({ env: { SYNC_TIMEOUT_MS: '1500' } });
    account = await createAccount(stack.baseUrl);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('answers 504 with the run id, and the run is later found succeeded', async () => {
    const { status, body } = await scrape(stack, account, { url: `${fixtures.url}/slow?ms=3000`, selectors: ['h1'] });
    expect(status).toBe(504);
    expect(body).toMatchObject({ statusCode: 504, error: 'Gateway Timeout', links: { self: `/webhook/runs/${String(body.id)}` } });
    const run = await waitForRun(stack.baseUrl, account.apiKey, String(body.id));
    expect(run).toMatchObject({ status: 'succeeded', result: { data: [{ selector: 'h1', results: [{ text: 'Slow 3000' }] }], credits: { cost: 1 } } });
  });

  it('answers 504, and the run is later found failed and refunded', async () => {
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const { status, body } = await scrape(stack, account, { url: `${fixtures.url}/slow?ms=2500`, options: { retry_count: 0, timeout_ms: 2000 } });
    expect(status).toBe(504);
    const run = await waitForRun(stack.baseUrl, account.apiKey, String(body.id));
    expect(run).toMatchObject({ status: 'failed', error: { code: 'TIMEOUT', refunded: true } });
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before);
  });
});

describe('private targets when the deployment does not allow them', () => {
  let stack: Stack;
  let account: TestAccount;

  beforeAll(async () => {
    stack = await startStack({ worker: false, privateTargetGuard: true });
    account = await createAccount(stack.baseUrl);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it.each([
    ['loopback', (port: number) => `http://127.0.0.1:${port}/`],
    ['localhost by name', (port: number) => `http://localhost:${port}/`],
    // RFC 6761: every *.localhost name is loopback, although this machine's resolver knows none of them.
    ['a *.localhost name', (port: number) => `http://app.localhost:${port}/`],
    ['IPv6 loopback', (port: number) => `http://[::1]:${port}/`],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['private range', () => 'http://10.0.0.1/'],
  ])('403 for %s, nothing debited', async (_name, url) => {
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const { status, body } = await scrape(stack, account, { url: url(fixtures.port) });
    expect(status).toBe(403);
    expect(body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before);
  });
});
