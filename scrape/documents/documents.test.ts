/**
 * The document converters, on their threads, on real files of several producers (test/fixtures/documents/README.md
 * says how each was made), their detection, and the bounds: a corrupt PDF and an inflate bomb
 * fail with DOCUMENT_UNREADABLE on the document threads, within the time limit.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../platform/errors';
import { documentKind, isDocumentType, pickOutputs } from './index';
import { convertDocx } from './docx';
import { pdfDate } from './pdf';
import { closeDocumentThreads, convertDocument } from './threads';

const fixture = (name: string) => new Uint8Array(readFileSync(path.join(__dirname, '..', '..', 'test', 'fixtures', 'documents', name)));

afterAll(() => closeDocumentThreads());

// pdf.js is an ES module, which Jest's module system does not load; the document threads (the
// converter's real place) load it as Node does.
const pdf = (name: string, maxPages: number) => convertDocument('pdf', fixture(name), { maxPages, timeoutMs: 60_000 });

describe('PDF', () => {
  it('a LaTeX paper: title and author from its properties, sections as headings, lines joined into paragraphs', async () => {
    const doc = await pdf('latex-paper.pdf', 100);
    expect(doc.metadata).toMatchObject({
      title: 'On the Origin of Species: Introduction',
      author: 'Charles Darwin',
      producer: expect.stringContaining('pdfTeX'),
      creation_date: '2025-11-26T00:00:00.000Z',
      page_count: 2,
      pages_read: 2,
    });
    const md = doc.markdown;
    expect(md).toMatch(/^# On the Origin of Species: Introduction$/m);
    expect(md).toMatch(/^## 1 The voyage of the Beagle$/m);
    expect(md).toMatch(/^## 2 Why an abstract$/m);
    expect(md).toMatch(/^### 2\.1 Imperfections$/m);
    // One paragraph, its source lines joined with spaces, in order.
    expect(md).toContain(
      'When on board H.M.S. Beagle, as naturalist, I was much struck with certain facts in the distribution of the inhabitants of South America, and in the geological relations of the present to the past inhabitants of that continent.',
    );
    expect(md).toMatch(/^After five years’ work I allowed myself to speculate on the subject, .* have not been hasty in coming to a decision\.$/m);
    expect(md.indexOf('The voyage of the Beagle')).toBeLessThan(md.indexOf('Why an abstract'));
    // The page number at the foot of page 1 is not content.
    expect(md).not.toMatch(/^1$/m);
    expect(doc.text).toContain('2 Why an abstract\n\nMy work is now nearly finished');
    expect(doc.text).not.toContain('#');
  });

  it('reads at most maxPages pages, and says how many there are', async () => {
    const doc = await pdf('latex-paper.pdf', 1);
    expect(doc.metadata).toMatchObject({ page_count: 2, pages_read: 1 });
    expect(doc.markdown).toContain('The voyage of the Beagle');
    expect(doc.markdown).not.toContain('Why an abstract');
  });

  it('a word-processor export (LibreOffice): headings by size, paragraphs whole, bullets as a list', async () => {
    const doc = await pdf('writer-export.pdf', 100);
    expect(doc.metadata).toMatchObject({ title: 'The Gettysburg Address', author: 'Abraham Lincoln', producer: expect.stringContaining('LibreOffice'), page_count: 1 });
    expect(doc.metadata.creation_date).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(doc.markdown).toMatch(/^# The Gettysburg Address$/m);
    expect(doc.markdown).toMatch(/^## The address$/m);
    expect(doc.markdown).toMatch(/^## The dedication$/m);
    expect(doc.markdown).toMatch(/^Now we are engaged in a great civil war, .* It is altogether fitting and proper that we should do this\.$/m);
    expect(doc.markdown).toMatch(/^- Bliss copy, the fifth of five known manuscripts$/m);
    expect(doc.markdown).toMatch(/^- Signed and dated by Lincoln in 1864$/m);
  });

  it('a scanned page with an OCR text layer (ocrmypdf): the recognised text as paragraphs, the larger line as a heading', async () => {
    const doc = await pdf('scanned-ocr.pdf', 100);
    expect(doc.metadata).toMatchObject({ title: 'The Constitution of the United States', page_count: 1, pages_read: 1 });
    expect(doc.markdown).toMatch(/^# The Constitution of the United States$/m);
    expect(doc.markdown).toMatch(/^## Article I$/m);
    // The preamble's five lines as one paragraph.
    expect(doc.markdown).toMatch(/^We the People of the United States, in Order to form a more perfect Union, .* promote the general Welfare, and secure the Blessings of Liberty .* Constitution for the United States of America\.$/m);
    expect(doc.markdown).toMatch(/^All legislative Powers herein granted .* Senate and House of Representatives\.$/m);
  });

  it('a two-column report (groff, Ghostscript): the first column read before the second, each paragraph whole', async () => {
    const doc = await pdf('two-column-report.pdf', 100);
    expect(doc.metadata).toMatchObject({ title: 'Annual Report on the Lighthouse Service', producer: expect.stringContaining('Ghostscript'), page_count: 1 });
    const md = doc.markdown;
    expect(md).toMatch(/^# Annual Report on the Lighthouse Service$/m);
    expect(md.indexOf('COLUMNONE')).toBeGreaterThan(0);
    expect(md.indexOf('COLUMNONE')).toBeLessThan(md.indexOf('Repairs and new works'));
    expect(md.indexOf('Repairs and new works')).toBeLessThan(md.indexOf('COLUMNTWO'));
    // A paragraph spread over eight lines of the narrow column, hyphenated twice ("recom-mended").
    expect(md).toMatch(/^The station on the island was visited by the inspector in the month of June\. .* the inspector has recommended that one be sent with the autumn supplies\.$/m);
    // Lines of the two columns never mixed into one.
    expect(md).not.toMatch(/northern COLUMNTWO|COLUMNTWO.*COLUMNONE/);
  });

  it('reads PDF dates as ISO 8601', () => {
    expect(pdfDate("D:20240131235959+01'00'")).toBe('2024-01-31T22:59:59.000Z');
    expect(pdfDate('D:2024')).toBe('2024-01-01T00:00:00.000Z');
    expect(pdfDate('yesterday')).toBeNull();
  });
});

describe('DOCX', () => {
  it('a LibreOffice DOCX: headings from its styles, the list, its properties', async () => {
    const doc = await convertDocx(fixture('writer-export.docx'));
    expect(doc.metadata).toMatchObject({ title: 'The Gettysburg Address', author: 'Abraham Lincoln', producer: expect.stringContaining('LibreOffice') });
    expect(doc.markdown).toMatch(/^# The Gettysburg Address$/m);
    expect(doc.markdown).toMatch(/^## The dedication$/m);
    expect(doc.markdown).toMatch(/^-\s+Bliss copy, the fifth of five known manuscripts$/m);
    expect(doc.text).toContain('Four score and seven years ago our fathers brought forth on this continent');
    expect(doc.text).not.toContain('#');
  });
});

describe('detection', () => {
  it('by Content-Type, or by the bytes when the type is wrong; markup is never a document', () => {
    const pdf = fixture('writer-export.pdf');
    const docx = fixture('writer-export.docx');
    expect(documentKind('application/pdf', pdf)).toBe('pdf');
    expect(documentKind('application/octet-stream', pdf)).toBe('pdf');
    expect(documentKind('text/html; charset=utf-8', pdf)).toBe('pdf');
    expect(documentKind(undefined, docx)).toBe('docx');
    expect(documentKind('application/vnd.openxmlformats-officedocument.wordprocessingml.document', docx)).toBe('docx');
    const page = new TextEncoder().encode('<!doctype html><p>%PDF-1.7 is a version</p>');
    expect(documentKind('text/html', page)).toBeUndefined();
    expect(documentKind('application/pdf', page)).toBeUndefined();
    expect(isDocumentType('Application/PDF; name=x.pdf')).toBe(true);
    expect(isDocumentType('text/html')).toBe(false);
  });

  it('without formats a document answers markdown, text and metadata; with formats, what they name; selectors match nothing', () => {
    const converted = { kind: 'pdf' as const, markdown: '# T', text: 'T', metadata: { title: 'T', author: null, creation_date: null, modification_date: null, producer: null, page_count: 3, pages_read: 3 } };
    const facts = { status: 200, headers: { 'content-type': 'application/pdf' }, finalUrl: 'http://x.test/a.pdf' };
    expect(Object.keys(pickOutputs({ url: 'http://x.test/a.pdf' }, converted, facts)).sort()).toEqual(['markdown', 'metadata', 'text']);
    const picked = pickOutputs({ url: 'http://x.test/a.pdf', formats: ['markdown', 'rawHtml', 'links'], selectors: ['h1'] }, converted, facts);
    expect(picked).toEqual({ data: [{ selector: 'h1', results: [] }], markdown: '# T' });
    expect(pickOutputs({ url: 'http://x.test/a.pdf', formats: ['metadata'] }, converted, facts).metadata).toMatchObject({
      title: 'T',
      document_type: 'pdf',
      page_count: 3,
      status: 200,
      content_type: 'application/pdf',
      final_url: 'http://x.test/a.pdf',
    });
  });
});

describe('bounds (document threads)', () => {
  it('converts on a thread', async () => {
    const doc = await convertDocument('pdf', fixture('writer-export.pdf'), { maxPages: 10, timeoutMs: 60_000 });
    expect(doc.markdown).toMatch(/^# The Gettysburg Address$/m);
  });

  it('a corrupt PDF fails with DOCUMENT_UNREADABLE', async () => {
    const failure = await convertDocument('pdf', fixture('corrupt.pdf'), { maxPages: 10, timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: 'DOCUMENT_UNREADABLE', message: expect.stringContaining('cannot be read') });
  });

  it('an inflate bomb (12 KB, 1 GiB decoded) is stopped by the time limit, and the next document converts', async () => {
    const failure = await convertDocument('pdf', fixture('inflate-bomb.pdf'), { maxPages: 10, timeoutMs: 3_000 }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'DOCUMENT_UNREADABLE' });
    expect((failure as AppError).extra).toMatchObject({ document: 'pdf' });
    expect(['time', 'memory']).toContain((failure as AppError).extra.limit);
    const next = await convertDocument('pdf', fixture('scanned-ocr.pdf'), { maxPages: 10, timeoutMs: 60_000 });
    expect(next.metadata.page_count).toBe(1);
  });

  it("the scrape's deadline bounds the wait for a thread: a retryable timeout, not the document's fault", async () => {
    const failure = await convertDocument('pdf', fixture('latex-paper.pdf'), { maxPages: 10, timeoutMs: 60_000, deadlineMs: 1 }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'SCRAPE_FAILED', extra: { timeout: true } });
  });

  it('a cancelled scrape stops its conversion with the cancellation', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by test');
    const running = convertDocument('pdf', fixture('inflate-bomb.pdf'), { maxPages: 10, timeoutMs: 60_000, signal: controller.signal }).catch((e: unknown) => e);
    controller.abort(reason);
    expect(await running).toBe(reason);
  });
});
