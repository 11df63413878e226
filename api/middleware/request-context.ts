import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../../platform/logger';
import type { Metrics } from '../../platform/metrics';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    log: Logger;
  }
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The matched route pattern (never the raw path, so ids do not explode label cardinality).
 * Routes are registered with their full paths on routers mounted at "/", so `req.route.path`
 * is the whole pattern; handlers that are not Express routes (the auth library) set
 * `res.locals.route` themselves.
 */
export function routePattern(req: Request, res: Response): string {
  if (typeof res.locals.route === 'string') return res.locals.route;
  const route: unknown = req.route;
  if (typeof route === 'object' && route !== null && 'path' in route && typeof route.path === 'string') return route.path;
  return 'unmatched';
}

/**
 * Request id (accepted from `x-request-id` when it looks safe, else generated), a child logger,
 * one access-log line and the HTTP metrics per request. Logs never carry headers or bodies.
 */
export function requestContext(logger: Logger, metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('x-request-id');
    req.id = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.log = logger.child({ requestId: req.id });
    res.setHeader('x-request-id', req.id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const labels = { method: req.method, route: routePattern(req, res), status: String(res.statusCode) };
      metrics.httpRequestsTotal.inc(labels);
      metrics.httpRequestDuration.observe(labels, seconds);
      req.log.info({ method: req.method, route: labels.route, status: res.statusCode, ms: Math.round(seconds * 1000) }, 'request');
    });
    next();
  };
}
