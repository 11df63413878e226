/**
 * A `multipart/form-data` upload (POST /documents, POST /v2/parse: docs/scraping.md "Uploaded
 * documents"), read with busboy (the parser multer is built on: streaming, bounded by its own
 * limits, no temp files), into memory with a hard cap: one file, a few small text fields.
 *
 * - not multipart → 415 UNSUPPORTED_MEDIA_TYPE;
 * - the file past `maxFileBytes` → 413 PAYLOAD_TOO_LARGE (the rest of the body is drained, never kept);
 * - no file part named `fileField`, a second file, too many parts, a field past 64 KiB → 400 BAD_REQUEST.
 */
import type { Request } from 'express';
import busboy from 'busboy';
import { AppError } from '../../platform/errors';

export interface UploadedFile {
  filename: string;
  /** As the client declared it (the bytes decide what a document is: scrape/documents/detect.ts). */
  contentType: string;
  bytes: Uint8Array;
}

export interface Upload {
  fields: Record<string, string>;
  file: UploadedFile;
}

const MAX_FIELD_BYTES = 64 * 1024;
const MAX_PARTS = 20;

export function readUpload(req: Request, options: { maxFileBytes: number; fileField: string }): Promise<Upload> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) {
    return Promise.reject(new AppError('UNSUPPORTED_MEDIA_TYPE', `the body must be multipart/form-data with the file in a part named "${options.fileField}"`));
  }
  return new Promise<Upload>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: options.maxFileBytes, fieldSize: MAX_FIELD_BYTES, files: 1, parts: MAX_PARTS } });
    } catch (error) {
      reject(new AppError('BAD_REQUEST', `the multipart body cannot be read: ${error instanceof Error ? error.message : String(error)}`));
      return;
    }
    const fields: Record<string, string> = {};
    let file: UploadedFile | undefined;
    let failure: AppError | undefined;
    const fail = (error: AppError) => {
      failure ??= error;
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new AppError('BAD_REQUEST', `the field "${name}" is longer than ${MAX_FIELD_BYTES} bytes`));
      else fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== options.fileField) {
        fail(new AppError('BAD_REQUEST', `unexpected file part "${name}": the file goes in the part named "${options.fileField}"`));
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (!failure) chunks.push(chunk);
      });
      stream.on('limit', () => {
        fail(new AppError('PAYLOAD_TOO_LARGE', `the file is larger than the upload limit of ${options.maxFileBytes} bytes; nothing was charged`, { limit: options.maxFileBytes }));
        chunks.length = 0;
      });
      stream.on('end', () => {
        if (!failure) file = { filename: info.filename ?? 'upload', contentType: info.mimeType ?? 'application/octet-stream', bytes: new Uint8Array(Buffer.concat(chunks)) };
      });
    });
    parser.on('filesLimit', () => fail(new AppError('BAD_REQUEST', 'one file per request')));
    parser.on('partsLimit', () => fail(new AppError('BAD_REQUEST', `at most ${MAX_PARTS} parts per request`)));
    parser.on('error', (error: unknown) => reject(failure ?? new AppError('BAD_REQUEST', `the multipart body cannot be read: ${error instanceof Error ? error.message : String(error)}`)));
    parser.on('close', () => {
      if (failure) reject(failure);
      else if (!file) reject(new AppError('BAD_REQUEST', `no file: send it in a multipart part named "${options.fileField}"`));
      else if (file.bytes.byteLength === 0) reject(new AppError('BAD_REQUEST', 'the file is empty'));
      else resolve({ fields, file });
    });
    req.pipe(parser);
  });
}
