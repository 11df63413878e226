import net from 'node:net';
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { Client as PgClient } from 'pg';
import { createDatabase } from '../../lib/db';
import { AppError } from '../../lib/errors';
import { freePort, listenOnLoopback } from '../../lib/runtime/free-port';
import { createSqlPool } from '../../lib/sql';
import { testEnv } from '../../test/helpers/env';
import { createDependencyMonitor, unreachableDependency } from './dependencies';

async function failure(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('which dependency an error says is down (real clients against closed ports)', () => {
  it('recognises PostgreSQL unreachable through Prisma (refused) and node-postgres (a server shutting down)', async () => {
    const port = await freePort();
    const db = createDatabase(`postgresql://postgres:x@127.0.0.1:${port}/scrape`);
    try {
      expect(unreachableDependency(await failure(() => db.$queryRaw`SELECT 1`))).toBe('database');
    } finally {
      await db.$disconnect();
    }
    // What a backend says when the server stops under it: 57P01 "terminating connection due to administrator command".
    const client = new PgClient({ connectionString: testEnv('adminDatabaseUrl') });
    client.on('error', () => undefined);
    await client.connect();
    try {
      expect(unreachableDependency(await failure(() => client.query('SELECT pg_terminate_backend(pg_backend_pid())')))).toBe('database');
    } finally {
      await client.end().catch(() => undefined);
    }
  });

  it('recognises PostgreSQL refused through the plain pg pool of the hot path (a statement and a transaction)', async () => {
    const pool = createSqlPool(`postgresql://postgres:x@127.0.0.1:${await freePort()}/scrape`);
    try {
      expect(unreachableDependency(await failure(() => pool.query('SELECT 1')))).toBe('database');
      expect(unreachableDependency(await failure(() => pool.transaction((tx) => tx.query('SELECT 1'))))).toBe('database');
    } finally {
      await pool.close();
    }
  });

  it('recognises a PostgreSQL that stops answering in the middle of a session', async () => {
    // A server that accepts and then hangs up: node-postgres reports the lost connection.
    const server = net.createServer((socket) => socket.destroy());
    const port = await listenOnLoopback(server);
    try {
      const db = createDatabase(`postgresql://postgres:x@127.0.0.1:${port}/scrape`);
      try {
        expect(unreachableDependency(await failure(() => db.$queryRaw`SELECT 1`))).toBe('database');
      } finally {
        await db.$disconnect();
      }
    } finally {
      server.close();
    }
  });

  it('recognises Temporal unreachable: a first connection, and a call whose retries ran out', async () => {
    const port = await freePort();
    expect(unreachableDependency(await failure(() => Connection.connect({ address: `127.0.0.1:${port}`, connectTimeout: '1s' })))).toBe('temporal');
    // A lazy connection fails on its first call, after the client's own retries (kept short here).
    const lazy = Connection.lazy({ address: `127.0.0.1:${port}`, interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ maxAttempts: 2 }))] });
    const client = new Client({ connection: lazy });
    const started = await failure(() => client.workflow.start('scrapeWorkflow', { taskQueue: 'q', workflowId: 'never' }));
    await lazy.close();
    expect(unreachableDependency(started)).toBe('temporal');
  });

  it('leaves every other failure alone: a refused scrape target, a SQL error, an AppError of another code', async () => {
    const port = await freePort();
    expect(unreachableDependency(await failure(() => fetch(`http://127.0.0.1:${port}/`)))).toBeUndefined();
    const client = new PgClient({ connectionString: testEnv('adminDatabaseUrl') });
    await client.connect();
    try {
      expect(unreachableDependency(await failure(() => client.query('SELECT * FROM no_such_table')))).toBeUndefined();
    } finally {
      await client.end();
    }
    expect(unreachableDependency(new AppError('TIMEOUT', 'slow'))).toBeUndefined();
    expect(unreachableDependency(new Error('boom'))).toBeUndefined();
  });
});

describe('the dependency monitor', () => {
  it('marks a refusing dependency down, but not a slow one, and lifts the mark once it answers', async () => {
    let database: () => Promise<unknown> = () => Promise.reject(new Error('connect ECONNREFUSED'));
    const changes: Array<[string, string | undefined]> = [];
    const monitor = createDependencyMonitor(
      { database: () => database(), temporal: () => Promise.resolve() },
      { recheckMs: 20, timeoutMs: 50, onChange: (dependency, reason) => changes.push([dependency, reason]) },
    );
    expect(await monitor.probeOne('database')).toBe('connect ECONNREFUSED');
    expect(monitor.down('database')).toBe('connect ECONNREFUSED');

    // It answers again: the recheck lifts the mark by itself.
    let answered!: () => void;
    const back = new Promise<void>((resolve) => (answered = resolve));
    database = () => {
      answered();
      return Promise.resolve();
    };
    await back;
    await monitor.probeOne('database');
    expect(monitor.down('database')).toBeUndefined();

    // Slow (a cold client's first query) is not down.
    database = () => new Promise(() => undefined);
    expect(await monitor.probeOne('database')).toBe('no answer within 50 ms');
    expect(monitor.down('database')).toBeUndefined();
    expect(changes).toEqual([
      ['database', 'connect ECONNREFUSED'],
      ['database', undefined],
    ]);
  });
});
