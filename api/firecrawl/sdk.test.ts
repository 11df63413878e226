/**
 * The Firecrawl-compatible API (docs/firecrawl.md) driven by the official SDKs, unchanged, with
 * only the base URL set: `@mendable/firecrawl-js` 4.42.0 (v2 `Firecrawl`, v1 `FirecrawlAppV1`)
 * in this process, and `firecrawl-py` 4.55.0 (v2 `Firecrawl`, v1 `Firecrawl().v1`) in the
 * project's venv (test/firecrawl/py_sdk.py). Real API and worker processes, Temporal,
 * PostgreSQL, Chromium, with the private-target guard on as in production: the "public" site is
 * the fixture server on a public-range address (test/helpers/public-address.ts), the "private"
 * target one on 127.0.0.1. After each call the ledger says what was charged: one debit per
 * page, the same as the native route, and a refund for work not delivered.
 */
import Firecrawl, { FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance, sql } from '../../test/helpers/accounts';
import { type PublicAddress, addPublicAddress } from '../../test/helpers/public-address';
import { type Stack, startStack } from '../../test/helpers/stack';
import { type PyCall, type PyOutcome, firecrawlPython } from '../../test/helpers/firecrawl-py';

jest.setTimeout(300_000);

let address: PublicAddress | undefined;
let site: FixtureServer;
let loopback: FixtureServer;
let stack: Stack;
let account: TestAccount;
let runPy: (call: PyCall) => Promise<PyOutcome>;

beforeAll(async () => {
  runPy = firecrawlPython();
  address = await addPublicAddress();
  [site, loopback] = await Promise.all([startFixtureServer({ host: address.address }), startFixtureServer()]);
  stack = await startStack({ privateTargetGuard: true });
  account = await createAccount(stack.baseUrl);
}, 600_000);

afterAll(async () => {
  await stack?.stop();
  await Promise.all([site?.close(), loopback?.close()]);
  await address?.release();
});

const START_BALANCE = 1000;
beforeEach(async () => {
  await setBalance(stack.databaseUrl, account.userId, START_BALANCE);
});

interface RunRow {
  id: string;
  status: string;
  mode: string;
  cost: number;
  url: string;
  error: { code: string; refunded?: boolean } | null;
}

const runRow = async (id: string) => (await sql<RunRow>(stack.databaseUrl, 'SELECT id, status::text AS status, mode::text AS mode, cost, url, error FROM scrape_run WHERE id = $1', [id]))[0];
const runCount = async () => Number((await sql<{ n: string }>(stack.databaseUrl, 'SELECT count(*) AS n FROM scrape_run WHERE "userId" = $1', [account.userId]))[0]!.n);
/** The ledger rows of one run, as [reason, amount]. */
const ledgerOfRun = async (runId: string) => (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.runId === runId).map((row) => [row.reason, row.amount]);
const balance = () => balanceOf(stack.databaseUrl, account.userId);

/** A charged page: one debit of `cost`, the run succeeded in `mode`, the balance down by exactly that. */
async function expectOneDebit(runId: string, cost: number, mode: string) {
  expect(await ledgerOfRun(runId)).toEqual([['debit', -cost]]);
  expect(await runRow(runId)).toMatchObject({ status: 'succeeded', mode, cost });
}

/** One call of the Python SDK (test/firecrawl/py_sdk.py), its outcome parsed. */
function py(method: string, args: unknown[], kwargs: Record<string, unknown> = {}, options: { client?: 'v1' | 'v2'; apiKey?: string } = {}): Promise<PyOutcome> {
  return runPy({ apiUrl: stack.baseUrl, apiKey: options.apiKey ?? account.apiKey, client: options.client ?? 'v2', method, args, kwargs });
}

const js = () => new Firecrawl({ apiKey: account.apiKey, apiUrl: stack.baseUrl });
const jsV1 = () => new FirecrawlAppV1({ apiKey: account.apiKey, apiUrl: stack.baseUrl });

/** The SDK error a call threw (the JS SDK's SdkError carries `status`). */
async function jsError(call: Promise<unknown>): Promise<{ status?: number; message: string; code?: string }> {
  try {
    await call;
  } catch (error) {
    return error as { status?: number; message: string; code?: string };
  }
  throw new Error('the call succeeded');
}

describe('JavaScript SDK @mendable/firecrawl-js 4.42.0', () => {
  it('v2 scrape: markdown by default, metadata as Firecrawl names it, one http run debited 1', async () => {
    const doc = await js().scrape(`${site.url}/article`);
    expect(doc.markdown).toMatch(/^# Tide pools of the north coast/);
    expect(doc.markdown).toContain('| Sea anemone | Lower pools |');
    // Main content by default: the navigation and the cookie banner are left out.
    expect(doc.markdown).not.toContain('Accept all');
    expect(doc.html).toBeUndefined();
    expect(doc.rawHtml).toBeUndefined();
    const meta = doc.metadata!;
    expect(meta).toMatchObject({
      title: 'Tide pools of the north coast',
      description: 'A field guide to the tide pools of the north coast.',
      language: 'en',
      sourceURL: `${site.url}/article`,
      url: `${site.url}/article`,
      statusCode: 200,
      creditsUsed: 1,
      proxyUsed: 'basic',
      cacheState: 'miss',
      'og:title': 'Tide pools of the north coast',
      ogTitle: 'Tide pools of the north coast',
      'twitter:card': 'summary_large_image',
    });
    expect(meta.contentType).toMatch(/^text\/html/);
    await expectOneDebit(meta.scrapeId!, 1, 'http');
  });

  it('v2 scrape: html, rawHtml and links, the whole body, include/exclude tags, headers sent to the target', async () => {
    const doc = await js().scrape(`${site.url}/article`, { formats: ['html', 'rawHtml', 'links'], onlyMainContent: false, excludeTags: ['table'] });
    expect(doc.markdown).toBeUndefined();
    expect(doc.rawHtml).toContain("<script>window.analytics = 'fixture';</script>");
    // The whole body (the cookie banner included), cleaned, without the excluded table.
    expect(doc.html).toContain('Accept all');
    expect(doc.html).not.toContain('<script');
    expect(doc.html).not.toContain('Sea anemone');
    expect(doc.links).toEqual(expect.arrayContaining([`${site.url}/page/1`, `${site.url}/page/3`, 'https://social.example/share?u=article']));
    for (const link of doc.links!) expect(typeof link).toBe('string');
    await expectOneDebit(doc.metadata!.scrapeId!, 1, 'http');

    const only = await js().scrape(`${site.url}/article`, { formats: ['markdown'], includeTags: ['table'] });
    expect(only.markdown).toContain('| Shore crab | Under stones |');
    expect(only.markdown).not.toContain('Tide pools form');

    const echoed = await js().scrape(`${site.url}/echo`, { formats: ['rawHtml'], headers: { 'X-Firecrawl-Test': 'sent' } });
    expect((JSON.parse(echoed.rawHtml!) as { headers: Record<string, string> }).headers['x-firecrawl-test']).toBe('sent');
  });

  it('v2 scrape: a full-page screenshot renders in the browser and comes as a PNG data URL (5 + 1 credits)', async () => {
    const doc = await js().scrape(`${site.url}/article`, { formats: ['markdown', { type: 'screenshot', fullPage: true }] });
    expect(doc.screenshot).toMatch(/^data:image\/png;base64,/);
    expect(Buffer.from(doc.screenshot!.slice('data:image/png;base64,'.length), 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(doc.markdown).toMatch(/^# Tide pools/);
    expect(doc.metadata!.creditsUsed).toBe(6);
    await expectOneDebit(doc.metadata!.scrapeId!, 6, 'browser');
  });

  it('v2 scrape: waitFor or mobile choose the browser; the extension field mode forces one', async () => {
    const waited = await js().scrape(`${site.url}/article`, { formats: ['markdown'], waitFor: 100 });
    await expectOneDebit(waited.metadata!.scrapeId!, 5, 'browser');
    const mobile = await js().scrape(`${site.url}/article`, { formats: ['markdown'], mobile: true });
    await expectOneDebit(mobile.metadata!.scrapeId!, 5, 'browser');
    const forced = await js().scrape(`${site.url}/article`, { formats: ['markdown'], waitFor: 100, mode: 'http' } as never);
    await expectOneDebit(forced.metadata!.scrapeId!, 1, 'http');
  });

  it('v2 scrape with actions (click, wait, write, press, screenshot, scrape, executeJavascript), waitFor and mobile: their outputs in the document (5 + 1 credits)', async () => {
    const doc = await js().scrape(`${site.url}/reveal`, {
      formats: ['rawHtml'],
      waitFor: 50,
      mobile: true,
      actions: [
        { type: 'click', selector: '#reveal' },
        { type: 'wait', selector: '#revealed' },
        { type: 'click', selector: '#q' },
        { type: 'write', text: 'from the sdk' },
        { type: 'press', key: 'Enter' },
        { type: 'wait', selector: '#searched' },
        { type: 'screenshot' },
        { type: 'scrape' },
        { type: 'executeJavascript', script: "return [screen.width, document.querySelector('#searched').textContent]" },
      ],
    });
    expect(doc.rawHtml).toContain('<p id="revealed">Revealed content</p>');
    const actions = doc.actions as { screenshots: string[]; scrapes: Array<{ url: string; html: string }>; javascriptReturns: Array<{ type: string; value: unknown }> };
    expect(actions.screenshots).toHaveLength(1);
    expect(Buffer.from(actions.screenshots[0]!.slice('data:image/png;base64,'.length), 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(actions.scrapes).toEqual([{ url: `${site.url}/reveal`, html: expect.stringContaining('<p id="searched">Searched: from the sdk</p>') }]);
    // mobile: a phone's screen.
    expect(actions.javascriptReturns).toEqual([{ type: 'object', value: [412, 'Searched: from the sdk'] }]);
    expect(doc.metadata!.creditsUsed).toBe(6);
    await expectOneDebit(doc.metadata!.scrapeId!, 6, 'browser');
  });

  it('v2 scrape: a navigation an action causes to a private address is refused (403 PRIVATE_TARGET), nothing charged, nothing reached', async () => {
    loopback.resetCounters();
    const runsBefore = await runCount();
    const refused = await jsError(js().scrape(`${site.url}/links-to?url=${encodeURIComponent(`${loopback.url}/page/secret`)}`, { actions: [{ type: 'click', selector: 'a.link' }] }));
    expect(refused.status).toBe(403);
    expect(refused.code).toBe('PRIVATE_TARGET');
    expect(await runCount()).toBe(runsBefore + 1);
    const [run] = await sql<{ id: string }>(stack.databaseUrl, 'SELECT id FROM scrape_run WHERE "userId" = $1 ORDER BY "createdAt" DESC LIMIT 1', [account.userId]);
    // `auto` mode, the default here, charges a run only when a step serves the page (docs/scraping.md "Escalation"): nothing to refund.
    expect(await ledgerOfRun(run!.id)).toEqual([]);
    expect(await balance()).toBe(START_BALANCE);
    expect(loopback.hits.get('/page/secret')).toBeUndefined();
  });

  it('v2 scrape errors: json format without a model (LLM_NOT_CONFIGURED) and an action we do not have 400 naming the field, bad key 401, invalid URL 400, out of credit 402, private target 403 — none charged', async () => {
    const runsBefore = await runCount();
    // This stack has no model configured (api/firecrawl/sdk-json.test.ts has one).
    const json = await jsError(js().scrape(`${site.url}/article`, { formats: [{ type: 'json', prompt: 'the title' }] }));
    expect(json.status).toBe(400);
    expect(json.message).toContain('needs a model');
    const actions = await jsError(js().scrape(`${site.url}/article`, { actions: [{ type: 'pdf' }] } as never));
    expect(actions.status).toBe(400);
    expect(actions.message).toContain('actions.0.type must name an action type');
    const badKey = await jsError(new Firecrawl({ apiKey: 'sk_test_not-a-key', apiUrl: stack.baseUrl }).scrape(`${site.url}/article`));
    expect(badKey.status).toBe(401);
    const invalid = await jsError(js().scrape('not a url'));
    expect(invalid.status).toBe(400);
    expect(invalid.message).toContain('url');
    const privateTarget = await jsError(js().scrape(`${loopback.url}/article`));
    expect(privateTarget.status).toBe(403);
    expect(privateTarget.code).toBe('PRIVATE_TARGET');
    await setBalance(stack.databaseUrl, account.userId, 0);
    const broke = await jsError(js().scrape(`${site.url}/article`));
    expect(broke.status).toBe(402);
    expect(await runCount()).toBe(runsBefore);
    expect(await balance()).toBe(0);
    expect(loopback.hits.get('/article')).toBeUndefined();
  });

  it('v2 scrape timeout: 408 within the timeout, the run cancelled, nothing charged, nothing re-sent', async () => {
    const runsBefore = await runCount();
    site.resetCounters();
    const timedOut = await jsError(js().scrape(`${site.url}/slow?ms=30000`, { formats: ['markdown'], timeout: 2000 }));
    expect(timedOut.status).toBe(408);
    expect(timedOut.code).toBe('SCRAPE_TIMEOUT');
    // One run only: no `processing_continues`, so the SDK did not re-send the POST.
    expect(await runCount()).toBe(runsBefore + 1);
    const [run] = await sql<RunRow>(stack.databaseUrl, 'SELECT id, status::text AS status, mode::text AS mode, cost, url, error FROM scrape_run WHERE "userId" = $1 ORDER BY "createdAt" DESC LIMIT 1', [account.userId]);
    expect(run!.status).toBe('cancelled');
    // `auto` mode charges only a served page: a cancelled run leaves no ledger rows.
    expect(await ledgerOfRun(run!.id)).toEqual([]);
    expect(await balance()).toBe(START_BALANCE);
  });

  it('v2 map: links as {url}, search and limit, one map run debited 1', async () => {
    const runsBefore = await runCount();
    const all = await js().map(`${site.url}/links`, { sitemap: 'skip' });
    expect(all.links.length).toBeGreaterThan(1);
    for (const link of all.links) expect(link.url).toMatch(/^http:\/\//);
    const searched = await js().map(`${site.url}/links`, { sitemap: 'skip', search: 'page', limit: 2 });
    expect(searched.links.length).toBeLessThanOrEqual(2);
    for (const link of searched.links) expect(link.url.toLowerCase()).toContain('page');
    expect(await runCount()).toBe(runsBefore + 2);
    expect(await balance()).toBe(START_BALANCE - 2);

    // A map past its timeout: 408 MAP_TIMEOUT, its run cancelled and refunded.
    const timedOut = await jsError(js().map(`${site.url}/slow?ms=30000`, { sitemap: 'skip', timeout: 1500 }));
    expect(timedOut.status).toBe(408);
    expect(timedOut.code).toBe('MAP_TIMEOUT');
    const [run] = await sql<RunRow>(stack.databaseUrl, 'SELECT id, status::text AS status, mode::text AS mode, cost, url, error FROM scrape_run WHERE "userId" = $1 ORDER BY "createdAt" DESC LIMIT 1', [account.userId]);
    expect(run).toMatchObject({ status: 'cancelled', url: `${site.url}/slow?ms=30000` });
    expect(await ledgerOfRun(run!.id)).toEqual([['debit', -1], ['refund', 1]]);
    expect(await balance()).toBe(START_BALANCE - 2);
  });

  it('v1 FirecrawlAppV1: scrapeUrl with screenshot@fullPage and mapUrl', async () => {
    const v1 = jsV1();
    const scraped = (await v1.scrapeUrl(`${site.url}/article`, { formats: ['markdown', 'links', 'screenshot@fullPage'] })) as { success: boolean; markdown?: string; links?: string[]; screenshot?: string; metadata?: { scrapeId?: string } };
    expect(scraped.success).toBe(true);
    expect(scraped.markdown).toMatch(/^# Tide pools/);
    expect(scraped.links).toContain(`${site.url}/page/3`);
    expect(scraped.screenshot).toMatch(/^data:image\/png;base64,/);
    await expectOneDebit(scraped.metadata!.scrapeId!, 6, 'browser');
    const mapped = (await v1.mapUrl(`${site.url}/links`, { sitemapOnly: false, ignoreSitemap: true })) as { success: boolean; links?: string[] };
    expect(mapped.success).toBe(true);
    expect(mapped.links!.length).toBeGreaterThan(1);
    for (const link of mapped.links!) expect(typeof link).toBe('string');
  });
});

describe('Python SDK firecrawl-py 4.55.0', () => {
  it('v2 scrape with every honoured format and option (its defaulted fields accepted), one debit each', async () => {
    const md = await py('scrape', [`${site.url}/article`], { formats: ['markdown', 'html', 'raw_html', 'links'], only_main_content: true, exclude_tags: ['table'], headers: { 'X-A': '1' }, timeout: 30000 });
    expect(md).toMatchObject({ ok: true, type: 'Document' });
    expect(md.value.markdown).toMatch(/^# Tide pools/);
    expect(md.value.markdown).not.toContain('Sea anemone');
    expect(md.value.html).toContain('<h1>Tide pools of the north coast</h1>');
    expect(md.value.raw_html).toContain('<!doctype html>');
    expect(md.value.links).toContain(`${site.url}/page/3`);
    expect(md.value.metadata).toMatchObject({ title: 'Tide pools of the north coast', source_url: `${site.url}/article`, status_code: 200, proxy_used: 'basic', cache_state: 'miss', credits_used: 1 });
    await expectOneDebit(md.value.metadata.scrape_id as string, 1, 'http');

    const shot = await py('scrape', [`${site.url}/article`], { formats: [{ type: 'screenshot', full_page: true }], wait_for: 100, mobile: false, proxy: 'basic', skip_tls_verification: true });
    expect(shot.ok).toBe(true);
    expect(shot.value.screenshot).toMatch(/^data:image\/png;base64,/);
    await expectOneDebit(shot.value.metadata.scrape_id as string, 6, 'browser');
  });

  it('v1 scrape_url and map_url, v2 map', async () => {
    const scraped = await py('scrape_url', [`${site.url}/article`], { formats: ['markdown', 'rawHtml'] }, { client: 'v1' });
    expect(scraped.ok).toBe(true);
    expect(scraped.value.markdown).toMatch(/^# Tide pools/);
    expect(scraped.value.rawHtml).toContain('<!doctype html>');
    await expectOneDebit(scraped.value.metadata.scrapeId as string, 1, 'http');

    const v2map = await py('map', [`${site.url}/links`], { sitemap: 'skip', limit: 3 });
    expect(v2map.ok).toBe(true);
    expect(v2map.value.links.length).toBeGreaterThan(0);
    expect(v2map.value.links.length).toBeLessThanOrEqual(3);
    expect(v2map.value.links[0].url).toMatch(/^http:\/\//);

    const v1map = await py('map_url', [`${site.url}/links`], { ignore_sitemap: true, limit: 3 }, { client: 'v1' });
    expect(v1map.ok).toBe(true);
    for (const link of v1map.value.links) expect(typeof link).toBe('string');
    expect(await balance()).toBe(START_BALANCE - 3);
  });

  it('errors as the SDK names them: 401, 400, 403, 402, 408 (refunded), summary without a model — nothing else charged', async () => {
    const badKey = await py('scrape', [`${site.url}/article`], {}, { apiKey: 'sk_test_nope' });
    expect(badKey).toMatchObject({ ok: false, type: 'UnauthorizedError', status: 401 });
    const invalid = await py('scrape', ['http://'], {});
    expect(invalid).toMatchObject({ ok: false, status: 400 });
    const summary = await py('scrape', [`${site.url}/article`], { formats: ['summary'] });
    expect(summary).toMatchObject({ ok: false, type: 'BadRequestError', status: 400 });
    expect(summary.message).toContain('needs a model');
    const privateTarget = await py('scrape', [`${loopback.url}/article`], {});
    expect(privateTarget).toMatchObject({ ok: false, type: 'WebsiteNotSupportedError', status: 403 });
    const v1Invalid = await py('scrape_url', ['http://'], {}, { client: 'v1' });
    expect(v1Invalid.ok).toBe(false);
    expect(v1Invalid.message).toContain('400');

    const timedOut = await py('scrape', [`${site.url}/slow?ms=30000`], { timeout: 2000 });
    expect(timedOut).toMatchObject({ ok: false, type: 'RequestTimeoutError', status: 408 });
    expect(await balance()).toBe(START_BALANCE);

    await setBalance(stack.databaseUrl, account.userId, 0);
    const broke = await py('scrape', [`${site.url}/article`], {});
    expect(broke).toMatchObject({ ok: false, type: 'PaymentRequiredError', status: 402 });
    expect(await balance()).toBe(0);
  });
});

describe('credentials on the compatible routes', () => {
  it('Bearer and x-api-key both work on /v2; a Bearer key elsewhere still answers 401', async () => {
    const body = JSON.stringify({ url: `${site.url}/article`, formats: ['links'] });
    const viaHeader = await fetch(`${stack.baseUrl}/v2/scrape`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey }, body });
    expect(viaHeader.status).toBe(200);
    expect(((await viaHeader.json()) as { success: boolean }).success).toBe(true);
    const native = await fetch(`${stack.baseUrl}/webhook/unblocker`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${account.apiKey}` }, body: JSON.stringify({ url: `${site.url}/article` }) });
    expect(native.status).toBe(401);
    expect(((await native.json()) as { code: string }).code).toBe('UNAUTHORIZED');
    const missing = await fetch(`${stack.baseUrl}/v2/scrape`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    const unknown = await fetch(`${stack.baseUrl}/v2/nope`, { headers: { authorization: `Bearer ${account.apiKey}` } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    const malformed = await fetch(`${stack.baseUrl}/v2/scrape`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${account.apiKey}` }, body: '{"url":' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ success: false, code: 'BAD_REQUEST_INVALID_JSON' });
  });
});
