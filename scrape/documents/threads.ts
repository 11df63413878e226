/**
 * Documents are converted on worker threads of their own (piscina, as the format threads), never
 * on the event loop of the process that fetched them, so that a hostile file cannot hold it: each
 * thread has a heap limit (a stream that inflates to gigabytes ends the thread, not the process),
 * and a conversion that runs past its time limit is aborted, which terminates its thread. Either
 * way the scrape fails with DOCUMENT_UNREADABLE (not retried: the same bytes fail the same way).
 * The time limit runs from the moment the thread has its converter loaded; waiting for a thread
 * and starting one are bounded by the scrape's deadline. One pool per process, made on first
 * use; idle threads end after 30 s.
 */
import path from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { AppError } from '../../platform/errors';
import type { DocumentConversion, DocumentKind } from './types';

/** Heap of a document thread: pdf.js holds the decoded streams of the pages it reads. */
export const DOCUMENT_THREAD_HEAP_MB = 384;
/** Threads per process: documents are a small share of scrapes; more wait their turn. */
const DOCUMENT_THREADS = 2;

export interface ConvertOptions {
  maxPages: number;
  /** The conversion's own time limit, from the moment its thread has its converter loaded. */
  timeoutMs: number;
  /**
   * The scrape's deadline (ms from now): bounds the wait for a thread and its start too (a new
   * thread compiles and loads the converter, seconds on a busy machine: not the document's fault).
   */
  deadlineMs?: number;
  /** The scrape's cancellation: the conversion stops and the call rejects with its reason. */
  signal?: AbortSignal;
}

interface DocumentTask {
  kind: DocumentKind;
  bytes: Uint8Array;
  maxPages: number;
  /** Told `started` once the thread has loaded the converter (thread-entry.cjs). */
  started: MessagePort;
}

let pool: Piscina<DocumentTask, DocumentConversion> | undefined;

function documentPool(): Piscina<DocumentTask, DocumentConversion> {
  pool ??= new Piscina<DocumentTask, DocumentConversion>({
    filename: path.join(__dirname, 'thread-entry.cjs'),
    minThreads: 0,
    maxThreads: DOCUMENT_THREADS,
    idleTimeout: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: DOCUMENT_THREAD_HEAP_MB, maxYoungGenerationSizeMb: 32 },
  });
  return pool;
}

export async function convertDocument(kind: DocumentKind, bytes: Uint8Array, options: ConvertOptions): Promise<DocumentConversion> {
  const label = kind === 'pdf' ? 'PDF' : 'DOCX';
  const stop = new AbortController();
  let stoppedFor: 'time' | 'deadline' | undefined;
  const timers: NodeJS.Timeout[] = [];
  const stopFor = (why: 'time' | 'deadline', ms: number) => {
    timers.push(
      setTimeout(() => {
        stoppedFor ??= why;
        stop.abort(new Error(why));
      }, ms),
    );
  };
  if (options.deadlineMs !== undefined) stopFor('deadline', Math.max(1, Math.floor(options.deadlineMs)));
  const { port1, port2 } = new MessageChannel();
  port1.once('message', () => stopFor('time', options.timeoutMs));
  port1.unref();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  try {
    return await documentPool().run({ kind, bytes, maxPages: options.maxPages, started: port2 }, { signal, transferList: [port2] as never });
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (stoppedFor === 'time') {
      throw new AppError('DOCUMENT_UNREADABLE', `the ${label} could not be read within ${options.timeoutMs} ms`, { document: kind, limit: 'time' });
    }
    if (stoppedFor === 'deadline') throw new AppError('SCRAPE_FAILED', `timed out converting the ${label} (the scrape's deadline)`, { timeout: true });
    const code = (err as { code?: unknown } | null)?.code;
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
      throw new AppError('DOCUMENT_UNREADABLE', `the ${label} needs more than ${DOCUMENT_THREAD_HEAP_MB} MiB to read`, { document: kind, limit: 'memory' });
    }
    // pdf.js' exceptions are no Error subclass: they cross the thread boundary as plain objects.
    const message = typeof (err as { message?: unknown } | null)?.message === 'string' ? (err as { message: string }).message : String(err);
    throw new AppError('DOCUMENT_UNREADABLE', `the ${label} cannot be read: ${describe(message)}`, { document: kind });
  } finally {
    for (const timer of timers) clearTimeout(timer);
    port1.close();
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
