/**
 * One scrape run, after its request was parsed: the part shared by `POST /webhook/unblocker` and
 * `POST /user-templates/:id/run`. A model format without a model: 400 LLM_NOT_CONFIGURED. Precheck (blacklist, scheme, private target) → cost, 402 when
 * the balance is short, 429 when the account has too many runs in flight → the run is recorded and started (api/scrape-dispatch.ts) → 202 when
 * async, else wait up to SYNC_TIMEOUT_MS: 504 with the run id, 200 with the result, or the
 * failure's status and body.
 */
import { randomUUID } from 'node:crypto';
import { checkTarget, resolvePublicHost } from '../platform/target-guard';
import { getBalance } from '../accounts/credit';
import { AppError, ERROR_STATUS, errorBody, errorCodeOr } from '../platform/errors';
import type { FinishedRun } from '../scrape/runs';
import type { StoredResult } from '../scrape/types';
import { SCRAPE_OUTPUT_FIELDS } from '../scrape/result';
import type { AuthContext } from './middleware/auth';
import type { ScrapeRequest } from '../scrape/request';
import { type EscalationEntry, servedStepOf } from '../scrape/run-attempts';
import { proxyPlan } from './scrape-escalation';
import { assertModelFormatsConfigured } from '../scrape/llm/model-formats';
import { ResourceNeverStarted } from './idempotency';
import { lookupCacheKey } from '../scrape/cache-key';
import { createResultsCache } from '../scrape/results-cache';
import { apiWebhooks } from './webhooks';
import type { AppDeps } from './deps';

/** What a run body reads of a run: the row (GET /webhook/runs/:id) or the in-process outcome. */
export type RunLike = Pick<FinishedRun, 'id' | 'url' | 'mode' | 'attempts' | 'cost' | 'request' | 'result' | 'error' | 'httpStatus' | 'elapsedMs' | 'escalation'> & {
  status?: string;
  cachedAt?: Date | string | null;
};

/**
 * What served an `auto` run (docs/scraping.md "Escalation"): the engine and proxy tier of its
 * succeeded attempt, and every attempt's step; nothing for any other run.
 */
export function escalationFields(run: Pick<RunLike, 'mode' | 'escalation'>): { served_by?: { engine: string; proxy_tier: string }; escalation?: EscalationEntry[] } {
  if (!Array.isArray(run.escalation)) return {};
  const served = servedStepOf(run.escalation);
  return { ...(served ? { served_by: served } : {}), escalation: run.escalation as EscalationEntry[] };
}


/** The body of a finished run, as POST /webhook/unblocker answers and GET /webhook/runs/:id shows. */
export function runBody(run: RunLike, remaining: number) {
  const stored = (run.result ?? {}) as Partial<StoredResult>;
  const request = run.request as ScrapeRequest;
  return {
    id: run.id,
    url: run.url,
    final_url: stored.final_url ?? run.url,
    status: run.httpStatus,
    mode: run.mode,
    elapsed_ms: run.elapsedMs,
    attempts: run.attempts,
    ...outputFields(stored, request),
    ...cacheField(run, request),
    ...escalationFields(run),
    credits: { cost: run.cost, remaining },
  };
}

/**
 * `cache` (docs/scraping.md "Results cache"): `hit` with `cached_at` (when the answering run
 * finished) for a run answered from the cache; `miss` when the request allowed a cached answer
 * (`max_age` > 0) and the page was fetched. Absent otherwise.
 */
function cacheField(run: RunLike, request: ScrapeRequest): { cache?: { state: 'hit' | 'miss'; cached_at?: string } } {
  if (run.status === 'cached') return { cache: { state: 'hit', ...(run.cachedAt ? { cached_at: new Date(run.cachedAt).toISOString() } : {}) } };
  return (request.max_age ?? 0) > 0 ? { cache: { state: 'miss' } } : {};
}

/**
 * Every output field the result holds, in the order scrape/result.ts declares them (the response
 * schema's), so a field added there is answered without a change here.
 */
function outputFields(stored: Partial<StoredResult>, request: ScrapeRequest): Omit<StoredResult, 'final_url' | 'status'> {
  const fields: Record<string, unknown> = {};
  for (const field of SCRAPE_OUTPUT_FIELDS) {
    if (field === 'headers') fields.headers = stored.headers ?? {};
    // The legacy document without selectors; with `formats`, the cleaned `html` when asked.
    else if (field === 'html' && request.selectors?.length && !request.formats?.includes('html')) continue;
    else if (stored[field] !== undefined) fields[field] = stored[field];
  }
  return fields as Omit<StoredResult, 'final_url' | 'status'>;
}

export function failedRunBody(run: RunLike) {
  const error = (run.error ?? { code: 'SCRAPE_FAILED', message: 'the scrape failed' }) as { code: string; message: string; refunded?: boolean; blocked_by?: string };
  // A code the table does not know (none is written today) answers as a failed scrape (502).
  const code = errorCodeOr(error.code, 'SCRAPE_FAILED');
  const blocked = error.blocked_by ? { blocked_by: error.blocked_by } : {};
  return { status: ERROR_STATUS[code], body: errorBody(code, error.message, { id: run.id, attempts: run.attempts, refunded: error.refunded ?? false, ...blocked }) };
}

/** Checks what can be refused before any work: blacklist, scheme, private targets (403/400). Also POST /map's. */
export async function precheck(deps: AppDeps, request: Pick<ScrapeRequest, 'url'>): Promise<void> {
  const url = await checkTarget(request.url, { allowPrivateTargets: deps.config.ALLOW_PRIVATE_TARGETS, isBlacklisted: deps.blacklist.isBlacklisted });
  try {
    await resolvePublicHost(url.hostname, { allowPrivateTargets: deps.config.ALLOW_PRIVATE_TARGETS });
  } catch (error) {
    // A private address is final; a DNS failure is left to the scrape's retries.
    if (error instanceof AppError && error.code === 'PRIVATE_TARGET') throw error;
  }
}

/**
 * Whether the run emits a webhook event when it finishes (docs/webhooks.md): async requests only,
 * with their own `webhook` (its URL checked now: 403 PRIVATE_TARGET / BLACKLISTED) or from an
 * account with endpoints (a cached answer: api/webhooks.ts). A synchronous request reads nothing.
 */
async function wantsWebhookEvents(deps: AppDeps, userId: string, request: ScrapeRequest): Promise<boolean> {
  if (!request.async) return false;
  const webhooks = apiWebhooks(deps);
  if (request.webhook) {
    await webhooks.guard.check(request.webhook.url);
    return true;
  }
  return webhooks.hasEndpoints(userId);
}

export interface ScrapeRunOptions {
  /** A workflow of its own under this id (template runs), instead of a lane shared with concurrent requests. */
  workflowId?: (runId: string) => string;
  /** The template a run comes from (search attribute TemplateId). */
  templateId?: string;
  memo?: Record<string, unknown>;
  /** The run's id, chosen before (an Idempotency-Key claim names it); else a new one. */
  runId?: string;
  /** When the request arrived (epoch ms), if read before; else now. */
  acceptedAt?: number;
  /** When a synchronous answer is due (epoch ms), if sooner or later than SYNC_TIMEOUT_MS after acceptance (a Firecrawl `timeout`). */
  deadline?: number;
}

/** What the route sends: a status and a JSON body. Errors before or around the run are thrown (AppError). */
export interface ScrapeRunAnswer {
  status: number;
  body: unknown;
}

/** Starts a parsed scrape request as a scrape run, and answers as the scrape route does. */
export async function startScrapeRun(deps: AppDeps, auth: AuthContext, asked: ScrapeRequest, options: ScrapeRunOptions = {}): Promise<ScrapeRunAnswer> {
  // One clock reading: the request's 50 s run from here.
  const acceptedAt = options.acceptedAt ?? Date.now();
  const deadline = options.deadline ?? acceptedAt + deps.config.SYNC_TIMEOUT_MS;
  assertModelFormatsConfigured(deps.config, asked.formats);
  // Tiers and countries (400 for one no pool serves), and an `auto` request's ladder (docs/scraping.md "Escalation").
  const { request, cost, escalation } = proxyPlan(deps.config, asked);
  // All only read: the target check (its DNS lookup included), the balance (its statement also
  // counts the account's runs in flight: api/limits.ts) and whether the run emits webhook events.
  const [checked, balanceRead, events] = await Promise.allSettled([
    precheck(deps, request),
    deps.limits ? deps.limits.balanceForNewRun(auth.userId) : getBalance(deps.sql, auth.userId),
    wantsWebhookEvents(deps, auth.userId, request),
  ]);
  if (checked.status === 'rejected') throw checked.reason;
  if (events.status === 'rejected') throw events.reason;
  const runId = options.runId ?? randomUUID();
  // A hit costs nothing and starts no run: neither the balance nor the runs in flight refuse it.
  const cached = await answerFromCache(deps, auth, request, runId, events.value);
  if (cached) return cached;
  if (balanceRead.status === 'rejected') throw balanceRead.reason;
  const balance = balanceRead.value;
  if (balance < cost) {
    throw new AppError('INSUFFICIENT_CREDIT', `This request costs ${cost} credit${cost === 1 ? '' : 's'}; ${balance} remaining`, { remaining: balance, cost });
  }

  const { async, ...payload } = request;
  const outcome = await deps.scrapes.run(
    { runId, userId: auth.userId, apiKeyId: auth.apiKeyId, cost, request: payload, acceptedAt, ...(events.value ? { events: true as const } : {}), ...(escalation ? { escalation } : {}) },
    { async, deadline, workflowId: options.workflowId?.(runId), templateId: options.templateId, memo: options.memo },
  );
  if (outcome.status === 'queued') return queuedAnswer(runId, 'queued');
  if (outcome.status === 'timeout') throw syncTimeout(deps, runId);
  return finishedAnswer(deps, auth, outcome.answer.run, outcome.answer.remaining);
}

function queuedAnswer(runId: string, status: string): ScrapeRunAnswer {
  return { status: 202, body: { id: runId, status, links: { self: `/webhook/runs/${runId}` } } };
}

/** 504 with the run id: the run goes on; its outcome is at GET /webhook/runs/:id. */
export function syncTimeout(deps: AppDeps, runId: string): AppError {
  return new AppError('TIMEOUT', `The scrape did not finish within ${deps.config.SYNC_TIMEOUT_MS} ms; fetch the outcome later from /webhook/runs/${runId}`, {
    id: runId,
    links: { self: `/webhook/runs/${runId}` },
  });
}

/**
 * The results cache (docs/scraping.md "Results cache"): a request allowing a cached answer
 * (`max_age` > 0, a cacheable request) whose account has an identical run that succeeded within
 * max_age is answered from it, recorded as a `cached` run of cost 0, with no workflow. Only after
 * the target's checks (a target now refused is never answered). An async request that emits
 * webhook events always runs (its events come from the run). Null: fetch as usual.
 */
async function answerFromCache(deps: AppDeps, auth: AuthContext, request: ScrapeRequest, runId: string, emitsEvents: boolean): Promise<ScrapeRunAnswer | null> {
  const lookup = emitsEvents ? null : lookupCacheKey(request);
  if (!lookup) return null;
  const { async, ...payload } = request;
  const hit = await createResultsCache(deps.sql).answer({
    runId,
    userId: auth.userId,
    apiKeyId: auth.apiKeyId,
    key: lookup.key,
    maxAgeMs: lookup.maxAgeMs,
    mode: request.mode,
    url: request.url,
    request: payload,
  });
  if (!hit) return null;
  if (async) return queuedAnswer(runId, 'cached');
  return { status: 200, body: runBody(hit.run, hit.balance) };
}

async function finishedAnswer(deps: AppDeps, auth: AuthContext, run: FinishedRun, remaining?: number): Promise<ScrapeRunAnswer> {
  if (run.status === 'succeeded' || run.status === 'cached') return { status: 200, body: runBody(run, remaining ?? (await getBalance(deps.sql, auth.userId))) };
  return failedRunBody(run);
}

/**
 * The answer to an Idempotency-Key repeat (api/idempotency.ts) from the first request's run: 202
 * with its id and current status when the request is async; else its outcome as the first answer
 * gave it (`credits.remaining` is the balance now), waiting for it up to `deadline` (504 with the
 * id after), wherever it runs. A run it waited for that ends never started (the first request's
 * API process died before starting it) is not the request's outcome: ResourceNeverStarted, and
 * the repeat starts afresh.
 */
export async function replayScrapeRun(deps: AppDeps, auth: AuthContext, run: FinishedRun, options: { async: boolean; deadline: number }): Promise<ScrapeRunAnswer> {
  if (options.async) return queuedAnswer(run.id, run.status);
  if (run.status === 'queued' || run.status === 'running') {
    const finished = await deps.scrapes.awaitRun(run.id, options.deadline);
    if (!finished) throw syncTimeout(deps, run.id);
    if (runNeverStarted(finished.run)) throw new ResourceNeverStarted(`run ${run.id} never started`);
    return finishedAnswer(deps, auth, finished.run);
  }
  return finishedAnswer(deps, auth, run);
}

/** A run that never started an attempt and failed (its start failed, or credit ran out at the debit): nothing was charged. */
export function runNeverStarted(run: FinishedRun): boolean {
  return run.status === 'failed' && run.attempts === 0;
}
