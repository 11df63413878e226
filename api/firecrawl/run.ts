/**
 * The Firecrawl-compatible scrape and map, run as the native ones are: the same functions the
 * native routes call (`startScrapeRun` of `POST /webhook/unblocker`, `startMap` of `POST /map`),
 * so a compatible call is the same durable run (dispatcher and workflow, run record, ledger,
 * target guard, blacklist, limits), findable as any other.
 *
 * What differs is the deadline: Firecrawl's `timeout` (ms; without it the native route's
 * SYNC_TIMEOUT_MS) is when the answer is due. Past it the run is cancelled (recorded cancelled,
 * its debit refunded: api/scrape-cancel.ts) and the answer is 408; a run that finished in the
 * meantime is answered as it ended. The 408 never says
 * `processing_continues` (the SDKs would re-send the POST, which starts a new run).
 */
import { AppError } from '../../platform/errors';
import { getBalance } from '../../accounts/credit';
import { createScrapeRunStore } from '../../scrape/runs';
import type { MapRequest } from '../../crawl/map-request';
import type { AuthContext } from '../middleware/auth';
import { cancelScrapeRun } from '../scrape-cancel';
import { type ScrapeRunAnswer, failedRunBody, runBody, startScrapeRun } from '../scrape-run';
import { startMap } from '../routes/map';
import { type DocumentImages, type FirecrawlDocument, type ScrapedPage, documentImages as documentImagesOf, toFirecrawlDocument } from '../../scrape/firecrawl-document';
import type { WantedFormats } from './scrape-options';
import type { MappedScrape } from './scrape-options';
import type { AppDeps } from '../deps';

/** A finished compatible call: the document (or the links), else our error body under its status. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; status: number; body: Record<string, unknown> };

function timedOut(kind: 'scrape' | 'map', timeoutMs: number, runId: string): AppError {
  return new AppError('TIMEOUT', `The ${kind} did not finish within the timeout of ${timeoutMs} ms; the run was cancelled and nothing is charged for it`, { id: runId, cancelled: true });
}

/**
 * Past the deadline: cancel the run (and refund it). A run that ended meanwhile cannot be
 * cancelled (409): its outcome is the answer. Returns the run row when it ended, else throws 408.
 */
async function cancelLateRun(deps: AppDeps, kind: 'scrape' | 'map', runId: string, timeoutMs: number) {
  const row = await deps.db.scrapeRun.findUnique({ where: { id: runId } });
  if (!row) throw timedOut(kind, timeoutMs, runId);
  try {
    await cancelScrapeRun(deps, row);
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'CONFLICT')) throw error;
    const ended = await deps.db.scrapeRun.findUniqueOrThrow({ where: { id: runId } });
    if (ended.status === 'succeeded' || ended.status === 'cached' || ended.status === 'failed') return ended;
  }
  throw timedOut(kind, timeoutMs, runId);
}

function isTimeout(error: unknown): error is AppError {
  return error instanceof AppError && error.code === 'TIMEOUT' && typeof error.extra.id === 'string';
}

/** Runs a mapped scrape as POST /webhook/unblocker does; the screenshot (when asked) travels in the document. */
export async function runFirecrawlScrape(deps: AppDeps, auth: AuthContext, mapped: MappedScrape): Promise<Outcome<FirecrawlDocument>> {
  const acceptedAt = Date.now();
  // Without `timeout`, the native route's wait (SYNC_TIMEOUT_MS), and the same 408 past it.
  const timeoutMs = mapped.timeoutMs ?? deps.config.SYNC_TIMEOUT_MS;
  let answer: ScrapeRunAnswer;
  try {
    answer = await startScrapeRun(deps, auth, { ...mapped.request, async: false }, { acceptedAt, deadline: acceptedAt + timeoutMs });
  } catch (error) {
    if (!isTimeout(error)) throw error;
    const ended = await cancelLateRun(deps, 'scrape', error.extra.id as string, timeoutMs);
    answer = ended.status === 'succeeded' || ended.status === 'cached' ? { status: 200, body: runBody(ended, await getBalance(deps.sql, auth.userId)) } : failedRunBody(ended);
  }
  if (answer.status !== 200) return { ok: false, status: answer.status, body: answer.body as Record<string, unknown> };
  const body = answer.body as ReturnType<typeof runBody>;
  const page: ScrapedPage = { ...body, status: body.status, cost: body.credits.cost };
  return { ok: true, value: toFirecrawlDocument(page, mapped.wanted, await documentImages(deps, page, mapped.wanted)) };
}

/** The PNGs of a run that its document carries (scrape/firecrawl-document.ts). */
export function documentImages(deps: AppDeps, page: ScrapedPage, wanted: WantedFormats): Promise<DocumentImages> {
  return documentImagesOf(deps.db, page, wanted);
}

/** Runs a map as POST /map does; `timeoutMs` (else SYNC_TIMEOUT_MS) as the scrape's. */
export async function runFirecrawlMap(deps: AppDeps, auth: AuthContext, request: MapRequest, timeoutMs?: number): Promise<Outcome<{ id: string; links: string[] }>> {
  const runs = createScrapeRunStore(deps.sql);
  const waitMs = timeoutMs ?? deps.config.SYNC_TIMEOUT_MS;
  let answer: { status: number; body?: unknown };
  try {
    answer = await startMap(deps, runs, auth, request, { deadline: Date.now() + waitMs });
  } catch (error) {
    if (!isTimeout(error)) throw error;
    const ended = await cancelLateRun(deps, 'map', error.extra.id as string, waitMs);
    if (ended.status !== 'succeeded') answer = failedRunBody(ended);
    else {
      const stored = (ended.result ?? {}) as { links?: Array<{ url: string }> };
      answer = { status: 200, body: { id: ended.id, links: (stored.links ?? []).map((l) => l.url) } };
    }
  }
  if (answer.status !== 200) return { ok: false, status: answer.status, body: answer.body as Record<string, unknown> };
  const body = answer.body as { id: string; links: string[] };
  return { ok: true, value: { id: body.id, links: body.links } };
}
