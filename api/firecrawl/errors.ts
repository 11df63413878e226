/**
 * Errors of the Firecrawl-compatible routes (docs/firecrawl.md "Errors"): Firecrawl's body
 * `{success: false, code, error, details?}` under the statuses its SDKs interpret.
 *
 * The routes, the auth middleware, the body parser, the dependency gate and the error handler
 * all answer our standard body (platform/errors.ts); `firecrawlErrorShape` rewrites it on the way
 * out for every path under `/v1` and `/v2`, so no answer there (a 404 for an unknown route, a
 * 503 while PostgreSQL is down) reaches an SDK in our own dialect.
 *
 * Statuses: what the SDKs do with each decides the mapping.
 * - 400, 401, 402, 403, 404, 409, 429 keep their meaning (429 keeps its `Retry-After`);
 * - our 504 TIMEOUT becomes 408 (`SCRAPE_TIMEOUT` / `MAP_TIMEOUT`), never with
 *   `details.state: "processing_continues"`: on that signal both SDKs re-send the same POST;
 * - a target that could not be scraped (our 502s: SCRAPE_FAILED, TARGET_ERROR, PROXY_FAILED,
 *   RESPONSE_TOO_LARGE, TARGET_BLOCKED) becomes 500: the SDKs re-send a POST answered 502 up to three times,
 *   and each re-send would be a new paid run of a scrape that already used its retries here;
 * - our own temporary unavailability (503: a dependency down, Chromium's pool full, not ready)
 *   becomes 502, which is the one status the SDKs retry.
 */
import type { NextFunction, Request, Response } from 'express';
import { type ErrorCode, isErrorCode } from '../../platform/errors';

export interface FirecrawlErrorBody {
  success: false;
  /** Firecrawl's code where one exists (`BAD_REQUEST`, `SCRAPE_TIMEOUT`, …), else ours. */
  code: string;
  error: string;
  details?: Record<string, unknown> | unknown[];
}

interface FirecrawlError {
  status: number;
  code: string;
}

/** Our code → the Firecrawl status and code its SDKs expect. */
export function firecrawlErrorOf(code: ErrorCode, route: 'scrape' | 'map' | 'job' = 'scrape'): FirecrawlError {
  switch (code) {
    case 'BAD_REQUEST':
    case 'INVALID_URL':
    case 'INVALID_SELECTOR':
    case 'VALIDATION_FAILED':
    case 'PLACEHOLDER':
    case 'NOT_A_LIST':
    case 'IDEMPOTENCY_KEY_REUSED':
      return { status: 400, code: 'BAD_REQUEST' };
    case 'LLM_NOT_CONFIGURED':
      // A model format on a service without a model: the request, not the server (as on the native route).
      return { status: 400, code };
    case 'SEARCH_NOT_CONFIGURED':
      // A search on a service without a backend: the request cannot be served here, as LLM_NOT_CONFIGURED.
      return { status: 400, code };
    case 'MALFORMED_JSON':
      return { status: 400, code: 'BAD_REQUEST_INVALID_JSON' };
    case 'UNSUPPORTED_MEDIA_TYPE':
      return { status: 400, code: 'BAD_REQUEST' };
    case 'PAYLOAD_TOO_LARGE':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE' };
    case 'UNAUTHORIZED':
      return { status: 401, code: 'UNAUTHORIZED' };
    case 'INSUFFICIENT_CREDIT':
      return { status: 402, code: 'INSUFFICIENT_CREDITS' };
    case 'BLACKLISTED':
    case 'PRIVATE_TARGET':
    case 'ROBOTS_DISALLOWED':
    case 'FORBIDDEN':
    case 'INVALID_ORIGIN':
      return { status: 403, code };
    case 'NOT_FOUND':
      return { status: 404, code: 'NOT_FOUND' };
    // The `session` extension (docs/firecrawl.md): its own codes, Firecrawl has no sessions.
    case 'SESSION_NOT_FOUND':
      return { status: 404, code };
    case 'SESSION_LIMIT_REACHED':
      return { status: 409, code };
    case 'SESSION_TOO_LARGE':
      return { status: 413, code };
    case 'METHOD_NOT_ALLOWED':
      return { status: 405, code };
    case 'MONITOR_LIMIT_REACHED':
      // The account's monitors at MONITOR_MAX_PER_ACCOUNT (docs/monitors.md): our code, as the native route's 409.
      return { status: 409, code };
    case 'CONFLICT':
    case 'CANCELLED':
    case 'IDEMPOTENCY_CONFLICT':
      return { status: 409, code };
    case 'RATE_LIMITED':
      return { status: 429, code: 'RATE_LIMITED' };
    case 'TIMEOUT':
      return { status: 408, code: route === 'map' ? 'MAP_TIMEOUT' : 'SCRAPE_TIMEOUT' };
    case 'SCRAPE_FAILED':
    case 'PROXY_FAILED':
    case 'TARGET_ERROR':
    case 'RESPONSE_TOO_LARGE':
    case 'DOCUMENT_UNREADABLE':
      return { status: 500, code: code === 'TARGET_ERROR' ? 'SCRAPE_SITE_ERROR' : 'SCRAPE_ALL_ENGINES_FAILED' };
    case 'TARGET_BLOCKED':
      // 500 as for the other target failures (never a status the SDKs re-send); our code, with `blocked_by` in details.
      return { status: 500, code };
    case 'LLM_INVALID_OUTPUT':
    case 'LLM_FAILED':
      // The model failed after its own retry: 500 with our code, never the 502 the SDKs re-send (a new paid run each).
      return { status: 500, code };
    case 'ACTION_FAILED':
      // An action that cannot be carried out fails the same way again: not a 502 (the status the SDKs retry).
      return { status: 500, code: 'SCRAPE_ACTION_ERROR' };
    case 'SEARCH_UNAVAILABLE':
    case 'BROWSER_UNAVAILABLE':
    case 'DEPENDENCY_UNAVAILABLE':
    case 'NOT_READY':
    case 'REQUEST_IN_PROGRESS':
    case 'PAYMENTS_UNAVAILABLE':
      return { status: 502, code };
    default:
      return { status: 500, code: 'UNKNOWN_ERROR' };
  }
}

/** Fields of our standard body that are its frame, not its details. */
const FRAME = new Set(['statusCode', 'message', 'error', 'code']);

/**
 * Our standard error body (or the alternative 401 body of a rejected key) as Firecrawl's.
 * `details` keeps what our body says besides its message (the run id, `refunded`, the cost and
 * the balance of a 402), so nothing a caller could act on is lost.
 */
export function toFirecrawlError(body: Record<string, unknown>, route: 'scrape' | 'map' | 'job' = 'scrape'): { status: number; body: FirecrawlErrorBody } {
  const ours: ErrorCode = isErrorCode(body.code) ? body.code : 'INTERNAL';
  const mapped = firecrawlErrorOf(ours, route);
  const message = Array.isArray(body.message) ? body.message.map(String).join('; ') : typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : 'Error';
  const details = Object.fromEntries(Object.entries(body).filter(([key]) => !FRAME.has(key)));
  // Which of our codes it was, when Firecrawl's code is coarser (BAD_REQUEST for INVALID_URL).
  if (mapped.code !== ours) details.reason = ours;
  return { status: mapped.status, body: { success: false, code: mapped.code, error: message, ...(Object.keys(details).length ? { details } : {}) } };
}

/** Which of the routes a path is, for the timeout's code. */
function routeOf(path: string): 'scrape' | 'map' | 'job' {
  if (/\/map\/?$/.test(path)) return 'map';
  if (/\/scrape\/?$/.test(path) && !path.includes('/batch/')) return 'scrape';
  return 'job';
}

function isOurErrorBody(status: number, body: unknown): body is Record<string, unknown> {
  return status >= 400 && body !== null && typeof body === 'object' && !Array.isArray(body) && 'code' in body && (body as { success?: unknown }).success === undefined;
}

/**
 * Mounted on `/v1` and `/v2` before anything else answers there: every error body in our shape
 * leaves in Firecrawl's, under the status the SDKs interpret. Answers already in Firecrawl's
 * shape (`success` present) pass as they are.
 */
export function firecrawlErrorShape(req: Request, res: Response, next: NextFunction): void {
  const json = res.json.bind(res);
  res.json = (body?: unknown) => {
    if (!isOurErrorBody(res.statusCode, body)) return json(body);
    const converted = toFirecrawlError(body, routeOf(req.originalUrl.split('?')[0] ?? ''));
    res.status(converted.status);
    return json(converted.body);
  };
  next();
}
