/**
 * The rest of Firecrawl's v2 surface (docs/firecrawl.md "Usage, queue and active crawls", "Crawl
 * params preview", "Parse") driven by the official SDKs, unchanged, with only the base URL set:
 * `firecrawl-py` 4.55.0 and `@mendable/firecrawl-js` 4.42.0, against real API and worker
 * processes, Temporal and PostgreSQL; a local chat-completions server (test/helpers/fake-llm.ts)
 * stands in for the operator's model, and a second API process without LLM_* shows the refusals.
 * The ledger after each call: exactly the price /pricing lists, refunds on failure, nothing for a
 * refused request.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { type CrawlSite, startCrawlSite } from '../../test/fixtures/crawl-site';
import { type FakeLlm, startFakeLlm } from '../../test/helpers/fake-llm';
import { type TestAccount, balanceOf, createAccount, ledgerOf, setBalance, sql } from '../../test/helpers/accounts';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';
import { type PyCall, type PyOutcome, firecrawlPython } from '../../test/helpers/firecrawl-py';

jest.setTimeout(600_000);

const FIXTURES = path.join(__dirname, '..', '..', 'test', 'fixtures', 'documents');
const START = 1000;

let site: CrawlSite;
let llm: FakeLlm;
let stack: Stack;
let noModel: { baseUrl: string; stop(): Promise<void> };
let account: TestAccount;
let runPy: (call: PyCall) => Promise<PyOutcome>;

beforeAll(async () => {
  runPy = firecrawlPython();
  [site, llm] = await Promise.all([startCrawlSite(), startFakeLlm()]);
  stack = await startStack({ env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fixture-model' } });
  noModel = await stack.startSecondApi({ LLM_BASE_URL: '', LLM_MODEL: '' });
  account = await createAccount(stack.baseUrl);
}, 600_000);

afterAll(async () => {
  await noModel?.stop();
  await stack?.stop();
  await Promise.all([site?.close(), llm?.close()]);
});

beforeEach(async () => {
  llm.reset();
  site.reset();
  site.setPageDelay(0);
  await setBalance(stack.databaseUrl, account.userId, START);
});

/** One call of the Python SDK (test/firecrawl/py_sdk.py), its outcome parsed. */
function py(method: string, args: unknown[], kwargs: Record<string, unknown> = {}, apiUrl = stack.baseUrl): Promise<PyOutcome> {
  return runPy({ apiUrl, apiKey: account.apiKey, client: 'v2', method, args, kwargs });
}

const js = (apiUrl = stack.baseUrl) => new Firecrawl({ apiKey: account.apiKey, apiUrl });
const ledger = async () => (await ledgerOf(stack.databaseUrl, account.userId)).map((row) => [row.reason, row.amount, row.runId]);
const pricing = async () => (await (await fetch(`${stack.baseUrl}/pricing`)).json()) as { documents: { upload: number }; scrape: { extras: { llm_format: number } } };

describe('usage, queue and active crawls', () => {
  it('credit usage is the balance; concurrency and queue status are the account’s runs; both SDKs', async () => {
    await setBalance(stack.databaseUrl, account.userId, 777);
    expect(await py('get_credit_usage', [])).toMatchObject({ ok: true, value: { remaining_credits: 777 } });
    expect(await js().getCreditUsage()).toMatchObject({ remainingCredits: 777 });
    const concurrency = await py('get_concurrency', []);
    expect(concurrency).toMatchObject({ ok: true, value: { concurrency: 0, max_concurrency: 64 } });
    expect(await js().getConcurrency()).toEqual({ concurrency: 0, maxConcurrency: 64 });
    const queue = await py('get_queue_status', []);
    expect(queue).toMatchObject({ ok: true, value: { jobs_in_queue: 0, active_jobs_in_queue: 0, waiting_jobs_in_queue: 0, max_concurrency: 64 } });
    expect(await js().getQueueStatus()).toMatchObject({ success: true, jobsInQueue: 0, maxConcurrency: 64 });
    const tokens = await py('get_token_usage', []);
    expect(tokens).toMatchObject({ ok: true, value: { remaining_tokens: 0 } });
    // Nothing is charged for reading them.
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(777);
  });

  it('active_crawls lists a running crawl (and not after it was cancelled)', async () => {
    site.setPageDelay(1_500);
    const started = await py('start_crawl', [`${site.url}/docs/0`], { limit: 50, sitemap: 'skip', crawl_entire_domain: true });
    expect(started.ok).toBe(true);
    const id = started.value.id as string;
    const active = await py('active_crawls', []);
    expect(active.ok).toBe(true);
    expect(active.value.crawls).toEqual([expect.objectContaining({ id, team_id: account.userId, url: `${site.url}/docs/0` })]);
    const fromJs = await js().getActiveCrawls();
    expect(fromJs.crawls.map((c) => c.id)).toEqual([id]);
    const concurrency = await js().getConcurrency();
    expect(concurrency.concurrency).toBe(1);
    expect((await py('cancel_crawl', [id])).value).toBe(true);
    await waitFor('the crawl cancelled', async () => (await sql<{ status: string }>(stack.databaseUrl, 'SELECT status FROM crawl WHERE id = $1', [id]))[0]?.status === 'cancelled', 120_000);
    expect((await py('active_crawls', [])).value.crawls).toEqual([]);
  });
});

describe('crawl params preview', () => {
  it("the operator's model proposes the options; one model format's price", async () => {
    llm.script({ content: JSON.stringify({ includePaths: ['^/blog/'], limit: 20, sitemap: 'include' }) });
    const out = await py('crawl_params_preview', [`${site.url}/`, 'only the blog posts']);
    expect(out).toMatchObject({ ok: true, value: { include_paths: ['^/blog/'], limit: 20, sitemap: 'include' } });
    expect(llm.calls).toHaveLength(1);
    expect(JSON.stringify(llm.calls[0]!.body.messages)).toContain('only the blog posts');
    const price = (await pricing()).scrape.extras.llm_format;
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START - price);
  });

  it('a model failure is refunded; without a model: 400 LLM_NOT_CONFIGURED, nothing charged', async () => {
    llm.script({ status: 400, content: 'bad model' });
    const failed = await py('crawl_params_preview', [`${site.url}/`, 'docs']);
    expect(failed).toMatchObject({ ok: false, status: 500 });
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START);
    expect((await ledger()).slice(-2).map(([reason]) => reason)).toEqual(['debit', 'refund']);

    const refused = await py('crawl_params_preview', [`${site.url}/`, 'docs'], {}, noModel.baseUrl);
    expect(refused).toMatchObject({ ok: false, status: 400 });
    expect(refused.message).toContain('LLM_BASE_URL');
    await expect(js(noModel.baseUrl).crawlParamsPreview(`${site.url}/`, 'docs')).rejects.toMatchObject({ status: 400 });
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START);
  });
});

describe('parse (an uploaded PDF or DOCX)', () => {
  it('Python: a PDF by path, a DOCX by bytes; one document’s price each, the run recorded', async () => {
    const price = (await pricing()).documents.upload;
    const pdf = await py('parse', [path.join(FIXTURES, 'latex-paper.pdf')]);
    expect(pdf).toMatchObject({ ok: true, type: 'Document' });
    expect(pdf.value.markdown).toContain('Beagle');
    expect(pdf.value.metadata).toMatchObject({ source_url: 'upload:latex-paper.pdf', status_code: 200 });
    const runId = pdf.value.metadata.scrape_id as string;
    expect((await ledger()).filter(([, , run]) => run === runId)).toEqual([['debit', -price, runId]]);
    const run = (await sql<{ status: string; url: string }>(stack.databaseUrl, 'SELECT status::text AS status, url FROM scrape_run WHERE id = $1', [runId]))[0];
    expect(run).toEqual({ status: 'succeeded', url: 'upload:latex-paper.pdf' });

    const docx = await js().parse({ data: readFileSync(path.join(FIXTURES, 'writer-export.docx')), filename: 'letter.docx' });
    expect(docx.markdown).toContain('Four score and seven years ago');
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START - 2 * price);

    const formats = await py('get_parse_formats', []);
    expect(formats.ok).toBe(true);
    expect(formats.value.map((f: { format: string }) => f.format)).toEqual(['pdf', 'docx']);
  });

  it('an unreadable document is refunded; a file that is no document, too large, or a refused option: nothing charged', async () => {
    const corrupt = await py('parse', [path.join(FIXTURES, 'corrupt.pdf')]);
    expect(corrupt).toMatchObject({ ok: false, status: 500 });
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START);
    expect((await ledger()).slice(-2).map(([reason]) => reason)).toEqual(['debit', 'refund']);
    const before = (await ledger()).length;

    const text = await js().parse({ data: 'just some words', filename: 'notes.txt', contentType: 'text/plain' }).catch((error: unknown) => error);
    expect(text).toMatchObject({ status: 400 });
    const big = await js().parse({ data: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20), filename: 'huge.pdf', contentType: 'application/pdf' }).catch((error: unknown) => error);
    expect(big).toMatchObject({ status: 413 });
    const refused = await fetch(`${stack.baseUrl}/v2/parse`, { method: 'POST', headers: { authorization: `Bearer ${account.apiKey}` }, body: uploadForm('writer-export.docx', { options: JSON.stringify({ formats: ['html'] }) }) });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect((await ledger()).length).toBe(before);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(START);
  });

  it('native POST /documents: the run body; 402 with too little credit, nothing recorded', async () => {
    const res = await fetch(`${stack.baseUrl}/documents`, { method: 'POST', headers: { 'x-api-key': account.apiKey }, body: uploadForm('writer-export.pdf', { formats: 'markdown,metadata' }) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string; markdown: string; text?: string; metadata: { document_type: string }; credits: { cost: number } };
    expect(body.markdown).toContain('Four score');
    expect(body.text).toBeUndefined();
    expect(body.metadata.document_type).toBe('pdf');
    expect(body.credits.cost).toBe((await pricing()).documents.upload);

    await setBalance(stack.databaseUrl, account.userId, 0);
    const runsBefore = (await sql(stack.databaseUrl, 'SELECT id FROM scrape_run WHERE "userId" = $1', [account.userId])).length;
    const poor = await fetch(`${stack.baseUrl}/documents`, { method: 'POST', headers: { 'x-api-key': account.apiKey }, body: uploadForm('writer-export.pdf') });
    expect(poor.status).toBe(402);
    expect((await sql(stack.databaseUrl, 'SELECT id FROM scrape_run WHERE "userId" = $1', [account.userId])).length).toBe(runsBefore);
  });
});

function uploadForm(fixture: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([readFileSync(path.join(FIXTURES, fixture))]), fixture);
  return form;
}
