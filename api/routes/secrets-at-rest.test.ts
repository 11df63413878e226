/**
 * No secret in clear in Temporal history or the run record (docs/operations.md, "Temporal payload
 * encryption"): a login-like browser scrape with inline cookies, a cookie header and a password
 * typed by a `write` action, through the real service. The login page (a server of this test)
 * sees all three, so the scrape got them; then, as an operator or a backup would:
 *  - the raw history (`temporal workflow show --output json`, the pinned CLI, no codec) holds
 *    neither the password nor a cookie value, not even base64-encoded in a payload;
 *  - every row of every table of the database holds none of them;
 *  - the same history through the codec server (`--codec-endpoint`, the operator's Bearer) shows
 *    the password; without the credential the codec server answers 401 and decodes nothing.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { type SecretRecorderSite, startSecretRecorderSite } from '../../test/fixtures/secret-recorder-site';
import { type TestAccount, createAccount, setBalance, sql } from '../../test/helpers/accounts';
import { testEnv } from '../../test/helpers/env';
import { everyRowOfEveryTable } from '../../test/helpers/database';
import { type Json, call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';

jest.setTimeout(240_000);

const PASSWORD = `pw-${randomBytes(9).toString('hex')}`;
const COOKIE_VALUE = `ck${randomBytes(9).toString('hex')}`;
const HEADER_COOKIE_VALUE = `hd${randomBytes(9).toString('hex')}`;
const OPERATOR_TOKEN = randomBytes(24).toString('hex');
const SECRETS = [PASSWORD, COOKIE_VALUE, HEADER_COOKIE_VALUE];

let stack: Stack;
let account: TestAccount;
let site: SecretRecorderSite;
let siteUrl: string;
let seen: SecretRecorderSite['seen'];

beforeAll(async () => {
  site = await startSecretRecorderSite();
  siteUrl = site.url;
  seen = site.seen;
  stack = await startStack({ env: { OPERATOR_TOKEN } });
  account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 1000);
});
afterAll(async () => {
  await stack?.stop();
  await site?.close();
});

/** The text of a `temporal workflow show --output json` answer, with every base64 payload `data` decoded beside it. */
function withDecodedData(text: string): string {
  const decoded: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'data' && typeof inner === 'string') decoded.push(Buffer.from(inner, 'base64').toString('utf8'));
        visit(inner);
      }
    }
  };
  visit(JSON.parse(text));
  return `${text}\n${decoded.join('\n')}`;
}

function workflowShow(workflowId: string, extra: string[] = []): string {
  return execFileSync(testEnv('temporalCli'), ['workflow', 'show', '--workflow-id', workflowId, '--address', stack.env.TEMPORAL_ADDRESS!, '--output', 'json', ...extra], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
}

describe('a login-like scrape leaves no secret in clear at rest', () => {
  let runId: string;
  let workflowId: string;

  it('the scrape gets the cookies and types the password', async () => {
    const answer = await call(stack.baseUrl, 'POST', '/webhook/unblocker', { 'x-api-key': account.apiKey }, {
      url: `${siteUrl}/login`,
      mode: 'browser',
      selectors: ['h1'],
      cookies: [{ name: 'sid', value: COOKIE_VALUE }],
      headers: { cookie: `remember=${HEADER_COOKIE_VALUE}` },
      actions: [{ type: 'click', selector: '#password' }, { type: 'write', text: PASSWORD }, { type: 'wait', milliseconds: 300 }],
    });
    expect(answer.status).toBe(200);
    runId = answer.body.id as string;
    expect(seen.cookies.some((c) => c.includes(`sid=${COOKIE_VALUE}`) && c.includes(`remember=${HEADER_COOKIE_VALUE}`))).toBe(true);
    await waitFor('the page saw the whole password typed', () => Promise.resolve(seen.typed.includes(PASSWORD)));
    workflowId = (await sql<{ workflowId: string }>(stack.databaseUrl, 'SELECT "workflowId" FROM scrape_run WHERE id = $1', [runId]))[0]!.workflowId;
  });

  it('the raw history holds neither the password nor a cookie value', () => {
    const raw = withDecodedData(workflowShow(workflowId));
    expect(raw).toContain(Buffer.from('binary/encrypted').toString('base64'));
    for (const secret of SECRETS) expect(raw).not.toContain(secret);
  });

  it('no row of any table holds them; the owner sees the request masked, another account not at all', async () => {
    const rows = await everyRowOfEveryTable(stack.databaseUrl);
    expect(rows).toContain(runId);
    for (const secret of SECRETS) expect(rows).not.toContain(secret);
    const own = await call(stack.baseUrl, 'GET', `/api/users/scrape-runs/${runId}`, { cookie: account.cookie });
    expect(own.status).toBe(200);
    const request = own.body.request as Json;
    expect(request.cookies).toEqual([{ name: 'sid', value: '[redacted]' }]);
    expect(request.headers).toEqual({ cookie: '[redacted]' });
    expect((request.actions as Json[])[1]).toEqual({ type: 'write', text: '[redacted]' });
    const other = await createAccount(stack.baseUrl);
    expect([403, 404]).toContain((await call(stack.baseUrl, 'GET', `/api/users/scrape-runs/${runId}`, { cookie: other.cookie })).status);
  });

  it('the codec server shows them to the operator, and refuses without the credential', async () => {
    const endpoint = `${stack.baseUrl}/temporal-codec`;
    const decoded = withDecodedData(workflowShow(workflowId, ['--codec-endpoint', endpoint, '--codec-auth', `Bearer ${OPERATOR_TOKEN}`]));
    expect(decoded).toContain(PASSWORD);
    expect(decoded).toContain(COOKIE_VALUE);
    // The UI's form: the token in the path.
    const history = JSON.parse(workflowShow(workflowId)) as { events: Array<{ workflowExecutionStartedEventAttributes?: { input?: { payloads?: unknown[] } } }> };
    const payloads = history.events[0]!.workflowExecutionStartedEventAttributes!.input!.payloads!;
    const viaPath = await call(stack.baseUrl, 'POST', `/temporal-codec/${OPERATOR_TOKEN}/decode`, { origin: 'http://127.0.0.1:8233' }, { payloads });
    expect(viaPath.status).toBe(200);
    expect(withDecodedData(JSON.stringify(viaPath.body))).toContain(PASSWORD);
    for (const headers of [{}, { authorization: 'Bearer wrong-token' }] as Array<Record<string, string>>) {
      const refused = await call(stack.baseUrl, 'POST', '/temporal-codec/decode', headers, { payloads });
      expect(refused.status).toBe(401);
      expect(JSON.stringify(refused.body)).not.toContain(PASSWORD);
    }
    expect((await call(stack.baseUrl, 'POST', `/temporal-codec/${'x'.repeat(48)}/decode`, {}, { payloads })).status).toBe(401);
    // Without the credential the CLI cannot decode either.
    const refusedCli = (() => {
      try {
        return withDecodedData(workflowShow(workflowId, ['--codec-endpoint', endpoint]));
      } catch (error) {
        return String(error);
      }
    })();
    expect(refusedCli).not.toContain(PASSWORD);
  });
});
