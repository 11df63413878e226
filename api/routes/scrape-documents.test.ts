/**
 * Documents end to end (docs/scraping.md "Documents (PDF, DOCX)"): real API and worker processes,
 * Temporal, PostgreSQL, Debian's Chromium, and a loopback server answering the real fixture
 * documents (test/fixtures/documents) with their own Content-Type and with wrong ones. Both
 * modes; a DOCX; a corrupt PDF fails with DOCUMENT_UNREADABLE, not retried, refunded; the
 * Firecrawl-compatible routes answer a PDF as markdown with its metadata.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type TestAccount, balanceOf, createAccount, setBalance } from '../../test/helpers/accounts';
import { request } from '../../test/helpers/http';
import { auditRunsAndLedger } from '../../test/helpers/run-ledger';
import { type Stack, startStack } from '../../test/helpers/stack';

const FIXTURES = path.join(__dirname, '..', '..', 'test', 'fixtures', 'documents');
const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** path → [file, Content-Type, extra headers] */
const ROUTES: Record<string, [string, string, Record<string, string>?]> = {
  '/paper.pdf': ['latex-paper.pdf', PDF],
  '/report.pdf': ['two-column-report.pdf', PDF],
  // A file download under a type that names nothing, as many servers send them.
  '/download?id=7': ['writer-export.pdf', 'application/octet-stream', { 'content-disposition': 'attachment; filename="address.pdf"' }],
  // The PDF sent as a web page.
  '/mislabelled-html': ['scanned-ocr.pdf', 'text/html'],
  '/letter.docx': ['writer-export.docx', DOCX],
  '/corrupt.pdf': ['corrupt.pdf', PDF],
};

let stack: Stack;
let server: http.Server;
let base: string;
let account: TestAccount;
const hits = new Map<string, number>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const route = ROUTES[req.url ?? ''];
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    if (!route) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const [file, type, extra] = route;
    res.writeHead(200, { 'content-type': type, ...extra }).end(readFileSync(path.join(FIXTURES, file)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stack = await startStack();
  account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 1_000);
});

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => server?.close(resolve));
});

const scrape = (body: unknown) => request(stack.baseUrl, 'POST', '/webhook/unblocker', { 'x-api-key': account.apiKey }, body);

describe.each(['http', 'browser'] as const)('%s mode', (mode) => {
  it('a PDF answered as one: markdown, text and metadata from the document, no HTML, the scrape price', async () => {
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const { status, body } = await scrape({ url: `${base}/paper.pdf`, mode });
    expect(status).toBe(200);
    expect(body.markdown).toMatch(/^# On the Origin of Species: Introduction$/m);
    expect(body.markdown).toMatch(/^## 2 Why an abstract$/m);
    expect(body.text).toContain('When on board H.M.S. Beagle, as naturalist, I was much struck with certain facts in the distribution of the inhabitants of South America');
    expect(body.metadata).toMatchObject({
      title: 'On the Origin of Species: Introduction',
      author: 'Charles Darwin',
      creation_date: '2025-11-26T00:00:00.000Z',
      page_count: 2,
      pages_read: 2,
      document_type: 'pdf',
      status: 200,
      content_type: PDF,
      final_url: `${base}/paper.pdf`,
    });
    expect(body).not.toHaveProperty('html');
    expect(body).not.toHaveProperty('rawHtml');
    // Priced per document as GET /pricing lists it: the mode's price plus the document's.
    const prices = (await (await fetch(`${stack.baseUrl}/pricing`)).json()) as { scrape: { modes: Record<string, number> }; documents: { per_document: number } };
    expect(body.credits.cost).toBe(prices.scrape.modes[mode]! + prices.documents.per_document);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before - body.credits.cost);
  });

  it('document.max_pages limits the pages read; formats pick among markdown, text and metadata', async () => {
    const { status, body } = await scrape({ url: `${base}/paper.pdf`, mode, formats: ['markdown', 'metadata', 'rawHtml'], document: { max_pages: 1 } });
    expect(status).toBe(200);
    expect(body.metadata).toMatchObject({ page_count: 2, pages_read: 1 });
    expect(body.markdown).toContain('The voyage of the Beagle');
    expect(body.markdown).not.toContain('Why an abstract');
    expect(body).not.toHaveProperty('text');
    expect(body).not.toHaveProperty('rawHtml');
  });

  it('a PDF sent as application/octet-stream (an attachment) or as text/html is read by its bytes', async () => {
    const download = await scrape({ url: `${base}/download?id=7`, mode, formats: ['markdown', 'metadata'] });
    expect(download.status).toBe(200);
    expect(download.body.markdown).toMatch(/^# The Gettysburg Address$/m);
    expect(download.body.metadata).toMatchObject({ title: 'The Gettysburg Address', author: 'Abraham Lincoln', document_type: 'pdf', content_type: 'application/octet-stream' });
    const asHtml = await scrape({ url: `${base}/mislabelled-html`, mode, formats: ['markdown', 'metadata'] });
    expect(asHtml.status).toBe(200);
    expect(asHtml.body.markdown).toMatch(/^## Article I$/m);
    expect(asHtml.body.metadata).toMatchObject({ document_type: 'pdf', content_type: 'text/html', page_count: 1 });
  });

  it('a two-column report reads column by column', async () => {
    const { status, body } = await scrape({ url: `${base}/report.pdf`, mode, formats: ['text'] });
    expect(status).toBe(200);
    expect(body.text.indexOf('COLUMNONE')).toBeGreaterThanOrEqual(0);
    expect(body.text.indexOf('COLUMNONE')).toBeLessThan(body.text.indexOf('COLUMNTWO'));
  });

  it('a corrupt PDF fails with DOCUMENT_UNREADABLE after one attempt, refunded', async () => {
    const before = await balanceOf(stack.databaseUrl, account.userId);
    const hitsBefore = hits.get('/corrupt.pdf') ?? 0;
    const { status, body } = await scrape({ url: `${base}/corrupt.pdf`, mode, options: { retry_count: 2 } });
    expect(status).toBe(502);
    expect(body).toMatchObject({ statusCode: 502, code: 'DOCUMENT_UNREADABLE', message: expect.stringContaining('cannot be read') });
    // Not retried: the same bytes fail the same way.
    expect((hits.get('/corrupt.pdf') ?? 0) - hitsBefore).toBe(1);
    expect(await balanceOf(stack.databaseUrl, account.userId)).toBe(before);
  });
});

it('a DOCX: headings from its styles, its properties', async () => {
  const { status, body } = await scrape({ url: `${base}/letter.docx` });
  expect(status).toBe(200);
  expect(body.markdown).toMatch(/^# The Gettysburg Address$/m);
  expect(body.markdown).toMatch(/^## The address$/m);
  expect(body.metadata).toMatchObject({ title: 'The Gettysburg Address', author: 'Abraham Lincoln', document_type: 'docx', content_type: DOCX });
});

it('document.max_pages out of range is a 400', async () => {
  const { status, body } = await scrape({ url: `${base}/paper.pdf`, document: { max_pages: 0 } });
  expect(status).toBe(400);
  expect(body.code).toBe('BAD_REQUEST');
});

it('Firecrawl /v1/scrape and /v2/scrape answer a PDF as markdown with its metadata', async () => {
  const headers = { authorization: `Bearer ${account.apiKey}` };
  const v1 = await request(stack.baseUrl, 'POST', '/v1/scrape', headers, { url: `${base}/paper.pdf`, formats: ['markdown'], parsePDF: true });
  expect(v1.status).toBe(200);
  expect(v1.body.data.markdown).toMatch(/^# On the Origin of Species: Introduction$/m);
  expect(v1.body.data.metadata).toMatchObject({ title: 'On the Origin of Species: Introduction', statusCode: 200, numPages: 2 });
  const v2 = await request(stack.baseUrl, 'POST', '/v2/scrape', headers, { url: `${base}/paper.pdf`, formats: ['markdown'], parsers: [{ type: 'pdf', maxPages: 1 }] });
  expect(v2.status).toBe(200);
  expect(v2.body.data.markdown).toContain('The voyage of the Beagle');
  expect(v2.body.data.markdown).not.toContain('Why an abstract');
  expect(v2.body.data.metadata).toMatchObject({ numPages: 2 });
});

it('every run is debited once and every failed one refunded', async () => {
  const audit = await auditRunsAndLedger(stack.databaseUrl, account.userId, []);
  expect(audit.doubleDebits).toEqual([]);
  expect(audit.wrongRefunds).toEqual([]);
  expect(audit.outcomes['failed DOCUMENT_UNREADABLE']).toBe(2);
});
