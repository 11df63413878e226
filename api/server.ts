/**
 * API entry point (composition root). Run alone against external services
 * (`npm run start:api` with DATABASE_URL and TEMPORAL_ADDRESS), or under scripts/start.ts.
 */
import type { Server } from 'node:http';
import { Worker } from '@temporalio/worker';
import { createBlacklist } from '../scrape/blacklist';
import { closeEngines, createEngines, servedModes } from '../scrape/engine-implementations';
import { createAuth } from '../accounts/auth';
import { loadConfig, type Config } from '../platform/config';
import { createDatabase } from '../platform/db';
import { createLogger } from '../platform/logger';
import { createWorkerMetrics } from '../platform/metrics';
import { runMigrations } from '../platform/migrate';
import { installSdkMetrics } from '../platform/temporal-sdk-metrics';
import { deliveryFromConfig } from '../notifications/delivery';
import { setNotificationDelivery } from '../notifications/notifications';
import { createPgListener } from '../platform/pg-listener';
import { exitWithParent } from '../platform/exit-with-parent';
import { createRunningAttempts } from '../scrape/running-attempts';
import { createScrapeRunStore } from '../scrape/runs';
import { createSqlPool } from '../platform/sql';
import { createLazyTemporalClient } from '../platform/temporal-client';
import { loadWorkflowBundle } from '../workers/workflow-bundle';
import { createHostedSyncActivities, scrapeActivitySettings } from '../workers/deps';
import { temporalDataConverter } from '../workers/payload-codec';
import { taskQueues } from '../workflows/definitions';
import { createApiKeyVerifier } from './api-key-cache';
import { createApp } from './app';
import { createIdempotencySweeper, createIdempotencyStore } from './idempotency';
import { createLimits, limitSettings } from './limits';
import { createRunWaiters } from './run-waiters';
import { createOrphanRunReaper } from './orphan-runs';
import { createClosedWorkflowSweep } from './closed-workflow-runs';
import { createScrapeDispatcher } from './scrape-dispatch';
import { sessionStoreFromConfig } from '../sessions/store';

export async function startApi(config: Config): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  if (!config.DATABASE_URL || !config.TEMPORAL_ADDRESS) {
    throw new Error('The API needs DATABASE_URL and TEMPORAL_ADDRESS (npm start sets both for the embedded default).');
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'api' });
  if (config.MIGRATE_ON_START) await runMigrations(config.DATABASE_URL);
  const db = createDatabase(config.DATABASE_URL);
  const sql = createSqlPool(config.DATABASE_URL);
  const runs = createScrapeRunStore(sql);
  setNotificationDelivery(deliveryFromConfig(config), logger);
  const blacklist = createBlacklist(db);
  if (config.BLACKLIST_HOSTS.length) await blacklist.add(config.BLACKLIST_HOSTS, 'BLACKLIST_HOSTS');
  const auth = createAuth({ config, db, logger });
  const listener = createPgListener(config.DATABASE_URL, ['scrape_run_finished', 'apikey_changed'], logger);
  // The attempts this process's worker runs: a cancel received here stops one of them at once.
  const attempts = createRunningAttempts();
  const waiters = createRunWaiters({
    runs,
    listener,
    onError: (error) => logger.warn({ err: String(error) }, 'reading finished runs failed'),
    // A run still running here hands itself over (api/run-waiters.ts): its notification is not read.
    runningHere: (runId) => attempts.has(runId),
  });
  const apiKeys = createApiKeyVerifier({
    listener,
    async verifyWithPlugin(key) {
      const result = await auth.api.verifyApiKey({ body: { key } });
      if (!result.valid || !result.key || result.key.enabled === false) return null;
      return { userId: result.key.referenceId, apiKeyId: result.key.id, expiresAt: result.key.expiresAt ? new Date(result.key.expiresAt) : null };
    },
    async touch(apiKeyId) {
      await sql.query('UPDATE apikey SET "lastRequest" = now() WHERE id = $1', [apiKeyId]);
    },
  });
  const metrics = createWorkerMetrics({ browserPool: false });
  const queues = taskQueues(config.TASK_QUEUE_PREFIX);
  // The engines that run with the workflows (http): the sync queue's scrapes run here (scrape/engines.ts).
  const engines = createEngines(servedModes('http'), config, logger);
  // Sessions (docs/scraping.md "Sessions"): the routes and this process's scrapes share one store.
  const sessions = sessionStoreFromConfig(sql, config);
  const scrapeDeps = { db, sql, runs, logger, metrics, blacklist, engines, ...scrapeActivitySettings(config), runEvents: waiters, attempts, sessions };
  // Every payload the client and the in-process worker write is encrypted (workers/payload-codec.ts).
  const dataConverter = temporalDataConverter(config);
  // The in-process worker of the sync queue: standalone scrapes start eagerly and run here.
  let workflowBundle: ReturnType<typeof loadWorkflowBundle> | undefined;
  const hostWorker = config.API_WORKER
    ? async (connection: Parameters<typeof Worker.create>[0]['connection']) =>
        Worker.create({
          connection,
          namespace: config.TEMPORAL_NAMESPACE,
          taskQueue: queues.sync,
          dataConverter,
          workflowBundle: await (workflowBundle ??= loadWorkflowBundle(config.dataDir)),
          activities: createHostedSyncActivities(config, scrapeDeps),
        })
    : undefined;
  // The hosted worker's SDK metrics (task slots, pollers, latencies of the sync queue) on the API's
  // own /metrics; without a hosted worker the API's client makes no SDK metrics worth exporting.
  if (config.API_WORKER) {
    const sdk = await installSdkMetrics();
    metrics.appendSource(() => sdk.text());
  }
  const temporal = createLazyTemporalClient({ address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE, dataConverter, hostWorker, logger });
  // Connect (and start the in-process worker) now, not on the first request; a failure is retried then.
  void temporal.get().catch(() => undefined);
  const scrapes = createScrapeDispatcher({
    temporal,
    runs,
    waiters,
    queues,
    logger,
    settings: { maxBatch: config.SCRAPE_BATCH_MAX, lingerMs: config.SCRAPE_BATCH_LINGER_MS },
  });
  const orphans = createOrphanRunReaper({ runs, temporal, logger });
  const closedWorkflows = createClosedWorkflowSweep({ db, runs, temporal, queues, logger, graceMs: config.CLOSED_WORKFLOW_GRACE_MS, intervalMs: config.CLOSED_WORKFLOW_SWEEP_MS });
  const idempotencySweeper = createIdempotencySweeper({ store: createIdempotencyStore(sql), logger });
  const limits = createLimits({ sql, metrics, logger, ...limitSettings(config) });
  // Past minutes' request counters go with the hourly sweep.
  const limitSweep = setInterval(() => void limits.sweep().catch((error: unknown) => logger.warn({ err: String(error) }, 'deleting old rate counters failed')), 3_600_000);
  limitSweep.unref();
  const app = createApp({ config, logger, metrics, db, sql, temporal, queues, blacklist, auth, apiKeys, scrapes, limits, attempts, sessions });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  logger.info({ port, paymentProvider: config.PAYMENT_PROVIDER }, 'api listening');
  if (config.PAYMENT_PROVIDER === 'local') logger.warn('PAYMENT_PROVIDER=local, a development aid: every signed-in user can confirm their own payments (POST /api/payments/:id/local-webhook), so credit is free');
  return {
    server,
    port,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      orphans.close();
      closedWorkflows.close();
      idempotencySweeper.close();
      clearInterval(limitSweep);
      await limits.close();
      await temporal.close();
      waiters.close();
      await listener.close();
      await closeEngines(engines);
      await sql.close();
      await db.$disconnect();
      logger.info('api stopped');
    },
  };
}

if (require.main === module) {
  const config = loadConfig();
  startApi(config)
    .then((api) => {
      let closing = false;
      const shutdown = () => {
        if (closing) return;
        closing = true;
        api.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.on('SIGINT', shutdown);
      process.on('SIGTERM', shutdown);
      if (config.EXIT_WITH_PARENT) exitWithParent(shutdown);
    })
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
