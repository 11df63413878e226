/**
 * Firecrawl fields that change what a user pays or gets are honoured or refused, never silently
 * ignored (issue 37, docs/firecrawl.md): `ignoreQueryParameters` (a crawl's pages by path, not by
 * query), the `x-idempotency-key` header (one job for a repeated start), `regexOnFullURL` and
 * `zeroDataRetention` (refused: 400 naming them), `removeBase64Images` (base64 images left out of
 * the markdown unless false). Through the official JavaScript SDK `@mendable/firecrawl-js` 4.42.0,
 * unchanged; real API and worker processes, Temporal, PostgreSQL; a loopback fixture site.
 */
import http from 'node:http';
import Firecrawl from '@mendable/firecrawl-js';
import { listenOnLoopback } from '../../platform/free-port';
import { type TestAccount, createAccount, setBalance, sql } from '../../test/helpers/accounts';
import { call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';

jest.setTimeout(300_000);

const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PAGES: Record<string, string> = {
  '/': '<html><head><title>Home</title></head><body><main><h1>Home</h1><a href="/p?x=1">one</a> <a href="/p?x=2">two</a> <a href="/p">plain</a></main></body></html>',
  '/p': '<html><head><title>P</title></head><body><main><h1>P</h1><p>The same page whatever its query.</p></main></body></html>',
  '/img': `<html><head><title>Img</title></head><body><main><h1>Img</h1><p>A pixel:</p><img alt="pixel" src="${PIXEL}"></main></body></html>`,
};

let site: { server: http.Server; url: string; hits: string[] };
let stack: Stack;
let account: TestAccount;

beforeAll(async () => {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '/');
    const page = PAGES[(req.url ?? '/').split('?')[0]!];
    if (!page) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  const port = await listenOnLoopback(server);
  site = { server, url: `http://127.0.0.1:${port}`, hits };
  stack = await startStack();
  account = await createAccount(stack.baseUrl);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => site?.server.close(resolve));
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, account.userId, 1000);
});

const js = () => new Firecrawl({ apiKey: account.apiKey, apiUrl: stack.baseUrl });
const bearer = () => ({ authorization: `Bearer ${account.apiKey}` });
/** The account's scrape runs of `url` (a refused request starts none, so charges none). */
const runsOf = async (url: string) => (await sql<{ id: string }>(stack.databaseUrl, 'SELECT id FROM scrape_run WHERE "userId" = $1 AND url = $2 ORDER BY id', [account.userId, url])).map((r) => r.id);
const jobsOf = async () => (await sql<{ id: string }>(stack.databaseUrl, 'SELECT id FROM crawl WHERE "userId" = $1', [account.userId])).map((r) => r.id);

describe('Firecrawl fields honoured or refused', () => {
  it('ignoreQueryParameters: /p?x=1, /p?x=2 and /p are one page, fetched and paid once', async () => {
    const job = await js().crawl(`${site.url}/`, { limit: 10, sitemap: 'skip', crawlEntireDomain: true, ignoreQueryParameters: true, pollInterval: 1 });
    expect(job.status).toBe('completed');
    expect(job.data.map((d) => d.metadata?.sourceURL).sort()).toEqual([`${site.url}/`, `${site.url}/p`]);
    expect(job.creditsUsed).toBe(2);
  });

  it('x-idempotency-key: a repeated start is the same job, started and charged once', async () => {
    const before = await jobsOf();
    const urls = [`${site.url}/p`];
    const first = await js().startBatchScrape(urls, { options: { formats: ['markdown'] }, idempotencyKey: 'fc-idem-1' });
    const second = await js().startBatchScrape(urls, { options: { formats: ['markdown'] }, idempotencyKey: 'fc-idem-1' });
    expect(second.id).toBe(first.id);
    expect((await jobsOf()).filter((id) => !before.includes(id))).toEqual([first.id]);
    // The same key with another body is refused, as on the native routes (in Firecrawl's shape: 400).
    const other = await call(stack.baseUrl, 'POST', '/v2/batch/scrape', { ...bearer(), 'x-idempotency-key': 'fc-idem-1' }, { urls: [`${site.url}/`] });
    expect(other.status).toBe(400);
    expect(JSON.stringify(other.body)).toContain('Idempotency-Key');
  });

  it.each([
    ['regexOnFullURL', '/v2/crawl', (url: string) => ({ url, regexOnFullURL: true })],
    ['zeroDataRetention', '/v2/crawl', (url: string) => ({ url, zeroDataRetention: true })],
    ['zeroDataRetention', '/v2/scrape', (url: string) => ({ url, zeroDataRetention: true })],
    ['zeroDataRetention', '/v2/batch/scrape', (url: string) => ({ urls: [url], zeroDataRetention: true })],
  ])('%s: true is refused with a 400 naming it (%s), nothing started or charged', async (field, path, body) => {
    const [jobsBefore, runsBefore] = [await jobsOf(), await runsOf(`${site.url}/`)];
    const answer = await call(stack.baseUrl, 'POST', path, bearer(), body(`${site.url}/`));
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain(field);
    expect(await jobsOf()).toEqual(jobsBefore);
    expect(await runsOf(`${site.url}/`)).toEqual(runsBefore);
  });

  it('removeBase64Images: the markdown leaves base64 images out unless it is false', async () => {
    const removed = await js().scrape(`${site.url}/img`, { formats: ['markdown'] });
    expect(removed.markdown).toContain('A pixel');
    expect(removed.markdown).not.toContain('base64,');
    const kept = await js().scrape(`${site.url}/img`, { formats: ['markdown'], removeBase64Images: false });
    expect(kept.markdown).toContain(PIXEL);
  });
});
