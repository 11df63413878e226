/**
 * Firecrawl's `POST /v2/parse` (a file upload: multipart, the file in `file`, the scrape options
 * as JSON in `options`) and `GET /v2/parse/formats` (docs/firecrawl.md "Parse"). A PDF or DOCX
 * is converted as our `POST /documents` does (api/document-upload.ts: the same run, price,
 * limits and errors); the answer is Firecrawl's `{success, data: document}`.
 *
 * Options: `formats` markdown (the default) is honoured; `parsers: [{type: "pdf", maxPages}]`
 * limits the pages read. Formats a document cannot give (html, rawHtml, links, screenshot,
 * changeTracking) and the model formats (json, summary) are refused with 400, as are `actions`,
 * `waitFor`, `mobile` and `location` (as Firecrawl refuses them for an upload). The rest is ignored.
 */
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { parseBody } from '../../platform/validate';
import { MAX_DOCUMENT_PAGES } from '../../scrape/request';
import { UPLOAD_MAX_BYTES, UPLOAD_PRICE, convertUpload } from '../document-upload';
import { readUpload } from '../middleware/multipart';
import { runBody } from '../scrape-run';
import { type Route, parsedBy, reply, route } from '../route-table';
import type { AppDeps } from '../deps';
import { type ScrapedPage, toFirecrawlDocument } from './document';
import { type FirecrawlScrapeOptions, firecrawlScrapeOptionsSchema } from './scrape-options';
import { FIRECRAWL_CREDENTIALS, FIRECRAWL_ERROR_RESPONSES, firecrawlDocumentSchema } from './schemas';

export const PARSE_FORMATS = [
  { format: 'pdf', kind: 'document', extensions: ['.pdf'], mimeTypes: ['application/pdf'], available: true },
  { format: 'docx', kind: 'document', extensions: ['.docx'], mimeTypes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'], available: true },
] as const;

const partsSchema = z.object({
  file: z.string().meta({ format: 'binary', description: `A PDF or DOCX, at most ${UPLOAD_MAX_BYTES} bytes` }),
  options: z.string().optional().meta({ description: 'Firecrawl scrape options as JSON: formats ["markdown"], parsers [{type: "pdf", maxPages}]' }),
});
const parseResponseSchema = z.object({ success: z.literal(true), data: firecrawlDocumentSchema });
const formatsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ formats: z.array(z.object({ format: z.string(), kind: z.string(), extensions: z.array(z.string()), mimeTypes: z.array(z.string()), available: z.boolean() })) }),
});

/** The `options` part → the pages to read at most; 400 for what an upload cannot do. */
export function parseOptions(text: string | undefined): { maxPages?: number } {
  let raw: unknown = {};
  if (text !== undefined && text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new AppError('BAD_REQUEST', 'options: must be a JSON object of scrape options');
    }
  }
  const options: FirecrawlScrapeOptions = parseBody(firecrawlScrapeOptionsSchema, raw);
  for (const [index, item] of (options.formats ?? []).entries()) {
    const name = typeof item === 'string' ? item : item.type;
    if (name !== 'markdown') throw new AppError('BAD_REQUEST', `options.formats[${index}] "${name}" is not supported for an upload: a parsed document gives markdown (and its metadata)`);
  }
  if (options.actions?.length) throw new AppError('BAD_REQUEST', 'options.actions: parse uploads do not support actions');
  if ((options.waitFor ?? 0) > 0) throw new AppError('BAD_REQUEST', 'options.waitFor: parse uploads do not support waitFor');
  if (options.mobile) throw new AppError('BAD_REQUEST', 'options.mobile: parse uploads do not support mobile rendering');
  if (options.location) throw new AppError('BAD_REQUEST', 'options.location: parse uploads do not support location overrides');
  const pdf = options.parsers?.find((p): p is { type: string; maxPages?: number } => typeof p === 'object' && p.type === 'pdf');
  return pdf?.maxPages !== undefined ? { maxPages: Math.min(pdf.maxPages, MAX_DOCUMENT_PAGES) } : {};
}

export function parseRouteTable(deps: AppDeps): Route[] {
  return [
    route({
      method: 'post',
      path: '/v2/parse',
      credential: 'apiKey',
      tag: 'firecrawl',
      summary: 'Firecrawl v2: parse an uploaded PDF or DOCX to markdown (the native POST /documents)',
      description: `${FIRECRAWL_CREDENTIALS} multipart/form-data: the file in \`file\`, the options as JSON in \`options\`. ${UPLOAD_PRICE} credit per document, refunded when it cannot be read; at most ${UPLOAD_MAX_BYTES} bytes.`,
      body: parsedBy(partsSchema, () => undefined),
      bodyContentType: 'multipart/form-data',
      responses: { 200: parseResponseSchema, ...FIRECRAWL_ERROR_RESPONSES },
      errors: ['BAD_REQUEST', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE', 'INSUFFICIENT_CREDIT', 'DOCUMENT_UNREADABLE'],
      handler: async ({ auth, req }) => {
        const upload = await readUpload(req, { maxFileBytes: UPLOAD_MAX_BYTES, fileField: 'file' });
        const options = parseOptions(upload.fields.options);
        const { run, remaining } = await convertUpload(deps, auth, upload.file, { formats: ['markdown', 'metadata'], ...options });
        const body = runBody(run, remaining);
        const page: ScrapedPage = { ...body, status: body.status, cost: body.credits.cost };
        return reply(200, { success: true, data: toFirecrawlDocument(page, { formats: ['markdown'], fullPage: false }) });
      },
    }),
    route({
      method: 'get',
      path: '/v2/parse/formats',
      credential: 'apiKey',
      tag: 'firecrawl',
      summary: 'Firecrawl v2: the file formats POST /v2/parse reads (PDF, DOCX)',
      description: FIRECRAWL_CREDENTIALS,
      responses: { 200: formatsResponseSchema, ...FIRECRAWL_ERROR_RESPONSES },
      errors: [],
      handler: () => reply(200, { success: true, data: { formats: PARSE_FORMATS } }),
    }),
  ];
}
