import type { FailedScrape, FinishScrapeRunInput, ScrapeActivityInput } from '../../workflows/activities';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { type CreditChange, type DebitInput, debitCredit, isRefunded, refundCredit } from '../../accounts/credit';
import { AppError, ERRORS, errorCodeOr } from '../../platform/errors';
import { notifyLowCreditIfCrossed } from '../../notifications/notifications';
import type { FinishedRun, ScrapeRunStore } from '../../scrape/runs';
import type { StoredResult } from '../../scrape/types';
import { changeTrackingOf } from './change-tracking';
import { SCRAPE_OUTPUT_FIELDS } from '../../scrape/result';
import { untilDatabaseAnswers } from '../../platform/sql';
import { type ScrapeActivityOutput, defaultAttemptTimeoutMs } from '../../workflows/definitions';
import { createProxyRotation, proxyStickyKey } from '../../scrape/proxies';
import type { Config } from '../../platform/config';
import type { ProxyEndpoint } from '../../platform/proxy-endpoints';
import type { ScrapeResult } from '../../scrape/types';
import type { ScrapeRequestPayload } from '../../scrape/request';
import { scrapeCreditKeys } from '../../scrape/credit-keys';
import { blockedByOf, blockedMessage } from '../../scrape/blocks';
import { createTierRotations } from '../../scrape/proxies';
import { type ProxyTier, escalationReasonOf } from '../../scrape/proxy-tiers';
import { assertCanPay, attemptTier, countAttempt, escalationEntry, escalationFailure, succeedCharged, tierProxy } from './escalation';
import { storedCacheKey } from '../../scrape/cache-key';
import type { Engine } from '../../scrape/request';
import { schemaJsonFormat, summaryFormat } from '../../scrape/types';
import { runModelFormats } from '../../scrape/llm/model-formats';
import { openScrapeSession } from './session';
import type { ScrapeActivityDeps } from './activity-deps';



export type { RunEvents, ScrapeActivityDeps } from './activity-deps';

/** Target answers that mean "try again later": the attempt failed, a retry may succeed. */
function isRetryableTargetStatus(status: number): boolean {
  return status >= 500 || status === 429;
}

export function toFailure(error: unknown): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;
  if (error instanceof AppError) {
    // An engine deadline is the target not answering in time: TIMEOUT (504 with the run id), retryable.
    const code = error.extra.timeout === true ? 'TIMEOUT' : error.code;
    return ApplicationFailure.create({
      message: error.message,
      type: code,
      nonRetryable: !ERRORS[code].retryable,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return ApplicationFailure.create({ message, type: 'SCRAPE_FAILED' });
}

/** The run's debit, keyed by the run: a replay changes nothing. */
function runDebit(input: ScrapeActivityInput): DebitInput {
  const { debit, runId, request } = input;
  return { userId: debit!.userId, apiKeyId: debit!.apiKeyId, amount: debit!.amount, idempotencyKey: scrapeCreditKeys.debit(runId), runId, mode: request.mode };
}

/** Takes the run's price once (by its key); a replay changes nothing. INSUFFICIENT_CREDIT is final. */
async function debitRun(deps: ScrapeActivityDeps, input: ScrapeActivityInput): Promise<CreditChange> {
  let change: CreditChange;
  try {
    change = await debitCredit(deps.sql, runDebit(input));
  } catch (error) {
    if (error instanceof AppError && error.status < 500) throw ApplicationFailure.nonRetryable(error.message, error.code, error.extra);
    throw error;
  }
  return noteDebit(deps, input, change);
}

/** After the debit (applied or replayed): the metric, and `credit.low` when this debit crossed the threshold. */
async function noteDebit(deps: ScrapeActivityDeps, input: ScrapeActivityInput, change: CreditChange): Promise<CreditChange> {
  const { debit, runId, request } = input;
  if (change.applied) deps.metrics.creditsDebited.inc({ mode: request.mode }, debit!.amount);
  if (deps.lowCreditThreshold) {
    const own = change.applied ? { userId: debit!.userId, amount: -debit!.amount, balanceAfter: change.balanceAfter } : undefined;
    await notifyLowCreditIfCrossed(deps.db, scrapeCreditKeys.debit(runId), deps.lowCreditThreshold, own);
  }
  return change;
}

/**
 * Marks the attempt on the run and, for a run that pays here, debits it — one statement when the
 * debit applies (scrape/runs.ts startAttemptWithDebit); a replayed or refused debit is then
 * explained by debitCredit. Returns the finished run instead when the run had finished.
 */
async function startAttempt(
  deps: ScrapeActivityDeps,
  input: ScrapeActivityInput,
  attempt: number,
): Promise<{ finished: FinishedRun } | { debited?: CreditChange; flowRunId?: string | null; attempt?: number }> {
  const { runId } = input;
  // An `auto` run's later steps number their attempts on from the run's (it pays when it succeeds).
  if (input.step && input.step.index > 0) return deps.runs.startNextAttempt(runId);
  if (!input.debit) {
    // A flow's scrape (it pays in a step of its own): its flow run keys a sticky proxy.
    const started: { flowRunId?: string | null } = {};
    const finished = await deps.runs.startAttempt(runId, attempt, started);
    return finished ? { finished } : started;
  }
  const start = await deps.runs.startAttemptWithDebit(runId, attempt, runDebit(input));
  if (!start.started) {
    const finished = await deps.runs.byId(runId);
    if (!finished) throw new Error(`scrape run ${runId} does not exist`);
    return { finished };
  }
  if (start.balanceAfter === null) return { debited: await debitRun(deps, input) };
  return { debited: await noteDebit(deps, input, { applied: true, balanceAfter: start.balanceAfter }) };
}

/**
 * What the run keeps of an engine's result (scrape_run.result, PostgreSQL, never a Temporal
 * payload): where it ended and every output field scrape/result.ts declares, as the engine gave
 * them; the screenshot's PNG in scrape_screenshot and its reference in the result.
 */
export async function storedResult(deps: ScrapeActivityDeps, runId: string, result: ScrapeResult, formats?: readonly unknown[]): Promise<StoredResult> {
  const { final_url, status, headers, screenshot, actions } = result;
  const stored: StoredResult = { final_url, status, headers };
  for (const field of SCRAPE_OUTPUT_FIELDS) if (field !== 'screenshot' && field !== 'actions') Object.assign(stored, { [field]: result[field] });
  // Read against the account's earlier runs before this one is recorded succeeded (activities/scrape/change-tracking.ts).
  if (formats?.includes('changeTracking')) stored.changeTracking = await changeTrackingOf(deps.runs, runId, result);
  if (screenshot) {
    await deps.runs.saveScreenshot(runId, screenshot.png, screenshot.width, screenshot.height);
    stored.screenshot = { url: `/webhook/runs/${runId}/screenshot`, width: screenshot.width, height: screenshot.height, bytes: screenshot.png.byteLength };
  }
  if (actions) {
    // The `screenshot` actions' PNGs go to scrape_action_screenshot, numbered from 0 in the order they were taken.
    await deps.runs.saveActionScreenshots(runId, actions.screenshots);
    stored.actions = {
      screenshots: actions.screenshots.map((shot, index) => ({ url: actionScreenshotPath(runId, index), width: shot.width, height: shot.height, bytes: shot.png.byteLength })),
      scrapes: actions.scrapes,
      javascriptReturns: actions.javascriptReturns,
    };
  }
  return stored;
}

/** Where the PNG of a run's `index`-th `screenshot` action is served (api/routes/scrape.ts). */
export function actionScreenshotPath(runId: string, index: number): string {
  return `/webhook/runs/${runId}/actions/screenshots/${index}`;
}

/** A run found finished when an attempt was about to start: its outcome, never a second scrape. */
function outcomeOfFinished(run: FinishedRun): ScrapeActivityOutput {
  if (run.status === 'succeeded') {
    const stored = (run.result ?? {}) as Partial<StoredResult>;
    return { httpStatus: run.httpStatus ?? stored.status ?? 0, finalUrl: stored.final_url ?? run.url, elapsedMs: run.elapsedMs ?? 0 };
  }
  const error = (run.error ?? {}) as { code?: string; message?: string };
  throw ApplicationFailure.nonRetryable(error.message ?? `the run is ${run.status}`, errorCodeOr(error.code, 'SCRAPE_FAILED'));
}

/**
 * One attempt of a scrape, shared by every path (a batch's first attempts, their retries, the
 * browser activity, flow scrapes): marks the attempt on the run (or finds the run finished and
 * returns its outcome), debits when asked, runs the engine with the attempt's deadline, stores
 * the content in PostgreSQL (not in workflow history) and returns a small summary. A failure is
 * thrown as an ApplicationFailure whose type is the error code.
 */
export async function scrapeOnce(deps: ScrapeActivityDeps, engine: Engine, input: ScrapeActivityInput, attempt: number, activitySignal?: AbortSignal): Promise<ScrapeActivityOutput> {
  const { request, runId } = input;
  const startedAt = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - startedAt) / 1e9;
  let proxy: ProxyEndpoint | undefined;
  let tier: ProxyTier | undefined;
  let attemptNumber = attempt;
  // Registered by run, so a cancel of this run alone aborts it (scrape/running-attempts.ts).
  const running = deps.attempts?.start(runId, activitySignal);
  const signal = running?.signal ?? activitySignal;
  try {
    // The bookkeeping waits for PostgreSQL through a restart rather than failing the attempt:
    // an outage is not the target's failure and must not use up the scrape's retries.
    const started = await untilDatabaseAnswers(() => startAttempt(deps, input, attempt), signal);
    if ('finished' in started) return outcomeOfFinished(started.finished);
    const { debited } = started;
    attemptNumber = started.attempt ?? attempt;
    if (input.step) await untilDatabaseAnswers(() => assertCanPay(deps, input.step!), signal);
    tier = attemptTier(deps, request, input.step);
    proxy = tierProxy(deps, request, tier) ?? chooseProxy(deps, request, started.flowRunId ?? null);
    if (proxy && !tier && request.proxy !== 'none' && deps.proxies?.proxies.includes(proxy)) tier = 'basic';
    const session = request.session ? await untilDatabaseAnswers(() => openScrapeSession(deps, runId, request.session!), signal) : undefined;
    const result = await engine(request, {
      signal,
      timeoutMs: request.options.timeout_ms ?? defaultAttemptTimeoutMs(request.options.retry_count),
      isBlacklisted: deps.blacklist.isBlacklisted,
      ...(proxy ? { proxy } : {}),
      ...(session ? { storage: session.storage } : {}),
    });
    // A block page is a failed attempt (retried, through the next proxy), never a result: unless the request opted out.
    const blocked = result.blocked_by && request.block_detection !== false ? blockedMessage(result.blocked_by, result.status) : undefined;
    // An `auto` step before the last moves on at once (a block, or on http a page needing JavaScript).
    const escalating = escalationFailure(input, result, blocked);
    if (blocked) deps.metrics.scrapeBlocks.inc({ mode: request.mode, vendor: result.blocked_by! });
    if (escalating) throw escalating;
    if (result.blocked_by && blocked) {
      throw ApplicationFailure.create({
        message: blockedMessage(result.blocked_by, result.status),
        type: 'TARGET_BLOCKED',
        details: [{ blocked_by: result.blocked_by, status: result.status }],
      });
    }
    if (proxy) {
      rotationOf(deps, request, tier)?.succeeded(proxy);
      const outcome = isRetryableTargetStatus(result.status) ? 'TARGET_ERROR' : 'succeeded';
      await untilDatabaseAnswers(() => deps.runs.recordProxyAttempt(runId, { attempt: attemptNumber, proxy: proxy!.id, outcome }), signal);
    }
    if (isRetryableTargetStatus(result.status)) {
      throw ApplicationFailure.create({ message: `the target answered HTTP ${result.status}`, type: 'TARGET_ERROR', details: [{ status: result.status }] });
    }
    await modelStep(deps, input, result, signal);
    // The session is written back only when the scrape succeeds (its result is about to be recorded).
    if (session) await untilDatabaseAnswers(() => session.save(), signal);
    const stored = await untilDatabaseAnswers(() => storedResult(deps, runId, result, request.formats), signal);
    // The results cache keeps a page the target served (not its 4xx/5xx) of a cacheable request.
    const cacheKey = result.status < 400 ? storedCacheKey(request) : null;
    if (input.step) {
      // An `auto` run: its one debit, at the served step's price, with the record of its success.
      countAttempt(deps, input, tier, { code: 'succeeded' });
      const escalation = await untilDatabaseAnswers(() => deps.runs.recordEscalationStep(runId, escalationEntry(input, attemptNumber, tier, { code: 'succeeded' })), signal);
      const charged = await untilDatabaseAnswers(() => succeedCharged(deps, input, stored, result.elapsed_ms, cacheKey), signal);
      if (charged) {
        // With its `escalation`: the answer told in-process names what served it (`served_by`) as GET /webhook/runs/:id does.
        deps.runEvents?.finished(
          { id: runId, url: request.url, mode: request.mode, status: 'succeeded', attempts: attemptNumber, cost: input.step.charge.amount, request, result: stored, error: null, httpStatus: result.status, elapsedMs: result.elapsed_ms, escalation },
          charged.balanceAfter,
        );
      }
    } else if (input.finishOnSuccess) {
      if (await untilDatabaseAnswers(() => deps.runs.succeed(runId, stored, result.elapsed_ms, cacheKey), signal)) {
        deps.runEvents?.finished(
          { id: runId, url: request.url, mode: request.mode, status: 'succeeded', attempts: attempt, cost: input.debit?.amount ?? 0, request, result: stored, error: null, httpStatus: result.status, elapsedMs: result.elapsed_ms },
          debited?.balanceAfter,
        );
      }
    } else {
      await untilDatabaseAnswers(() => deps.runs.saveResult(runId, stored, result.elapsed_ms, cacheKey), signal);
    }
    deps.metrics.scrapeDuration.observe({ mode: request.mode, outcome: 'succeeded' }, seconds());
    deps.metrics.scrapeOutcomes.inc({ mode: request.mode, outcome: 'succeeded' });
    return { httpStatus: result.status, finalUrl: result.final_url, elapsedMs: result.elapsed_ms };
  } catch (error) {
    // Stopped by a cancel of the run: final, the run is already recorded cancelled (and refunded).
    const failure = running?.cancelled() ? ApplicationFailure.nonRetryable('the run was cancelled', 'CANCELLED') : toFailure(error);
    const outcome = errorCodeOr(failure.type, 'SCRAPE_FAILED');
    deps.metrics.scrapeDuration.observe({ mode: request.mode, outcome }, seconds());
    deps.metrics.scrapeOutcomes.inc({ mode: request.mode, outcome });
    if (input.step && outcome !== 'CANCELLED' && outcome !== 'INSUFFICIENT_CREDIT') await noteStepFailure(deps, input, attemptNumber, tier, failure, signal);
    // The model step fails after the proxy's attempt was recorded a success: not the proxy's either.
    if (proxy && !(error instanceof ApplicationFailure && error.type === 'TARGET_ERROR') && !outcome.startsWith('LLM_')) {
      // A proxy that could not be used is skipped for the cool-down; a target's own error is not the proxy's.
      // A block page is the target refusing this proxy's address: the next attempt takes another.
      if (outcome === 'PROXY_FAILED' || outcome === 'TARGET_BLOCKED') rotationOf(deps, request, tier)?.failed(proxy);
      await untilDatabaseAnswers(() => deps.runs.recordProxyAttempt(runId, { attempt: attemptNumber, proxy: proxy!.id, outcome, message: failure.message }), signal).catch(() => undefined);
    }
    deps.logger.info({ runId, attempt, mode: request.mode, code: outcome, ...(proxy ? { proxy: proxy.id } : {}) }, 'scrape attempt failed');
    throw failure;
  } finally {
    running?.end();
  }
}

/** An `auto` run's failed attempt: counted by tier (and as a move on when it escalates) and added to the run's `escalation`. */
async function noteStepFailure(deps: ScrapeActivityDeps, input: ScrapeActivityInput, attempt: number, tier: ProxyTier | undefined, failure: ApplicationFailure, signal?: AbortSignal): Promise<void> {
  const code = errorCodeOr(failure.type, 'SCRAPE_FAILED');
  const reason = failure.nonRetryable && input.step?.next ? escalationReasonOf(code, failure.message) : undefined;
  const outcome = { code, ...(code === 'TARGET_BLOCKED' ? { blockedBy: blockedByOf(failure.message) } : {}), ...(reason ? { escalated: reason } : {}) };
  countAttempt(deps, input, tier, outcome);
  await untilDatabaseAnswers(() => deps.runs.recordEscalationStep(input.runId, escalationEntry(input, attempt, tier, outcome)), signal).catch(() => undefined);
}

/**
 * The model formats (json with a schema, summary: scrape/llm/model-formats.ts), a step of the
 * scrape activity after the page was read and before its result is stored. Their failures
 * (LLM_INVALID_OUTPUT, LLM_FAILED, LLM_NOT_CONFIGURED) are final for the activity — the step
 * already retried the model once — so a model that fails never scrapes the page again; the run
 * fails and is refunded as any failed scrape (docs/scraping.md "Structured output").
 */
async function modelStep(deps: ScrapeActivityDeps, input: ScrapeActivityInput, result: ScrapeResult, signal?: AbortSignal): Promise<void> {
  const { formats } = input.request;
  const wanted = { json: schemaJsonFormat(formats), summary: summaryFormat(formats) };
  if (!wanted.json && !wanted.summary) return;
  try {
    const outputs = await runModelFormats(deps.llm, result.llm_input ?? '', wanted, signal);
    Object.assign(result, outputs);
    deps.logger.info({ runId: input.runId, usage: outputs.llm_usage }, 'model formats done');
  } catch (error) {
    // What the failed calls cost the operator, in the log (the run keeps no result).
    if (error instanceof AppError && error.extra.llm_usage) deps.logger.info({ runId: input.runId, code: error.code, usage: error.extra.llm_usage }, 'model formats failed');
    throw error;
  } finally {
    delete result.llm_input;
  }
}

/** The rotation an attempt's proxy came from: its tier's pool for the request's country (PROXY_TIERS alone has no PROXY_URLS rotation), else PROXY_URLS's. */
function rotationOf(deps: ScrapeActivityDeps, request: ScrapeRequestPayload, tier: ProxyTier | undefined) {
  return (tier ? deps.proxyTiers?.rotation(tier, request.country) : undefined) ?? deps.proxies;
}

/**
 * The proxy of one attempt: none without PROXY_URLS or with `proxy: "none"`; else the rotation's
 * next one, sticky per flow run and target host with PROXY_STICKY (key `${flowRunId}|${host}`:
 * a crawl would pass its own scope the same way).
 */
function chooseProxy(deps: ScrapeActivityDeps, request: ScrapeRequestPayload, flowRunId: string | null): ProxyEndpoint | undefined {
  if (!deps.proxies || request.proxy === 'none') return undefined;
  return deps.proxies.pick(deps.proxySticky && flowRunId ? proxyStickyKey(flowRunId, request.url) : undefined);
}

/** The proxy settings of a process's scrape activities, from PROXY_URLS, PROXY_TIERS, PROXY_COOLDOWN_MS and PROXY_STICKY. */
export function proxySettings(config: Pick<Config, 'PROXY_URLS' | 'PROXY_TIERS' | 'PROXY_COOLDOWN_MS' | 'PROXY_STICKY'>): Pick<ScrapeActivityDeps, 'proxies' | 'proxySticky' | 'proxyTiers'> {
  const options = { cooldownMs: config.PROXY_COOLDOWN_MS };
  // PROXY_URLS is the basic tier's default pool (platform/config.ts folds it in), and the rotation of plain `proxy: "default"` scrapes.
  const basic = config.PROXY_TIERS.basic?.default;
  const proxies = basic?.length ? createProxyRotation(basic, options) : undefined;
  const proxyTiers = Object.keys(config.PROXY_TIERS).length ? createTierRotations(config.PROXY_TIERS, options, proxies) : undefined;
  return { ...(proxies ? { proxies, proxySticky: config.PROXY_STICKY } : {}), ...(proxyTiers ? { proxyTiers } : {}) };
}

/**
 * A scrape attempt as a Temporal activity (the browser activity, a flow's http fetch): the
 * attempt number and cancellation come from the activity context, and a regular activity
 * heartbeats so a crashed worker is noticed and a cancel reaches the engine.
 */
export async function runScrapeAttempt(deps: ScrapeActivityDeps, engine: Engine, input: ScrapeActivityInput): Promise<ScrapeActivityOutput> {
  const ctx = Context.current();
  return heartbeating(ctx, () => scrapeOnce(deps, engine, input, ctx.info.attempt, ctx.cancellationSignal));
}

/** How often a regular scrape activity heartbeats (the workflows give it a 10 s heartbeat timeout). */
const HEARTBEAT_EVERY_MS = 2000;

/**
 * `work`, heartbeating while it runs when the activity is a regular one (a local activity has no
 * heartbeat): a crashed worker is noticed, and a cancel reaches the engine through `cancellationSignal`.
 */
export async function heartbeating<T>(ctx: Context, work: () => Promise<T>): Promise<T> {
  const heartbeat = ctx.info.isLocal ? undefined : setInterval(() => ctx.heartbeat({ attempt: ctx.info.attempt }), HEARTBEAT_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(heartbeat);
  }
}


/**
 * Gives a run's debit back (once: the refund is keyed by the debit; no debit, nothing to refund).
 * True when the run's credit is back, by this call or an earlier one: a retry after its refund
 * committed (a crash before the run was recorded) still reports it refunded.
 */
export async function refundRun(deps: ScrapeActivityDeps, runId: string): Promise<boolean> {
  const debitKey = scrapeCreditKeys.debit(runId);
  const refund = await refundCredit(deps.sql, { debitKey });
  if (refund.applied) deps.metrics.creditsRefunded.inc();
  return refund.applied || (await isRefunded(deps.sql, debitKey));
}

/**
 * Every attempt of a scrape failed: its credit goes back (once: the refund is keyed by the debit;
 * no debit, nothing to refund) and the run is recorded failed, saying whether it was refunded —
 * unless it finished succeeded meanwhile (scrape/run-cancel.ts failAndRefund).
 */
export async function settleFailedScrape(deps: ScrapeActivityDeps, failed: FailedScrape): Promise<void> {
  // One transaction: a run that succeeded meanwhile (its attempt's process was killed before it
  // reported, and the batch is settled failed) is neither refunded nor failed.
  const { run, refundApplied } = await deps.runs.failAndRefund(failed.runId, { code: failed.code, message: failed.message });
  if (refundApplied) deps.metrics.creditsRefunded.inc();
  if (run) deps.runEvents?.finished(run);
}


/** Records a run's outcome (flow scrapes); idempotent, and never overwrites a finished run. */
export async function finishScrapeRun(runs: ScrapeRunStore, input: FinishScrapeRunInput): Promise<void> {
  const failure = { ...(input.error ?? { code: 'SCRAPE_FAILED', message: 'the scrape failed' }), refunded: input.refunded ?? false };
  if (input.status === 'succeeded') await runs.markSucceeded(input.runId);
  else if (input.status === 'cancelled') await runs.cancel(input.runId, failure);
  else await runs.fail(input.runId, failure);
}
