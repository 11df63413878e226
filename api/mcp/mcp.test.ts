/**
 * POST /mcp end to end, driven by the official MCP SDK client (Client +
 * StreamableHTTPClientTransport) against the real API and worker processes, Temporal,
 * PostgreSQL and the crawl fixture site (test/fixtures/crawl-site.ts). Each tool is checked
 * against what the HTTP API records: the runs, the ledger (one debit per page, nothing taken for
 * refused input), ownership. Last, Firecrawl's own MCP server (`firecrawl-mcp`, a stdio process)
 * pointed at our base URL scrapes through the Firecrawl-compatible /v2/scrape.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { batchRequestSchema, crawlRequestSchema } from '../../crawl/job-request';
import { mapRequestSchema } from '../../crawl/map-request';
import { scrapeRequestSchema } from '../../scrape/request';
import { type CrawlSite, startCrawlSite } from '../../test/fixtures/crawl-site';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance, sql } from '../../test/helpers/accounts';
import { auditRunsAndLedger } from '../../test/helpers/run-ledger';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';

type Json = Record<string, unknown>;

let stack: Stack;
let site: CrawlSite;
let account: TestAccount;
let other: TestAccount;
const clients: Client[] = [];

/** A connected client (the SDK's `initialize` handshake included) sending `headers` on every POST. */
async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'scrape-api-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

/** A tool call; generous request timeout for a loaded machine (the tools answer within 50 s). */
async function call(client: Client, name: string, args: Json): Promise<CallToolResult & { structuredContent: Json }> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult & { structuredContent: Json };
}

const textOf = (result: CallToolResult) => (result.content[0] as { type: 'text'; text: string }).text;
const runCount = async (userId: string) => Number((await sql<{ n: string }>(stack.databaseUrl, 'SELECT count(*) AS n FROM scrape_run WHERE "userId" = $1', [userId]))[0]!.n);

beforeAll(async () => {
  site = await startCrawlSite();
  stack = await startStack();
  [account, other] = await Promise.all([createAccount(stack.baseUrl), createAccount(stack.baseUrl)]);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await stack?.stop();
  await site?.close();
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, account.userId, 100);
  site.reset();
});

describe('/mcp: the transport and its checks', () => {
  it('lists the fourteen tools, their input schemas converted from the routes\' request schemas', async () => {
    const client = await connect({ 'x-api-key': account.apiKey });
    expect(client.getServerVersion()).toEqual({ name: 'scrape-api', version: '0.1.0' });
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()].sort()).toEqual(['batch_scrape', 'batch_status', 'crawl', 'crawl_status', 'extract', 'extract_status', 'flow_input', 'flow_run_status', 'get_run', 'map', 'parse', 'run_flow', 'scrape', 'search']);
    const propertiesOf = (schema: z.ZodType) => Object.keys((z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties: Json }).properties).sort();
    expect(Object.keys(byName.get('scrape')!.inputSchema.properties!).sort()).toEqual(propertiesOf(scrapeRequestSchema));
    expect(byName.get('scrape')!.inputSchema.required).toEqual(['url']);
    expect(Object.keys(byName.get('map')!.inputSchema.properties!).sort()).toEqual(propertiesOf(mapRequestSchema));
    expect(Object.keys(byName.get('crawl')!.inputSchema.properties!).sort()).toEqual(propertiesOf(crawlRequestSchema));
    expect(Object.keys(byName.get('batch_scrape')!.inputSchema.properties!).sort()).toEqual(propertiesOf(batchRequestSchema));
    expect(byName.get('run_flow')!.inputSchema).toMatchObject({ type: 'object', required: ['flow_id'], properties: { flow_id: { type: 'string' }, wait: { type: 'boolean' }, webhook: expect.any(Object) } });
    expect(byName.get('flow_run_status')!.inputSchema).toMatchObject({ required: ['flow_id', 'run_id'] });
    expect(byName.get('flow_input')!.inputSchema).toMatchObject({ required: expect.arrayContaining(['flow_id', 'run_id', 'node', 'value']), properties: { node: { type: 'string' }, value: { type: 'string' } } });
    for (const name of ['crawl_status', 'batch_status', 'get_run']) expect(byName.get(name)!.inputSchema).toMatchObject({ type: 'object', required: ['id'], additionalProperties: false });
    // No output schema: the SDK client would hold error results to it too.
    for (const tool of tools) expect(tool.outputSchema).toBeUndefined();
  });

  it('refuses a missing, unknown or malformed key with 401 at initialize, by either header', async () => {
    const attempts: Array<Record<string, string>> = [{}, { 'x-api-key': 'sk_test_nope' }, { authorization: 'Bearer sk_test_nope' }, { authorization: `Basic ${account.apiKey}` }, { 'x-api-key': 'a b' }];
    for (const headers of attempts) {
      const refused = await connect(headers).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(StreamableHTTPError);
      expect((refused as StreamableHTTPError).code).toBe(401);
    }
    // Raw: the JSON-RPC envelope, our error body in `data`, and the header HTTP asks of a 401.
    const res = await fetch(`${stack.baseUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer sk_test_nope' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'UNAUTHORIZED: Unauthorized', data: { statusCode: 401, message: 'Unauthorized', error: 'Unauthorized', code: 'UNAUTHORIZED' } } });
  });

  it('takes the key as a Bearer token', async () => {
    const client = await connect({ authorization: `Bearer ${account.apiKey}` });
    expect((await client.listTools()).tools).toHaveLength(14);
  });

  it('answers GET and DELETE with 405 (stateless: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${stack.baseUrl}/mcp`, { method, headers: { 'x-api-key': account.apiKey, accept: 'text/event-stream' } });
      expect([method, res.status, res.headers.get('allow')]).toEqual([method, 405, 'POST']);
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
  });

  it('checks Origin only when present: a foreign one → 403, the service\'s own → served', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
    const post = (origin?: string) =>
      fetch(`${stack.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': account.apiKey, ...(origin ? { origin } : {}) },
        body: JSON.stringify(initialize),
      });
    const foreign = await post('http://evil.example');
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: { data: { code: 'INVALID_ORIGIN' } } });
    const own = await post(stack.baseUrl);
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ id: 1, result: { serverInfo: { name: 'scrape-api' } } });
    expect((await post()).status).toBe(200);
  });
});

describe('/mcp tools: the same runs and ledger as the HTTP API', () => {
  it('scrape answers the page as markdown, one run debited once; by default main content', async () => {
    const client = await connect({ 'x-api-key': account.apiKey });
    const result = await call(client, 'scrape', { url: `${site.url}/docs/1` });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('Content of /docs/1');
    expect(textOf(result)).toMatch(/^#? ?Page \/docs\/1/m);
    const run = result.structuredContent;
    expect(run).toMatchObject({ url: `${site.url}/docs/1`, status: 200, mode: 'http', markdown: textOf(result), credits: { cost: 1, remaining: 99 } });
    expect(site.hits('/docs/1')).toBe(1);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(99);
    const ledger = (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.runId === run.id);
    expect(ledger.map((row) => [row.reason, row.amount])).toEqual([['debit', -1]]);

    // get_run reads the same run: its markdown as text, the run as GET /webhook/runs/:id shows it.
    const again = await call(client, 'get_run', { id: run.id });
    expect(again.isError).toBeFalsy();
    expect(textOf(again)).toBe(run.markdown);
    const http = (await (await fetch(`${stack.baseUrl}/webhook/runs/${String(run.id)}`, { headers: { 'x-api-key': account.apiKey } })).json()) as Json;
    expect(again.structuredContent).toEqual(http);
  });

  it('scrape with selectors answers the HTTP API\'s result (data), as JSON text', async () => {
    const client = await connect({ 'x-api-key': account.apiKey });
    const result = await call(client, 'scrape', { url: `${site.url}/docs/2`, selectors: ['h1', { name: 'content', selector: 'p.content' }] });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.data).toMatchObject([
      { selector: 'h1', results: [{ text: 'Page /docs/2' }] },
      { name: 'content', selector: 'p.content', results: [{ text: 'Content of /docs/2' }] },
    ]);
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it('refused input is a tool error with our code, and costs nothing: no run, no ledger row', async () => {
    const client = await connect({ 'x-api-key': account.apiKey });
    const runsBefore = await runCount(account.userId);
    const ledgerBefore = (await ledgerOf(stack.databaseUrl, account.userId)).length;
    const cases: Array<[string, Json, string[]]> = [
      ['scrape', { url: 'not a url' }, ['BAD_REQUEST', 'INVALID_URL']],
      ['scrape', { url: 'ftp://example.com/' }, ['BAD_REQUEST', 'INVALID_URL']],
      ['scrape', { url: site.url, selectors: ['h1:::bad('] }, ['INVALID_SELECTOR', 'BAD_REQUEST']],
      ['map', { url: site.url, limit: -1 }, ['VALIDATION_FAILED']],
      ['crawl', { url: 'not a url' }, ['VALIDATION_FAILED', 'INVALID_URL']],
      ['batch_scrape', { urls: [] }, ['VALIDATION_FAILED']],
      ['get_run', { id: randomUUID() }, ['NOT_FOUND']],
      ['get_run', { id: 'not/an id' }, ['NOT_FOUND']],
      ['get_run', {}, ['BAD_REQUEST']],
      ['crawl_status', { id: randomUUID() }, ['NOT_FOUND']],
      ['run_flow', { flow_id: randomUUID() }, ['NOT_FOUND']],
      ['flow_run_status', { flow_id: randomUUID(), run_id: randomUUID() }, ['NOT_FOUND']],
      ['flow_input', { flow_id: randomUUID(), run_id: randomUUID(), node: 'code', value: '1' }, ['NOT_FOUND']],
      ['flow_input', { flow_id: randomUUID(), run_id: randomUUID(), node: 'code' }, ['BAD_REQUEST']],
    ];
    for (const [name, args, codes] of cases) {
      const result = await call(client, name, args);
      expect([name, args, result.isError]).toEqual([name, args, true]);
      const body = result.structuredContent;
      expect([name, args, codes.includes(body.code as string)]).toEqual([name, args, true]);
      expect(body).toMatchObject({ statusCode: expect.any(Number), message: expect.anything(), error: expect.any(String) });
      expect(textOf(result).startsWith(`${String(body.code)}: `)).toBe(true);
    }
    // An unknown tool: a tool error too, not a dropped connection.
    const unknown = await call(client, 'nope', {});
    expect([unknown.isError, unknown.structuredContent.code]).toEqual([true, 'NOT_FOUND']);
    expect(await runCount(account.userId)).toBe(runsBefore);
    expect((await ledgerOf(stack.databaseUrl, account.userId)).length).toBe(ledgerBefore);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(100);
  });

  it('out of credit: INSUFFICIENT_CREDIT, nothing run or taken', async () => {
    await setBalance(stack.databaseUrl, account.userId, 0);
    const client = await connect({ 'x-api-key': account.apiKey });
    const runsBefore = await runCount(account.userId);
    for (const [name, args] of [['scrape', { url: site.url }], ['map', { url: site.url }], ['crawl', { url: site.url, limit: 2 }]] as const) {
      const result = await call(client, name, args);
      expect([name, result.isError, result.structuredContent.code]).toEqual([name, true, 'INSUFFICIENT_CREDIT']);
    }
    expect(await runCount(account.userId)).toBe(runsBefore);
    expect(site.hits('/')).toBe(0);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(0);
  });

  it("a key sees its own runs only: another account's run or crawl → FORBIDDEN", async () => {
    const mine = await connect({ 'x-api-key': account.apiKey });
    const theirs = await connect({ 'x-api-key': other.apiKey });
    await setBalance(stack.databaseUrl, other.userId, 10);
    const scraped = await call(mine, 'scrape', { url: `${site.url}/docs/3` });
    expect(scraped.isError).toBeFalsy();
    const refused = await call(theirs, 'get_run', { id: scraped.structuredContent.id });
    expect([refused.isError, refused.structuredContent.code]).toEqual([true, 'FORBIDDEN']);
    expect(JSON.stringify(refused.structuredContent)).not.toContain('Content of');
  });

  it('map lists the site\'s URLs for 1 credit', async () => {
    const client = await connect({ 'x-api-key': account.apiKey });
    const result = await call(client, 'map', { url: site.url, limit: 5, sitemap: 'skip' });
    expect(result.isError).toBeFalsy();
    const body = result.structuredContent as { id: string; links: string[]; credits: Json };
    expect(body.links).toHaveLength(5);
    expect(body.credits).toEqual({ cost: 1, remaining: 99 });
    const ledger = (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.runId === body.id);
    expect(ledger.map((row) => [row.reason, row.amount])).toEqual([['debit', -1]]);
  });

  it('crawl answers an id at once; crawl_status follows it; one debit per page; get_run reads a page', async () => {
    const client = await connect({ 'x-api-key': account.apiKey });
    const started = await call(client, 'crawl', { url: site.url, limit: 3, sitemap: 'skip', scrape: { formats: ['markdown'] } });
    expect(started.isError).toBeFalsy();
    expect(started.structuredContent).toMatchObject({ id: expect.any(String), kind: 'crawl', status: 'queued' });
    const id = started.structuredContent.id as string;
    const done = await waitFor('the crawl finished', async () => {
      const status = await call(client, 'crawl_status', { id });
      expect(status.isError).toBeFalsy();
      return ['completed', 'failed', 'cancelled', 'credit_exhausted'].includes(status.structuredContent.status as string) ? status.structuredContent : undefined;
    }, 180_000);
    expect(done).toMatchObject({ id, status: 'completed', total: 3 });
    // Pages robots.txt disallows are listed as skipped, without a run.
    const pages = (done.pages as Array<{ run_id: string | null; status: string; url: string }>).filter((p): p is { run_id: string; status: string; url: string } => p.run_id !== null);
    expect(pages).toHaveLength(3);
    const audit = await auditRunsAndLedger(stack.databaseUrl, account.userId, pages.map((p) => p.run_id));
    expect({ missing: audit.missing, doubleDebits: audit.doubleDebits, wrongRefunds: audit.wrongRefunds }).toEqual({ missing: [], doubleDebits: [], wrongRefunds: [] });
    const succeeded = pages.filter((p) => p.status === 'succeeded');
    const debits = (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.reason === 'debit' && pages.some((p) => p.run_id === row.runId));
    expect(debits.map((row) => row.amount)).toEqual(pages.map(() => -1));
    expect(done.credits).toBe(succeeded.length);
    const page = await call(client, 'get_run', { id: succeeded[0]!.run_id });
    expect(textOf(page)).toContain(`Content of ${new URL(succeeded[0]!.url).pathname}`);
  });

  it('batch_scrape answers an id at once; batch_status follows it; one debit per URL', async () => {
    const client = await connect({ authorization: `Bearer ${account.apiKey}` });
    const urls = [`${site.url}/docs/4`, `${site.url}/docs/5`];
    const started = await call(client, 'batch_scrape', { urls, scrape: { formats: ['markdown'] } });
    expect(started.isError).toBeFalsy();
    expect(started.structuredContent).toMatchObject({ kind: 'batch', status: 'queued' });
    const id = started.structuredContent.id as string;
    const done = await waitFor('the batch finished', async () => {
      const status = await call(client, 'batch_status', { id });
      return ['completed', 'failed', 'cancelled', 'credit_exhausted'].includes(status.structuredContent.status as string) ? status.structuredContent : undefined;
    }, 180_000);
    expect(done).toMatchObject({ status: 'completed', total: 2, completed: 2, credits: 2 });
    const pages = done.pages as Array<{ run_id: string; url: string }>;
    expect(pages.map((p) => p.url).sort()).toEqual(urls);
    const debits = (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => pages.some((p) => p.run_id === row.runId));
    expect(debits.map((row) => [row.reason, row.amount])).toEqual([['debit', -1], ['debit', -1]]);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(98);
  });

  it('run_flow runs a flow of the account (wait: true answers it whole); flow_run_status shows it', async () => {
    const created = await fetch(`${stack.baseUrl}/flows`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
      body: JSON.stringify({ name: 'mcp', nodes: [{ id: 'page', type: 'scrape', config: { url: `${site.url}/docs/6`, selectors: ['h1'] } }] }),
    });
    expect(created.status).toBe(201);
    const flowId = ((await created.json()) as { id: string }).id;
    const client = await connect({ 'x-api-key': account.apiKey });

    const queued = await call(client, 'run_flow', { flow_id: flowId });
    expect(queued.isError).toBeFalsy();
    expect(queued.structuredContent).toMatchObject({ flowId, status: 'queued' });
    const runId = queued.structuredContent.id as string;
    const finished = await waitFor('the flow run finished', async () => {
      const status = await call(client, 'flow_run_status', { flow_id: flowId, run_id: runId });
      expect(status.isError).toBeFalsy();
      return ['succeeded', 'failed', 'cancelled'].includes(status.structuredContent.status as string) ? status.structuredContent : undefined;
    }, 180_000);
    expect(finished).toMatchObject({ status: 'succeeded', credits: { spent: 1 }, nodes: [{ id: 'page', status: 'succeeded' }] });

    const waited = await call(client, 'run_flow', { flow_id: flowId, wait: true });
    expect(waited.isError).toBeFalsy();
    expect(waited.structuredContent).toMatchObject({ status: 'succeeded', nodes: [{ id: 'page', status: 'succeeded' }] });
    expect(JSON.stringify((waited.structuredContent.nodes as Json[])[0]!.output)).toContain('Page /docs/6');
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(98);

    // Another account cannot run it.
    const theirs = await connect({ 'x-api-key': other.apiKey });
    const refused = await call(theirs, 'run_flow', { flow_id: flowId });
    expect([refused.isError, refused.structuredContent.code]).toEqual([true, 'FORBIDDEN']);
    const badArg = await call(client, 'run_flow', { flow_id: flowId, wait: 'yes' });
    expect([badArg.isError, badArg.structuredContent.code]).toEqual([true, 'BAD_REQUEST']);
  });

  it('flow_input answers a run waiting at an input node (an agent is a user); a second answer is a CONFLICT', async () => {
    const created = await fetch(`${stack.baseUrl}/flows`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
      body: JSON.stringify({
        name: 'mcp input',
        nodes: [
          { id: 'code', type: 'input', config: { prompt: 'Which doc?' } },
          { id: 'page', type: 'scrape', needs: ['code'], config: { url: `${site.url}/docs/{{ nodes.code.value }}`, selectors: ['h1'] } },
        ],
      }),
    });
    expect(created.status).toBe(201);
    const flowId = ((await created.json()) as { id: string }).id;
    const client = await connect({ 'x-api-key': account.apiKey });
    const runId = (await call(client, 'run_flow', { flow_id: flowId })).structuredContent.id as string;
    const waiting = await waitFor('the run waiting for input', async () => {
      const status = await call(client, 'flow_run_status', { flow_id: flowId, run_id: runId });
      return status.structuredContent.status === 'waiting_input' ? status.structuredContent : undefined;
    }, 180_000);
    expect(waiting).toMatchObject({ nodes: [{ id: 'code', status: 'waiting_input', output: { prompt: 'Which doc?' } }, { id: 'page', status: 'pending' }] });

    const theirs = await connect({ 'x-api-key': other.apiKey });
    const refused = await call(theirs, 'flow_input', { flow_id: flowId, run_id: runId, node: 'code', value: '8' });
    expect([refused.isError, refused.structuredContent.code]).toEqual([true, 'FORBIDDEN']);
    const answered = await call(client, 'flow_input', { flow_id: flowId, run_id: runId, node: 'code', value: '8' });
    expect(answered.isError).toBeFalsy();
    expect(answered.structuredContent).toMatchObject({ id: runId, node: 'code', accepted: true });
    const again = await call(client, 'flow_input', { flow_id: flowId, run_id: runId, node: 'code', value: '9' });
    expect([again.isError, again.structuredContent.code]).toEqual([true, 'CONFLICT']);

    const finished = await waitFor('the flow run finished', async () => {
      const status = await call(client, 'flow_run_status', { flow_id: flowId, run_id: runId });
      return ['succeeded', 'failed', 'cancelled'].includes(status.structuredContent.status as string) ? status.structuredContent : undefined;
    }, 180_000);
    expect(finished).toMatchObject({ status: 'succeeded', credits: { spent: 1 }, nodes: [{ id: 'code', output: { value: '8' } }, { id: 'page', status: 'succeeded' }] });
    expect(JSON.stringify((finished.nodes as Json[])[1]!.output)).toContain('Page /docs/8');
  });

  it('concurrent calls on one client and across clients each get their own answer, each debited once', async () => {
    const one = await connect({ 'x-api-key': account.apiKey });
    const two = await connect({ authorization: `Bearer ${account.apiKey}` });
    const paths = ['/docs/10', '/docs/11', '/docs/12', '/docs/13', '/docs/14', '/docs/15'];
    const results = await Promise.all(paths.map((path, i) => call(i % 2 ? two : one, 'scrape', { url: `${site.url}${path}` })));
    for (const [i, result] of results.entries()) {
      expect([paths[i], result.isError ?? false]).toEqual([paths[i], false]);
      expect(textOf(result)).toContain(`Content of ${paths[i]}`);
    }
    const ids = results.map((r) => r.structuredContent.id as string);
    expect(new Set(ids).size).toBe(paths.length);
    const debits = (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => ids.includes(row.runId ?? ''));
    expect(debits).toHaveLength(paths.length);
    expect(debits.every((row) => row.reason === 'debit' && row.amount === -1)).toBe(true);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(100 - paths.length);
  });
});

describe('firecrawl-mcp (Firecrawl\'s own MCP server) pointed at our base URL', () => {
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    // Started once, as an MCP client configuration would: `FIRECRAWL_API_URL` = our base URL.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.resolve(__dirname, '../../node_modules/firecrawl-mcp/dist/index.js')],
      env: { ...(process.env as Record<string, string>), FIRECRAWL_API_URL: stack.baseUrl, FIRECRAWL_API_KEY: account.apiKey },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
    client = new Client({ name: 'scrape-api-tests', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
  });

  it('its firecrawl_scrape tool scrapes the fixture through /v2/scrape: the markdown, one run debited once', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('firecrawl_scrape');
    const url = `${site.url}/docs/20`;
    const result = (await client.callTool({ name: 'firecrawl_scrape', arguments: { url, formats: ['markdown'] } }, undefined, { timeout: 120_000 })) as CallToolResult & { structuredContent?: Json };
    expect([result.isError ?? false, stderr.slice(-2000)]).toEqual([false, stderr.slice(-2000)]);
    const document = result.structuredContent as { markdown: string; metadata: { sourceURL: string; statusCode: number; scrapeId: string; creditsUsed: number } };
    expect(document.markdown).toContain('Content of /docs/20');
    expect(document.metadata).toMatchObject({ sourceURL: url, statusCode: 200, creditsUsed: 1 });
    expect(JSON.parse(textOf(result))).toMatchObject({ markdown: document.markdown });
    expect(site.hits('/docs/20')).toBe(1);
    // The same run and ledger as a native scrape: the run is ours, debited once.
    const ledger = (await ledgerOf(stack.databaseUrl, account.userId)).filter((row) => row.runId === document.metadata.scrapeId);
    expect(ledger.map((row) => [row.reason, row.amount])).toEqual([['debit', -1]]);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(99);
  });
});
