/**
 * One scrape run, after its request was parsed: the part shared by `POST /webhook/unblocker` and
 * `POST /user-templates/:id/run`. Precheck (blacklist, scheme, private target) → cost, 402 when
 * the balance is short → scrape_run row → scrapeWorkflow started → 202 when async, else wait up
 * to SYNC_TIMEOUT_MS: 504 with the run id, 200 with the result, or the failure's status and body.
 */
import { randomUUID } from 'node:crypto';
import { checkTarget, resolvePublicHost } from '../activities/scrape/guard';
import { getBalance } from '../lib/credit';
import { toJsonColumn } from '../lib/db';
import { AppError, ERROR_STATUS, errorBody, isErrorCode } from '../lib/errors';
import { type ScrapeWorkflowInput, type ScrapeWorkflowOutput, workflowIds } from '../workflows/definitions';
import type { AppDeps } from './app';
import { awaitWorkflow } from './await-workflow';
import type { AuthContext } from './middleware/auth';
import { type ScrapeRequest, scrapeCost } from './schemas/scrape';

interface StoredResult {
  final_url: string;
  status: number;
  headers: Record<string, string>;
  html?: string;
  data?: unknown[];
  network?: unknown[];
}

export type RunRow = NonNullable<Awaited<ReturnType<AppDeps['db']['scrapeRun']['findUnique']>>>;

/** Status of a failed run's answer: its error code's status; an unknown code is a failed scrape (502). */
function failureStatus(code: string): number {
  return isErrorCode(code) ? ERROR_STATUS[code] : ERROR_STATUS.SCRAPE_FAILED;
}

/** The body of a finished run, as POST /webhook/unblocker answers and GET /webhook/runs/:id shows. */
export function runBody(run: RunRow, remaining: number) {
  const stored = (run.result ?? {}) as Partial<StoredResult>;
  const request = run.request as unknown as ScrapeRequest;
  return {
    id: run.id,
    url: run.url,
    final_url: stored.final_url ?? run.url,
    status: run.httpStatus,
    mode: run.mode,
    elapsed_ms: run.elapsedMs,
    attempts: run.attempts,
    ...(stored.data !== undefined ? { data: stored.data } : {}),
    ...(stored.html !== undefined && !request.selectors?.length ? { html: stored.html } : {}),
    headers: stored.headers ?? {},
    ...(stored.network !== undefined ? { network: stored.network } : {}),
    credits: { cost: run.cost, remaining },
  };
}

export function failedRunBody(run: RunRow) {
  const error = (run.error ?? { code: 'SCRAPE_FAILED', message: 'the scrape failed' }) as { code: string; message: string; refunded?: boolean };
  const status = failureStatus(error.code);
  return { status, body: errorBody(status, error.message, { id: run.id, code: error.code, attempts: run.attempts, refunded: error.refunded ?? false }) };
}

/** Checks what can be refused before any work: blacklist, scheme, private targets (403/400). */
async function precheck(deps: AppDeps, request: ScrapeRequest): Promise<void> {
  const url = await checkTarget(request.url, { allowPrivateTargets: deps.config.ALLOW_PRIVATE_TARGETS, isBlacklisted: deps.blacklist.isBlacklisted });
  try {
    await resolvePublicHost(url.hostname, { allowPrivateTargets: deps.config.ALLOW_PRIVATE_TARGETS });
  } catch (error) {
    // A private address is final; a DNS failure is left to the scrape's retries.
    if (error instanceof AppError && error.code === 'PRIVATE_TARGET') throw error;
  }
}

export interface ScrapeRunOptions {
  /** Workflow id from the run id (default `scrape-<runId>`); always a business key. */
  workflowId?: (runId: string) => string;
  /** Extra search attributes (e.g. TemplateId) and memo fields, added to the run's own. */
  searchAttributes?: Record<string, string[]>;
  memo?: Record<string, unknown>;
}

/** What the route sends: a status and a JSON body. Errors before or around the run are thrown (AppError). */
export interface ScrapeRunAnswer {
  status: number;
  body: unknown;
}

/** Starts a parsed scrape request as a scrape_run and scrapeWorkflow, and answers as the scrape route does. */
export async function startScrapeRun(deps: AppDeps, auth: AuthContext, request: ScrapeRequest, options: ScrapeRunOptions = {}): Promise<ScrapeRunAnswer> {
  const cost = scrapeCost(request);
  // Both only read: the target check (its DNS lookup included) and the balance query run together.
  const [checked, balanceRead] = await Promise.allSettled([precheck(deps, request), getBalance(deps.db, auth.userId)]);
  if (checked.status === 'rejected') throw checked.reason;
  if (balanceRead.status === 'rejected') throw balanceRead.reason;
  const balance = balanceRead.value;
  if (balance < cost) {
    throw new AppError('INSUFFICIENT_CREDIT', `This request costs ${cost} credit${cost === 1 ? '' : 's'}; ${balance} remaining`, { remaining: balance, cost });
  }

  const runId = randomUUID();
  const workflowId = (options.workflowId ?? workflowIds.scrape)(runId);
  await deps.db.scrapeRun.create({
    data: { id: runId, userId: auth.userId, apiKeyId: auth.apiKeyId, workflowId, mode: request.mode, url: request.url, request: toJsonColumn(request), cost },
  });
  const input: ScrapeWorkflowInput = { runId, userId: auth.userId, apiKeyId: auth.apiKeyId, cost, request, browserQueue: deps.queues.browser };
  const client = await deps.temporal.get();
  let handle;
  try {
    handle = await client.workflow.start('scrapeWorkflow', {
      taskQueue: deps.queues.main,
      workflowId,
      args: [input],
      memo: { accountId: auth.userId, url: request.url, ...options.memo },
      searchAttributes: { AccountId: [auth.userId], ScrapeMode: [request.mode], TargetHost: [new URL(request.url).hostname], ...options.searchAttributes },
    });
  } catch (error) {
    // Never leave a run half-recorded: it did not start, nothing was debited.
    await deps.db.scrapeRun.update({ where: { id: runId }, data: { status: 'failed', error: { code: 'INTERNAL', message: 'the run could not be started' }, finishedAt: new Date() } });
    throw error;
  }

  if (request.async) return { status: 202, body: { id: runId, status: 'queued', links: { self: `/webhook/runs/${runId}` } } };
  const outcome = await awaitWorkflow<ScrapeWorkflowOutput>(client, handle, deps.config.SYNC_TIMEOUT_MS);
  if (outcome.timedOut) {
    throw new AppError('TIMEOUT', `The scrape did not finish within ${deps.config.SYNC_TIMEOUT_MS} ms; fetch the outcome later from /webhook/runs/${runId}`, {
      id: runId,
      links: { self: `/webhook/runs/${runId}` },
    });
  }
  const run = await deps.db.scrapeRun.findUniqueOrThrow({ where: { id: runId } });
  if (run.status === 'succeeded') return { status: 200, body: runBody(run, await getBalance(deps.db, auth.userId)) };
  return failedRunBody(run);
}
