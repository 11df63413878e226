/**
 * An uploaded PDF or DOCX converted as a document scrape is (docs/scraping.md "Uploaded
 * documents"): `POST /documents` (native) and Firecrawl's `POST /v2/parse` both come here.
 *
 * - The same converter, on the same bounded threads (scrape/documents: heap limit, time limit,
 *   `max_pages`), the same outputs (markdown, text, metadata) and the same error
 *   (DOCUMENT_UNREADABLE) as a PDF or DOCX target; the upload is capped at UPLOAD_MAX_BYTES, the
 *   http engine's response cap (413 past it).
 * - The same price: what a document target fetched in http mode costs (the http mode's price plus
 *   DOCUMENT_PRICE), whatever its pages; recorded as a scrape run (`upload:<file name>`, mode
 *   http) with its one debit, refunded when the document cannot be read. The limits apply as
 *   for a scrape (402 and 429 before anything is recorded).
 * - Not a workflow: nothing is fetched, the conversion is bounded (20 s), and the caller waits
 *   for it; the run row is written before the debit, and its outcome after, like any run. An
 *   API process that dies mid-conversion leaves the run `running` with its debit (no refund).
 */
import { randomUUID } from 'node:crypto';
import { type DocumentKind, DOCUMENT_TIME_LIMIT_MS, documentKind, pickOutputs } from '../scrape/documents';
import { convertDocument } from '../scrape/documents/threads';
import { DOCUMENT_PRICE, SCRAPE_ENGINES } from '../scrape/engines';
import { scrapeCreditKeys } from '../scrape/credit-keys';
import { createScrapeRunStore, type FinishedRun } from '../scrape/runs';
import { DEFAULT_DOCUMENT_MAX_PAGES, MAX_DOCUMENT_PAGES } from '../scrape/request';
import type { StoredResult } from '../scrape/types';
import { debitCredit, getBalance, refundCredit } from '../accounts/credit';
import { AppError } from '../platform/errors';
import type { AuthContext } from './middleware/auth';
import type { UploadedFile } from './middleware/multipart';
import type { AppDeps } from './deps';

/** The largest upload: the http engine's cap on a fetched response (a document target is bounded the same). */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** What one upload costs: a document target fetched in http mode (docs/scraping.md "Price list"). */
export const UPLOAD_PRICE = SCRAPE_ENGINES.http.price + DOCUMENT_PRICE;
/** The outputs an upload can give (a document has no HTML, links or screenshot). */
export const UPLOAD_FORMATS = ['markdown', 'text', 'metadata'] as const;
export type UploadFormat = (typeof UPLOAD_FORMATS)[number];

export interface UploadOptions {
  /** Default: all three. */
  formats?: readonly UploadFormat[];
  /** Pages of a PDF read at most (default DEFAULT_DOCUMENT_MAX_PAGES, at most MAX_DOCUMENT_PAGES). */
  maxPages?: number;
}

/** The run's URL: the file's name, as the client sent it (control characters and slashes out). */
function uploadUrl(filename: string): string {
  const name = filename.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim().slice(0, 200) || 'upload';
  return `upload:${encodeURIComponent(name)}`;
}

/** The document kind of the bytes (their type as declared only when the bytes do not say); 400 when neither PDF nor DOCX. */
export function uploadKind(file: UploadedFile): DocumentKind {
  const kind = documentKind(file.contentType, file.bytes);
  if (!kind) throw new AppError('BAD_REQUEST', `the file "${file.filename}" is neither a PDF nor a DOCX (by its bytes and its declared type ${file.contentType}); nothing was charged`, { reason: 'UNSUPPORTED_FILE_TYPE' });
  return kind;
}

/** Converts an upload as a recorded, paid run; the finished run (succeeded), or the run's error thrown (refunded). */
export async function convertUpload(deps: AppDeps, auth: AuthContext, file: UploadedFile, options: UploadOptions): Promise<{ run: FinishedRun; remaining: number }> {
  const kind = uploadKind(file);
  const maxPages = Math.min(options.maxPages ?? DEFAULT_DOCUMENT_MAX_PAGES, MAX_DOCUMENT_PAGES);
  const balance = deps.limits ? await deps.limits.balanceForNewRun(auth.userId) : await getBalance(deps.sql, auth.userId);
  if (balance < UPLOAD_PRICE) throw new AppError('INSUFFICIENT_CREDIT', `Not enough credit: ${UPLOAD_PRICE} needed, ${balance} remaining`, { remaining: balance, required: UPLOAD_PRICE });
  const runs = createScrapeRunStore(deps.sql);
  const id = randomUUID();
  const url = uploadUrl(file.filename);
  const formats = options.formats ?? UPLOAD_FORMATS;
  const request = { url, mode: 'http', formats, document: { max_pages: maxPages }, upload: { filename: file.filename, content_type: file.contentType, bytes: file.bytes.byteLength } };
  await runs.insertOnce({ id, userId: auth.userId, apiKeyId: auth.apiKeyId, workflowId: `upload-${id}`, mode: 'http', url, request, cost: UPLOAD_PRICE });
  const debit = { userId: auth.userId, apiKeyId: auth.apiKeyId, amount: UPLOAD_PRICE, idempotencyKey: scrapeCreditKeys.debit(id), runId: id, mode: 'http' };
  const started = await runs.startAttemptWithDebit(id, 1, debit);
  if (started.balanceAfter === null) {
    try {
      await debitCredit(deps.sql, debit);
    } catch (error) {
      await runs.failUnstarted([id], { code: error instanceof AppError ? error.code : 'INTERNAL', message: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }
  const startedAt = Date.now();
  try {
    const converted = await convertDocument(kind, file.bytes, { maxPages, timeoutMs: DOCUMENT_TIME_LIMIT_MS, deadlineMs: DOCUMENT_TIME_LIMIT_MS * 2 });
    const outputs = pickOutputs({ url, formats: [...formats] }, converted, { status: 200, headers: { 'content-type': file.contentType }, finalUrl: url });
    const result = { final_url: url, status: 200, headers: { 'content-type': file.contentType }, ...outputs } as StoredResult;
    await runs.succeed(id, result, Date.now() - startedAt);
  } catch (error) {
    const failure = error instanceof AppError ? error : new AppError('DOCUMENT_UNREADABLE', `the document could not be read: ${error instanceof Error ? error.message : String(error)}`);
    await refundCredit(deps.sql, { debitKey: debit.idempotencyKey });
    await runs.fail(id, { code: failure.code, message: failure.message, refunded: true });
    throw new AppError(failure.code, failure.message, { ...failure.extra, id, refunded: true });
  }
  const run = await runs.byId(id);
  return { run: run!, remaining: await getBalance(deps.sql, auth.userId) };
}
