/**
 * Cookies and sessions end to end (docs/scraping.md, "Cookies and headers" and "Sessions"): real
 * API and worker processes, Temporal, PostgreSQL, Debian's Chromium, and the login fixture site
 * (a form with a CSRF token, a session cookie, a members-only page).
 */
import { randomBytes } from 'node:crypto';
import { LOGIN_USER, MEMBERS_SECRET, type LoginSite, startLoginSite } from '../../test/fixtures/login-site';
import { type TestAccount, balanceOf, createAccount, setBalance, sql } from '../../test/helpers/accounts';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitForFlowRun } from '../../test/helpers/flows';
import { waitFor } from '../../test/helpers/wait';
import { createSqlPool } from '../../platform/sql';
import { createSessionKeyring } from '../../sessions/keys';
import { createSessionStore } from '../../sessions/store';
import { reencryptSessions } from '../../sessions/reencrypt';
import type { StateCookie, StorageState } from '../../scrape/cookies';

const SESSION_KEY = randomBytes(32);
const MAX_SESSIONS = 4;
const MAX_BYTES = 4096;

let stack: Stack;
let site: LoginSite;
let account: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  site = await startLoginSite();
  stack = await startStack({
    env: { SESSION_ENCRYPTION_KEY: SESSION_KEY.toString('base64'), SESSIONS_PER_ACCOUNT: String(MAX_SESSIONS), SESSION_MAX_BYTES: String(MAX_BYTES) },
  });
  [account, other] = await Promise.all([createAccount(stack.baseUrl), createAccount(stack.baseUrl)]);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  await site?.close();
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, account.userId, 10_000);
});

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(method: string, path: string, body?: unknown, who: TestAccount = account): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': who.apiKey },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Body) : {} };
}

const scrape = (request: unknown, who: TestAccount = account) => call('POST', '/webhook/unblocker', request, who);

/** The first match's text of each selector, in order. */
function texts(body: Body): Array<string | undefined> {
  return (body.data as Array<{ results: Array<{ text: string }> }>).map((s) => s.results[0]?.text);
}

const host = () => new URL(site.url).hostname;
const cookie = (name: string, value: string, extra: Partial<StateCookie> = {}): StateCookie => ({
  name,
  value,
  domain: host(),
  path: '/',
  expires: Math.floor(Date.now() / 1000) + 3600,
  httpOnly: true,
  secure: false,
  sameSite: 'Lax',
  ...extra,
});
const uniqueName = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

describe('cookies and headers', () => {
  it.each(['http', 'browser'] as const)('%s mode: the cookie header and the cookies list reach the target', async (mode) => {
    const { status, body } = await scrape({
      url: `${site.url}/echo`,
      mode,
      headers: { Cookie: 'from_header=1; other=two', 'X-Trace': 'abc' },
      cookies: [{ name: 'from_list', value: 'xyz' }],
      selectors: ['#cookies', '#headers'],
    });
    expect(status).toBe(200);
    const [cookies, headers] = texts(body);
    expect(cookies!.split('; ').sort()).toEqual(['from_header=1', 'from_list=xyz', 'other=two']);
    expect(JSON.parse(headers!)).toMatchObject({ 'x-trace': 'abc' });
  });

  it('browser mode: a header the browser cannot send is refused with 400 naming it, and nothing runs', async () => {
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const { status, body } = await scrape({ url: `${site.url}/echo`, mode: 'browser', headers: { Cookie2: 'x=1' } });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'BAD_REQUEST', message: 'headers.Cookie2 cannot be sent by the browser (Chromium refuses it)' });
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before);
  });
});

describe('sessions', () => {
  it.each(['http', 'browser'] as const)('%s mode: an imported storage state reads the members-only page; the routes show metadata only', async (mode) => {
    const name = uniqueName(`imported-${mode}`);
    const sid = site.mintSession();
    const state: StorageState = { cookies: [cookie('sid', sid)], origins: [{ origin: site.url, localStorage: [{ name: 'pref', value: 'dark' }] }] };
    const put = await call('PUT', `/sessions/${name}`, state);
    expect(put.status).toBe(201);
    expect(put.body).toMatchObject({ name, domains: [host()], cookie_count: 1, last_used_at: null });
    expect(JSON.stringify(put.body)).not.toContain(sid);

    const without = await scrape({ url: `${site.url}/members`, mode, selectors: ['#title'] });
    expect(texts(without.body)).toEqual(['Please log in']);
    const withSession = await scrape({ url: `${site.url}/members`, mode, selectors: ['#title', '#secret', '#pref'], session: { name } });
    expect(withSession.status).toBe(200);
    // Local storage comes with the state in browser mode (a script reads it); http mode runs no script.
    expect(texts(withSession.body)).toEqual(['Members area', MEMBERS_SECRET, mode === 'browser' ? 'dark' : '']);
    expect(JSON.stringify(withSession.body)).not.toContain(sid);

    const one = await call('GET', `/sessions/${name}`);
    expect(one.status).toBe(200);
    expect(one.body.last_used_at).not.toBeNull();
    const list = await call('GET', '/sessions');
    expect(list.body.sessions.map((s: Body) => s.name)).toContain(name);
    expect(JSON.stringify(list.body)).not.toContain(sid);

    // Stored encrypted: the row holds neither the cookie's value nor its name in clear.
    const [row] = await sql<{ whole: string }>(stack.databaseUrl, `SELECT row_to_json(s)::text AS whole FROM scrape_session s WHERE name = $1`, [name]);
    expect(row!.whole).not.toContain(sid);
    expect(row!.whole).not.toContain(Buffer.from(sid).toString('hex'));
    expect(row!.whole).not.toContain(Buffer.from('"sid"').toString('hex'));

    expect((await call('DELETE', `/sessions/${name}`)).status).toBe(204);
    expect((await call('GET', `/sessions/${name}`)).status).toBe(404);
  });

  it('http mode: a scrape that logs in with save: true, then a plain scrape of the same session reads the members-only page', async () => {
    const name = uniqueName('http-login');
    // The form page sets the CSRF cookie (saved in the session); its hidden field carries the token.
    const form = await scrape({ url: `${site.url}/login`, selectors: [{ selector: 'input[name=csrf_token]', attribute: 'value' }], session: { name, save: true } });
    expect(form.status).toBe(200);
    const [token] = texts(form.body);
    expect(token).toMatch(/^[0-9a-f]{24}$/);
    const login = await scrape({
      url: `${site.url}/login`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf_token: token!, ...LOGIN_USER }).toString(),
      selectors: ['#title'],
      session: { name, save: true },
    });
    expect(texts(login.body)).toEqual(['Members area']);
    // The session cookie's Max-Age is kept: the session lists when it expires.
    expect((await call('GET', `/sessions/${name}`)).body).toMatchObject({ cookie_count: 2, domains: [host()], expires_at: expect.any(String) });
    const plain = await scrape({ url: `${site.url}/members`, selectors: ['#secret'], session: { name } });
    expect(texts(plain.body)).toEqual([MEMBERS_SECRET]);
    // The session's cookie also serves browser mode.
    const inBrowser = await scrape({ url: `${site.url}/members`, mode: 'browser', selectors: ['#secret'], session: { name } });
    expect(texts(inBrowser.body)).toEqual([MEMBERS_SECRET]);
  });

  it('browser mode: a scrape that logs in through the form with save: true, then a plain scrape of the same session reads the members-only page', async () => {
    const name = uniqueName('browser-login');
    const login = await scrape({
      url: `${site.url}/login`,
      mode: 'browser',
      fill_form: { fields: { '#username': LOGIN_USER.username, '#password': LOGIN_USER.password }, submit: '#submit' },
      selectors: ['#title'],
      session: { name, save: true },
    });
    expect(login.status).toBe(200);
    expect(texts(login.body)).toEqual(['Members area']);
    const plain = await scrape({ url: `${site.url}/members`, mode: 'browser', selectors: ['#secret'], session: { name } });
    expect(texts(plain.body)).toEqual([MEMBERS_SECRET]);
    const inHttp = await scrape({ url: `${site.url}/members`, selectors: ['#secret'], session: { name } });
    expect(texts(inHttp.body)).toEqual([MEMBERS_SECRET]);
  });

  it('a scrape naming an unknown session (without save) → 404 SESSION_NOT_FOUND, nothing charged; another account\'s session is not found either', async () => {
    const name = uniqueName('mine');
    expect((await call('PUT', `/sessions/${name}`, { cookies: [cookie('sid', site.mintSession())] })).status).toBe(201);
    const before = await balanceOf(stack.databaseUrl, other.userId);
    const theirs = await scrape({ url: `${site.url}/members`, selectors: ['#secret'], session: { name } }, other);
    expect(theirs).toMatchObject({ status: 404, body: { code: 'SESSION_NOT_FOUND', statusCode: 404, error: 'Not Found' } });
    expect(await balanceOf(stack.databaseUrl, other.userId)).toBe(before);
    expect((await call('GET', `/sessions/${name}`, undefined, other)).status).toBe(404);
    expect((await call('DELETE', `/sessions/${name}`, undefined, other)).body).toMatchObject({ code: 'SESSION_NOT_FOUND' });
    expect((await call('GET', '/sessions', undefined, other)).body.sessions).toEqual([]);
    // Still the owner's, untouched.
    expect((await call('GET', `/sessions/${name}`)).status).toBe(200);
    await call('DELETE', `/sessions/${name}`);
  });

  it('a session under a key the service no longer has → 409 SESSION_UNREADABLE naming it, one attempt, refunded; re-encrypted with that key, it serves again', async () => {
    const name = uniqueName('rotated');
    const droppedKey = randomBytes(32);
    const pool = createSqlPool(stack.databaseUrl);
    try {
      await createSessionStore(pool, createSessionKeyring(droppedKey), { maxBytes: MAX_BYTES, perAccount: MAX_SESSIONS }).importState(account.userId, name, {
        cookies: [cookie('sid', site.mintSession())],
        origins: [],
      });
      for (const mode of ['http', 'browser'] as const) {
        const before = await balanceOf(stack.databaseUrl, account.userId);
        const failed = await scrape({ url: `${site.url}/members`, mode, selectors: ['#secret'], options: { retry_count: 2 }, session: { name } });
        expect(failed).toMatchObject({ status: 409, body: { code: 'SESSION_UNREADABLE', statusCode: 409, attempts: 1 } });
        expect(failed.body.message).toContain(name);
        expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before);
      }
      // The operator's command (sessions/reencrypt.ts) with the dropped key back among the old ones.
      expect(await reencryptSessions(pool, createSessionKeyring(SESSION_KEY, [droppedKey]))).toMatchObject({ reencrypted: 1 });
      const served = await scrape({ url: `${site.url}/members`, selectors: ['#secret'], session: { name } });
      expect(texts(served.body)).toEqual([MEMBERS_SECRET]);
    } finally {
      await pool.close();
      // The account holds at most SESSIONS_PER_ACCOUNT: later tests make their own.
      await call('DELETE', `/sessions/${name}`);
    }
  });

  it('limits: a state over SESSION_MAX_BYTES → 413, one session over SESSIONS_PER_ACCOUNT → 409, a malformed state → 400', async () => {
    const big = await call('PUT', `/sessions/${uniqueName('big')}`, { cookies: [cookie('big', 'x'.repeat(MAX_BYTES))] });
    expect(big).toMatchObject({ status: 413, body: { code: 'SESSION_TOO_LARGE', statusCode: 413 } });
    const bad = await call('PUT', `/sessions/${uniqueName('bad')}`, { cookies: [{ name: 'a b', value: 'x', domain: host() }] });
    expect(bad).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });

    const fresh = await createAccount(stack.baseUrl);
    for (let i = 0; i < MAX_SESSIONS; i++) expect((await call('PUT', `/sessions/s${i}`, { cookies: [] }, fresh)).status).toBe(201);
    const over = await call('PUT', '/sessions/one-too-many', { cookies: [] }, fresh);
    expect(over).toMatchObject({ status: 409, body: { code: 'SESSION_LIMIT_REACHED', statusCode: 409 } });
    // Replacing an existing one is not a new session.
    expect((await call('PUT', '/sessions/s0', { cookies: [cookie('a', '1')] }, fresh)).status).toBe(200);
  });

  it('two scrapes saving the same session at once: each one\'s cookies are kept (last writer wins per cookie)', async () => {
    const name = uniqueName('shared');
    expect((await call('PUT', `/sessions/${name}`, { cookies: [cookie('base', '0'), cookie('both', 'start')] })).status).toBe(201);
    const [a, b] = await Promise.all([
      scrape({ url: `${site.url}/set?name=a&value=1`, session: { name, save: true } }),
      scrape({ url: `${site.url}/set?name=b&value=2`, mode: 'browser', session: { name, save: true } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const echo = await scrape({ url: `${site.url}/echo`, selectors: ['#cookies'], session: { name } });
    expect(texts(echo.body)[0]!.split('; ').sort()).toEqual(['a=1', 'b=2', 'base=0', 'both=start']);

    // The same rule, with the interleaving fixed: both saves started from the same state.
    const pool = createSqlPool(stack.databaseUrl);
    try {
      const store = createSessionStore(pool, createSessionKeyring(SESSION_KEY), { maxBytes: MAX_BYTES, perAccount: MAX_SESSIONS });
      const loaded = (await store.load(account.userId, name))!;
      const first: StorageState = { cookies: [...loaded.state.cookies.filter((c) => c.name !== 'both'), cookie('both', 'first'), cookie('c', '3')], origins: [] };
      const second: StorageState = { cookies: [...loaded.state.cookies.filter((c) => c.name !== 'base' && c.name !== 'both'), cookie('both', 'second')], origins: [] };
      await Promise.all([store.saveChanges(account.userId, name, loaded.state, first), store.saveChanges(account.userId, name, loaded.state, second)]);
      const after = (await store.load(account.userId, name))!.state.cookies.map((c) => `${c.name}=${c.value}`).sort();
      // c added by the first, base removed by the second, `both` from whichever saved last.
      expect(after.filter((c) => !c.startsWith('both='))).toEqual(['a=1', 'b=2', 'c=3']);
      expect(after.filter((c) => c.startsWith('both='))).toHaveLength(1);
      expect(['both=first', 'both=second']).toContain(after.find((c) => c.startsWith('both=')));
    } finally {
      await pool.close();
    }
  });
});

describe('through the Firecrawl-compatible API', () => {
  async function firecrawl(body: unknown): Promise<{ status: number; body: Body }> {
    const res = await fetch(`${stack.baseUrl}/v2/scrape`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${account.apiKey}` }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Body };
  }

  it('headers.cookie reaches the target in browser mode, and the session extension field reads a stored session', async () => {
    const echo = await firecrawl({ url: `${site.url}/echo`, formats: ['rawHtml'], mobile: true, onlyMainContent: false, headers: { cookie: 'fc=1' } });
    expect(echo.status).toBe(200);
    expect(echo.body.data.metadata.creditsUsed).toBeGreaterThan(1); // browser mode's price
    expect(echo.body.data.rawHtml).toContain('<pre id="cookies">fc=1</pre>');

    const name = uniqueName('firecrawl');
    expect((await call('PUT', `/sessions/${name}`, { cookies: [cookie('sid', site.mintSession())] })).status).toBe(201);
    const members = await firecrawl({ url: `${site.url}/members`, formats: ['markdown'], session: { name } });
    expect(members.status).toBe(200);
    expect(members.body.data.markdown).toContain(MEMBERS_SECRET);
    const unknown = await firecrawl({ url: `${site.url}/members`, session: { name: uniqueName('absent') } });
    expect(unknown).toMatchObject({ status: 404, body: { success: false, code: 'SESSION_NOT_FOUND' } });
  });
});

describe('wherever the scrape request is used', () => {
  it('a flow scrape node and a batch scrape page start from the session', async () => {
    // An account of its own: the others' sessions count against SESSIONS_PER_ACCOUNT.
    const owner = await createAccount(stack.baseUrl);
    const name = uniqueName('reused');
    expect((await call('PUT', `/sessions/${name}`, { cookies: [cookie('sid', site.mintSession())] }, owner)).status).toBe(201);

    const flow = await call('POST', '/flows', { name: 'members with a session', nodes: [{ id: 'members', type: 'scrape', config: { url: `${site.url}/members`, selectors: ['#secret'], session: { name } } }] }, owner);
    expect(flow.status).toBe(201);
    const started = await call('POST', `/flows/${flow.body.id}/runs`, undefined, owner);
    expect(started.status).toBe(202);
    const run = await waitForFlowRun(stack.baseUrl, { 'x-api-key': owner.apiKey }, flow.body.id as string, started.body.id as string);
    expect(run.status).toBe('succeeded');
    expect(JSON.stringify(run)).toContain(MEMBERS_SECRET);

    const batch = await call('POST', '/batch/scrape', { urls: [`${site.url}/members`], scrape: { selectors: ['#secret'], session: { name } } }, owner);
    expect(batch.status).toBe(202);
    const done = await waitFor('batch finished', async () => {
      const job = await call('GET', `/crawl/${batch.body.id}`, undefined, owner);
      return job.body.status === 'completed' ? job.body : undefined;
    }, 120_000);
    const runId = (done.pages as Array<{ run_id: string }>)[0]!.run_id;
    const page = await call('GET', `/webhook/runs/${runId}`, undefined, owner);
    expect(page.body.result.data[0].results[0].text).toBe(MEMBERS_SECRET);
  });
});
