/**
 * An agent reads a crawl's and a batch's pages over MCP (docs/mcp.md "Tools"), driven by the
 * official SDK client against the real API and worker, Temporal, PostgreSQL and the crawl
 * fixture site: `crawl_status` and `batch_status` answer the pages' markdown a slice at a time,
 * with a cursor the tool takes back; the scrape tool's result carries the page's metadata (its
 * title), as firecrawl-mcp's tools do.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type CrawlSite, startCrawlSite } from '../../test/fixtures/crawl-site';
import { type TestAccount, createAccount, setBalance } from '../../test/helpers/accounts';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';

jest.setTimeout(300_000);

type Json = Record<string, unknown>;
interface PageSlice {
  url: string;
  status: string;
  run_id: string | null;
  title?: string | null;
  markdown?: string | null;
}

let stack: Stack;
let site: CrawlSite;
let account: TestAccount;
let client: Client;

beforeAll(async () => {
  site = await startCrawlSite();
  stack = await startStack();
  account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 100);
  client = new Client({ name: 'scrape-api-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp`), { requestInit: { headers: { 'x-api-key': account.apiKey } } }));
});

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await stack?.stop();
  await site?.close();
});

async function call(name: string, args: Json): Promise<CallToolResult & { structuredContent: Json }> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult & { structuredContent: Json };
}

/** Polls a status tool until the job ended; answers its last structured content. */
async function finished(tool: string, id: string): Promise<Json> {
  return waitFor(`${tool} ${id} finished`, async () => {
    const status = await call(tool, { id });
    expect(status.isError).toBeFalsy();
    return ['completed', 'failed', 'cancelled', 'credit_exhausted'].includes(status.structuredContent.status as string) ? status.structuredContent : undefined;
  }, 180_000);
}

/** Every slice of a status tool, following `next_cursor` until it is null. */
async function allSlices(tool: string, id: string, limit: number): Promise<Array<{ pages: PageSlice[]; next: string | null }>> {
  const slices: Array<{ pages: PageSlice[]; next: string | null }> = [];
  let cursor: string | undefined;
  do {
    const result = await call(tool, { id, limit, ...(cursor ? { cursor } : {}) });
    expect(result.isError).toBeFalsy();
    const body = result.structuredContent;
    const next = (body.next_cursor ?? null) as string | null;
    slices.push({ pages: body.pages as PageSlice[], next });
    cursor = next ?? undefined;
  } while (cursor && slices.length < 10);
  return slices;
}

it('the scrape tool answers the page metadata (its title) with the markdown', async () => {
  const result = await call('scrape', { url: `${site.url}/docs/1` });
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent.markdown).toEqual(expect.stringContaining('Content of /docs/1'));
  expect(result.structuredContent.metadata).toMatchObject({ title: 'Page /docs/1' });
});

it('crawl_status answers the pages\' markdown, a slice at a time, with a cursor it takes back', async () => {
  // No scrape formats given: the crawl tool asks for markdown (and metadata), as the scrape tool does.
  const started = await call('crawl', { url: site.url, limit: 3, sitemap: 'skip' });
  expect(started.isError).toBeFalsy();
  const id = started.structuredContent.id as string;
  const done = await finished('crawl_status', id);
  expect(done).toMatchObject({ id, status: 'completed', total: 3, completed: 3 });

  // Two pages per answer (pages robots.txt disallows are listed too, skipped, without a run or content).
  const slices = await allSlices('crawl_status', id, 2);
  expect(slices.length).toBeGreaterThanOrEqual(2);
  for (const slice of slices.slice(0, -1)) expect([slice.pages.length, slice.next]).toEqual([2, expect.any(String)]);
  expect(slices[slices.length - 1]!.next).toBeNull();
  const pages = slices.flatMap((s) => s.pages);
  expect(new Set(pages.map((p) => p.url)).size).toBe(pages.length);
  const scraped = pages.filter((p) => p.run_id !== null);
  expect(scraped).toHaveLength(3);
  for (const page of scraped) {
    expect(page).toMatchObject({ status: 'succeeded', run_id: expect.any(String), title: expect.stringMatching(/^Page \//) });
    // The fixture's page "Page <key>" says "Content of <key>".
    expect(page.markdown).toEqual(expect.stringContaining(page.title!.replace(/^Page /, 'Content of ')));
  }
  for (const page of pages.filter((p) => p.run_id === null)) expect([page.status, page.markdown]).toEqual(['skipped', null]);
  // A cursor that is not one: the route's own refusal, as a tool error.
  const bad = await call('crawl_status', { id, cursor: '!!' });
  expect([bad.isError, bad.structuredContent.code]).toEqual([true, 'BAD_REQUEST']);
});

it('batch_status answers each URL\'s markdown', async () => {
  const urls = [`${site.url}/docs/4`, `${site.url}/docs/5`];
  const started = await call('batch_scrape', { urls });
  expect(started.isError).toBeFalsy();
  const id = started.structuredContent.id as string;
  const done = await finished('batch_status', id);
  expect(done).toMatchObject({ status: 'completed', total: 2, completed: 2 });
  const pages = done.pages as PageSlice[];
  expect(pages.map((p) => p.url).sort()).toEqual(urls);
  for (const page of pages) expect(page.markdown).toEqual(expect.stringContaining(`Content of ${new URL(page.url).pathname}`));
  expect(done.next_cursor).toBeNull();
});
