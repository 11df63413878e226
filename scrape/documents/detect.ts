/**
 * Which document a response is, by its Content-Type or, when the server mislabels it (an
 * `application/octet-stream`, a `text/plain`, an HTML type on a file download), by its first bytes.
 */
import type { DocumentKind } from './types';

const PDF_TYPES = new Set(['application/pdf', 'application/x-pdf', 'application/acrobat', 'applications/vnd.pdf']);
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The MIME type of a Content-Type value, lower-case, without parameters. */
export function mimeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Whether a Content-Type announces a document converted here (the browser engine holds those at the response). */
export function isDocumentType(contentType: string | undefined): boolean {
  const mime = mimeOf(contentType);
  return PDF_TYPES.has(mime) || mime === DOCX_TYPE;
}

/**
 * The document kind of a response, else undefined (a web page). The bytes decide first: a PDF
 * starts with `%PDF-` (readers accept it within the first 1024 bytes, after no markup); a DOCX
 * is a zip whose entries are under `word/`. A response announced as a document whose bytes look
 * like markup (an error page sent with the file's type) is read as the page it is.
 */
export function documentKind(contentType: string | undefined, bytes: Uint8Array): DocumentKind | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  const pdfAt = head.indexOf('%PDF-');
  if (pdfAt >= 0 && !head.slice(0, pdfAt).includes('<')) return 'pdf';
  if (head.startsWith('PK\x03\x04')) {
    const entries = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 256 * 1024)).toString('latin1');
    if (entries.includes('word/') && entries.includes('[Content_Types].xml')) return 'docx';
  }
  if (/^\s*</.test(head)) return undefined;
  const mime = mimeOf(contentType);
  if (PDF_TYPES.has(mime)) return 'pdf';
  if (mime === DOCX_TYPE) return 'docx';
  return undefined;
}
