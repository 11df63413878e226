/**
 * API entry point (composition root). Run alone against external services
 * (`npm run start:api` with DATABASE_URL and TEMPORAL_ADDRESS), or under scripts/start.ts.
 */
import type { Server } from 'node:http';
import { createBlacklist } from '../activities/scrape/blacklist';
import { createAuth } from '../lib/auth';
import { loadConfig, type Config } from '../lib/config';
import { createDatabase } from '../lib/db';
import { createLogger } from '../lib/logger';
import { createMetrics } from '../lib/metrics';
import { runMigrations } from '../lib/migrate';
import { deliveryFromConfig } from '../lib/notification-delivery';
import { setNotificationDelivery } from '../lib/notifications';
import { exitWithParent } from '../lib/runtime/exit-with-parent';
import { createLazyTemporalClient } from '../lib/temporal-client';
import { taskQueues } from '../workflows/definitions';
import { createApp } from './app';

export async function startApi(config: Config): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  if (!config.DATABASE_URL || !config.TEMPORAL_ADDRESS) {
    throw new Error('The API needs DATABASE_URL and TEMPORAL_ADDRESS (npm start sets both for the embedded default).');
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'api' });
  if (config.MIGRATE_ON_START) await runMigrations(config.DATABASE_URL);
  const db = createDatabase(config.DATABASE_URL);
  setNotificationDelivery(deliveryFromConfig(config), logger);
  const blacklist = createBlacklist(db);
  if (config.BLACKLIST_HOSTS.length) await blacklist.add(config.BLACKLIST_HOSTS, 'BLACKLIST_HOSTS');
  const auth = createAuth({ config, db, logger });
  const temporal = createLazyTemporalClient({ address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE });
  const app = createApp({ config, logger, metrics: createMetrics(), db, temporal, queues: taskQueues(config.TASK_QUEUE_PREFIX), blacklist, auth });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  logger.info({ port }, 'api listening');
  return {
    server,
    port,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await temporal.close();
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
