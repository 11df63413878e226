/**
 * User templates (docs/flows.md, "User templates"): a saved scrape request whose string values may hold
 * `{{param}}` placeholders, with a declared parameter list. Checked on save (every placeholder
 * declared, defaults of the declared type, and the request rendered with defaults or sample values
 * is a valid scrape request) and on run (params given against the declaration). Every failure is a
 * 422 listing each problem. Reference: docs/flows.md "User templates".
 */
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { parseOrUnprocessable } from '../../platform/validate';
import { parseScrapeRequest, type ScrapeRequest } from '../../scrape/request';

export const PARAM_TYPES = ['string', 'number', 'boolean', 'url'] as const;
export type ParamType = (typeof PARAM_TYPES)[number];
export type ParamValue = string | number | boolean;

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** `{{ ... }}` in a string value. */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
/** A string that is exactly one placeholder: the param's value keeps its JSON type. */
const WHOLE_PLACEHOLDER = /^\{\{\s*([^{}]*?)\s*\}\}$/;

/** Values used to check a template on save when a param has no default. */
export const SAMPLE_VALUES: Record<ParamType, ParamValue> = { string: 'sample', number: 1, boolean: true, url: 'https://example.com/' };

export const paramSchema = z.strictObject({
  name: z.string().regex(PARAM_NAME, { error: 'must start with a letter or _ and contain only letters, digits and _ (at most 64)' }),
  type: z.enum(PARAM_TYPES),
  required: z.boolean().default(false),
  default: z.union([z.string(), z.number(), z.boolean()], { error: 'must be a string, number or boolean' }).optional(),
});
export type TemplateParam = z.output<typeof paramSchema>;

const requestObject = z.record(z.string(), z.unknown(), { error: 'must be an object (a scrape request)' });

export const createTemplateSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  description: z.string().max(1000).optional(),
  request: requestObject,
  params: z.array(paramSchema).max(50).default([]),
});

export const updateTemplateSchema = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  description: z.string().max(1000).nullable().optional(),
  request: requestObject.optional(),
  params: z.array(paramSchema).max(50).optional(),
});

export const runTemplateSchema = z.strictObject({
  params: z.record(z.string(), z.unknown(), { error: 'must be an object of param values' }).default({}),
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isHttpUrl(value: string): boolean {
  try {
    const protocol = new URL(value).protocol;
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Why `value` is not of `type` (undefined when it is). */
function typeProblem(type: ParamType, value: unknown): string | undefined {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'url':
      return typeof value === 'string' && isHttpUrl(value) ? undefined : 'must be an absolute http(s) URL';
  }
}

/** Every placeholder in the request's string values, with its path (`request.url`). */
function placeholders(value: unknown, where: string, out: Array<{ where: string; name: string }>): void {
  if (typeof value === 'string') {
    for (const m of value.matchAll(PLACEHOLDER)) out.push({ where, name: m[1]! });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => placeholders(v, `${where}.${i}`, out));
  } else if (isRecord(value)) {
    for (const [k, v] of Object.entries(value)) placeholders(v, `${where}.${k}`, out);
  }
}

const OMIT = Symbol('omit');

/**
 * Replaces `{{param}}` placeholders by values. A string that is exactly one placeholder takes the
 * value with its type; an unset optional param there removes the property (or array item).
 * Inside a longer string values are interpolated; an unset one is the empty string.
 */
export function renderTemplate(request: Record<string, unknown>, values: Readonly<Record<string, ParamValue | undefined>>): Record<string, unknown> {
  const render = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = WHOLE_PLACEHOLDER.exec(v);
      if (whole) {
        const value = values[whole[1]!];
        return value === undefined ? OMIT : value;
      }
      return v.replace(PLACEHOLDER, (_m, name: string) => {
        const value = values[name];
        return value === undefined ? '' : String(value);
      });
    }
    if (Array.isArray(v)) return v.map(render).filter((x) => x !== OMIT);
    if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, render(x)] as const).filter(([, x]) => x !== OMIT));
    return v;
  };
  return render(request) as Record<string, unknown>;
}

/** parseScrapeRequest's messages, prefixed, instead of its 400. */
function scrapeRequestProblems(rendered: Record<string, unknown>): { request?: ScrapeRequest; problems: string[] } {
  try {
    return { request: parseScrapeRequest(rendered), problems: [] };
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    const messages = Array.isArray(error.messages) ? error.messages : [error.messages];
    return { problems: messages.map((m) => `request: ${m}`) };
  }
}

/**
 * Every problem of a template's request and params, as saved: duplicate or mistyped params,
 * undeclared or malformed placeholders, `async`, and whatever the scrape schema refuses once the
 * request is rendered with each param's default (or a sample value of its type).
 */
export function templateProblems(request: Record<string, unknown>, params: readonly TemplateParam[]): string[] {
  const problems: string[] = [];
  const declared = new Map<string, TemplateParam>();
  params.forEach((param, i) => {
    if (declared.has(param.name)) problems.push(`params.${i}.name "${param.name}" is declared twice`);
    declared.set(param.name, param);
    if (param.default !== undefined) {
      const wrong = typeProblem(param.type, param.default);
      if (wrong) problems.push(`params.${i}.default ${wrong}`);
    }
  });
  if ('async' in request) problems.push('request.async is not allowed in a template (a template run answers synchronously)');
  const found: Array<{ where: string; name: string }> = [];
  placeholders(request, 'request', found);
  for (const { where, name } of found) {
    if (!PARAM_NAME.test(name)) problems.push(`${where} has an invalid placeholder {{${name}}} (use {{name}}: letters, digits and _)`);
    else if (!declared.has(name)) problems.push(`${where} uses {{${name}}}, which is not a declared param`);
  }
  if (problems.length) return problems;
  const samples = Object.fromEntries(params.map((p) => [p.name, p.default ?? SAMPLE_VALUES[p.type]]));
  return scrapeRequestProblems(renderTemplate(request, samples)).problems;
}

/** Checks a template body (create, or an update merged onto the stored template): 422 listing each problem. */
export function assertValidTemplate(request: Record<string, unknown>, params: readonly TemplateParam[]): void {
  const problems = templateProblems(request, params);
  if (problems.length) throw new AppError('VALIDATION_FAILED', problems);
}

/**
 * Validates a run's params against the declaration (unknown param, missing required, wrong type:
 * 422 listing each), renders the request and parses it as a scrape request (422 when the values
 * make it invalid).
 */
export function renderRun(template: { request: Record<string, unknown>; params: readonly TemplateParam[] }, body: unknown): ScrapeRequest {
  const { params: given } = parseOrUnprocessable(runTemplateSchema, body ?? {});
  const problems: string[] = [];
  const declared = new Map(template.params.map((p) => [p.name, p]));
  for (const name of Object.keys(given)) if (!declared.has(name)) problems.push(`params.${name} is not a declared param`);
  const values: Record<string, ParamValue | undefined> = {};
  for (const param of template.params) {
    const value = given[param.name];
    if (value === undefined || value === null) {
      if (param.default !== undefined) values[param.name] = param.default;
      else if (param.required) problems.push(`params.${param.name} is required`);
      continue;
    }
    const wrong = typeProblem(param.type, value);
    if (wrong) problems.push(`params.${param.name} ${wrong}`);
    else values[param.name] = value as ParamValue;
  }
  if (problems.length) throw new AppError('VALIDATION_FAILED', problems);
  const { request, problems: requestProblems } = scrapeRequestProblems(renderTemplate(template.request, values));
  if (!request) throw new AppError('VALIDATION_FAILED', requestProblems);
  return request;
}
