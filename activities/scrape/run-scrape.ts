import { ApplicationFailure, Context } from '@temporalio/activity';
import { type Database, toJsonColumn } from '../../lib/db';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { WorkerMetrics } from '../../lib/metrics';
import {
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  NON_RETRYABLE_SCRAPE_ERRORS,
  type ScrapeActivityOutput,
  type ScrapeRequestPayload,
} from '../../workflows/definitions';
import type { Blacklist } from './blacklist';
import type { EngineRequest, ScrapeCallOptions, ScrapeResult } from './types';

export interface ScrapeActivityInput {
  runId: string;
  request: ScrapeRequestPayload;
  /**
   * Record the run as succeeded with the result (status and finishedAt in the same write), so
   * the workflow needs no separate finishScrapeRun step on success. A later failure, refund or
   * cancellation still overwrites it through finishScrapeRun.
   */
  finishOnSuccess?: boolean;
}

export type Engine = (req: EngineRequest, opts: ScrapeCallOptions) => Promise<ScrapeResult>;

export interface ScrapeActivityDeps {
  db: Database;
  logger: Logger;
  metrics: WorkerMetrics;
  blacklist: Blacklist;
}

/** Target answers that mean "try again later": the attempt failed, a retry may succeed. */
function isRetryableTargetStatus(status: number): boolean {
  return status >= 500 || status === 429;
}

function toFailure(error: unknown): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;
  if (error instanceof AppError) {
    return ApplicationFailure.create({
      message: error.message,
      type: error.code,
      nonRetryable: (NON_RETRYABLE_SCRAPE_ERRORS as readonly string[]).includes(error.code),
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return ApplicationFailure.create({ message, type: 'SCRAPE_FAILED' });
}

/**
 * One attempt of a scrape, shared by the http and browser activities: records the attempt on
 * the run, runs the engine with Temporal's cancellation and a heartbeat, stores the content in
 * PostgreSQL (not in workflow history) and returns a small summary.
 */
export async function runScrapeAttempt(deps: ScrapeActivityDeps, engine: Engine, input: ScrapeActivityInput): Promise<ScrapeActivityOutput> {
  const ctx = Context.current();
  const { request, runId } = input;
  const attempt = ctx.info.attempt;
  await deps.db.$executeRaw`UPDATE "scrape_run" SET "status" = 'running', "attempts" = ${attempt}, "startedAt" = COALESCE("startedAt", now()) WHERE "id" = ${runId}`;

  // A local activity has no heartbeat (its cancellation comes through the workflow task).
  const heartbeat = ctx.info.isLocal ? undefined : setInterval(() => ctx.heartbeat({ attempt }), 2000);
  const started = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
  try {
    const result = await engine(request, {
      signal: ctx.cancellationSignal,
      timeoutMs: request.options.timeout_ms ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
      isBlacklisted: deps.blacklist.isBlacklisted,
    });
    if (isRetryableTargetStatus(result.status)) {
      throw ApplicationFailure.create({ message: `the target answered HTTP ${result.status}`, type: 'TARGET_ERROR', details: [{ status: result.status }] });
    }
    const stored = { final_url: result.final_url, status: result.status, headers: result.headers, html: result.html, data: result.data, network: result.network };
    await deps.db.scrapeRun.update({
      where: { id: runId },
      data: {
        result: toJsonColumn(stored),
        httpStatus: result.status,
        elapsedMs: result.elapsed_ms,
        ...(input.finishOnSuccess ? { status: 'succeeded' as const, finishedAt: new Date() } : {}),
      },
    });
    deps.metrics.scrapeDuration.observe({ mode: request.mode, outcome: 'succeeded' }, seconds());
    deps.metrics.scrapeOutcomes.inc({ mode: request.mode, outcome: 'succeeded' });
    return { httpStatus: result.status, finalUrl: result.final_url, elapsedMs: result.elapsed_ms };
  } catch (error) {
    const failure = toFailure(error);
    const outcome = failure.type ?? 'SCRAPE_FAILED';
    deps.metrics.scrapeDuration.observe({ mode: request.mode, outcome }, seconds());
    deps.metrics.scrapeOutcomes.inc({ mode: request.mode, outcome });
    deps.logger.info({ runId, attempt, mode: request.mode, code: outcome }, 'scrape attempt failed');
    throw failure;
  } finally {
    clearInterval(heartbeat);
  }
}

export interface FinishScrapeRunInput {
  runId: string;
  status: 'succeeded' | 'failed' | 'cancelled';
  error?: { code: string; message: string };
  refunded?: boolean;
}

/** Records a run's outcome; idempotent (a retry writes the same thing). */
export async function finishScrapeRun(db: Database, input: FinishScrapeRunInput): Promise<void> {
  await db.scrapeRun.update({
    where: { id: input.runId },
    data: {
      status: input.status,
      error: input.error ? { ...input.error, refunded: input.refunded ?? false } : undefined,
      finishedAt: new Date(),
    },
  });
}
