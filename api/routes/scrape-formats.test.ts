/**
 * Output formats end to end (docs/scraping.md "Output formats"): real API and worker processes,
 * Temporal, PostgreSQL, Debian's Chromium and the local fixture site. Each format in both modes,
 * the screenshot, its price and its route, main content and tags, the 400s, charsets, a big page.
 */
import { Client, Connection } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { testEnv } from '../../test/helpers/env';
import { ARTICLE_HTML, FIXTURE_TEXT, type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance, sql } from '../../test/helpers/accounts';
import { type Stack, startStack } from '../../test/helpers/stack';
import { testDataConverter } from '../../test/helpers/temporal-codec';

let stack: Stack;
let fixtures: FixtureServer;
let account: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  stack = await startStack();
  account = await createAccount(stack.baseUrl);
  other = await createAccount(stack.baseUrl);
});

afterAll(async () => {
  await stack?.stop();
  await fixtures?.close();
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, account.userId, 10_000);
});

type Body = Record<string, unknown> & {
  html?: string;
  rawHtml?: string;
  markdown?: string;
  text?: string;
  links?: Array<{ url: string; text: string; rel: string | null }>;
  metadata?: Record<string, unknown>;
  screenshot?: { url: string; width: number; height: number; bytes: number };
  data?: Array<{ results: Array<{ text: string }> }>;
  credits?: { cost: number; remaining: number };
};

async function scrape(body: unknown, apiKey = account.apiKey): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${stack.baseUrl}/webhook/unblocker`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

const ALL_BUT_SCREENSHOT = ['rawHtml', 'html', 'markdown', 'text', 'links', 'metadata'] as const;

describe.each(['http', 'browser'] as const)('%s mode', (mode) => {
  it('answers each format from the article page', async () => {
    const { status, body } = await scrape({ url: `${fixtures.url}/article`, mode, formats: ALL_BUT_SCREENSHOT });
    expect(status).toBe(200);
    // rawHtml: the document as received (http) or as Chromium serialises it after its scripts ran.
    if (mode === 'http') expect(body.rawHtml).toBe(ARTICLE_HTML);
    else expect(body.rawHtml).toContain('data-ready="yes"');
    // html: the main content, cleaned: no script, style or comment, absolute URLs.
    expect(body.html).toContain('<table>');
    expect(body.html).toContain(`src="${fixtures.url}/img/anemone.jpg"`);
    expect(body.html).toContain(`href="${fixtures.url}/page/3"`);
    expect(body.html).not.toMatch(/<script|<style|<!--|cookie|Fixture Site|Accept all/);
    // markdown: GFM table and fenced code block kept.
    expect(body.markdown).toContain('| Animal | Where |\n| --- | --- |\n| Sea anemone | Lower pools |');
    expect(body.markdown).toContain('```\nfor pool in pools:\n    print(pool.name, len(pool.species))\n```');
    expect(body.markdown).toContain(`[tide tables](${fixtures.url}/page/3)`);
    expect(body.markdown).not.toMatch(/Accept all|© Fixture Site/);
    // text: the same content as plain text.
    expect(body.text).toContain('The best time to visit is an hour before low tide. Read the tide tables first');
    expect(body.text).toContain('Animal\tWhere\nSea anemone\tLower pools\nShore crab\tUnder stones');
    expect(body.text).not.toMatch(/Accept all|analytics/);
    // links: the whole page's, absolute, without fragments, once each.
    expect(body.links).toEqual([
      { url: `${fixtures.url}/`, text: 'Fixture Site', rel: null },
      { url: `${fixtures.url}/page/1`, text: 'Guides', rel: null },
      { url: `${fixtures.url}/page/2`, text: 'About', rel: null },
      { url: `${fixtures.url}/page/3`, text: 'tide tables', rel: null },
      { url: 'https://social.example/share?u=article', text: 'Post', rel: null },
    ]);
    expect(body.metadata).toEqual({
      title: 'Tide pools of the north coast',
      description: 'A field guide to the tide pools of the north coast.',
      language: 'en',
      canonical: `${fixtures.url}/article`,
      favicon: `${fixtures.url}/favicon.png`,
      published_time: '2026-11-02T08:00:00Z',
      status: 200,
      content_type: 'text/html; charset=utf-8',
      final_url: `${fixtures.url}/article`,
      'og:title': 'Tide pools of the north coast',
      'og:type': 'article',
      'og:image': `${fixtures.url}/img/pool.jpg`,
      'twitter:card': 'summary_large_image',
    });
    expect(body.credits?.cost).toBe(mode === 'http' ? 1 : 5);
    expect(body.screenshot).toBeUndefined();
  });

  it("opens the main content with the page's heading unless include_heading is false", async () => {
    const { status, body } = await scrape({ url: `${fixtures.url}/article`, mode, formats: ['html', 'markdown', 'text'] });
    expect(status).toBe(200);
    // The article's <h1>, once, at the top of each content format.
    expect(body.markdown).toMatch(/^# Tide pools of the north coast\n\nTide pools form where the sea/);
    expect(body.html).toMatch(/^<h1>Tide pools of the north coast<\/h1>/);
    expect(body.text).toMatch(/^Tide pools of the north coast\n\nTide pools form where the sea/);
    for (const field of [body.markdown!, body.html!, body.text!]) expect(field.split('Tide pools of the north coast')).toHaveLength(2);

    const without = await scrape({ url: `${fixtures.url}/article`, mode, formats: ['html', 'markdown', 'text'], include_heading: false });
    expect(without.status).toBe(200);
    expect(without.body.markdown).toMatch(/^Tide pools form where the sea/);
    for (const field of [without.body.markdown!, without.body.html!, without.body.text!]) expect(field).not.toContain('Tide pools of the north coast');
    // The rest of the content is the same either way.
    expect(body.markdown!.replace('# Tide pools of the north coast\n\n', '')).toBe(without.body.markdown);

    const notBool = await scrape({ url: `${fixtures.url}/article`, mode, formats: ['markdown'], include_heading: 'no' });
    expect(notBool.status).toBe(400);
    expect(notBool.body.message).toMatch(/^include_heading /);
  });

  it('keeps the default answer (no formats) as before, and combines formats with selectors', async () => {
    const legacy = await scrape({ url: `${fixtures.url}/article`, mode });
    expect(legacy.status).toBe(200);
    if (mode === 'http') expect(legacy.body.html).toBe(ARTICLE_HTML);
    else expect(legacy.body.html).toContain('<script>window.analytics');
    for (const field of ['rawHtml', 'markdown', 'text', 'links', 'metadata']) expect(legacy.body).not.toHaveProperty(field);

    const both = await scrape({ url: `${fixtures.url}/article`, mode, selectors: ['h1'], formats: ['markdown', 'links'] });
    expect(both.status).toBe(200);
    expect(both.body.data![0]!.results[0]!.text).toBe('Tide pools of the north coast');
    expect(both.body.markdown).toContain('## What lives there');
    expect(both.body.links).toHaveLength(5);
    expect(both.body).not.toHaveProperty('html');
  });

  it('only_main_content: false keeps the whole body; include_tags and exclude_tags adjust the content', async () => {
    const whole = await scrape({ url: `${fixtures.url}/article`, mode, formats: ['markdown', 'text'], only_main_content: false });
    expect(whole.body.markdown).toContain(`[Fixture Site](${fixtures.url}/)`);
    expect(whole.body.markdown).toContain('© Fixture Site');
    expect(whole.body.text).toContain('We use cookies.');
    expect(whole.body.text).not.toContain('analytics');

    const excluded = await scrape({ url: `${fixtures.url}/article`, mode, formats: ['text'], only_main_content: false, exclude_tags: ['header', 'footer', '#cookie-banner', '.share'] });
    expect(excluded.body.text).toMatch(/^Tide pools of the north coast\n\nBy A\. Fixture/);
    expect(excluded.body.text).toMatch(/by e-mail\.$/);

    const included = await scrape({ url: `${fixtures.url}/article`, mode, formats: ['html', 'text'], include_tags: ['table', 'pre'] });
    expect(included.body.text).toBe('Animal\tWhere\nSea anemone\tLower pools\nShore crab\tUnder stones\n\nfor pool in pools:\n    print(pool.name, len(pool.species))');
    expect(included.body.html).toMatch(/^<table>[\s\S]*<\/table><pre><code class="language-python">[\s\S]*<\/pre>$/);
  });

  it.each(['windows-1252', 'shift_jis', 'iso-8859-2', 'undeclared'])('decodes a page whose charset is only in a late <meta> (%s)', async (name) => {
    const expected = name === 'shift_jis' ? FIXTURE_TEXT.sjis : name === 'iso-8859-2' ? FIXTURE_TEXT.latin2 : FIXTURE_TEXT.latin1;
    const { status, body } = await scrape({ url: `${fixtures.url}/charset/${name}`, mode, selectors: ['#t'], formats: ['text'], only_main_content: false });
    expect(status).toBe(200);
    expect(body.data![0]!.results[0]!.text).toBe(expected);
    expect(body.text).toBe(expected);
  });

  it('keeps a 2 MiB page out of Temporal: stored in PostgreSQL, the history stays small', async () => {
    const { status, body } = await scrape({ url: `${fixtures.url}/large?mb=2`, mode, formats: ['rawHtml', 'markdown', 'text'], only_main_content: false, options: { timeout_ms: 45_000 } });
    expect(status).toBe(200);
    expect(body.rawHtml!.length).toBeGreaterThan(2_000_000);
    expect(body.markdown!.split('\n\n').length).toBeGreaterThan(100_000);
    expect(body.text!.length).toBeGreaterThan(1_000_000);
    const row = (await sql<{ workflowId: string; bytes: number }>(stack.databaseUrl, 'SELECT "workflowId", octet_length(result::text) AS bytes FROM scrape_run WHERE id = $1', [body.id]))[0]!;
    expect(row.bytes).toBeGreaterThan(4 * 1024 * 1024);
    const connection = await Connection.connect({ address: testEnv('temporalAddress') });
    try {
      const history = await new Client({ connection, dataConverter: testDataConverter() }).workflow.getHandle(row.workflowId).fetchHistory();
      // Every run of the batch together: far below one copy of the page.
      expect(proto.api.history.v1.History.encode(history).finish().length).toBeLessThan(256 * 1024);
    } finally {
      await connection.close();
    }
  });
});

describe('charset: a real page that declares none reads the same in both modes', () => {
  it('mozilla/readability nytimes-2 (UTF-8, no charset anywhere): the same title, markdown and text, its quotes intact', async () => {
    const request = { url: `${fixtures.url}/readability/nytimes-2`, selectors: ['title'], formats: ['markdown', 'text', 'metadata'] };
    const [http, browser] = await Promise.all([scrape({ ...request, mode: 'http' }), scrape({ ...request, mode: 'browser' })]);
    expect([http.status, browser.status]).toEqual([200, 200]);
    const title = 'Yahoo’s Sale to Verizon Leaves Shareholders With Little Say - The New York Times';
    expect(http.body.data![0]!.results[0]!.text).toBe(title);
    expect(browser.body.data![0]!.results[0]!.text).toBe(title);
    expect(browser.body.metadata).toMatchObject({ title, content_type: 'text/html' });
    expect(browser.body.markdown).toBe(http.body.markdown);
    expect(browser.body.text).toBe(http.body.text);
    expect(browser.body.text).toContain('Yahoo’s $4.8 billion sale to Verizon');
    expect(browser.body.text).not.toContain('â€');
  });
});

describe('screenshot (browser only)', () => {
  it('answers {url, width, height, bytes}, serves the PNG to the owner only and costs 1 credit more, as GET /pricing says', async () => {
    // The price list (no credential) says what the debit takes: browser 5 + screenshot 1, other formats 0.
    const pricing = await fetch(`${stack.baseUrl}/pricing`);
    expect(pricing.status).toBe(200);
    const prices = (await pricing.json()) as { scrape: { modes: Record<string, number>; extras: { screenshot: number }; formats: number } };
    const price = prices.scrape.modes.browser! + prices.scrape.extras.screenshot + prices.scrape.formats;
    expect(price).toBe(6);
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const { status, body } = await scrape({ url: `${fixtures.url}/article`, mode: 'browser', formats: ['screenshot', 'metadata'] });
    expect(status).toBe(200);
    expect(body.screenshot).toEqual({ url: `/webhook/runs/${String(body.id)}/screenshot`, width: 1366, height: 900, bytes: expect.any(Number) as number });
    expect(body.credits).toEqual({ cost: price, remaining: before - price });
    expect((await ledgerOf(stack.databaseUrl, account.userId)).filter((r) => r.runId === body.id).map((r) => r.amount)).toEqual([-price]);

    const png = await fetch(`${stack.baseUrl}${body.screenshot!.url}`, { headers: { 'x-api-key': account.apiKey } });
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(bytes.length).toBe(body.screenshot!.bytes);
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1366, 900]);

    const stranger = await fetch(`${stack.baseUrl}${body.screenshot!.url}`, { headers: { 'x-api-key': other.apiKey } });
    expect(stranger.status).toBe(403);
    expect(await stranger.json()).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    const unknown = await fetch(`${stack.baseUrl}/webhook/runs/00000000-0000-4000-8000-000000000000/screenshot`, { headers: { 'x-api-key': account.apiKey } });
    expect(unknown.status).toBe(404);
    const noKey = await fetch(`${stack.baseUrl}${body.screenshot!.url}`);
    expect(noKey.status).toBe(401);

    // A run without a screenshot: 404 too.
    const plain = await scrape({ url: `${fixtures.url}/page/1`, formats: ['text'] });
    const none = await fetch(`${stack.baseUrl}/webhook/runs/${String(plain.body.id)}/screenshot`, { headers: { 'x-api-key': account.apiKey } });
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ code: 'NOT_FOUND', message: 'This run has no screenshot' });
  });

  it('screenshot@fullPage takes the whole page', async () => {
    const { status, body } = await scrape({ url: `${fixtures.url}/links?n=200`, mode: 'browser', formats: ['screenshot@fullPage'] });
    expect(status).toBe(200);
    expect(body.screenshot!.width).toBe(1366);
    expect(body.screenshot!.height).toBeGreaterThan(900);
  });

  it('402 before any work when the balance covers the page but not the screenshot', async () => {
    await setBalance(stack.databaseUrl, account.userId, 5);
    const { status, body } = await scrape({ url: `${fixtures.url}/article`, mode: 'browser', formats: ['screenshot'] });
    expect(status).toBe(402);
    expect(body).toMatchObject({ code: 'INSUFFICIENT_CREDIT', cost: 6, remaining: 5 });
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(5);
  });
});

describe('400s', () => {
  it('names a bad format, a repeated one, two screenshots, a screenshot in http mode and bad tags', async () => {
    const bad = await scrape({ url: `${fixtures.url}/`, formats: ['markdown', 'pdf'] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^formats\.1 must name formats among rawHtml, html, markdown, text, links, metadata, screenshot, screenshot@fullPage, changeTracking, summary, or be an object/);
    const repeated = await scrape({ url: `${fixtures.url}/`, formats: ['text', 'text'] });
    expect(repeated.body.message).toBe('formats must not repeat a format');
    const two = await scrape({ url: `${fixtures.url}/`, mode: 'browser', formats: ['screenshot', 'screenshot@fullPage'] });
    expect(two.body.message).toBe('formats may ask for one screenshot (screenshot or screenshot@fullPage)');
    const http = await scrape({ url: `${fixtures.url}/`, formats: ['markdown', 'screenshot'], capture_network: true });
    expect(http.status).toBe(400);
    expect(http.body.message).toEqual(['capture_network is only available in browser mode', 'formats "screenshot" is only available in browser mode']);
    const emptyTag = await scrape({ url: `${fixtures.url}/`, formats: ['text'], include_tags: [''] });
    expect(emptyTag.body.message).toBe('include_tags.0 must be a non-empty CSS selector');
    const badTag = await scrape({ url: `${fixtures.url}/`, formats: ['text'], exclude_tags: ['nav', 'div[[oops'] });
    expect(badTag.status).toBe(400);
    expect(badTag.body).toMatchObject({ code: 'INVALID_SELECTOR' });
    expect(badTag.body.message).toMatch(/exclude_tags selector "div\[\[oops"/);
    const notBool = await scrape({ url: `${fixtures.url}/`, formats: ['text'], only_main_content: 'yes' });
    expect(notBool.body.message).toMatch(/^only_main_content /);
  });
});
