import { Router } from 'express';
import type { AppDeps } from '../app';

/** 'ok', or why the probe failed. */
async function check(probe: () => Promise<unknown>, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return 'ok';
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0] ?? 'unreachable' : 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(deps: AppDeps): Router {
  const router = Router();
  /** Liveness: the process answers. */
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  /** Readiness: PostgreSQL and Temporal both answer. */
  router.get('/readyz', async (_req, res) => {
    const [database, temporal] = await Promise.all([
      check(() => deps.db.$queryRaw`SELECT 1`, 2000),
      check(() => deps.temporal.ping(2000), 2500),
    ]);
    const ready = database === 'ok' && temporal === 'ok';
    const checks = { database: database === 'ok' ? 'ok' : 'unreachable', temporal: temporal === 'ok' ? 'ok' : 'unreachable' };
    if (ready) res.json({ status: 'ready', checks });
    else res.status(503).json({ statusCode: 503, message: 'Not ready', error: 'Service Unavailable', checks });
  });
  router.get('/metrics', async (_req, res) => {
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
  return router;
}
