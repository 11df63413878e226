/**
 * `POST /documents` (docs/scraping.md "Uploaded documents"): a PDF or DOCX sent as
 * `multipart/form-data` (the file in the part `file`; optional text parts `formats`, a
 * comma-separated subset of markdown,text,metadata, and `max_pages`) converted as a document
 * target is, recorded and priced as one (api/document-upload.ts). The answer is a scrape run's.
 */
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { runResultSchema } from '../schemas/responses';
import { type UploadFormat, UPLOAD_FORMATS, UPLOAD_MAX_BYTES, UPLOAD_PRICE, convertUpload } from '../document-upload';
import { readUpload } from '../middleware/multipart';
import { runBody } from '../scrape-run';
import { type Route, parsedBy, reply, route } from '../route-table';
import type { AppDeps } from '../deps';

/** The multipart parts, for the document (the handler reads the stream itself). */
export const uploadPartsSchema = z.object({
  file: z.string().meta({ format: 'binary', description: `The PDF or DOCX, at most ${UPLOAD_MAX_BYTES} bytes` }),
  formats: z.string().optional().meta({ description: `Comma-separated, of ${UPLOAD_FORMATS.join(', ')} (default all)` }),
  max_pages: z.string().optional().meta({ description: 'Pages of a PDF read at most (default 100, at most 2000)' }),
});

function formatsOf(value: string | undefined): UploadFormat[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const names = value.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!(UPLOAD_FORMATS as readonly string[]).includes(name)) throw new AppError('BAD_REQUEST', `formats: "${name}" is not one of ${UPLOAD_FORMATS.join(', ')} (a document has no HTML, links or screenshot)`);
  }
  return names as UploadFormat[];
}

function maxPagesOf(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (!/^\d{1,6}$/.test(value.trim()) || Number(value) < 1) throw new AppError('BAD_REQUEST', 'max_pages: must be a whole number of pages, at least 1');
  return Number(value);
}

export function documentRouteTable(deps: AppDeps): Route[] {
  return [
    route({
      method: 'post',
      path: '/documents',
      credential: 'apiKey',
      tag: 'scraping',
      summary: 'Convert an uploaded PDF or DOCX (multipart/form-data) to markdown, text and metadata, as a document target is',
      description: `Priced as a document target in http mode (${UPLOAD_PRICE} credit), refunded when the document cannot be read (DOCUMENT_UNREADABLE). At most ${UPLOAD_MAX_BYTES} bytes (413 past it).`,
      body: parsedBy(uploadPartsSchema, () => undefined),
      bodyContentType: 'multipart/form-data',
      responses: { 200: runResultSchema },
      errors: ['BAD_REQUEST', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE', 'INSUFFICIENT_CREDIT', 'RATE_LIMITED', 'DOCUMENT_UNREADABLE'],
      handler: async ({ auth, req }) => {
        const upload = await readUpload(req, { maxFileBytes: UPLOAD_MAX_BYTES, fileField: 'file' });
        const formats = formatsOf(upload.fields.formats);
        const maxPages = maxPagesOf(upload.fields.max_pages);
        const { run, remaining } = await convertUpload(deps, auth, upload.file, { ...(formats ? { formats } : {}), ...(maxPages ? { maxPages } : {}) });
        return reply(200, runBody(run, remaining));
      },
    }),
  ];
}
