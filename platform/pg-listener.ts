/**
 * One PostgreSQL connection per process that LISTENs on the service's notification channels
 * (`scrape_run_finished`, `apikey_changed`: migration 20261122050000) and hands each
 * notification to its handler. It reconnects by itself (1 s doubling to 10 s) and reports
 * whether it is listening: a cache that relies on its invalidations must not serve while it is
 * not (a notification sent meanwhile is lost), and a waiter must look for what it missed.
 */
import { Client } from 'pg';
import type { Logger } from './logger';

export type NotificationHandler = (payload: string) => void;

export interface PgListener {
  /** true while LISTEN is in force on every channel. */
  listening(): boolean;
  on(channel: string, handler: NotificationHandler): void;
  /** Called each time listening starts (first connect and every reconnect) and stops. */
  onState(handler: (listening: boolean) => void): void;
  close(): Promise<void>;
}

export function createPgListener(databaseUrl: string, channels: readonly string[], logger: Logger): PgListener {
  const handlers = new Map<string, NotificationHandler[]>();
  const stateHandlers: Array<(listening: boolean) => void> = [];
  let client: Client | undefined;
  let isListening = false;
  let closed = false;
  let retryMs = 1000;
  let timer: NodeJS.Timeout | undefined;

  const setListening = (value: boolean) => {
    if (isListening === value) return;
    isListening = value;
    for (const handler of stateHandlers) handler(value);
  };

  const reconnectLater = () => {
    setListening(false);
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, 10_000);
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const next = new Client({ connectionString: databaseUrl });
    next.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    next.on('error', (error) => {
      logger.warn({ err: error.message }, 'notification connection failed');
      void next.end().catch(() => undefined);
      if (client === next) reconnectLater();
    });
    next.on('end', () => {
      if (client === next) reconnectLater();
    });
    try {
      await next.connect();
      for (const channel of channels) await next.query(`LISTEN "${channel}"`);
    } catch (error) {
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'notification connection failed');
      await next.end().catch(() => undefined);
      reconnectLater();
      return;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    retryMs = 1000;
    setListening(true);
  }

  void connect();

  return {
    listening: () => isListening,
    on(channel, handler) {
      handlers.set(channel, [...(handlers.get(channel) ?? []), handler]);
    },
    onState(handler) {
      stateHandlers.push(handler);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      setListening(false);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
