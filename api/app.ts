import express, { type Express } from 'express';
import { apiKeyUsable, createDependencyMonitor, dependencyGate, guardApiKeyVerifier, guardCredentialChecks } from './middleware/dependencies';
import { createErrorHandler, notFound } from './middleware/errors';
import { requestContext } from './middleware/request-context';
import { createLimits, limitSettings } from './limits';
import { buildOpenApi } from './openapi';
import { type Route, mountRoutes } from './route-table';
import { authRouteTable } from './routes/auth';
import { consentRouteTable } from './routes/consent';
import { crawlRouteTable } from './routes/crawl';
import { dashboardRouteTable } from './routes/dashboard';
import { diagnosticsRouteTable } from './routes/diagnostics';
import { docsRouteTable } from './routes/docs';
import { flowRouteTable } from './routes/flows';
import { healthRouteTable } from './routes/health';
import { pricingRouteTable } from './routes/pricing';
import { notificationRouteTable } from './routes/notifications';
import { paymentRouteTable, paymentWebhookRouteTable } from './routes/payments';
import { subscriptionRouteTable } from './routes/subscriptions';
import { paymentProviderFromConfig } from '../billing/payments/service';
import { scrapeRouteTable } from './routes/scrape';
import { mapRouteTable } from './routes/map';
import { searchRouteTable } from './routes/search';
import { monitorRouteTable } from './routes/monitors';
import { scrapeRunRouteTable } from './routes/scrape-runs';
import { userTemplateRouteTable } from './routes/user-templates';
import { userRouteTable } from './routes/users';
import { webhookRouteTable } from './routes/webhooks';
import { whoamiRouteTable } from './routes/whoami';
import { temporalCodecRouteTable } from './routes/temporal-codec';
import { jsonBody } from './middleware/json-body';
import { mcpRouter } from './mcp/router';
import { sessionRouteTable } from './routes/sessions';
import { sessionStoreFromConfig } from '../sessions/store';
import { bearerApiKey } from './middleware/auth';
import { documentRouteTable } from './routes/documents';
import { BEARER_PATHS, FIRECRAWL_PATHS, firecrawlErrorShape, firecrawlRouteTable } from './firecrawl/routes';
import type { AppDeps } from './deps';


/** The document's `info` (GET /openapi.json, the generated clients in clients/). */
export const OPENAPI_INFO = { title: 'Scrape API', version: '0.1.0', description: 'Generated from the route table (docs/api.md).' } as const;

/** The HTTP application: no listening, no globals, every collaborator passed in. */
export function createApp(appDeps: AppDeps): Express & { routes: readonly Route[] } {
  // While PostgreSQL or Temporal is down, answers are 503s that name it (api/middleware/dependencies.ts).
  const dependencies = createDependencyMonitor(
    { database: () => appDeps.db.$queryRaw`SELECT 1`, temporal: () => appDeps.temporal.ping(2000) },
    { onChange: (dependency, reason) => appDeps.logger.warn({ dependency, reason: reason ?? 'ok' }, reason ? 'dependency down' : 'dependency back') },
  );
  // Reachability on /metrics (dependency_up), probed at scrape time with the same probes as /readyz.
  appDeps.metrics.observeDependencies(() => dependencies.probe());
  const deps: AppDeps = {
    ...appDeps,
    auth: guardCredentialChecks(appDeps.auth, dependencies),
    apiKeys: guardApiKeyVerifier(appDeps.apiKeys, (key) => apiKeyUsable(appDeps.sql, key)),
    sessions: appDeps.sessions ?? sessionStoreFromConfig(appDeps.sql, appDeps.config),
    limits: appDeps.limits ?? createLimits({ sql: appDeps.sql, metrics: appDeps.metrics, logger: appDeps.logger, ...limitSettings(appDeps.config) }),
  };
  const payments = paymentProviderFromConfig(deps.config);
  // Every route, as data (api/route-table.ts), in mounting order; the OpenAPI document lists the same.
  const built: { document?: unknown } = {};
  const open = [...healthRouteTable(deps, dependencies), ...docsRouteTable(() => built.document), ...pricingRouteTable(deps.config), ...dashboardRouteTable()];
  // The Temporal codec server (operator credential; needs neither PostgreSQL nor Temporal).
  open.push(...temporalCodecRouteTable(deps));
  // Routes that read the raw request (the auth library, payment webhooks): mounted before the JSON body parser.
  const raw = [...authRouteTable(deps), ...paymentWebhookRouteTable(deps, payments)];
  const json = [
    ...userRouteTable(deps),
    ...scrapeRunRouteTable(deps),
    ...whoamiRouteTable(deps),
    ...scrapeRouteTable(deps),
    // POST /map (docs/crawl.md "Map").
    ...mapRouteTable(deps),
    ...searchRouteTable(deps),
    ...userTemplateRouteTable(deps),
    ...flowRouteTable(deps),
    ...notificationRouteTable(deps),
    ...consentRouteTable(deps),
    ...paymentRouteTable(deps, payments),
    ...subscriptionRouteTable(deps, payments),
    ...webhookRouteTable(deps),
    ...crawlRouteTable(deps),
    ...sessionRouteTable(deps),
    // POST /documents: an uploaded PDF or DOCX (docs/scraping.md "Uploaded documents").
    ...documentRouteTable(deps),
    // Monitors (docs/monitors.md).
    ...monitorRouteTable(deps),
    // The Firecrawl-compatible /v2 and /v1 (docs/firecrawl.md).
    ...firecrawlRouteTable(deps),
    ...(deps.config.DIAGNOSTICS_ENABLED ? diagnosticsRouteTable(deps) : []),
  ];
  const routes: Route[] = [...open, ...raw, ...json];
  built.document = buildOpenApi(routes, { ...OPENAPI_INFO });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(requestContext(deps.logger, deps.metrics));
  // Every error under /v1 and /v2 in Firecrawl's shape, the gate's 503 and the parser's 400 included.
  app.use([...FIRECRAWL_PATHS], firecrawlErrorShape);
  // Health, readiness, metrics, the API's own document and the console's files answer while a dependency is down.
  app.use(mountRoutes(express.Router(), deps, open));
  app.use(dependencyGate(dependencies));
  // The provider's signature covers the raw body, and the auth library reads the raw request.
  app.use(mountRoutes(express.Router(), deps, raw));
  // Routes that read the raw request (the auth library, payment webhooks) are mounted above the JSON body parser.
  app.use(jsonBody('1mb'));
  // /mcp: the MCP server for agents (docs/mcp.md). It reads the key itself (x-api-key or Bearer, refused
  // in its JSON-RPC envelope before its transport), and its tools call the routes of `json` in process.
  app.use(mcpRouter(deps, routes));
  // The API key as a Bearer token, on these groups only (api/middleware/auth.ts `bearerApiKey`).
  app.use([...BEARER_PATHS], bearerApiKey(deps));
  app.use(mountRoutes(express.Router(), deps, json));
  app.use(notFound);
  app.use(createErrorHandler({ onDependencyFailure: (dependency) => dependencies.reportFailure(dependency) }));
  return Object.assign(app, { routes });
}
