/**
 * Documents are converted on worker threads of their own (piscina, as the format threads), never
 * on the event loop of the process that fetched them, so that a hostile file cannot hold it: each
 * thread has a heap limit (a stream that inflates to gigabytes ends the thread, not the process),
 * and a conversion that runs past its time limit is aborted, which terminates its thread. Either
 * way the scrape fails with DOCUMENT_UNREADABLE (not retried: the same bytes fail the same way).
 * One pool per process, made on first use; idle threads end after a few seconds.
 */
import path from 'node:path';
import { Piscina } from 'piscina';
import { AppError } from '../../platform/errors';
import type { DocumentConversion, DocumentKind } from './types';

/** Heap of a document thread: pdf.js holds the decoded streams of the pages it reads. */
export const DOCUMENT_THREAD_HEAP_MB = 384;
/** Threads per process: documents are a small share of scrapes; more wait their turn. */
const DOCUMENT_THREADS = 2;

export interface ConvertOptions {
  maxPages: number;
  /** The conversion's own time limit (also bounded by the scrape's deadline through `signal`). */
  timeoutMs: number;
  /** The scrape's cancellation: the conversion stops and the call rejects with its reason. */
  signal?: AbortSignal;
}

interface DocumentTask {
  kind: DocumentKind;
  bytes: Uint8Array;
  maxPages: number;
}

let pool: Piscina<DocumentTask, DocumentConversion> | undefined;

function documentPool(): Piscina<DocumentTask, DocumentConversion> {
  pool ??= new Piscina<DocumentTask, DocumentConversion>({
    filename: path.join(__dirname, 'thread-entry.cjs'),
    minThreads: 0,
    maxThreads: DOCUMENT_THREADS,
    idleTimeout: 5_000,
    resourceLimits: { maxOldGenerationSizeMb: DOCUMENT_THREAD_HEAP_MB, maxYoungGenerationSizeMb: 32 },
  });
  return pool;
}

export async function convertDocument(kind: DocumentKind, bytes: Uint8Array, options: ConvertOptions): Promise<DocumentConversion> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const label = kind === 'pdf' ? 'PDF' : 'DOCX';
  try {
    return await documentPool().run({ kind, bytes, maxPages: options.maxPages }, { signal });
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (timeout.aborted) {
      throw new AppError('DOCUMENT_UNREADABLE', `the ${label} could not be read within ${options.timeoutMs} ms`, { document: kind, limit: 'time' });
    }
    const code = (err as { code?: unknown } | null)?.code;
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
      throw new AppError('DOCUMENT_UNREADABLE', `the ${label} needs more than ${DOCUMENT_THREAD_HEAP_MB} MiB to read`, { document: kind, limit: 'memory' });
    }
    // pdf.js' exceptions are no Error subclass: they cross the thread boundary as plain objects.
    const message = typeof (err as { message?: unknown } | null)?.message === 'string' ? (err as { message: string }).message : String(err);
    throw new AppError('DOCUMENT_UNREADABLE', `the ${label} cannot be read: ${describe(message)}`, { document: kind });
  }
}

/** pdf.js' and mammoth's messages, made plain (a password is its own case). */
function describe(message: string): string {
  if (/password/i.test(message)) return 'it is encrypted with a password';
  return message.replace(/\s+/g, ' ').trim().slice(0, 300) || 'unknown error';
}

/** Ends the threads (tests, shutdown); the next conversion makes a new pool. */
export async function closeDocumentThreads(): Promise<void> {
  const current = pool;
  pool = undefined;
  await current?.destroy();
}
