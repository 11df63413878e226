/**
 * Documents (docs/scraping.md "Documents (PDF, DOCX)"): a response that is a PDF or a DOCX (by
 * its Content-Type, or by its bytes when mislabelled: detect.ts) is converted on a document
 * thread (threads.ts) instead of being read as HTML. Its answer has `markdown`, `text` and
 * `metadata` (the document's title, author, dates, page count, and the response's status,
 * content type and final URL); `rawHtml`, `html` and `links` are absent: there is no HTML.
 * Selectors match nothing in a document (each answers an empty `results`).
 */
import type { DocumentOutputs, ResponseFacts } from '../formats';
import { type PageMetadata, plainFormats } from '../types';
import { DEFAULT_DOCUMENT_MAX_PAGES, type EngineRequest } from '../request';
import { convertDocument } from './threads';
import type { DocumentConversion, DocumentKind } from './types';

export { documentKind, isDocumentType } from './detect';
export type { DocumentKind } from './types';

/** A conversion's own time limit (the scrape's deadline may end it sooner). */
export const DOCUMENT_TIME_LIMIT_MS = 20_000;

export interface DocumentCallOptions {
  /** What is left of the scrape's deadline. */
  remainingMs: number;
  signal?: AbortSignal;
}

/** The result fields of a document response. */
export async function documentResponseOutputs(
  req: EngineRequest,
  kind: DocumentKind,
  bytes: Uint8Array,
  response: ResponseFacts,
  call: DocumentCallOptions,
): Promise<DocumentOutputs> {
  const converted = await convertDocument(kind, bytes, {
    maxPages: req.document?.max_pages ?? DEFAULT_DOCUMENT_MAX_PAGES,
    timeoutMs: DOCUMENT_TIME_LIMIT_MS,
    deadlineMs: call.remainingMs,
    ...(call.signal ? { signal: call.signal } : {}),
  });
  return pickOutputs(req, converted, response);
}

/** Without `formats`: markdown, text and metadata; with: those of them it names. */
export function pickOutputs(req: EngineRequest, converted: DocumentConversion, response: ResponseFacts): DocumentOutputs {
  const out: DocumentOutputs = {};
  if (req.selectors && req.selectors.length > 0) {
    out.data = req.selectors.map((s) => {
      const spec = typeof s === 'string' ? { selector: s } : s;
      return { selector: spec.selector, ...(spec.name !== undefined ? { name: spec.name } : {}), results: [] };
    });
  }
  const wanted = new Set<string>(req.formats ? plainFormats(req.formats) : ['markdown', 'text', 'metadata']);
  if (wanted.has('markdown')) out.markdown = converted.markdown;
  if (wanted.has('text')) out.text = converted.text;
  if (wanted.has('metadata')) out.metadata = documentMetadata(converted, response);
  return out;
}

function documentMetadata(converted: DocumentConversion, response: ResponseFacts): PageMetadata {
  const facts = converted.metadata;
  return {
    title: facts.title,
    description: null,
    language: null,
    canonical: null,
    favicon: null,
    published_time: facts.creation_date,
    status: response.status,
    content_type: response.headers['content-type'] ?? null,
    final_url: response.finalUrl,
    document_type: converted.kind,
    author: facts.author,
    creation_date: facts.creation_date,
    modification_date: facts.modification_date,
    producer: facts.producer,
    page_count: facts.page_count,
    pages_read: facts.pages_read,
  };
}
