/**
 * Browser mode reads a PDF sent as a web page (`text/html; charset=utf-8`, at a URL without
 * `.pdf`) as the PDF it is, as http mode does (docs/scraping.md, "Documents"), with a REAL
 * Chromium; and the sniff never holds a streamed page: `wait_until: commit` on a page whose body
 * ends after the deadline still answers.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { defaultChromiumPath } from '../../platform/config';
import { createBrowserPool } from './';
import type { BrowserPool } from './';

jest.setTimeout(120_000);

const CHROMIUM = process.env.CHROMIUM_PATH ?? defaultChromiumPath();
const PDF = fs.readFileSync(path.join(__dirname, '../../test/fixtures/documents/scanned-ocr.pdf'));
const PAGE = Buffer.from('<!doctype html><html><head><title>Plain page</title></head><body><h1>Plain page</h1><p>Ünïcödé text</p></body></html>');

let server: http.Server;
let base: string;
let pool: BrowserPool;
const sockets = new Set<Socket>();

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install it or set CHROMIUM_PATH`);
  server = http.createServer((req, res) => {
    if (req.url === '/doc') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(PDF.length) });
      return void res.end(PDF);
    }
    if (req.url === '/page') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(PAGE.length) });
      return void res.end(PAGE);
    }
    if (req.url === '/stream') {
      // Chunked, and its end comes after the scrape's deadline.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write('<!doctype html><html><head><title>Streamed</title></head><body><h1>Streamed head</h1>');
      const timer = setTimeout(() => res.end('<p id="tail">Tail</p></body></html>'), 20_000);
      return void res.on('close', () => clearTimeout(timer));
    }
    res.writeHead(404);
    res.end();
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pool = createBrowserPool({ executablePath: CHROMIUM, allowPrivateTargets: true, maxConcurrency: 2 });
});
afterAll(async () => {
  await pool?.close();
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('a PDF sent as text/html with a charset, in browser mode', () => {
  it('is read as the PDF (its text), not as its raw bytes', async () => {
    const result = await pool.scrape({ url: `${base}/doc`, formats: ['markdown', 'metadata'] }, { timeoutMs: 60_000 });
    expect(result.status).toBe(200);
    expect(result.markdown).toMatch(/^## Article I$/m);
    expect(result.markdown).not.toContain('%PDF-');
    expect(result.metadata).toMatchObject({ document_type: 'pdf', content_type: 'text/html; charset=utf-8', page_count: 1 });
  });

  it('an HTML page sent the same way is still the page', async () => {
    const result = await pool.scrape({ url: `${base}/page`, formats: ['html', 'markdown'] }, { timeoutMs: 60_000 });
    expect(result.markdown).toMatch(/^# Plain page$/m);
    expect(result.markdown).toContain('Ünïcödé text');
    // The server's headers, as sent (the body was handed to Chromium after the sniff).
    expect(result.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'content-length': String(PAGE.length) });
  });

  it('a streamed page (no Content-Length) with wait_until commit answers before its body ends', async () => {
    const result = await pool.scrape({ url: `${base}/stream`, wait_until: 'commit' }, { timeoutMs: 10_000 });
    expect(result).toMatchObject({ status: 200, final_url: `${base}/stream` });
    expect(result.html).not.toContain('Tail');
  });
});
