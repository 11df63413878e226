/**
 * The health checks `npm start`'s watchdog asks its processes (scripts/runtime/supervisor.ts,
 * docs/operations.md "Hung processes and memory"). Each resolves when the process answers and
 * rejects saying why not; the supervisor aborts it after its timeout. Only an answer counts: a
 * stopped process's listening socket still accepts connections (the kernel does that), so a
 * connection alone proves nothing.
 */
import { Connection } from '@temporalio/client';
import { Client } from 'pg';

/** An HTTP GET that must answer 2xx (`anyStatus`: any answer at all, e.g. a UI's redirect). */
export function httpHealth(url: string, options: { anyStatus?: boolean } = {}): (signal: AbortSignal) => Promise<void> {
  return async (signal) => {
    const res = await fetch(url, { signal, redirect: 'manual' });
    await res.body?.cancel();
    if (!options.anyStatus && !res.ok) throw new Error(`${url} answered ${res.status}`);
  };
}

/** `SELECT 1` on a new connection (a pooled one could be the broken part); the URL is read at each check. */
export function postgresHealth(databaseUrl: () => string | undefined): (signal: AbortSignal) => Promise<void> {
  return async (signal) => {
    const connectionString = databaseUrl();
    if (!connectionString) throw new Error('no database URL yet');
    const client = new Client({ connectionString });
    // pg has no abort: ending the client fails whatever it is waiting for.
    const onAbort = () => void client.end().catch(() => undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await client.connect();
      await client.query('SELECT 1');
    } catch (error) {
      throw signal.aborted ? new Error('PostgreSQL did not answer SELECT 1 in time') : error;
    } finally {
      signal.removeEventListener('abort', onAbort);
      await client.end().catch(() => undefined);
    }
  };
}

/**
 * Temporal's frontend answers GetSystemInfo, over a gRPC connection of the check's own (opened on
 * first use; after a failure the next check opens a new one, in case the connection was the
 * broken part).
 */
export function temporalHealth(address: string): (signal: AbortSignal) => Promise<void> {
  let connection: Promise<Connection> | undefined;
  return async (signal) => {
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(new Error('Temporal did not answer GetSystemInfo in time'));
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
    aborted.catch(() => undefined);
    try {
      connection ??= Connection.connect({ address, connectTimeout: '5s' });
      // Opening the connection may be what hangs (a server stopped meanwhile).
      const open = await Promise.race([connection, aborted]);
      await Promise.race([open.withAbortSignal(signal, () => open.workflowService.getSystemInfo({})), aborted]);
    } catch (error) {
      const stale = connection;
      connection = undefined;
      void stale?.then((c) => c.close()).catch(() => undefined);
      throw error;
    }
  };
}
