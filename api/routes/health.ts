import { Router } from 'express';
import { errorBody } from '../../lib/errors';
import type { AppDeps } from '../app';
import { DEPENDENCY_LABEL, type DependencyMonitor } from '../middleware/dependencies';

/** Processes the API probes itself (database, temporal) or is (api): not taken from the supervisor. */
const OWN_CHECKS = new Set(['postgres', 'temporal', 'api']);

interface SupervisedProcess {
  name: string;
  state: string;
}

/**
 * Under `npm start`, the supervisor's view of the processes the API cannot probe (the worker):
 * 'ok' when running, else 'restarting' (or 'failed', 'stopped'). Undefined when there is no
 * supervisor or it does not answer: the API's own checks then decide alone.
 */
async function supervisedChecks(supervisorUrl: string | undefined): Promise<{ checks: Record<string, string>; starting: boolean } | undefined> {
  if (!supervisorUrl) return undefined;
  try {
    const res = await fetch(`${supervisorUrl}/readyz`, { signal: AbortSignal.timeout(1000) });
    const body = (await res.json()) as { status?: string; processes?: SupervisedProcess[] };
    const checks: Record<string, string> = {};
    for (const p of body.processes ?? []) {
      if (OWN_CHECKS.has(p.name)) continue;
      checks[p.name] = p.state === 'running' ? 'ok' : p.state === 'failed' || p.state === 'stopped' || p.state === 'stopping' ? p.state : 'restarting';
    }
    return { checks, starting: body.status === 'starting' };
  } catch {
    return undefined;
  }
}

export function healthRoutes(deps: AppDeps, dependencies: DependencyMonitor): Router {
  const router = Router();
  /** Liveness: the process answers. */
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  /**
   * Readiness: PostgreSQL and Temporal answer (and, under `npm start`, every supervised process
   * runs). Otherwise 503 in the standard body with `status: "degraded"` and why.
   */
  router.get('/readyz', async (_req, res) => {
    const [probed, supervised] = await Promise.all([dependencies.probe(), supervisedChecks(deps.config.SUPERVISOR_URL)]);
    const checks: Record<string, string> = {
      database: probed.database === 'ok' ? 'ok' : 'unreachable',
      temporal: probed.temporal === 'ok' ? 'ok' : 'unreachable',
      ...supervised?.checks,
    };
    const reasons = Object.entries(checks)
      .filter(([, value]) => value !== 'ok')
      .map(([name, value]) => {
        if (name === 'database' || name === 'temporal') return `${DEPENDENCY_LABEL[name]} ${value} (${probed[name]})`;
        return `${name} ${value}`;
      });
    if (reasons.length === 0) {
      res.json({ status: 'ready', checks });
      return;
    }
    const status = supervised?.starting ? 'starting' : 'degraded';
    res.status(503).json({ ...errorBody(503, `${status === 'starting' ? 'Starting' : 'Degraded'}: ${reasons.join('; ')}`), status, checks });
  });
  router.get('/metrics', async (_req, res) => {
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
  return router;
}
