/**
 * A monitor's definition as clients send it (POST/PATCH /monitors; docs/monitors.md): its name,
 * the scrape request each check runs (the scrape request's own schema), the schedule, what is
 * compared and what is ignored. Validation only; the store and the schedule port live beside.
 */
import { z } from 'zod';
import { AppError } from '../platform/errors';
import { parseOrUnprocessable } from '../platform/validate';
import { type ScrapeRequestPayload, parseScrapeRequest } from '../scrape/request';

export const MONITOR_COMPARE = ['markdown', 'data', 'json'] as const;
export type MonitorCompare = (typeof MONITOR_COMPARE)[number];

/** `ignore.patterns`: at most this many, each at most this long (a bound on the work one check may ask of the regex engine). */
export const MAX_IGNORE_PATTERNS = 20;
export const MAX_IGNORE_PATTERN_LENGTH = 200;
export const MAX_IGNORE_SELECTORS = 20;

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const EVERY = /^([1-9][0-9]{0,5})(s|m|h|d)$/;

/** "30s", "15m", "6h", "1d" in ms; undefined when it is not of that form. */
export function everyMs(every: string): number | undefined {
  const match = EVERY.exec(every);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Five fields (minute hour day-of-month month day-of-week), as Temporal reads a cron string. */
const CRON = /^\S+( \S+){4}$/;

export const monitorScheduleSchema = z.union(
  [
    z.strictObject({
      every: z.string().max(16).refine((v) => everyMs(v) !== undefined, { error: 'must be a number and a unit: "30s", "15m", "6h", "1d"' }),
    }),
    z.strictObject({
      cron: z
        .string()
        .max(200)
        .transform((v) => v.trim().replace(/\s+/g, ' '))
        .refine((v) => CRON.test(v), { error: 'must have five fields (minute hour day-of-month month day-of-week)' }),
      timezone: z
        .string()
        .max(64)
        .refine(validTimeZone, { error: 'must be an IANA time zone (e.g. "Europe/Paris")' })
        .default('UTC'),
    }),
  ],
  { error: 'must be {"every": "15m"} or {"cron": "0 9 * * *", "timezone": "UTC"}' },
);
export type MonitorSchedule = z.output<typeof monitorScheduleSchema>;

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'g');
    return true;
  } catch {
    return false;
  }
}

export const monitorIgnoreSchema = z.strictObject({
  /** Elements removed from the page before the markdown is made (added to the request's `exclude_tags`). */
  selectors: z.array(z.string().min(1).max(500)).max(MAX_IGNORE_SELECTORS).default([]),
  /** Regular expressions (JavaScript syntax); every match is removed from the compared text. */
  patterns: z
    .array(
      z
        .string()
        .min(1)
        .max(MAX_IGNORE_PATTERN_LENGTH)
        .refine(compiles, { error: 'must be a valid regular expression' }),
    )
    .max(MAX_IGNORE_PATTERNS)
    .default([]),
});
export type MonitorIgnore = z.output<typeof monitorIgnoreSchema>;

export const monitorBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  /** A scrape request (POST /webhook/unblocker's body), validated by its own schema. */
  request: z.record(z.string(), z.unknown()),
  schedule: monitorScheduleSchema,
  compare: z.enum(MONITOR_COMPARE).default('markdown'),
  ignore: monitorIgnoreSchema.default({ selectors: [], patterns: [] }),
});

export const monitorPatchSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  request: z.record(z.string(), z.unknown()).optional(),
  schedule: monitorScheduleSchema.optional(),
  compare: z.enum(MONITOR_COMPARE).optional(),
  ignore: monitorIgnoreSchema.optional(),
});
export type MonitorPatch = z.output<typeof monitorPatchSchema>;

export interface MonitorDefinition {
  name: string;
  request: ScrapeRequestPayload;
  schedule: MonitorSchedule;
  compare: MonitorCompare;
  ignore: MonitorIgnore;
}

function hasJsonFormat(request: ScrapeRequestPayload): boolean {
  return (request.formats as unknown[] | undefined)?.some((f) => f === 'json' || (typeof f === 'object' && f !== null && (f as { type?: unknown }).type === 'json')) ?? false;
}

/**
 * The request a check runs: the monitor's, with `markdown` among the formats when the markdown is
 * compared and the ignored selectors added to `exclude_tags` (removed before the markdown is made).
 */
export function checkRequest(def: Pick<MonitorDefinition, 'request' | 'compare' | 'ignore'>): ScrapeRequestPayload {
  const request: ScrapeRequestPayload = { ...def.request };
  if (def.compare === 'markdown') {
    const formats = (request.formats ?? []) as string[];
    if (!formats.includes('markdown')) request.formats = [...formats, 'markdown'] as ScrapeRequestPayload['formats'];
  }
  if (def.ignore.selectors.length) request.exclude_tags = [...(request.exclude_tags ?? []), ...def.ignore.selectors];
  return request;
}

/**
 * Checks a whole definition: the request by the scrape schema (400/INVALID_SELECTOR as a scrape
 * would answer), the rules between fields (422), and the `every` interval against the minimum.
 */
export function validateDefinition(input: { name: string; request: unknown; schedule: MonitorSchedule; compare: MonitorCompare; ignore: MonitorIgnore }, minIntervalMs: number): MonitorDefinition {
  const parsed = parseScrapeRequest(input.request);
  if (parsed.async) throw new AppError('VALIDATION_FAILED', ['request.async is not allowed: every check runs on its own schedule']);
  if (parsed.webhook) throw new AppError('VALIDATION_FAILED', ['request.webhook is not allowed: a monitor delivers monitor.* events to the account\'s webhook endpoints']);
  // `auto` resolves to its starting engine with `escalate: true`; a check runs the scrape steps
  // (no climbing, as a flow's scrape node), so the definition keeps the starting engine only —
  // and can be parsed again below and at every check.
  const { async: _async, escalate: _escalate, ...request } = parsed;
  const problems: string[] = [];
  if ('every' in input.schedule) {
    const ms = everyMs(input.schedule.every)!;
    if (ms < minIntervalMs) problems.push(`schedule.every must be at least ${minIntervalMs / 1000}s (MONITOR_MIN_INTERVAL_MS)`);
  }
  if (input.compare === 'data' && !request.selectors?.length) problems.push('compare "data" needs request.selectors');
  if (input.compare === 'json' && !hasJsonFormat(request)) problems.push('compare "json" needs the json format in request.formats');
  if (problems.length) throw new AppError('VALIDATION_FAILED', problems);
  const definition = { name: input.name, request, schedule: input.schedule, compare: input.compare, ignore: input.ignore };
  // The ignored selectors are validated as the scrape validates exclude_tags (400 INVALID_SELECTOR).
  parseScrapeRequest(checkRequest(definition));
  return definition;
}

/** POST /monitors' body → a definition (422 on the shape; see validateDefinition for the rest). */
export function parseMonitorBody(body: unknown, minIntervalMs: number): MonitorDefinition {
  return validateDefinition(parseOrUnprocessable(monitorBodySchema, body), minIntervalMs);
}
