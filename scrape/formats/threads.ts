/**
 * The format work of a large document on worker threads, off the event loop of the process that
 * fetched it. A standalone http scrape runs in the API process (its hosted worker), so parsing a
 * 2 MiB page into markdown inline held every other request of that replica for seconds (measured:
 * docs/scraping.md, "Where the format work runs"). Small documents stay inline: handing a string
 * to a thread and back costs more than their parse. Pool: piscina (docs/scraping.md says why).
 */
import path from 'node:path';
import { Piscina } from 'piscina';
import { type DocumentOutputs, type ResponseFacts, documentOutputs } from './index';
import type { EngineRequest } from '../request';

/** Documents from this many characters go to a thread (when selectors or formats need a parse). */
export const THREAD_MIN_CHARS = 64 * 1024;

export type DocumentOutputsAsync = (req: EngineRequest, html: string, response: ResponseFacts) => Promise<DocumentOutputs>;

/** The work as the thread receives it (structured-cloned). */
export interface DocumentOutputsTask {
  req: EngineRequest;
  html: string;
  response: ResponseFacts;
}

export interface DocumentOutputThreads {
  outputs: DocumentOutputsAsync;
  /** Documents handed to a thread so far (the others were done inline). */
  readonly offloaded: number;
  close(): Promise<void>;
}

const needsParse = (req: EngineRequest) => (req.selectors?.length ?? 0) > 0 || req.formats !== undefined;

/** `threads` 0: everything inline (the same answers, on the caller's event loop). */
export function createDocumentOutputThreads(options: { threads: number; minChars?: number }): DocumentOutputThreads {
  const minChars = options.minChars ?? THREAD_MIN_CHARS;
  const pool =
    options.threads > 0
      ? new Piscina<DocumentOutputsTask, DocumentOutputs>({
          filename: path.join(__dirname, 'thread-entry.cjs'),
          minThreads: 0,
          maxThreads: options.threads,
          // An idle process keeps no thread (and no parsed modules) around.
          idleTimeout: 30_000,
        })
      : undefined;
  let offloaded = 0;
  return {
    outputs(req, html, response) {
      if (!pool || html.length < minChars || !needsParse(req)) return Promise.resolve(documentOutputs(req, html, response));
      offloaded++;
      return pool.run({ req, html, response });
    },
    get offloaded() {
      return offloaded;
    },
    async close() {
      await pool?.destroy();
    },
  };
}
