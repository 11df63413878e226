/**
 * A PDF as Markdown and text, with pdf.js (`pdfjs-dist`, Mozilla's PDF reader, its legacy build
 * for Node 20; docs/scraping.md "Documents (PDF, DOCX)" says why). pdf.js gives each page's text
 * as positioned runs in the order of the content stream, which is the reading order of every
 * producer we tried (LaTeX, LibreOffice, Word, ocrmypdf's text layer; a two-column page is written
 * column by column). This module turns the runs into lines, lines into paragraphs and headings:
 *
 * - a line ends where the producer says so (`hasEOL`), where the baseline moves, or where the
 *   next run starts left of the previous one (a new column, a new line);
 * - a paragraph ends at a vertical gap larger than the usual line spacing, at a first-line indent,
 *   after a line that stops well short of the column's width, or where the font size changes;
 *   inside a paragraph lines are joined with a space, a word hyphenated at a line end is joined
 *   back;
 * - a block whose font is clearly larger than the body's (the size most characters have) is a
 *   heading, its level by the rank of its size among the heading sizes (largest: `#`);
 * - a line holding only a page number at the top or bottom of a page is dropped.
 *
 * Runs inside the document worker thread (threads.ts): pdf.js decodes streams in memory, and a
 * hostile file is stopped there by the thread's memory limit and the time limit.
 */
import path from 'node:path';
import type { DocumentConversion } from './types';

/** The parts of pdf.js' text runs read here (`TextItem` of its types). */
interface TextRun {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

interface Line {
  text: string;
  x: number;
  right: number;
  y: number;
  size: number;
}

interface Block {
  lines: Line[];
  size: number;
}

export interface PdfOptions {
  /** Pages read from the first (the others are counted, not read). */
  maxPages: number;
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;
/** ESM only: loaded once per thread. */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));

export async function convertPdf(bytes: Uint8Array, options: PdfOptions): Promise<DocumentConversion> {
  const { getDocument } = await loadPdfJs();
  const task = getDocument({
    data: bytes,
    // CJK and other CID fonts need their CMaps; the 14 standard fonts their metrics.
    cMapUrl: `${path.join(PDFJS_DIR, 'cmaps')}/`,
    cMapPacked: true,
    standardFontDataUrl: `${path.join(PDFJS_DIR, 'standard_fonts')}/`,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    const pageCount = doc.numPages;
    const pagesRead = Math.min(pageCount, options.maxPages);
    const pages: Line[][] = [];
    for (let n = 1; n <= pagesRead; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const runs = content.items.filter((item): item is TextRun & typeof item => 'str' in item);
      pages.push(dropPageNumbers(linesOf(runs)));
      page.cleanup();
    }
    const { info, metadata } = await doc.getMetadata().catch(() => ({ info: {}, metadata: null }));
    const fields = info as Record<string, unknown>;
    const blocks = pages.flatMap((lines) => blocksOf(lines));
    const { markdown, text, firstHeading } = render(blocks);
    const xmpTitle: unknown = metadata?.get('dc:title');
    return {
      kind: 'pdf',
      markdown,
      text,
      metadata: {
        title: nonEmpty(fields.Title) ?? nonEmpty(xmpTitle) ?? firstHeading,
        author: nonEmpty(fields.Author) ?? nonEmpty(metadata?.get('dc:creator') as unknown),
        creation_date: pdfDate(fields.CreationDate),
        modification_date: pdfDate(fields.ModDate),
        producer: nonEmpty(fields.Producer),
        page_count: pageCount,
        pages_read: pagesRead,
      },
    };
  } finally {
    await task.destroy();
  }
}

function nonEmpty(value: unknown): string | null {
  if (Array.isArray(value)) value = value.join(', ');
  if (typeof value !== 'string') return null;
  // Producers leave placeholders or stray NULs in the info dictionary.
  const cleaned = value.replaceAll('\0', '').trim();
  return cleaned === '' || /^untitled$/i.test(cleaned) ? null : cleaned;
}

/** A PDF date (`D:YYYYMMDDHHmmSSOHH'mm'`, all but the year optional) as ISO 8601, else null. */
export function pdfDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?'?/.exec(value.trim());
  if (!m) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] = m;
  const offset = sign === '+' || sign === '-' ? `${sign}${oh}:${om}` : 'Z';
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The font size of a run: the length of its text matrix's vertical vector. */
const sizeOf = (run: TextRun) => Math.hypot(run.transform[2] ?? 0, run.transform[3] ?? 0) || run.height || 1;

/** A page's runs as lines, in the content stream's order. */
function linesOf(runs: readonly TextRun[]): Line[] {
  const lines: Line[] = [];
  let current: (Line & { chars: number; sizeSum: number }) | undefined;
  let endOfLine = false;
  for (const run of runs) {
    const x = run.transform[4] ?? 0;
    const y = run.transform[5] ?? 0;
    const size = sizeOf(run);
    if (run.str === '') {
      endOfLine ||= run.hasEOL;
      continue;
    }
    const sameLine =
      current !== undefined &&
      !endOfLine &&
      Math.abs(y - current.y) < Math.max(size, current.size) * 0.5 &&
      x > current.right - Math.max(size, current.size) * 0.5;
    if (!sameLine || current === undefined) {
      if (current) lines.push(finish(current));
      current = { text: run.str, x, right: x + run.width, y, size, chars: run.str.length, sizeSum: size * run.str.length };
    } else {
      const gap = x - current.right;
      const needsSpace = gap > size * 0.15 && !/\s$/.test(current.text) && !/^\s/.test(run.str);
      current.text += (needsSpace ? ' ' : '') + run.str;
      current.right = Math.max(current.right, x + run.width);
      current.chars += run.str.length;
      current.sizeSum += size * run.str.length;
    }
    endOfLine = run.hasEOL;
  }
  if (current) lines.push(finish(current));
  return lines.filter((line) => line.text !== '');
}

function finish(line: Line & { chars: number; sizeSum: number }): Line {
  return { text: line.text.replace(/\s+/g, ' ').trim(), x: line.x, right: line.right, y: line.y, size: line.chars > 0 ? line.sizeSum / line.chars : line.size };
}

/** Without the page number, when the first or last line of the page is only that. */
function dropPageNumbers(lines: Line[]): Line[] {
  const isNumber = (line: Line | undefined) => line !== undefined && /^(?:page\s+)?[-–]?\s*\d{1,4}\s*[-–]?(?:\s*(?:of|\/)\s*\d{1,4})?$/i.test(line.text);
  let out = lines;
  if (isNumber(out[out.length - 1])) out = out.slice(0, -1);
  if (isNumber(out[0])) out = out.slice(1);
  return out;
}

const close = (a: number, b: number, tolerance: number) => Math.abs(a - b) <= tolerance;

/** A list item's mark at the start of a line (each item is a block of its own, a Markdown `-` item). */
const BULLET = /^[•◦▪▫‣⁃●○■□–·]\s*/;
/** A numbered section title ("2.1 Imperfections"): a heading below the ones font sizes make. */
const NUMBERED_TITLE = /^\d+(?:\.\d+)+\.?\s+\p{Lu}[^.!?]{0,80}$/u;

/** A page's lines as paragraphs and headings. */
function blocksOf(lines: readonly Line[]): Block[] {
  const blocks: Block[] = [];
  // The usual line spacing and line width of the page's body lines.
  const steps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const step = lines[i - 1]!.y - lines[i]!.y;
    if (step > 0 && close(lines[i]!.size, lines[i - 1]!.size, 0.5)) steps.push(step);
  }
  const usualStep = median(steps);
  let block: Block | undefined;
  let columnLeft = 0;
  let columnRight = 0;
  for (const line of lines) {
    const prev = block?.lines[block.lines.length - 1];
    let breaks = block === undefined || prev === undefined;
    if (prev && block) {
      const step = prev.y - line.y;
      const width = columnRight - columnLeft;
      breaks =
        // OCR text layers size each line by its own height: a tenth either way is the same font.
        !close(line.size, prev.size, Math.max(0.6, prev.size * 0.12)) ||
        BULLET.test(line.text) ||
        step <= 0 ||
        (usualStep > 0 ? step > usualStep * 1.35 : step > line.size * 1.8) ||
        line.x > prev.x + line.size * 0.8 ||
        line.x < prev.x - line.size * 4 ||
        (width > line.size * 10 && prev.right < columnRight - width * 0.2 && /[.!?:;"”)]$/.test(prev.text));
    }
    if (breaks || !block) {
      block = { lines: [line], size: line.size };
      blocks.push(block);
      if (!prev || line.x < columnLeft - line.size * 4 || line.x > columnRight) {
        columnLeft = line.x;
        columnRight = line.right;
      }
    } else {
      block.lines.push(line);
    }
    columnLeft = Math.min(columnLeft, line.x);
    columnRight = Math.max(columnRight, line.right);
  }
  return blocks;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** A block's lines as one paragraph: a word split by a hyphen at a line end joined back. */
function joinLines(lines: readonly Line[]): string {
  let out = '';
  for (const { text } of lines) {
    if (out === '') out = text;
    else if (/[a-zà-ÿ]-$/.test(out) && /^[a-zà-ÿ]/.test(text)) out = out.slice(0, -1) + text;
    else out += ` ${text}`;
  }
  return out;
}

/** A paragraph's text with what Markdown would read as syntax at its start escaped. */
function escapeMarkdown(text: string): string {
  return text.replace(/^(#{1,6}\s|>|[-+*]\s|\d+[.)]\s)/, '\\$1');
}

function render(blocks: readonly Block[]): { markdown: string; text: string; firstHeading: string | null } {
  // The body size: the size most characters are set in.
  const weight = new Map<number, number>();
  for (const b of blocks) for (const l of b.lines) weight.set(Math.round(b.size * 2) / 2, (weight.get(Math.round(b.size * 2) / 2) ?? 0) + l.text.length);
  const body = [...weight.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  const bySize = (b: Block) => body > 0 && b.size >= body * 1.15 && b.lines.length <= 3 && joinLines(b.lines).length <= 200;
  const byNumber = (b: Block) => body > 0 && b.size >= body * 0.98 && b.lines.length === 1 && NUMBERED_TITLE.test(b.lines[0]!.text);
  const headingSizes = [...new Set(blocks.filter(bySize).map((b) => Math.round(b.size * 2) / 2))].sort((a, b) => b - a);
  const md: string[] = [];
  const txt: string[] = [];
  let firstHeading: string | null = null;
  for (const b of blocks) {
    const text = joinLines(b.lines);
    if (text === '') continue;
    if (bySize(b) || byNumber(b)) {
      const rank = bySize(b) ? headingSizes.indexOf(Math.round(b.size * 2) / 2) + 1 : headingSizes.length + 1;
      md.push(`${'#'.repeat(Math.min(rank, 6))} ${text}`);
      firstHeading ??= text;
    } else if (BULLET.test(text)) {
      md.push(`- ${escapeMarkdown(text.replace(BULLET, ''))}`);
    } else {
      md.push(escapeMarkdown(text));
    }
    txt.push(text);
  }
  return { markdown: md.join('\n\n'), text: txt.join('\n\n'), firstHeading };
}
