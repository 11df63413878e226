import { Router } from 'express';
import { z } from 'zod';
import { errorBody } from '../../platform/errors';
import { DEPENDENCY_LABEL, type DependencyMonitor } from '../middleware/dependencies';
import { type Route, customRoute, mountRoutes, reply, route } from '../route-table';
import { errorBodySchema } from '../schemas/responses';
import type { AppDeps } from '../deps';

/** Not checks of this API: itself and its sibling replicas (api, api-1, api-2), the Temporal UI. */
const NOT_CHECKS = /^(api(-\d+)?|temporal-ui)$/;
/** Supervised processes the API also probes itself, by the name of their check. */
const PROBED: Record<string, 'database' | 'temporal'> = { postgres: 'database', temporal: 'temporal' };

interface SupervisedProcess {
  name: string;
  state: string;
}

/**
 * Under `npm start`, the supervisor's view of its processes, by check name (postgres → database,
 * temporal → temporal, the worker by its own name; the API is this process): 'ok' when running,
 * else 'restarting' (or 'failed', 'stopped'). It covers what the API cannot probe (the worker)
 * and a restart quicker than a probe's own retries. Undefined when there is no supervisor or
 * it does not answer: the API's own probes then decide alone.
 */
async function supervisedChecks(supervisorUrl: string | undefined): Promise<{ checks: Record<string, string>; starting: boolean } | undefined> {
  if (!supervisorUrl) return undefined;
  try {
    const res = await fetch(`${supervisorUrl}/readyz`, { signal: AbortSignal.timeout(1000) });
    const body = (await res.json()) as { status?: string; processes?: SupervisedProcess[] };
    const checks: Record<string, string> = {};
    for (const p of body.processes ?? []) {
      if (NOT_CHECKS.test(p.name)) continue;
      checks[PROBED[p.name] ?? p.name] = p.state === 'running' ? 'ok' : p.state === 'failed' || p.state === 'stopped' || p.state === 'stopping' ? p.state : 'restarting';
    }
    return { checks, starting: body.status === 'starting' };
  } catch {
    return undefined;
  }
}

const checksSchema = z.record(z.string(), z.string());

export function healthRouteTable(deps: AppDeps, dependencies: DependencyMonitor): Route[] {
  return [
    /** Liveness: the process answers. */
    route({
      method: 'get',
      path: '/healthz',
      credential: 'none',
      tag: 'operations',
      summary: 'Liveness: the process answers',
      responses: { 200: z.object({ status: z.literal('ok') }) },
      errors: [],
      handler: () => reply(200, { status: 'ok' }),
    }),
    /**
     * Readiness: PostgreSQL and Temporal answer (and, under `npm start`, every supervised process
     * runs). Otherwise 503 in the standard body with `status: "degraded"` and why.
     */
    route({
      method: 'get',
      path: '/readyz',
      credential: 'none',
      tag: 'operations',
      summary: 'Readiness: PostgreSQL, Temporal and the supervised processes (503 with the reasons otherwise)',
      responses: {
        200: z.object({ status: z.literal('ready'), checks: checksSchema }),
        503: errorBodySchema.extend({ status: z.enum(['starting', 'degraded']), checks: checksSchema }),
      },
      errors: ['NOT_READY'],
      handler: async () => {
        const [probed, supervised] = await Promise.all([dependencies.probe(), supervisedChecks(deps.config.SUPERVISOR_URL)]);
        // A probe that fails says 'unreachable'; one that passes defers to the supervisor ('restarting').
        const checks: Record<string, string> = { ...supervised?.checks };
        for (const name of ['database', 'temporal'] as const) {
          checks[name] = probed[name] !== 'ok' ? 'unreachable' : (supervised?.checks[name] ?? 'ok');
        }
        const reasons = Object.entries(checks)
          .filter(([, value]) => value !== 'ok')
          .map(([name, value]) => {
            if (name === 'database' || name === 'temporal') return `${DEPENDENCY_LABEL[name]} ${value}${probed[name] !== 'ok' ? ` (${probed[name]})` : ''}`;
            return `${name} ${value}`;
          });
        if (reasons.length === 0) return reply(200, { status: 'ready', checks });
        const status = supervised?.starting ? 'starting' : 'degraded';
        return reply(503, { ...errorBody('NOT_READY', `${status === 'starting' ? 'Starting' : 'Degraded'}: ${reasons.join('; ')}`), status, checks });
      },
    }),
    /** Prometheus text: a stream of its own content type, so a custom handler. */
    customRoute({
      method: 'get',
      path: '/metrics',
      credential: 'none',
      tag: 'operations',
      summary: 'Prometheus metrics (text exposition format)',
      responses: { 200: z.string() },
      responseContentType: 'text/plain; version=0.0.4',
      errors: [],
      mount: (router) =>
        router.get('/metrics', async (_req, res) => {
          res.type(deps.metrics.registry.contentType).send(await deps.metrics.exposition());
        }),
    }),
  ];
}

export function healthRoutes(deps: AppDeps, dependencies: DependencyMonitor): Router {
  return mountRoutes(Router(), deps, healthRouteTable(deps, dependencies));
}
