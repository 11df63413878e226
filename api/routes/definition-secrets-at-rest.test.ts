/**
 * The secrets of SAVED definitions at rest (docs/operations.md "Secrets at rest"): a login flow
 * (a browser node typing a password, with a cookie), a monitor with a credential header and a
 * saved template with an API key header, a crawl with a credential header and a Firecrawl batch
 * with a cookie, through the real service. Each really runs with its
 * secrets (the test's site records what it saw), yet:
 *  - no row of any table holds a secret in clear, nor base64 of one;
 *  - every read of a definition shows the secrets masked (`[redacted]`), never the ciphertext;
 *  - sending a definition back as read (masked) keeps the stored secrets: the edited flow still
 *    types the password.
 */
import { randomBytes } from 'node:crypto';
import { type SecretRecorderSite, startSecretRecorderSite } from '../../test/fixtures/secret-recorder-site';
import { type TestAccount, createAccount, setBalance } from '../../test/helpers/accounts';
import { everyRowOfEveryTable } from '../../test/helpers/database';
import { type Json, call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';

jest.setTimeout(300_000);

const PASSWORD = `pw-${randomBytes(9).toString('hex')}`;
const COOKIE_VALUE = `ck${randomBytes(9).toString('hex')}`;
const MONITOR_TOKEN = `mt${randomBytes(9).toString('hex')}`;
const TEMPLATE_KEY = `tk${randomBytes(9).toString('hex')}`;
const CRAWL_TOKEN = `ct${randomBytes(9).toString('hex')}`;
const BATCH_COOKIE = `bc${randomBytes(9).toString('hex')}`;
const FIRECRAWL_MONITOR_TOKEN = `fm${randomBytes(9).toString('hex')}`;
const SECRETS = [PASSWORD, COOKIE_VALUE, MONITOR_TOKEN, TEMPLATE_KEY, CRAWL_TOKEN, BATCH_COOKIE, FIRECRAWL_MONITOR_TOKEN];
const REDACTED = '[redacted]';

let stack: Stack;
let account: TestAccount;
let site: SecretRecorderSite;
let siteUrl: string;
let seen: SecretRecorderSite['seen'];

beforeAll(async () => {
  site = await startSecretRecorderSite();
  siteUrl = site.url;
  seen = site.seen;
  stack = await startStack({ env: { MONITOR_MIN_INTERVAL_MS: '1000' } });
  account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 1000);
});
afterAll(async () => {
  await stack?.stop();
  await site?.close();
});

function expectNoSecretIn(text: string): void {
  for (const secret of SECRETS) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(Buffer.from(secret).toString('base64').slice(0, 16));
    expect(text).not.toContain(Buffer.from(secret).toString('base64url').slice(0, 16));
  }
}

const api = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { 'x-api-key': account.apiKey }, body);

const loginNode = () => ({
  id: 'login',
  type: 'scrape',
  config: {
    url: `${siteUrl}/login`,
    mode: 'browser',
    selectors: ['h1'],
    cookies: [{ name: 'sid', value: COOKIE_VALUE }],
    actions: [{ type: 'click', selector: '#password' }, { type: 'write', text: PASSWORD }, { type: 'wait', milliseconds: 300 }],
  },
});

describe('saved definitions keep their secrets sealed at rest, masked on read, and run with them', () => {
  let flowId: string;
  let monitorId: string;
  let templateId: string;

  it('saves a login flow, shows it masked, keeps the secrets when it is sent back masked, and the run types the password', async () => {
    const created = await api('POST', '/flows', { name: 'login', nodes: [loginNode()] });
    expect(created.status).toBe(201);
    flowId = created.body.id as string;
    const config = ((created.body.nodes as Json[])[0]!.config as Json);
    expect(config.cookies).toEqual([{ name: 'sid', value: REDACTED }]);
    expect((config.actions as Json[])[1]).toEqual({ type: 'write', text: REDACTED });

    // The flow as read, renamed and sent back: the stored secrets stay.
    const read = await api('GET', `/flows/${flowId}`);
    expect(read.status).toBe(200);
    expectNoSecretIn(JSON.stringify(read.body));
    expect(JSON.stringify(read.body)).not.toContain('$sealed');
    const put = await api('PUT', `/flows/${flowId}`, { name: 'login (renamed)', nodes: read.body.nodes });
    expect(put.status).toBe(200);
    // A masked secret where nothing is stored is refused, not typed as "[redacted]".
    const bad = await api('PUT', `/flows/${flowId}`, { name: 'x', nodes: [{ ...loginNode(), config: { ...loginNode().config, headers: { authorization: REDACTED } } }] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('header:authorization');

    const run = await api('POST', `/flows/${flowId}/runs?wait=true`);
    expect(run.status).toBe(200);
    expect(run.body.status).toBe('succeeded');
    expect(seen.cookies.some((c) => c.includes(`sid=${COOKIE_VALUE}`))).toBe(true);
    await waitFor('the page saw the whole password typed', () => Promise.resolve(seen.typed.includes(PASSWORD)));
    expectNoSecretIn(JSON.stringify(run.body));
    const listed = await api('GET', '/flows');
    expectNoSecretIn(JSON.stringify(listed.body));
  });

  it('creates a monitor with a credential header; its check sends it; reads show it masked', async () => {
    const created = await api('POST', '/monitors', { name: 'members', request: { url: `${siteUrl}/members`, headers: { authorization: `Bearer ${MONITOR_TOKEN}` } }, schedule: { every: '1h' } });
    expect(created.status).toBe(201);
    monitorId = created.body.id as string;
    expect((created.body.request as Json).headers).toEqual({ authorization: REDACTED });
    // A PATCH of its name keeps the header (not given: the stored one stays).
    expect((await api('PATCH', `/monitors/${monitorId}`, { name: 'members page' })).status).toBe(200);
    expect((await api('POST', `/monitors/${monitorId}/check`)).status).toBe(202);
    await waitFor('the check sent the header', () => Promise.resolve(seen.authorizations.includes(`Bearer ${MONITOR_TOKEN}`)));
    const read = await api('GET', `/monitors/${monitorId}`);
    expect((read.body.request as Json).headers).toEqual({ authorization: REDACTED });
    expectNoSecretIn(JSON.stringify((await api('GET', '/monitors')).body));
  });

  it("a Firecrawl monitor's header survives a PATCH of its name and status (the request goes back masked); its run sends it", async () => {
    const firecrawl = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { authorization: `Bearer ${account.apiKey}` }, body);
    const created = await firecrawl('POST', '/v2/monitor', {
      name: 'members (firecrawl)',
      schedule: { cron: '0 * * * *' },
      targets: [{ type: 'scrape', urls: [`${siteUrl}/members`], scrapeOptions: { headers: { authorization: `Bearer ${FIRECRAWL_MONITOR_TOKEN}` } } }],
    });
    expect(created.status).toBe(200);
    const id = (created.body.data as Json).id as string;
    const patched = await firecrawl('PATCH', `/v2/monitor/${id}`, { name: 'members, renamed', status: 'paused' });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'members, renamed', status: 'paused' });
    expectNoSecretIn(JSON.stringify(patched.body));
    // The native read shows the header still there, masked: the PATCH sent it back masked and the stored one stayed.
    expect(((await api('GET', `/monitors/${id}`)).body.request as Json).headers).toEqual({ authorization: REDACTED });
    expect((await firecrawl('POST', `/v2/monitor/${id}/run`)).status).toBe(200);
    await waitFor('the run sent the header', () => Promise.resolve(seen.authorizations.includes(`Bearer ${FIRECRAWL_MONITOR_TOKEN}`)));
  });

  it('saves a template with an API key header; its run sends it; reads show it masked', async () => {
    const created = await api('POST', '/user-templates', {
      name: 'members',
      request: { url: '{{page}}', headers: { 'x-api-key': TEMPLATE_KEY } },
      params: [{ name: 'page', type: 'url', required: true }],
    });
    expect(created.status).toBe(201);
    templateId = created.body.id as string;
    expect((created.body.request as Json).headers).toEqual({ 'x-api-key': REDACTED });
    // The request sent back as read (masked) keeps the key.
    const patched = await api('PATCH', `/user-templates/${templateId}`, { request: { ...(created.body.request as Json), selectors: ['h1'] } });
    expect(patched.status).toBe(200);
    const run = await api('POST', `/user-templates/${templateId}/run`, { params: { page: `${siteUrl}/template` } });
    expect(run.status).toBe(200);
    expect(seen.apiKeys).toContain(TEMPLATE_KEY);
    expectNoSecretIn(JSON.stringify((await api('GET', '/user-templates')).body));
  });

  let crawlId: string;
  it('a crawl and a Firecrawl batch send their page template\'s secrets to the site; their job rows keep them sealed', async () => {
    const started = await api('POST', '/crawl', { url: `${siteUrl}/crawled`, limit: 1, max_depth: 0, sitemap: 'skip', per_host_delay_ms: 0, scrape: { headers: { authorization: `Bearer ${CRAWL_TOKEN}` }, selectors: ['h1'] } });
    expect(started.status).toBe(202);
    crawlId = started.body.id as string;
    const ended = await waitFor(`crawl ${crawlId} ended`, async () => {
      const got = await api('GET', `/crawl/${crawlId}`);
      return ['completed', 'failed', 'cancelled', 'credit_exhausted'].includes(got.body.status as string) ? got.body : undefined;
    }, 120_000);
    expect(ended.status).toBe('completed');
    expect(seen.authorizations).toContain(`Bearer ${CRAWL_TOKEN}`);
    expectNoSecretIn(JSON.stringify(ended));
    expectNoSecretIn(JSON.stringify((await api('GET', `/crawl/${crawlId}/pages`)).body));

    const batch = await call(stack.baseUrl, 'POST', '/v2/batch/scrape', { authorization: `Bearer ${account.apiKey}` }, { urls: [`${siteUrl}/batched`], formats: ['markdown'], headers: { cookie: `bsid=${BATCH_COOKIE}` } });
    expect(batch.status).toBe(200);
    const batchId = batch.body.id as string;
    const done = await waitFor(`batch ${batchId} completed`, async () => {
      const got = await call(stack.baseUrl, 'GET', `/v2/batch/scrape/${batchId}`, { authorization: `Bearer ${account.apiKey}` });
      return got.body.status === 'completed' ? got.body : undefined;
    }, 120_000);
    expect((done.data as Json[]).length).toBe(1);
    expect(seen.cookies.some((c) => c.includes(`bsid=${BATCH_COOKIE}`))).toBe(true);
  });

  it('no row of any table holds a secret in clear, nor base64 of one', async () => {
    const rows = await everyRowOfEveryTable(stack.databaseUrl);
    expect(rows).toContain(crawlId);
    expect(rows).toContain(flowId);
    expect(rows).toContain(monitorId);
    expect(rows).toContain(templateId);
    expect(rows).toContain('$sealed:v1:');
    expectNoSecretIn(rows);
  });
});
