/**
 * Worker entry point: one Temporal worker per task queue this process serves (WORKER_QUEUES).
 * Run alone against external services (`npm run start:worker`), or under scripts/start.ts.
 */
import http from 'node:http';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, createEngineQueueActivities } from '../activities';
import { servedModes } from '../scrape/engine-implementations';
import { SCRAPE_ENGINES, engineQueue } from '../scrape/engines';
import { loadConfig, type Config } from '../platform/config';
import { errorBody } from '../platform/errors';
import { runMigrations } from '../platform/migrate';
import { installSdkMetrics } from '../platform/temporal-sdk-metrics';
import { exitWithParent } from '../platform/exit-with-parent';
import { loadWorkflowBundle } from './workflow-bundle';
import { taskQueues } from '../workflows/definitions';
import { createWorkerDeps } from './deps';
import { temporalDataConverter } from './payload-codec';

export async function runWorkers(config: Config): Promise<void> {
  if (!config.DATABASE_URL || !config.TEMPORAL_ADDRESS) {
    throw new Error('A worker needs DATABASE_URL and TEMPORAL_ADDRESS (npm start sets both for the embedded default).');
  }
  const deps = createWorkerDeps(config, config.DATABASE_URL);
  const { logger } = deps;
  if (config.MIGRATE_ON_START) await runMigrations(config.DATABASE_URL);

  const { metrics } = deps;
  const metricsServer = config.WORKER_METRICS_PORT
    ? http
        .createServer((req, res) => {
          if (req.url !== '/metrics') {
            res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody('NOT_FOUND', 'Not Found')));
            return;
          }
          void metrics.exposition().then((body) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body));
        })
        .listen(config.WORKER_METRICS_PORT, '0.0.0.0')
    : undefined;

  // The SDK's own metrics beside ours on /metrics; the runtime must exist before the first connection.
  if (config.WORKER_METRICS_PORT) {
    const sdk = await installSdkMetrics();
    metrics.appendSource(() => sdk.text());
  }
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const queues = taskQueues(config.TASK_QUEUE_PREFIX);
  const workers: Worker[] = [];
  // Every payload encrypted before it leaves the process (workers/payload-codec.ts).
  const dataConverter = temporalDataConverter(config);
  // One bundle of the workflow code for every worker, built once per version (workers/workflow-bundle.ts).
  const workflowBundle = await loadWorkflowBundle(config.dataDir);
  const modes = servedModes(config.WORKER_QUEUES);
  const ownQueueModes = modes.filter((mode) => SCRAPE_ENGINES[mode].placement === 'own-queue');
  // Workflows run wherever the `with-workflow` engines are: every queue set but an engine's own.
  if (modes.some((mode) => SCRAPE_ENGINES[mode].placement === 'with-workflow')) {
    const activities = createActivities(deps);
    // The main queue: flows, subscriptions, diagnostics, and the activities they call.
    workers.push(await Worker.create({ connection, namespace: config.TEMPORAL_NAMESPACE, taskQueue: queues.main, workflowBundle, activities, dataConverter }));
    // The sync queue: standalone scrapes that no API process could take (an eager start that did not
    // happen, or a batch whose API process died: its workflow task times out and lands here).
    workers.push(await Worker.create({ connection, namespace: config.TEMPORAL_NAMESPACE, taskQueue: queues.sync, workflowBundle, activities, dataConverter }));
  }
  for (const mode of ownQueueModes) {
    workers.push(
      await Worker.create({
        connection,
        namespace: config.TEMPORAL_NAMESPACE,
        taskQueue: engineQueue(config.TASK_QUEUE_PREFIX, mode),
        // Standalone batches of this mode run here, their pages as local activities
        // (workflows/scrape.workflow.ts); flow nodes' pages come as regular activities.
        workflowBundle,
        dataConverter,
        activities: createEngineQueueActivities(deps, mode),
        // Pages at once are capped by the engine (the browser pool); more slots would only queue inside it.
        maxConcurrentActivityTaskExecutions: config.BROWSER_CONCURRENCY * 2,
        maxConcurrentLocalActivityExecutions: config.BROWSER_CONCURRENCY * 2,
      }),
    );
  }
  logger.info({ queues: workers.map((w) => w.options.taskQueue), pid: process.pid }, 'worker started');
  if (config.EXIT_WITH_PARENT) {
    exitWithParent(() => {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
    });
  }
  try {
    // Runtime's default shutdown signals (SIGINT, SIGTERM) make every worker drain and return.
    await Promise.all(workers.map((w) => w.run()));
  } finally {
    await connection.close();
    await deps.close();
    metricsServer?.close();
    logger.info('worker stopped');
  }
}

if (require.main === module) {
  runWorkers(loadConfig()).then(
    // Exit explicitly: the stdin pipe watched for EXIT_WITH_PARENT would keep the process alive.
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
