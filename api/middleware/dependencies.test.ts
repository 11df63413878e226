import { createHash } from 'node:crypto';
import net from 'node:net';
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { Client as PgClient } from 'pg';
import { createDatabase } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { freePort, listenOnLoopback } from '../../platform/free-port';
import { createSqlPool } from '../../platform/sql';
import { testEnv } from '../../test/helpers/env';
import { createTestDatabase } from '../../test/helpers/database';
import type { ApiKeyVerifier } from '../api-key-cache';
import { apiKeyUsable, createDependencyMonitor, guardApiKeyVerifier, unreachableDependency } from './dependencies';

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

describe('the dependency monitor: a failure is confirmed by a probe sent after it', () => {
  it('does not answer a later caller with a probe sent before it asked, nor let that older answer overwrite a newer one', async () => {
    // The first probe reaches the database before it goes down and answers late ('ok'); a
    // credential refused meanwhile must be confirmed by a probe of its own, which is refused.
    const answers: Array<(error?: Error) => void> = [];
    const monitor = createDependencyMonitor(
      {
        database: () => new Promise<void>((resolve, reject) => answers.push((error) => (error ? reject(error) : resolve()))),
        temporal: () => Promise.resolve(),
      },
      { recheckMs: 60_000, timeoutMs: 10_000 },
    );
    const early = monitor.probeOne('database');
    expect(monitor.probeOne('database')).toBe(early);
    const refusedAt = Date.now() + 1;
    while (Date.now() < refusedAt) await new Promise((resolve) => setTimeout(resolve, 1));
    const confirming = monitor.probeOne('database', refusedAt);
    expect(confirming).not.toBe(early);
    expect(answers).toHaveLength(2);
    answers[1]!(new Error('the database system is shutting down'));
    expect(await confirming).toBe('the database system is shutting down');
    answers[0]!();
    expect(await early).toBe('ok');
    // The older probe's 'ok' arrived last but says nothing about now.
    expect(monitor.down('database')).toBe('the database system is shutting down');
  });
});

describe('guardApiKeyVerifier: a refused key is a 401 only when the database says so', () => {
  const accepted = { userId: 'u1', apiKeyId: 'k1' };
  const verifier = (result: typeof accepted | null): ApiKeyVerifier => ({ verify: () => Promise.resolve(result), size: () => 0 });
  const outage = () => Promise.reject(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' }));

  it('passes an accepted key through without asking the database again', async () => {
    const lookups: string[] = [];
    const guarded = guardApiKeyVerifier(verifier(accepted), (key) => (lookups.push(key), Promise.resolve(false)));
    expect(await guarded.verify('sk_good')).toEqual(accepted);
    expect(lookups).toEqual([]);
  });

  it('refuses (null → 401) a key the database answers it does not hold as usable', async () => {
    expect(await guardApiKeyVerifier(verifier(null), () => Promise.resolve(false)).verify('sk_unknown')).toBeNull();
  });

  it('answers 503 DEPENDENCY_UNAVAILABLE when the plugin refused a key the database holds as usable (its lookup failed, the database is back)', async () => {
    // The 401s of the chaos runs: a verification whose query failed as PostgreSQL restarted is
    // answered INVALID_API_KEY by the plugin; when PostgreSQL is back by the time a probe
    // confirms the refusal, it stood (1 to 3 of ~150 verifications around one restart, tried).
    const error = await failure(() => guardApiKeyVerifier(verifier(null), () => Promise.resolve(true)).verify('sk_good'));
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).toBody()).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE', dependency: 'database' });
  });

  it('answers 503 when the database cannot be asked, and lets any other failure through', async () => {
    expect(unreachableDependency(await failure(() => guardApiKeyVerifier(verifier(null), outage).verify('sk_any')))).toBe('database');
    const bug = new Error('column "enabled" does not exist');
    expect(await failure(() => guardApiKeyVerifier(verifier(null), () => Promise.reject(bug)).verify('sk_any'))).toBe(bug);
  });
});

describe('apiKeyUsable (the plugin\'s rules, from its row)', () => {
  it('holds a key usable unless it is unknown, disabled, expired or used up; throws while PostgreSQL is unreachable', async () => {
    const pool = createSqlPool(await createTestDatabase());
    try {
      const insert = async (key: string, columns: { enabled?: boolean | null; expiresAt?: Date | null; remaining?: number | null; refillAmount?: number | null }) => {
        const hashed = createHash('sha256').update(key).digest('base64url');
        await pool.query(
          `INSERT INTO "user" (id, name, email, "emailVerified", "createdAt", "updatedAt") VALUES ($1, $1, $1 || '@example.test', true, now(), now()) ON CONFLICT DO NOTHING`,
          ['owner'],
        );
        await pool.query(
          `INSERT INTO apikey (id, "configId", "referenceId", key, enabled, "expiresAt", remaining, "refillAmount", "createdAt", "updatedAt")
           VALUES ($1, 'default', 'owner', $2, $3, $4, $5, $6, now(), now())`,
          [key, hashed, columns.enabled ?? null, columns.expiresAt ?? null, columns.remaining ?? null, columns.refillAmount ?? null],
        );
      };
      await insert('sk_plain', { enabled: true });
      await insert('sk_enabled_unset', {});
      await insert('sk_future', { enabled: true, expiresAt: new Date(Date.now() + 3_600_000) });
      await insert('sk_refilled', { enabled: true, remaining: 0, refillAmount: 10 });
      await insert('sk_disabled', { enabled: false });
      await insert('sk_expired', { enabled: true, expiresAt: new Date(Date.now() - 1000) });
      await insert('sk_used_up', { enabled: true, remaining: 0 });
      const usable: Record<string, boolean> = {};
      for (const key of ['sk_plain', 'sk_enabled_unset', 'sk_future', 'sk_refilled', 'sk_disabled', 'sk_expired', 'sk_used_up', 'sk_unknown']) usable[key] = await apiKeyUsable(pool, key);
      expect(usable).toEqual({ sk_plain: true, sk_enabled_unset: true, sk_future: true, sk_refilled: true, sk_disabled: false, sk_expired: false, sk_used_up: false, sk_unknown: false });
    } finally {
      await pool.close();
    }
    const down = createSqlPool(`postgresql://postgres:x@127.0.0.1:${await freePort()}/scrape`);
    try {
      expect(unreachableDependency(await failure(() => apiKeyUsable(down, 'sk_plain')))).toBe('database');
    } finally {
      await down.close();
    }
  });
});
