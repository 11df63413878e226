import { Client, Connection } from '@temporalio/client';

export interface TemporalClientOptions {
  address: string;
  namespace: string;
}

/**
 * One lazily-connected Temporal client per process (never a connection per request).
 * `get()` connects on first use and retries on the next call if that failed.
 */
export function createLazyTemporalClient(options: TemporalClientOptions) {
  let pending: Promise<{ client: Client; connection: Connection }> | undefined;
  const connect = async () => {
    const connection = await Connection.connect({ address: options.address, connectTimeout: '5s' });
    return { connection, client: new Client({ connection, namespace: options.namespace }) };
  };
  return {
    async get(): Promise<Client> {
      pending ??= connect().catch((error: unknown) => {
        pending = undefined;
        throw error;
      });
      return (await pending).client;
    },
    /** Resolves when the server answers; rejects after `timeoutMs`. */
    async ping(timeoutMs = 2000): Promise<void> {
      const client = await this.get();
      await client.connection.withDeadline(Date.now() + timeoutMs, () => client.workflowService.getSystemInfo({}));
    },
    async close(): Promise<void> {
      const current = pending;
      pending = undefined;
      if (current) await (await current).connection.close().catch(() => undefined);
    },
  };
}

export type LazyTemporalClient = ReturnType<typeof createLazyTemporalClient>;
