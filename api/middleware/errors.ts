import type { NextFunction, Request, Response } from 'express';
import { AppError, ERROR_STATUS, errorBody } from '../../platform/errors';
import { type Dependency, RETRY_AFTER_SECONDS, dependencyUnavailable, unreachableDependency } from './dependencies';

/** Unknown route → 404 in the standard shape. */
export function notFound(req: Request, res: Response) {
  res.status(404).json(errorBody('NOT_FOUND', `Cannot ${req.method} ${req.path}`));
}

interface BodyParserError {
  type?: string;
  status?: number;
}

export interface ErrorHandlerOptions {
  /** Told of every request that failed because PostgreSQL or Temporal could not be reached. */
  onDependencyFailure?: (dependency: Dependency) => void;
}

/**
 * The one place that turns errors into HTTP: AppError → its status and body; PostgreSQL or
 * Temporal unreachable → 503 DEPENDENCY_UNAVAILABLE with Retry-After; body-parser failures →
 * 400/413; anything else → 500 without internals (the stack goes to the log only).
 */
export function createErrorHandler(options: ErrorHandlerOptions = {}) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) {
      req.log.error({ err: error }, 'error after headers were sent');
      res.end();
      return;
    }
    const dependency = unreachableDependency(error);
    if (dependency) {
      options.onDependencyFailure?.(dependency);
      req.log.warn({ dependency, reason: error instanceof Error ? error.message.trim().split('\n').pop() : String(error) }, 'dependency unreachable');
      res.setHeader('retry-after', String(RETRY_AFTER_SECONDS));
      res.status(503).json(dependencyUnavailable(dependency).toBody());
      return;
    }
    if (error instanceof AppError) {
      if (error.status >= 500) req.log.error({ err: error, code: error.code }, 'request failed');
      // A limit says when to come back (api/limits.ts).
      if (error.code === 'RATE_LIMITED' && typeof error.extra.retryAfter === 'number') res.setHeader('retry-after', String(error.extra.retryAfter));
      // A repeat whose first request has not recorded its run (api/idempotency.ts): as soon as an outage's 503.
      if (error.code === 'REQUEST_IN_PROGRESS') res.setHeader('retry-after', String(RETRY_AFTER_SECONDS));
      res.status(error.status).json(error.toBody());
      return;
    }
    const parserError = error as BodyParserError;
    if (parserError?.type === 'entity.too.large') {
      res.status(413).json(errorBody('PAYLOAD_TOO_LARGE', 'Request body is larger than 1 MiB'));
      return;
    }
    if (parserError?.type === 'entity.parse.failed') {
      res.status(400).json(errorBody('MALFORMED_JSON', 'Malformed JSON in request body'));
      return;
    }
    if (parserError?.type && typeof parserError.status === 'number' && parserError.status < 500) {
      const code = parserError.status === 413 ? 'PAYLOAD_TOO_LARGE' : parserError.status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST';
      res.status(ERROR_STATUS[code]).json(errorBody(code, 'Unreadable request body'));
      return;
    }
    req.log.error({ err: error }, 'unexpected error');
    res.status(500).json(errorBody('INTERNAL', 'Internal server error'));
  };
}

/** The error middleware without a dependency monitor. */
export const errorHandler = createErrorHandler();
