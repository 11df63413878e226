import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { getBalance } from '../../accounts/credit';
import { ownedBy } from '../ownership';
import { type Reply, type Route, mountRoutes, parsedBy, reply, route } from '../route-table';
import { type IdempotencyStore, createIdempotencyStore, idempotentRequest, runIdempotent } from '../idempotency';
import { cancelScrapeRun } from '../scrape-cancel';
import { failedRunBody, replayScrapeRun, runBody, runNeverStarted, startScrapeRun } from '../scrape-run';
import { parseScrapeRequest, scrapeRequestSchema } from '../../scrape/request';
import { errorBodySchema, queuedRunSchema, runResultSchema, runStatusSchema } from '../schemas/responses';
import type { AppDeps } from '../deps';

export { runBody } from '../scrape-run';

/** The example the document shows for a scrape request. */
export const SCRAPE_EXAMPLE = {
  url: 'https://example.com/',
  mode: 'http',
  selectors: ['h1', { name: 'links', selector: 'a', attribute: 'href', all: true }],
  options: { retry_count: 2, timeout_ms: 20000 },
};

/** Failed-run answers carry the failure's own status (403, 502, …) in the standard error body. */
const scrapeResponses = { 200: runResultSchema, 202: queuedRunSchema, 403: errorBodySchema, 502: errorBodySchema, 503: errorBodySchema };

export function scrapeRouteTable(deps: AppDeps): Route[] {
  const idempotency: IdempotencyStore = createIdempotencyStore(deps.sql);
  return [
    route({
      method: 'post',
      path: '/webhook/unblocker',
      credential: 'apiKey',
      tag: 'scraping',
      summary: 'Scrape a page (synchronous up to 50 s, or `async: true` for 202 and a run to poll)',
      body: parsedBy(scrapeRequestSchema, parseScrapeRequest, SCRAPE_EXAMPLE),
      responses: scrapeResponses,
      errors: ['BAD_REQUEST', 'INVALID_URL', 'INVALID_SELECTOR', 'INSUFFICIENT_CREDIT', 'BLACKLISTED', 'PRIVATE_TARGET', 'SCRAPE_FAILED', 'PROXY_FAILED', 'TARGET_ERROR', 'TARGET_BLOCKED', 'RESPONSE_TOO_LARGE', 'DOCUMENT_UNREADABLE', 'BROWSER_UNAVAILABLE', 'RATE_LIMITED', 'TIMEOUT', 'LLM_NOT_CONFIGURED', 'LLM_INVALID_OUTPUT', 'LLM_FAILED', 'SESSION_NOT_FOUND', 'SESSION_TOO_LARGE', 'SESSION_LIMIT_REACHED', 'ACTION_FAILED'],
      idempotent: true,
      handler: async ({ auth, body, req }) => {
        const acceptedAt = Date.now();
        // A session to read that does not exist: 404 before any run or debit (the activity checks again).
        if (body.session && !body.session.save) await assertSessionExists(deps, auth.userId, body.session.name);
        const keyed = idempotentRequest(req, auth.userId, acceptedAt + deps.config.SYNC_TIMEOUT_MS);
        // Without the header: the hot path as it was (no query, no hashing).
        if (!keyed) return (await startScrapeRun(deps, auth, body, { acceptedAt })) as Reply<typeof scrapeResponses>;
        return (await runIdempotent({ store: idempotency, logger: deps.logger }, keyed, {
          start: (runId) => startScrapeRun(deps, auth, body, { runId, acceptedAt }),
          find: (runId) => deps.scrapes.find(runId),
          neverStarted: runNeverStarted,
          replay: (run) => replayScrapeRun(deps, auth, run, { async: body.async, deadline: keyed.deadline }),
        })) as Reply<typeof scrapeResponses>;
      },
    }),
    route({
      method: 'get',
      path: '/webhook/runs/:id/screenshot',
      params: ['id'],
      credential: 'apiKey',
      tag: 'scraping',
      summary: "A browser run's screenshot (`formats: [\"screenshot\"]`), as image/png; the run's owner only",
      responses: { 200: z.string().meta({ format: 'binary' }) },
      responseContentType: 'image/png',
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => {
        ownedBy(await deps.db.scrapeRun.findUnique({ where: { id: params.id }, select: { userId: true } }), auth.userId, 'run');
        const shot = await deps.db.scrapeScreenshot.findUnique({ where: { runId: params.id }, select: { png: true } });
        if (!shot) throw new AppError('NOT_FOUND', 'This run has no screenshot');
        return reply(200, shot.png, { 'content-type': 'image/png', 'cache-control': 'private, max-age=3600' });
      },
    }),
    route({
      method: 'get',
      path: '/webhook/runs/:id/actions/screenshots/:index',
      params: ['id', 'index'],
      credential: 'apiKey',
      tag: 'scraping',
      summary: "The PNG of a browser run's `screenshot` action (`actions`; numbered from 0 in the order taken); the run's owner only",
      responses: { 200: z.string().meta({ format: 'binary' }) },
      responseContentType: 'image/png',
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => {
        ownedBy(await deps.db.scrapeRun.findUnique({ where: { id: params.id }, select: { userId: true } }), auth.userId, 'run');
        const index = /^\d{1,3}$/.test(params.index) ? Number(params.index) : -1;
        const shot = index < 0 ? null : await deps.db.scrapeActionScreenshot.findUnique({ where: { runId_idx: { runId: params.id, idx: index } }, select: { png: true } });
        if (!shot) throw new AppError('NOT_FOUND', `This run has no action screenshot ${params.index}`);
        return reply(200, shot.png, { 'content-type': 'image/png', 'cache-control': 'private, max-age=3600' });
      },
    }),
    route({
      method: 'get',
      path: '/webhook/runs/:id',
      params: ['id'],
      credential: 'apiKey',
      tag: 'scraping',
      summary: 'A scrape run: its status, then its result or error',
      responses: { 200: runStatusSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => {
        const run = ownedBy(await deps.db.scrapeRun.findUnique({ where: { id: params.id } }), auth.userId, 'run');
        return reply(200, await runStatusBody(deps, run, auth.userId));
      },
    }),
    route({
      method: 'post',
      path: '/webhook/runs/:id/cancel',
      params: ['id'],
      credential: 'apiKey',
      tag: 'scraping',
      summary: 'Cancel a queued or running scrape run (its neighbours untouched): recorded cancelled, refunded when it was debited; a repeat answers the same',
      description:
        'The run as `GET /webhook/runs/{id}` then shows it: `status: "cancelled"`, `error: {code: "CANCELLED", message, refunded}`. A run that already succeeded or failed → 409 `CONFLICT`. A scrape of a flow run, or a page of a crawl or batch job, is cancelled with its job → 409 `CONFLICT` naming its cancel route. docs/scraping.md "Cancelling a run".',
      responses: { 200: runStatusSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'CONFLICT'],
      handler: async ({ auth, params }) => {
        const run = ownedBy(await deps.db.scrapeRun.findUnique({ where: { id: params.id } }), auth.userId, 'run');
        await cancelScrapeRun(deps, run);
        const now = await deps.db.scrapeRun.findUniqueOrThrow({ where: { id: run.id } });
        return reply(200, await runStatusBody(deps, now, auth.userId));
      },
    }),
  ];
}

/** SESSION_NOT_FOUND unless the account has a session of that name. */
async function assertSessionExists(deps: AppDeps, userId: string, name: string): Promise<void> {
  if (!(await deps.sessions!.get(userId, name))) throw new AppError('SESSION_NOT_FOUND', `No session named ${name} (save one with session: {name, save: true}, or import one with PUT /sessions/${name})`);
}

type RunRow = NonNullable<Awaited<ReturnType<AppDeps['db']['scrapeRun']['findUnique']>>>;

/** A run as GET /webhook/runs/:id shows it (and its cancel answers it). */
async function runStatusBody(deps: AppDeps, run: RunRow, userId: string) {
  const base = {
    id: run.id,
    status: run.status,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
    links: { self: `/webhook/runs/${run.id}` },
    // Attempts that went through an outbound proxy (docs/scraping.md "Proxies"); absent otherwise.
    ...(Array.isArray(run.proxyAttempts) ? { proxy_attempts: run.proxyAttempts } : {}),
    // An `auto` run's steps (docs/scraping.md "Escalation"); absent otherwise.
    ...(Array.isArray(run.escalation) ? { escalation: run.escalation } : {}),
  };
  // A run answered from the results cache shows its result as a succeeded one does.
  if (run.status === 'succeeded' || run.status === 'cached') return { ...base, result: runBody(run, await getBalance(deps.sql, userId)) };
  if (run.status === 'failed') return { ...base, error: failedRunBody(run).body };
  // Cancelled: `error.refunded` says whether its debit went back (a standalone run's, always when
  // it was debited; a flow run's scrape keeps what it spent).
  if (run.status === 'cancelled') return { ...base, attempts: run.attempts, error: run.error };
  return { ...base, attempts: run.attempts };
}

export function scrapeRoutes(deps: AppDeps): Router {
  return mountRoutes(Router(), deps, scrapeRouteTable(deps));
}
