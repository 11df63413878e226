/**
 * Response contracts for the document (api/openapi.ts). They describe what the routes answer;
 * nothing parses responses at run time. Objects are loose where a record carries stored JSON.
 */
import { z } from 'zod';
import { SCRAPE_MODES } from '../../scrape/engines';
import { scrapeOutputSchema } from '../../scrape/result';
import { ERROR_CODES } from '../../platform/errors';

const time = z.iso.datetime();
const nullableTime = time.nullable();

/** The standard error body (docs/errors.md): `message` is a list for 422. */
export const errorBodySchema = z
  .looseObject({
    statusCode: z.int(),
    message: z.union([z.string(), z.array(z.string())]),
    error: z.string(),
    code: z.enum(ERROR_CODES as [string, ...string[]]),
  })
  .meta({ id: 'ErrorBody', description: 'The standard error body; extra fields (id, links, remaining, cost, dependency) depend on the code.' });

export const linksSchema = z.looseObject({ self: z.string() });

/** An `auto` run's attempts, in order (docs/scraping.md "Escalation"). */
const escalationSchema = z
  .array(
    z.object({
      attempt: z.int(),
      engine: z.string(),
      proxy_tier: z.string().meta({ description: 'basic, stealth, or direct (no proxy)' }),
      outcome: z.string().meta({ description: '`succeeded` or the attempt\'s error code' }),
      escalated: z.string().optional().meta({ description: 'Why the run moved on to its next step after this attempt: blocked, app_shell or noscript' }),
      blocked_by: z.string().optional(),
    }),
  )
  .meta({ description: '`auto` mode: every attempt with its engine, proxy tier and outcome, and why the run moved on' });

/** A finished run's body: the run's own fields around the scrape's output, declared once in scrape/result.ts. */
export const runResultSchema = z
  .looseObject({
    id: z.string(),
    url: z.string(),
    final_url: z.string(),
    status: z.int().nullable(),
    mode: z.enum(SCRAPE_MODES),
    elapsed_ms: z.int().nullable(),
    attempts: z.int(),
    ...scrapeOutputSchema.shape,
    cache: z
      .object({ state: z.enum(['hit', 'miss']), cached_at: z.iso.datetime().optional().meta({ description: 'A hit: when the run that answered it finished' }) })
      .optional()
      .meta({ description: 'The results cache (docs/scraping.md "Results cache"): `hit` (cost 0), or `miss` when the request allowed a cached answer (`max_age` > 0) and the page was fetched' }),
    served_by: z.object({ engine: z.string(), proxy_tier: z.string() }).optional().meta({ description: '`auto` mode: the engine and proxy tier (`direct` without one) that served the page (docs/scraping.md "Escalation")' }),
    escalation: escalationSchema.optional(),
    credits: z.object({ cost: z.int(), remaining: z.int() }),
  })
  .meta({ id: 'ScrapeResult' });

/** `queued` when accepted; an Idempotency-Key repeat shows the run's status at that moment. */
export const queuedRunSchema = z.object({ id: z.string(), status: z.enum(['queued', 'running', 'succeeded', 'cached', 'failed', 'cancelled']), links: linksSchema }).meta({ id: 'QueuedRun' });

export const runStatusSchema = z
  .looseObject({
    id: z.string(),
    status: z.enum(['queued', 'running', 'succeeded', 'cached', 'failed', 'cancelled']).meta({ description: '`cached`: answered from the results cache (docs/scraping.md "Results cache"), with its result as a succeeded run, cost 0' }),
    createdAt: time,
    finishedAt: nullableTime,
    links: linksSchema,
    attempts: z.int().optional(),
    result: runResultSchema.optional(),
    error: z.unknown().optional(),
    proxy_attempts: z
      .array(z.object({ attempt: z.int(), proxy: z.string().meta({ description: 'host:port of the outbound proxy (never its credentials)' }), outcome: z.string(), message: z.string().optional() }))
      .optional()
      .meta({ description: 'Attempts that went through an outbound proxy (PROXY_URLS), in order: `succeeded` or the error code' }),
    escalation: escalationSchema.optional(),
  })
  .meta({ id: 'ScrapeRun' });

export const flowSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    version: z.int(),
    nodes: z.array(z.looseObject({ id: z.string(), type: z.string(), config: z.record(z.string(), z.unknown()), needs: z.array(z.string()) })),
    createdAt: time,
    updatedAt: time,
  })
  .meta({ id: 'Flow' });

export const flowRunSummarySchema = z
  .object({
    id: z.string(),
    flowId: z.string(),
    flowVersion: z.int(),
    status: z.enum(['queued', 'running', 'waiting_input', 'succeeded', 'failed', 'cancelled']),
    error: z.unknown(),
    workflowId: z.string(),
    createdAt: time,
    startedAt: nullableTime,
    finishedAt: nullableTime,
    links: z.object({ self: z.string(), cancel: z.string() }),
  })
  .meta({ id: 'FlowRunSummary' });

export const flowRunSchema = flowRunSummarySchema
  .extend({
    credits: z.object({ spent: z.int() }),
    nodes: z.array(z.looseObject({ id: z.string(), type: z.string(), status: z.string(), attempts: z.int(), credits: z.int() })),
  })
  .meta({ id: 'FlowRun' });

/** An answer to an input node, taken by the run. */
export const flowInputAcceptedSchema = z
  .object({ id: z.string(), node: z.string(), accepted: z.literal(true), links: z.object({ self: z.string(), cancel: z.string() }) })
  .meta({ id: 'FlowInputAccepted' });

/** A run waiting at one or more input nodes, with what each asks. */
export const waitingFlowRunSchema = flowRunSummarySchema
  .extend({
    flowName: z.string(),
    waiting: z.array(z.looseObject({ node: z.string(), prompt: z.string(), expires_at: z.string(), answer: z.string() })),
  })
  .meta({ id: 'WaitingFlowRun' });

export const templateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    request: z.record(z.string(), z.unknown()),
    params: z.array(z.record(z.string(), z.unknown())),
    createdAt: time,
    updatedAt: time,
  })
  .meta({ id: 'UserTemplate' });

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    start: z.string().nullable(),
    prefix: z.string().nullable(),
    remaining: z.int(),
    createdAt: time,
    expiresAt: nullableTime,
    enabled: z.boolean(),
    lastUsedAt: nullableTime,
  })
  .meta({ id: 'ApiKey' });

export const paymentSchema = z.looseObject({ id: z.string(), status: z.string(), credits: z.int(), amountCents: z.int(), currency: z.string() }).meta({ id: 'Payment' });

export const subscriptionSchema = z.looseObject({ id: z.string(), planId: z.string(), status: z.string() }).meta({ id: 'Subscription' });

export const notificationSchema = z.looseObject({ id: z.string(), type: z.string(), readAt: nullableTime, createdAt: time }).meta({ id: 'Notification' });

export const consentRecordSchema = z.looseObject({ kind: z.string(), granted: z.boolean(), version: z.string() }).meta({ id: 'ConsentRecord' });

/** A list page: the items under `key`, and the cursor of the next page (null on the last). */
export function pageOf<K extends string>(key: K, item: z.ZodType) {
  return z.object({ [key]: z.array(item), nextCursor: z.string().nullable() } as Record<K, z.ZodType> & { nextCursor: z.ZodType });
}

/** Anything JSON (records whose shape is documented in the docs pages). */
export const anyObject = z.record(z.string(), z.unknown());
