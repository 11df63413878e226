import express, { type Express } from 'express';
import type { Blacklist } from '../activities/scrape/blacklist';
import type { Auth } from '../lib/auth';
import type { Config } from '../lib/config';
import type { Database } from '../lib/db';
import type { Logger } from '../lib/logger';
import type { Metrics } from '../lib/metrics';
import type { SqlPool } from '../lib/sql';
import type { LazyTemporalClient } from '../lib/temporal-client';
import type { TaskQueues } from '../workflows/definitions';
import type { ApiKeyVerifier } from './api-key-cache';
import { createDependencyMonitor, dependencyGate, guardApiKeyVerifier, guardCredentialChecks } from './middleware/dependencies';
import { createErrorHandler, notFound } from './middleware/errors';
import { requestContext } from './middleware/request-context';
import { authRoutes } from './routes/auth';
import { consentRoutes } from './routes/consent';
import { diagnosticsRoutes } from './routes/diagnostics';
import { flowRoutes } from './routes/flows';
import { healthRoutes } from './routes/health';
import { notificationRoutes } from './routes/notifications';
import { paymentRoutes, paymentWebhookRoutes } from './routes/payments';
import { subscriptionRoutes } from './routes/subscriptions';
import { paymentProviderFromConfig } from '../lib/payments/service';
import { scrapeRoutes } from './routes/scrape';
import type { ScrapeDispatcher } from './scrape-dispatch';
import { userTemplateRoutes } from './routes/user-templates';
import { userRoutes } from './routes/users';
import { whoamiRoutes } from './routes/whoami';

export interface AppDeps {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  db: Database;
  /** Plain SQL for the hot path of a scrape (balance reads). */
  sql: SqlPool;
  temporal: LazyTemporalClient;
  queues: TaskQueues;
  /** The auth library (lib/auth.ts): sessions and API keys. */
  auth: Auth;
  /** API keys, verified through the auth plugin and cached until revoked (api/api-key-cache.ts). */
  apiKeys: ApiKeyVerifier;
  blacklist: Blacklist;
  /** Records and starts standalone scrapes and waits for them (api/scrape-dispatch.ts). */
  scrapes: ScrapeDispatcher;
}

/** The HTTP application: no listening, no globals, every collaborator passed in. */
export function createApp(appDeps: AppDeps): Express {
  // While PostgreSQL or Temporal is down, answers are 503s that name it (api/middleware/dependencies.ts).
  const dependencies = createDependencyMonitor(
    { database: () => appDeps.db.$queryRaw`SELECT 1`, temporal: () => appDeps.temporal.ping(2000) },
    { onChange: (dependency, reason) => appDeps.logger.warn({ dependency, reason: reason ?? 'ok' }, reason ? 'dependency down' : 'dependency back') },
  );
  // Reachability on /metrics (dependency_up), probed at scrape time with the same probes as /readyz.
  appDeps.metrics.observeDependencies(() => dependencies.probe());
  const deps: AppDeps = { ...appDeps, auth: guardCredentialChecks(appDeps.auth, dependencies), apiKeys: guardApiKeyVerifier(appDeps.apiKeys, dependencies) };
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(requestContext(deps.logger, deps.metrics));
  app.use(healthRoutes(deps, dependencies));
  app.use(dependencyGate(dependencies));
  app.use(authRoutes(deps));
  const payments = paymentProviderFromConfig(deps.config);
  // The provider's signature covers the raw body: parsed by express.raw inside, before express.json.
  app.use(paymentWebhookRoutes(deps, payments));
  // Routes that read the raw request (the auth library, payment webhooks) are mounted above this line.
  app.use(express.json({ limit: '1mb' }));
  app.use(userRoutes(deps));
  app.use(whoamiRoutes(deps));
  app.use(scrapeRoutes(deps));
  app.use(userTemplateRoutes(deps));
  app.use(flowRoutes(deps));
  app.use(notificationRoutes(deps));
  app.use(consentRoutes(deps));
  app.use(paymentRoutes(deps, payments));
  app.use(subscriptionRoutes(deps, payments));
  if (deps.config.DIAGNOSTICS_ENABLED) app.use(diagnosticsRoutes(deps));
  app.use(notFound);
  app.use(createErrorHandler({ onDependencyFailure: (dependency) => dependencies.reportFailure(dependency) }));
  return app;
}
