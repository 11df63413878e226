/**
 * A DOCX (Office Open XML word-processing document) as Markdown and text: mammoth (the maintained
 * DOCX-to-HTML converter: headings from the document's styles, lists, tables, links), then the
 * same HTML-to-Markdown and text steps as a web page (scrape/formats). Its properties (title,
 * author, dates, page count as the writer last counted) come from docProps/core.xml and
 * docProps/app.xml of the same package, read with JSZip (the zip reader mammoth itself uses).
 * Runs in the document worker thread (threads.ts), under its memory and time limits.
 */
import JSZip from 'jszip';
import mammoth from 'mammoth';
import { parseFragment, textOf } from '../formats/dom';
import { toMarkdown } from '../formats/markdown';
import type { DocumentConversion } from './types';

export async function convertDocx(bytes: Uint8Array): Promise<DocumentConversion> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Images are left out: their bytes would be inlined as data: URLs.
  const { value: html } = await mammoth.convertToHtml({ buffer }, { convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })) });
  const cleaned = html.replace(/<img src="">/g, '');
  const zip = await JSZip.loadAsync(buffer);
  const core = (await zip.file('docProps/core.xml')?.async('string')) ?? '';
  const app = (await zip.file('docProps/app.xml')?.async('string')) ?? '';
  const tag = (xml: string, name: string) => {
    const m = new RegExp(`<${name}(?:\\s[^>]*)?>([^<]*)</${name}>`).exec(xml);
    const value = m?.[1] ? decodeXml(m[1]).trim() : '';
    return value === '' ? null : value;
  };
  const date = (value: string | null) => (value && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : null);
  const $ = parseFragment(cleaned);
  const markdown = toMarkdown(cleaned);
  const pages = Number(tag(app, 'Pages'));
  return {
    kind: 'docx',
    markdown,
    text: textOf($.root().toArray()).trim(),
    metadata: {
      title: tag(core, 'dc:title') ?? ($('h1').first().text().trim() || null),
      author: tag(core, 'dc:creator'),
      creation_date: date(tag(core, 'dcterms:created')),
      modification_date: date(tag(core, 'dcterms:modified')),
      producer: tag(app, 'Application'),
      page_count: Number.isInteger(pages) && pages > 0 ? pages : null,
      pages_read: null,
    },
  };
}

function decodeXml(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" } as Record<string, string>)[e.toLowerCase()]!;
  });
}
