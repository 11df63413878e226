/**
 * Browser `actions` end to end (docs/scraping.md "Actions"): real API and worker processes,
 * Temporal, PostgreSQL, Debian's Chromium and the local fixture site (/reveal: content that
 * appears only after a click, a search box; /feed: an infinite list with a "load more" button).
 * Each action type, the outputs (screenshots by reference, snapshots, script returns), `mobile`,
 * the price, the error rules (ACTION_FAILED: one attempt, refunded), the 400s, a template
 * carrying actions, and the target guard on a navigation an action causes (here the blacklist;
 * the private-address case is in private-targets.test.ts, whose stack refuses private targets).
 */
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance } from '../../test/helpers/accounts';
import { type Json, call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';

jest.setTimeout(300_000);

let stack: Stack;
let fixtures: FixtureServer;
let account: TestAccount;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  // "localhost" is blacklisted: the fixture site is reached as 127.0.0.1, a navigation to localhost is refused.
  stack = await startStack({ env: { BLACKLIST_HOSTS: 'localhost' } });
  account = await createAccount(stack.baseUrl);
});

afterAll(async () => {
  await stack?.stop();
  await fixtures?.close();
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, account.userId, 1000);
  fixtures.resetCounters();
});

const key = () => ({ 'x-api-key': account.apiKey });
const scrape = (body: Json) => call(stack.baseUrl, 'POST', '/webhook/unblocker', key(), body);

/** The ledger rows of one run, as [reason, amount]. */
async function ledgerOfRun(runId: string): Promise<Array<[string, number]>> {
  return (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.runId === runId).map((row) => [row.reason, row.amount]);
}

describe('actions', () => {
  it('clicks, waits, writes, presses, snapshots, screenshots and runs scripts, in order', async () => {
    const { status, body } = await scrape({
      url: `${fixtures.url}/reveal`,
      mode: 'browser',
      selectors: [{ name: 'revealed', selector: '#revealed' }, { name: 'searched', selector: '#searched' }],
      actions: [
        { type: 'scrape' },
        { type: 'click', selector: '#reveal' },
        { type: 'wait', selector: '#revealed' },
        { type: 'scrape' },
        { type: 'click', selector: '#q' },
        { type: 'write', text: 'hello actions' },
        { type: 'press', key: 'Enter' },
        { type: 'wait', selector: '#searched' },
        { type: 'screenshot' },
        { type: 'executeJavascript', script: "document.querySelector('#searched').textContent" },
        { type: 'executeJavascript', script: "const n = document.querySelectorAll('p').length;\nreturn { paragraphs: n, input: document.querySelector('#q').value };" },
        { type: 'executeJavascript', script: 'await new Promise((resolve) => setTimeout(resolve, 10));\nreturn null;' },
        { type: 'wait', milliseconds: 20 },
      ],
    });
    expect(status).toBe(200);
    expect(body.data).toEqual([
      { selector: '#revealed', name: 'revealed', results: [expect.objectContaining({ text: 'Revealed content' })] },
      { selector: '#searched', name: 'searched', results: [expect.objectContaining({ text: 'Searched: hello actions' })] },
    ]);
    // The snapshots: before the click the content is not there, after it it is.
    expect(body.actions.scrapes).toHaveLength(2);
    expect(body.actions.scrapes[0].url).toBe(`${fixtures.url}/reveal`);
    expect(body.actions.scrapes[0].html).not.toContain('<p id="revealed">');
    expect(body.actions.scrapes[1].html).toContain('<p id="revealed">Revealed content</p>');
    expect(body.actions.javascriptReturns).toEqual([
      { type: 'string', value: 'Searched: hello actions' },
      { type: 'object', value: { paragraphs: 2, input: 'hello actions' } },
      { type: 'null', value: null },
    ]);
    // The screenshot: a reference, its PNG served to the run's owner.
    expect(body.actions.screenshots).toEqual([{ url: `/webhook/runs/${body.id}/actions/screenshots/0`, width: 1366, height: 900, bytes: expect.any(Number) }]);
    const png = await fetch(`${stack.baseUrl}${body.actions.screenshots[0].url}`, { headers: key() });
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.byteLength).toBe(body.actions.screenshots[0].bytes);
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect((await call(stack.baseUrl, 'GET', `/webhook/runs/${body.id}/actions/screenshots/1`, key())).status).toBe(404);
    // The browser's price and one screenshot action, as GET /pricing says.
    const prices = (await call(stack.baseUrl, 'GET', '/pricing', {})).body;
    expect(body.credits.cost).toBe(prices.scrape.modes.browser + prices.scrape.extras.action_screenshot);
    expect(await ledgerOfRun(body.id)).toEqual([['debit', -body.credits.cost]]);
    // Stored with the run: GET /webhook/runs/:id answers the same outputs.
    const stored = await call(stack.baseUrl, 'GET', `/webhook/runs/${body.id}`, key());
    expect(stored.body.result.actions).toEqual(body.actions);
  });

  it('loads more of an infinite list with the "load more" button and by scrolling', async () => {
    const { status, body } = await scrape({
      url: `${fixtures.url}/feed`,
      mode: 'browser',
      selectors: [{ selector: '.entry', all: true }],
      actions: [
        { type: 'wait', selector: '.entry:nth-child(5)' },
        { type: 'click', selector: '#more' },
        { type: 'wait', selector: '.entry:nth-child(10)' },
        { type: 'scroll', direction: 'down' },
        { type: 'scroll', direction: 'down' },
        { type: 'scroll', direction: 'down' },
        { type: 'scroll', direction: 'down' },
        { type: 'scroll', direction: 'down' },
        { type: 'wait', selector: '.entry:nth-child(15)' },
        { type: 'executeJavascript', script: 'scrollY' },
        { type: 'scroll', direction: 'up', selector: 'html' },
        { type: 'executeJavascript', script: 'scrollY' },
      ],
    });
    expect(status).toBe(200);
    const items = (body.data[0].results as Array<{ text: string }>).map((r) => r.text);
    expect(items.length).toBeGreaterThanOrEqual(15);
    expect(items.slice(0, 15)).toEqual(Array.from({ length: 15 }, (_, i) => `Item ${i + 1}`));
    const [down, up] = body.actions.javascriptReturns as Array<{ type: string; value: number }>;
    expect(down!.type).toBe('number');
    expect(down!.value).toBeGreaterThan(0);
    expect(up!.value).toBeLessThan(down!.value);
  });

  it('renders as a phone with mobile: true (viewport, touch, user agent)', async () => {
    const { status, body } = await scrape({
      url: `${fixtures.url}/echo`,
      mode: 'browser',
      mobile: true,
      actions: [{ type: 'executeJavascript', script: "({ width: screen.width, touch: 'ontouchstart' in window, agent: navigator.userAgent })" }],
    });
    expect(status).toBe(200);
    const seen = body.actions.javascriptReturns[0].value as { width: number; touch: boolean; agent: string };
    expect(seen).toEqual({ width: 412, touch: true, agent: expect.stringContaining('Mobile') });
    // The server got the phone's user agent too.
    expect(body.html).toContain('Android');
  });

  it('fails a run whose selector never matches with ACTION_FAILED naming the action, after one attempt, refunded', async () => {
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const { status, body } = await scrape({
      url: `${fixtures.url}/reveal`,
      mode: 'browser',
      options: { retry_count: 2 },
      actions: [{ type: 'click', selector: '#reveal' }, { type: 'click', selector: '#never-there' }],
    });
    expect(status).toBe(422);
    expect(body).toMatchObject({ code: 'ACTION_FAILED', attempts: 1, refunded: true });
    expect(body.message).toMatch(/^actions\[1\] \(click\): no element matches "#never-there"/);
    expect(await ledgerOfRun(body.id)).toEqual([
      ['debit', -5],
      ['refund', 5],
    ]);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before);
    const run = await call(stack.baseUrl, 'GET', `/webhook/runs/${body.id}`, key());
    expect(run.body).toMatchObject({ status: 'failed', error: { code: 'ACTION_FAILED', attempts: 1, refunded: true } });
  });

  it('fails a run whose script throws with ACTION_FAILED naming the action and the error, refunded', async () => {
    const { status, body } = await scrape({
      url: `${fixtures.url}/reveal`,
      mode: 'browser',
      actions: [{ type: 'wait', milliseconds: 1 }, { type: 'executeJavascript', script: "throw new Error('boom in the page')" }],
    });
    expect(status).toBe(422);
    expect(body).toMatchObject({ code: 'ACTION_FAILED', attempts: 1, refunded: true, message: 'actions[1] (executeJavascript): the script threw: Error: boom in the page' });
  });

  it('refuses a navigation an action causes to a blacklisted host: the run fails BLACKLISTED, refunded, nothing reached', async () => {
    const refusedClick = await scrape({
      url: `${fixtures.url}/links-to?url=${encodeURIComponent(`http://localhost:${fixtures.port}/page/secret`)}`,
      mode: 'browser',
      actions: [{ type: 'click', selector: 'a.link' }],
    });
    expect(refusedClick.status).toBe(403);
    expect(refusedClick.body).toMatchObject({ code: 'BLACKLISTED', attempts: 1, refunded: true });
    expect(await ledgerOfRun(refusedClick.body.id)).toEqual([
      ['debit', -5],
      ['refund', 5],
    ]);

    const refusedScript = await scrape({
      url: `${fixtures.url}/reveal`,
      mode: 'browser',
      actions: [{ type: 'executeJavascript', script: `location.href = 'http://localhost:${fixtures.port}/page/secret2'` }],
    });
    expect(refusedScript.status).toBe(403);
    expect(refusedScript.body).toMatchObject({ code: 'BLACKLISTED', refunded: true });
    expect(fixtures.hits.get('/page/secret') ?? 0).toBe(0);
    expect(fixtures.hits.get('/page/secret2') ?? 0).toBe(0);

    // The same click to an allowed page follows it.
    const allowed = await scrape({
      url: `${fixtures.url}/links-to?url=${encodeURIComponent(`${fixtures.url}/page/7`)}`,
      mode: 'browser',
      selectors: ['h1'],
      actions: [{ type: 'click', selector: 'a.link' }],
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body.final_url).toBe(`${fixtures.url}/page/7`);
    expect(allowed.body.data[0].results[0].text).toBe('Page 7');
  });

  it('refuses what cannot run before any work: 51 actions, http mode, waits past the budget, a bad selector, an unknown type', async () => {
    const url = `${fixtures.url}/reveal`;
    const ledgerBefore = (await ledgerOf(stack.databaseUrl, account.userId)).length;
    const many = await scrape({ url, mode: 'browser', actions: Array.from({ length: 51 }, () => ({ type: 'scrape' })) });
    expect(many).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST', message: 'actions must contain at most 50 items' } });
    const http = await scrape({ url, actions: [{ type: 'click', selector: '#reveal' }] });
    expect(http).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST', message: 'actions is only available in browser mode' } });
    const mobileHttp = await scrape({ url, mobile: true });
    expect(mobileHttp).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST', message: 'mobile is only available in browser mode' } });
    const waits = await scrape({ url, mode: 'browser', options: { timeout_ms: 5000 }, actions: [{ type: 'wait', milliseconds: 3000 }, { type: 'wait', milliseconds: 3000 }] });
    expect(waits.status).toBe(400);
    expect(waits.body.message).toMatch(/^actions waits add up to 6000 ms: they must stay under one attempt's time budget of 5000 ms/);
    const selector = await scrape({ url, mode: 'browser', actions: [{ type: 'click', selector: 'a[' }] });
    expect(selector).toMatchObject({ status: 400, body: { code: 'INVALID_SELECTOR' } });
    expect(selector.body.message).toContain('actions[0] (click) selector');
    const unknown = await scrape({ url, mode: 'browser', actions: [{ type: 'hover', selector: 'a' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('actions.0.type must name an action type: wait, click, write, press, scroll, screenshot, scrape, executeJavascript');
    const extra = await scrape({ url, mode: 'browser', actions: [{ type: 'click', selector: 'a', button: 'right' }] });
    expect(extra).toMatchObject({ status: 400, body: { message: 'button is not allowed' } });
    // Nothing was run or charged.
    expect(await ledgerOf(stack.databaseUrl, account.userId)).toHaveLength(ledgerBefore);
  });

  it('runs the actions a template carries', async () => {
    const created = await call(stack.baseUrl, 'POST', '/user-templates', key(), {
      name: 'reveal',
      request: { url: '{{target}}', mode: 'browser', selectors: ['#revealed'], actions: [{ type: 'click', selector: '#reveal' }, { type: 'wait', selector: '#revealed' }] },
      params: [{ name: 'target', type: 'url', required: true }],
    });
    expect(created.status).toBe(201);
    const run = await call(stack.baseUrl, 'POST', `/user-templates/${created.body.id}/run`, key(), { params: { target: `${fixtures.url}/reveal` } });
    expect(run.status).toBe(200);
    expect(run.body.data[0].results[0].text).toBe('Revealed content');
  });
});
