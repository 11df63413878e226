/**
 * NUL characters (U+0000) end to end: PostgreSQL's jsonb refuses them, so a page or a request
 * holding one must still be scraped and recorded (docs/scraping.md, "NUL characters"), never
 * answered with a 500 or left half-recorded. Real API, worker, Temporal, PostgreSQL, Chromium.
 */
import http from 'node:http';
import { listenOnLoopback } from '../../platform/free-port';
import { type TestAccount, createAccount, ledgerOf, setBalance, sql } from '../../test/helpers/accounts';
import { type Stack, startStack } from '../../test/helpers/stack';

let stack: Stack;
let account: TestAccount;
let site: http.Server;
let siteUrl: string;

// A title and a paragraph with NUL characters, and a header value with one backslash before a "u0000".
const PAGE = '<!doctype html><html><head><title>nul\u0000title</title></head><body><h1>a\u0000b</h1><p id="lit">back\\u0000slash</p></body></html>';

beforeAll(async () => {
  site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE));
  siteUrl = `http://127.0.0.1:${await listenOnLoopback(site)}`;
  stack = await startStack();
  account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 1000);
});

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

async function scrape(body: unknown) {
  const res = await fetch(`${stack.baseUrl}/webhook/unblocker`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe.each(['http', 'browser'] as const)('a page with NUL characters, %s mode', (mode) => {
  it('is scraped, recorded and debited once; a NUL kept in the raw page is stored as U+FFFD', async () => {
    const { status, body } = await scrape({ url: `${siteUrl}/`, mode, selectors: ['h1', '#lit'], formats: ['rawHtml', 'html', 'text', 'markdown', 'metadata'] });
    expect(status).toBe(200);
    // The HTML parser drops a NUL in body text and makes one in the title U+FFFD (both engines).
    expect(body.data[0].results[0].text).toBe('ab');
    expect(body.metadata.title).toBe('nul\uFFFDtitle');
    if (mode === 'http') expect(body.rawHtml).toContain('<h1>a\uFFFDb</h1>');
    // A literal backslash followed by "u0000" is text, not a NUL: kept as it was.
    expect(body.data[1].results[0].text).toBe('back\\u0000slash');
    expect(JSON.stringify(body)).not.toContain('\\u0000"');
    const [run] = await sql<{ status: string; result: unknown }>(stack.databaseUrl, 'SELECT status::text AS status, result FROM scrape_run WHERE id = $1', [body.id]);
    expect(run!.status).toBe('succeeded');
    expect(JSON.stringify(run!.result)).toContain('nul\uFFFDtitle');
    const debits = (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.runId === body.id);
    expect(debits.map((row) => row.amount)).toEqual([-body.credits.cost]);
  });
});

it('a request holding NUL characters in its strings is refused with 400 naming where, and starts nothing', async () => {
  const runCount = async () => (await sql<{ n: string }>(stack.databaseUrl, 'SELECT count(*) AS n FROM scrape_run'))[0]!.n;
  const before = await runCount();
  const answers = [
    await scrape({ url: `${siteUrl}/`, selectors: [{ name: 'na\u0000me', selector: 'h1' }] }),
    await scrape({ url: `${siteUrl}/`, selectors: ['h1'], headers: { 'x-note': 'a\u0000b' } }),
    await scrape({ url: `${siteUrl}/\u0000`, selectors: ['h1'] }),
  ];
  expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
  expect(answers.map((answer) => answer.body.message)).toEqual(['selectors[0].name', 'headers.x-note', 'url'].map((at) => `strings in the request body must not contain NUL (U+0000) characters: ${at}`));
  expect(answers[0]!.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'BAD_REQUEST' });
  expect(await runCount()).toBe(before);
  // An escaped backslash before "u0000" is no NUL: served.
  expect((await scrape({ url: `${siteUrl}/`, selectors: [{ name: 'back\\u0000slash', selector: 'h1' }] })).status).toBe(200);
});
