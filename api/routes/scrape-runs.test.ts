/**
 * GET /api/users/scrape-runs and /:id end to end (real API and worker processes, Temporal,
 * PostgreSQL, the local fixture site): newest first with cursor pages, a failed run refunded,
 * one run's result and its Temporal UI link, ownership and the credential.
 */
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestAccount, createAccount } from '../../test/helpers/accounts';
import { call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';

let stack: Stack;
let fixtures: FixtureServer;
let owner: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  stack = await startStack({ env: { TEMPORAL_UI_URL: 'https://temporal.example.test/', TEMPORAL_NAMESPACE: 'default' } });
  [owner, other] = await Promise.all([createAccount(stack.baseUrl), createAccount(stack.baseUrl)]);
});

afterAll(async () => {
  await stack?.stop();
  await fixtures?.close();
});

const api = (path: string, headers: Record<string, string>) => call(stack.baseUrl, 'GET', path, headers);
const session = (a: TestAccount) => ({ cookie: a.cookie });

async function scrape(account: TestAccount, body: unknown) {
  return call(stack.baseUrl, 'POST', '/webhook/unblocker', { 'x-api-key': account.apiKey }, body);
}

describe('GET /api/users/scrape-runs', () => {
  it('lists the account\'s runs newest first, in cursor pages, with status, mode, URL, attempts, cost and duration', async () => {
    const ok = await scrape(owner, { url: `${fixtures.url}/page/1`, selectors: ['h1'] });
    expect(ok.status).toBe(200);
    const failed = await scrape(owner, { url: `${fixtures.url}/status/500`, options: { retry_count: 0 } });
    expect(failed.status).toBe(502);
    await scrape(other, { url: `${fixtures.url}/page/2` });

    const all = await api('/api/users/scrape-runs', session(owner));
    expect(all.status).toBe(200);
    expect(all.body.runs).toHaveLength(2);
    const [newest, oldest] = all.body.runs;
    expect(oldest).toMatchObject({ id: ok.body.id, url: `${fixtures.url}/page/1`, mode: 'http', status: 'succeeded', attempts: 1, cost: 1, refunded: false, httpStatus: 200, error: null, flowRunId: null, apiKeyId: owner.apiKeyId });
    expect(oldest.durationMs).toEqual(expect.any(Number));
    expect(newest).toMatchObject({ id: failed.body.id, url: `${fixtures.url}/status/500`, status: 'failed', refunded: true, error: { code: 'TARGET_ERROR', message: expect.stringMatching(/HTTP 500/) } });
    expect(all.body.nextCursor).toBeNull();

    const first = await api('/api/users/scrape-runs?limit=1', session(owner));
    expect(first.body.runs.map((r: { id: string }) => r.id)).toEqual([newest.id]);
    const second = await api(`/api/users/scrape-runs?limit=1&cursor=${first.body.nextCursor}`, session(owner));
    expect(second.body).toEqual({ runs: [oldest], nextCursor: null });

    expect((await api('/api/users/scrape-runs?limit=0', session(owner))).status).toBe(400);
    expect((await api('/api/users/scrape-runs', { 'x-api-key': owner.apiKey })).status).toBe(401);
  });

  it('answers one run with its request, result and its workflow in the Temporal UI; another account\'s is 403, unknown 404', async () => {
    const ok = await scrape(owner, { url: `${fixtures.url}/page/3`, selectors: ['h1'] });
    expect(ok.status).toBe(200);
    const run = await api(`/api/users/scrape-runs/${ok.body.id}`, session(owner));
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({
      id: ok.body.id,
      status: 'succeeded',
      request: expect.objectContaining({ url: `${fixtures.url}/page/3` }),
      result: expect.objectContaining({ status: 200, final_url: `${fixtures.url}/page/3`, data: [expect.objectContaining({ selector: 'h1' })] }),
    });
    expect(run.body.links.temporalUi).toBe(`https://temporal.example.test/namespaces/default/workflows/${encodeURIComponent(run.body.workflowId as string)}`);

    expect((await api(`/api/users/scrape-runs/${ok.body.id}`, session(other))).status).toBe(403);
    expect((await api('/api/users/scrape-runs/no-such-run', session(owner))).status).toBe(404);
  });
});

describe('a blocked run (docs/scraping.md "Block pages")', () => {
  it('names the vendor of its block page (error.blockedBy), in the list and in the run, as the dashboard shows it', async () => {
    const blocked = await scrape(owner, { url: `${fixtures.url}/block-page/akamai-access-denied-redhat.html`, options: { retry_count: 0 } });
    expect(blocked.status).toBe(502);
    expect(blocked.body).toMatchObject({ code: 'TARGET_BLOCKED', blocked_by: 'akamai' });
    const one = await api(`/api/users/scrape-runs/${String(blocked.body.id)}`, session(owner));
    expect(one.body).toMatchObject({ status: 'failed', refunded: true, httpStatus: null, error: { code: 'TARGET_BLOCKED', blockedBy: 'akamai' } });
    const newest = await api('/api/users/scrape-runs?limit=1', session(owner));
    expect(newest.body.runs[0]).toMatchObject({ id: blocked.body.id, error: { code: 'TARGET_BLOCKED', blockedBy: 'akamai' } });
  });
});
