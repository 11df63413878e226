/**
 * The service's own processes under `npm start`'s supervisor: the workers (workers/main.ts) and
 * the API (api/server.ts, or its replicas in the cluster topology), each started once PostgreSQL
 * and Temporal run, with their addresses in its environment.
 */
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { type Config, processEnvironment } from '../../platform/config';
import { taskQueues } from '../../workflows/definitions';
import { httpHealth } from '../runtime/health-checks';
import { startNodeProcess } from '../runtime/node-process';
import type { Supervisor } from '../runtime/supervisor';
import type { Infrastructure } from './infrastructure';
import type { ApiProcess, WorkerProcess } from './plan';

const root = path.resolve(__dirname, '..', '..');

/**
 * A worker is ready once Temporal lists it among the pollers of its task queue (SDK identity
 * `<pid>@<host>`): true whatever LOG_LEVEL hides. One connection, opened on first use.
 */
export class WorkerPolling {
  private connection: Promise<Connection> | undefined;

  constructor(
    private readonly config: Config,
    private readonly infrastructure: Infrastructure,
  ) {}

  async polls(pid: number, queuesServed: WorkerProcess['queues']): Promise<boolean> {
    this.connection ??= Connection.connect({ address: this.infrastructure.temporalAddress, connectTimeout: '5s' }).catch((error: unknown) => {
      this.connection = undefined;
      throw error;
    });
    const connection = await this.connection;
    const queues = taskQueues(this.config.TASK_QUEUE_PREFIX);
    const browserOnly = queuesServed === 'browser';
    const answer = await connection.withDeadline(Date.now() + 2000, () =>
      connection.workflowService.describeTaskQueue({
        namespace: this.config.TEMPORAL_NAMESPACE,
        taskQueue: { name: browserOnly ? queues.browser : queues.main },
        taskQueueType: browserOnly ? proto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY : proto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
      }),
    );
    return (answer.pollers ?? []).some((poller) => poller.identity?.startsWith(`${pid}@`));
  }

  async close(): Promise<void> {
    await (await this.connection?.catch(() => undefined))?.close();
  }
}

export interface Services {
  config: Config;
  cluster: boolean;
  infrastructure: Infrastructure;
  workers: WorkerProcess[];
  apis: ApiProcess[];
  supervisorUrl: string | undefined;
  polling: WorkerPolling;
}

/** Adds the workers, then the APIs, to the supervisor (each depends on the infrastructure). */
export function addServices(supervisor: Supervisor, services: Services): void {
  const { config, infrastructure } = services;
  // Read at each start: the database's address is known once the embedded PostgreSQL runs.
  const childEnv = (own: Record<string, string> = {}) => ({
    ...processEnvironment(),
    DATABASE_URL: infrastructure.databaseUrl,
    TEMPORAL_ADDRESS: infrastructure.temporalAddress,
    MIGRATE_ON_START: 'false',
    SUPERVISOR_URL: services.supervisorUrl,
    ...own,
  });
  const forward = (line: string, stream: 'stdout' | 'stderr') => (stream === 'stdout' ? process.stdout : process.stderr).write(`${line}\n`);
  for (const worker of services.workers) {
    supervisor.add({
      name: worker.name,
      dependsOn: infrastructure.names,
      start: ({ output, signal }) =>
        startNodeProcess({
          entry: path.join(root, 'workers', 'main.ts'),
          cwd: root,
          env: childEnv({ WORKER_QUEUES: worker.queues, WORKER_METRICS_PORT: String(worker.metricsPort) }),
          output,
          forward,
          // The log line is the quick way (LOG_LEVEL info and below); polling is the sure one.
          ready: { line: /"msg":"worker started"/, check: (pid) => services.polling.polls(pid, worker.queues) },
          signal,
          startTimeoutMs: 180_000,
        }),
      // Its metrics server answers while its event loop turns: any answer (its /healthz is a 404;
      // /metrics would also wait up to 2 s for the Temporal SDK's). None when WORKER_METRICS_PORT is 0.
      ...(worker.metricsPort ? { health: httpHealth(`http://127.0.0.1:${worker.metricsPort}/healthz`, { anyStatus: true }) } : {}),
    });
  }
  // A replica's auth base URL and trusted origins are the entry point's, as with one API
  // (accounts/auth-config.ts: without BETTER_AUTH_URL, both loopback names on PORT).
  const entryOrigins: Record<string, string> = config.BETTER_AUTH_URL ? {} : { TRUSTED_ORIGINS: [`http://127.0.0.1:${config.PORT}`, ...config.TRUSTED_ORIGINS].join(',') };
  const replicaEnv = (api: ApiProcess): Record<string, string> =>
    services.cluster ? { PORT: String(api.port), HOST: api.host, BETTER_AUTH_URL: config.BETTER_AUTH_URL ?? `http://localhost:${config.PORT}`, ...entryOrigins } : {};
  for (const api of services.apis) {
    supervisor.add({
      name: api.name,
      dependsOn: infrastructure.names,
      start: ({ output, signal }) =>
        startNodeProcess({
          entry: path.join(root, 'api', 'server.ts'),
          cwd: root,
          env: childEnv(replicaEnv(api)),
          output,
          forward,
          ready: { url: `http://127.0.0.1:${api.port}/healthz` },
          signal,
          startTimeoutMs: 120_000,
        }),
      health: httpHealth(`http://127.0.0.1:${api.port}/healthz`),
    });
  }
}
