import { Client, Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { Logger } from './logger';

export interface TemporalClientOptions {
  address: string;
  namespace: string;
  /** How payloads are encoded: the service's encrypting codec (workers/payload-codec.ts). */
  dataConverter?: DataConverter;
  /**
   * A worker this process hosts on the client's own connection: the server can then hand the
   * first task of a workflow this client starts straight back to it (eager start). Re-created
   * with a backoff if it fails (the server went away); while it is down, starts are not eager.
   */
  hostWorker?: (connection: NativeConnection) => Promise<Worker>;
  logger?: Logger;
}

/**
 * One lazily-connected Temporal client per process (never a connection per request).
 * `get()` connects on first use and retries on the next call if that failed.
 */
export function createLazyTemporalClient(options: TemporalClientOptions) {
  let pending: Promise<{ client: Client; connection: Connection | NativeConnection }> | undefined;
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  let closed = false;

  /** Runs the hosted worker until the process closes, re-creating it after a failure. */
  async function superviseWorker(connection: NativeConnection): Promise<void> {
    let backoffMs = 1000;
    while (!closed) {
      try {
        worker = await options.hostWorker!(connection);
        if (closed) break;
        const startedAt = Date.now();
        await worker.run();
        if (Date.now() - startedAt > 60_000) backoffMs = 1000;
      } catch (error) {
        options.logger?.warn({ err: error instanceof Error ? error.message : String(error) }, 'in-process Temporal worker failed; restarting it');
      } finally {
        worker = undefined;
      }
      if (closed) break;
      await new Promise((resolve) => setTimeout(resolve, backoffMs).unref());
      backoffMs = Math.min(backoffMs * 2, 30_000);
    }
  }

  const connect = async () => {
    if (options.hostWorker) {
      const connection = await NativeConnection.connect({ address: options.address });
      running = superviseWorker(connection);
      return { connection, client: new Client({ connection, namespace: options.namespace, dataConverter: options.dataConverter }) };
    }
    const connection = await Connection.connect({ address: options.address, connectTimeout: '5s' });
    return { connection, client: new Client({ connection, namespace: options.namespace, dataConverter: options.dataConverter }) };
  };
  return {
    async get(): Promise<Client> {
      pending ??= connect().catch((error: unknown) => {
        pending = undefined;
        throw error;
      });
      return (await pending).client;
    },
    /** true while the hosted worker polls: a start may ask to be eager. */
    eagerStartAvailable(): boolean {
      return worker?.getState() === 'RUNNING';
    },
    /** Resolves when the server answers; rejects after `timeoutMs`. */
    async ping(timeoutMs = 2000): Promise<void> {
      const client = await this.get();
      await client.connection.withDeadline(Date.now() + timeoutMs, () => client.workflowService.getSystemInfo({}));
    },
    async close(): Promise<void> {
      closed = true;
      const current = pending;
      pending = undefined;
      if (worker && worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      if (current) await (await current).connection.close().catch(() => undefined);
    },
  };
}

export type LazyTemporalClient = ReturnType<typeof createLazyTemporalClient>;
