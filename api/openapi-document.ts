/**
 * The OpenAPI document the service serves at GET /openapi.json, built without starting anything:
 * the app is created with collaborators that are never called (routes only), exactly as the API
 * process creates it, so the document is the one the running service answers. Used by
 * scripts/generate-clients.ts (clients/openapi.json and the generated clients) and its tests.
 */
import { parseConfig } from '../platform/config';
import { createLogger } from '../platform/logger';
import { createMetrics } from '../platform/metrics';
import { OPENAPI_INFO, createApp } from './app';
import { buildOpenApi } from './openapi';
import type { Route } from './route-table';
import type { AppDeps } from './deps';

/** The app of a service configured by `env`, with collaborators that are never called: its routes only. */
export function routesOnlyApp(env: Record<string, string> = {}) {
  const config = parseConfig({ DATABASE_URL: 'postgresql://unused@127.0.0.1:1/unused', ...env });
  const deps = {
    config,
    logger: createLogger({ level: 'silent' }),
    metrics: createMetrics(),
    auth: { nodeHandler: () => Promise.resolve(), api: {} },
  } as unknown as AppDeps;
  return createApp(deps);
}

/**
 * The document of a service configured by `env` (only `DIAGNOSTICS_ENABLED` changes the route
 * set); the default is a production-like service: no diagnostics route.
 */
export function serviceDocument(env: Record<string, string> = {}): Record<string, unknown> {
  const app = routesOnlyApp(env);
  // Express's own `app.routes` is typed `any`, which swallows ours.
  return buildOpenApi(app.routes as readonly Route[], { ...OPENAPI_INFO });
}
