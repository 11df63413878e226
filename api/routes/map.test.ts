/**
 * POST /map end to end: real API and worker processes, Temporal, PostgreSQL and the crawl
 * fixture site (test/fixtures/crawl-site.ts). Expectations come from the fixture's own sets.
 */
import { Client, Connection } from '@temporalio/client';
import { normalizeUrl } from '../../crawl/url';
import { testEnv } from '../../test/helpers/env';
import { type CrawlSite, startCrawlSite } from '../../test/fixtures/crawl-site';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance, sql } from '../../test/helpers/accounts';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';
import { testDataConverter } from '../../test/helpers/temporal-codec';

let stack: Stack;
let site: CrawlSite;
let account: TestAccount;

beforeAll(async () => {
  site = await startCrawlSite();
  stack = await startStack();
  account = await createAccount(stack.baseUrl);
});

afterAll(async () => {
  await stack?.stop();
  await site?.close();
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, account.userId, 100);
  site.reset();
});

interface MapAnswer {
  id: string;
  url: string;
  links: string[];
  credits: { cost: number; remaining: number };
  code?: string;
  message?: string | string[];
  refunded?: boolean;
}

async function map(body: unknown, headers: Record<string, string> = { 'x-api-key': account.apiKey }) {
  const res = await fetch(`${stack.baseUrl}/map`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as MapAnswer };
}

const runCount = async () => Number((await sql<{ n: string }>(stack.databaseUrl, 'SELECT count(*) AS n FROM scrape_run'))[0]!.n);
const abs = (path: string) => normalizeUrl(site.url + path)!;
/** Paths robots.txt allows: a map honours it (docs/crawl.md "Map"; api/routes/crawl-rules.test.ts tests ignore_robots). */
const allowed = (path: string) => !site.disallowedPaths.includes(path);
/** The start page and the main-host pages it links to (those robots.txt allows). */
const pageLinks = () => [abs('/'), ...site.outLinks('/').filter(allowed).map(abs)];
const sitemapLinks = () => site.sitemapPaths.filter(allowed).map(abs);

describe('POST /map', () => {
  it('lists the start page, its links and the sitemaps\' URLs on the origin, once each, for 1 credit debited once', async () => {
    const { status, body } = await map({ url: site.url });
    expect(status).toBe(200);
    expect(body.links[0]).toBe(abs('/'));
    expect(new Set(body.links).size).toBe(body.links.length);
    expect(new Set(body.links)).toEqual(new Set([...pageLinks(), ...sitemapLinks()]));
    for (const link of body.links) expect(normalizeUrl(link)).toBe(link);
    // Off-origin links (the second server, the subdomain) and the gzip sitemap's off-origin entry are left out.
    expect(body.links.some((l) => l.startsWith(site.other.url) || l.startsWith(site.subUrl))).toBe(false);
    // The sitemap-only pages came through the gzip sitemap.
    for (const path of site.sitemapOnlyPaths) expect(body.links).toContain(abs(path));
    expect(body.credits).toEqual({ cost: 1, remaining: 99 });
    // The price GET /pricing lists.
    expect(((await (await fetch(`${stack.baseUrl}/pricing`)).json()) as { jobs: { map: number } }).jobs.map).toBe(body.credits.cost);
    for (const path of ['/', '/robots.txt', '/sitemap_index.xml', '/sitemaps/pages.xml', '/sitemaps/archive.xml.gz']) expect([path, site.hits(path)]).toEqual([path, 1]);
    // No content: no other page of the site was fetched.
    expect([...site.allHits().keys()].sort()).toEqual(['/', '/robots.txt', '/sitemap_index.xml', '/sitemaps/archive.xml.gz', '/sitemaps/pages.xml']);

    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(99);
    const ledger = (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.runId === body.id);
    expect(ledger.map((r) => [r.reason, r.amount])).toEqual([['debit', -1]]);

    // An ordinary scrape run: GET /webhook/runs/:id shows it, under the workflow map-<id>.
    const run = (await sql<{ status: string; workflowId: string; cost: number }>(stack.databaseUrl, 'SELECT status::text, "workflowId", cost FROM scrape_run WHERE id = $1', [body.id]))[0]!;
    expect(run).toEqual({ status: 'succeeded', workflowId: `map-${body.id}`, cost: 1 });
    const shown = await fetch(`${stack.baseUrl}/webhook/runs/${body.id}`, { headers: { 'x-api-key': account.apiKey } });
    const shownBody = (await shown.json()) as { status: string; result: { links: Array<{ url: string }> } };
    expect(shownBody.status).toBe('succeeded');
    expect(shownBody.result.links.map((l) => l.url)).toEqual(body.links);

    // Findable in Temporal by its run id and its account.
    const connection = await Connection.connect({ address: testEnv('temporalAddress') });
    try {
      const client = new Client({ connection, dataConverter: testDataConverter() });
      const ids: string[] = [];
      await waitFor('the map listed by ScrapeRunIds and AccountId', async () => {
        ids.length = 0;
        for await (const execution of client.workflow.list({ query: `ScrapeRunIds = "${body.id}" AND AccountId = "${account.userId}"` })) ids.push(execution.workflowId);
        return ids.length > 0;
      });
      expect(ids).toEqual([`map-${body.id}`]);
    } finally {
      await connection.close();
    }
  });

  it('sitemap "skip" lists the start page\'s links only; "only" the sitemaps\' URLs only, without fetching the page', async () => {
    const skip = await map({ url: `${site.url}/`, sitemap: 'skip' });
    expect(skip.status).toBe(200);
    expect(new Set(skip.body.links)).toEqual(new Set(pageLinks()));
    // robots.txt for its rules only: no sitemap read.
    expect([site.hits('/robots.txt'), site.hits('/sitemap_index.xml')]).toEqual([1, 0]);

    site.reset();
    const only = await map({ url: site.url, sitemap: 'only' });
    expect(only.status).toBe(200);
    expect(new Set(only.body.links)).toEqual(new Set(sitemapLinks()));
    expect(site.hits('/')).toBe(0);
  });

  it('stops at the limit, and include_subdomains adds the subdomain (never the other host)', async () => {
    const five = await map({ url: site.url, limit: 5 });
    expect(five.body.links).toHaveLength(5);
    expect(five.body.links[0]).toBe(abs('/'));
    expect(site.hits('/sitemap_index.xml')).toBe(0);

    const wide = await map({ url: site.url, sitemap: 'skip', include_subdomains: true });
    expect(wide.body.links).toContain(normalizeUrl(`${site.subUrl}/`));
    expect(wide.body.links.some((l) => l.startsWith(site.other.url))).toBe(false);
  });

  it('a failing start page: retried once, then 502 with the run id, and the credit refunded', async () => {
    const runsBefore = await runCount();
    const { status, body } = await map({ url: `${site.url}/broken`, sitemap: 'skip' });
    expect(status).toBe(502);
    expect(body).toMatchObject({ code: 'TARGET_ERROR', refunded: true });
    expect(site.hits('/broken')).toBe(2);
    expect(await runCount()).toBe(runsBefore + 1);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(100);
    const ledger = (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.runId === (body as unknown as { id: string }).id);
    expect(ledger.map((r) => [r.reason, r.amount]).sort()).toEqual([['debit', -1], ['refund', 1]]);
  });

  it('a map cancelled from Temporal while its page is fetched: recorded cancelled and refunded, answered 409', async () => {
    site.setPageDelay(120_000);
    try {
      const pending = map({ url: `${site.url}/docs/3`, sitemap: 'skip' });
      const rowOf = async () => (await sql<{ id: string; workflowId: string; status: string; error: { code: string; refunded: boolean } | null }>(stack.databaseUrl, `SELECT id, "workflowId", status::text AS status, error FROM scrape_run WHERE url = $1 ORDER BY "createdAt" DESC LIMIT 1`, [`${site.url}/docs/3`]))[0];
      await waitFor('the map under way (debited, the page requested)', async () => (await rowOf())?.status === 'running' && site.hits('/docs/3') === 1);
      expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(99);
      const connection = await Connection.connect({ address: testEnv('temporalAddress') });
      try {
        await new Client({ connection, dataConverter: testDataConverter() }).workflow.getHandle((await rowOf())!.workflowId).cancel();
      } finally {
        await connection.close();
      }
      const { status, body } = await pending;
      expect(status).toBe(409);
      expect(body).toMatchObject({ code: 'CANCELLED' });
      expect(await rowOf()).toMatchObject({ status: 'cancelled', error: { code: 'CANCELLED', refunded: true } });
      expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(100);
    } finally {
      site.setPageDelay(0);
    }
  });

  it('422 listing every problem, 402 without a credit, 401 without a key: no run recorded', async () => {
    const runsBefore = await runCount();
    const bad = await map({ url: 'ftp://example.com/', limit: 0, sitemap: 'sometimes', include_subdomains: 'yes', extra: 1 });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    expect(bad.body.message).toEqual(expect.arrayContaining([expect.stringMatching(/^url /), expect.stringMatching(/^limit /), expect.stringMatching(/^sitemap /), expect.stringMatching(/^include_subdomains /), expect.stringMatching(/extra/)]));
    expect((await map({ url: site.url, limit: 10_001 })).status).toBe(422);

    await setBalance(stack.databaseUrl, account.userId, 0);
    const broke = await map({ url: site.url });
    expect(broke.status).toBe(402);
    expect(broke.body.code).toBe('INSUFFICIENT_CREDIT');

    expect((await map({ url: site.url }, {})).status).toBe(401);
    expect(await runCount()).toBe(runsBefore);
    expect(site.allHits().size).toBe(0);
  });
});
