/**
 * Request contract of `POST /webhook/unblocker` (DESIGN.md section 4).
 *
 * Every failure is a 400 (BAD_REQUEST) listing all broken rules ("url is required",
 * "selectors must contain at most 50 items", "method POST is only available in http mode ...");
 * a single message is a string, several are an array. Selector syntax is checked after the shape
 * (INVALID_SELECTOR, also 400), so no work starts for a request that cannot succeed.
 */
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { assertValidCss, validateSelectors } from '../../activities/scrape/selectors';
import { issueMessage } from '../validate';

export const MAX_SELECTORS = 50;
export const MAX_TIMEOUT_MS = 50_000;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
 
const HEADER_VALUE = /^[^\r\n\0]*$/;

const css = z.string().trim().min(1, { error: 'must be a non-empty CSS selector' }).max(2000);

const selectorObject = z.strictObject({
  name: z.string().max(200).optional(),
  selector: css,
  attribute: z.string().trim().min(1).max(200).optional(),
  all: z.boolean().default(false),
});

const selectorItem = z
  .union([css, selectorObject], { error: 'must be a CSS selector string or {selector, name?, attribute?, all?}' })
  .transform((s) => (typeof s === 'string' ? { selector: s, all: false } : s));

const headers = z
  .record(z.string(), z.string().max(8192).regex(HEADER_VALUE, { error: 'must not contain line breaks' }))
  .refine((h) => Object.keys(h).length <= 100, { error: 'must have at most 100 entries' });

const fillForm = z.strictObject({
  selector: css.optional(),
  fields: z
    .record(z.string().trim().min(1), z.union([z.string(), z.number(), z.boolean()], { error: 'values must be strings, numbers or booleans' }))
    .refine((f) => Object.keys(f).length > 0, { error: 'must name at least one field' }),
  submit: css.optional(),
});

/** z.int() reports "must be a int" by default; its range checks keep the shared messages. */
const integerError = (issue: { code?: string }) =>
  issue.code === 'invalid_type' || issue.code === 'invalid_format' ? 'must be an integer' : undefined;

const options = z.strictObject({
  retry_count: z.int({ error: integerError }).min(0).max(10).default(2),
  timeout_ms: z.int({ error: integerError }).min(1).max(MAX_TIMEOUT_MS).optional(),
});

const httpUrl = z
  .string()
  .trim()
  .min(1, { error: 'is required' })
  .max(8192)
  .refine(
    (u) => {
      try {
        const p = new URL(u).protocol;
        return p === 'http:' || p === 'https:';
      } catch {
        return false;
      }
    },
    { error: 'must be an absolute http(s) URL' },
  );

export const scrapeRequestSchema = z.strictObject({
  url: httpUrl,
  selectors: z.array(selectorItem).max(MAX_SELECTORS).optional(),
  mode: z.enum(['http', 'browser']).default('http'),
  method: z.preprocess((m) => (typeof m === 'string' ? m.toUpperCase() : m), z.enum(['GET', 'POST'])).default('GET'),
  headers: headers.optional(),
  body: z.union([z.string(), z.record(z.string(), z.unknown())], { error: 'must be a string or a JSON object' }).optional(),
  capture_network: z.boolean().default(false),
  fill_form: fillForm.optional(),
  wait_for: css.optional(),
  options: options.default({ retry_count: 2 }),
  async: z.boolean().default(false),
});

/** A validated request, normalised: selectors are always objects, defaults applied. */
export type ScrapeRequest = z.output<typeof scrapeRequestSchema>;
/** What a client may send. */
export type ScrapeRequestInput = z.input<typeof scrapeRequestSchema>;

/** Rules between fields, checked on the raw body so they are reported with the shape errors. */
function crossFieldMessages(raw: Record<string, unknown>): string[] {
  const messages: string[] = [];
  const mode = raw.mode === undefined ? 'http' : raw.mode;
  const method = typeof raw.method === 'string' ? raw.method.toUpperCase() : 'GET';
  if (mode === 'browser' && method === 'POST') {
    messages.push('method POST is not supported in browser mode (use fill_form to submit a form)');
  }
  if (mode === 'http') {
    if (raw.capture_network === true) messages.push('capture_network is only available in browser mode');
    if (raw.fill_form !== undefined) messages.push('fill_form is only available in browser mode');
    if (raw.wait_for !== undefined) messages.push('wait_for is only available in browser mode');
  }
  if (raw.body !== undefined && method !== 'POST') messages.push('body is only allowed with method POST');
  if (raw.headers !== null && typeof raw.headers === 'object') {
    for (const name of Object.keys(raw.headers).filter((n) => !HEADER_NAME.test(n))) {
      messages.push(`headers.${name} is not a valid HTTP header name`);
    }
  }
  return messages;
}

/**
 * Validates and normalises a request body. Throws AppError BAD_REQUEST with every message
 * (string when one, array when several), or INVALID_SELECTOR naming the first bad CSS selector
 * (selectors, wait_for, fill_form selector/fields/submit).
 */
export function parseScrapeRequest(body: unknown): ScrapeRequest {
  const parsed = scrapeRequestSchema.safeParse(body);
  const messages = parsed.success ? [] : parsed.error.issues.map(issueMessage);
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    messages.push(...crossFieldMessages(body as Record<string, unknown>));
  }
  if (!parsed.success || messages.length > 0) {
    const unique = [...new Set(messages)];
    throw new AppError('BAD_REQUEST', unique.length === 1 ? unique[0]! : unique);
  }
  const req = parsed.data;
  if (req.selectors) validateSelectors(req.selectors);
  if (req.wait_for !== undefined) assertValidCss(req.wait_for, 'wait_for selector');
  if (req.fill_form) {
    if (req.fill_form.selector !== undefined) assertValidCss(req.fill_form.selector, 'fill_form.selector');
    for (const field of Object.keys(req.fill_form.fields)) assertValidCss(field, 'fill_form field selector');
    if (req.fill_form.submit !== undefined) assertValidCss(req.fill_form.submit, 'fill_form.submit selector');
  }
  return req;
}

/** Credit prices (the product's price list): http 1, browser 5, capture_network +1. */
export const SCRAPE_PRICES = { http: 1, browser: 5, capture_network: 1 } as const;

export function scrapeCost(req: Pick<ScrapeRequest, 'mode' | 'capture_network'>): number {
  return SCRAPE_PRICES[req.mode] + (req.capture_network ? SCRAPE_PRICES.capture_network : 0);
}
