/**
 * The API while PostgreSQL or Temporal is down (restarting under `npm start`, or an outage):
 * every answer is a 503 in the standard body, `code: DEPENDENCY_UNAVAILABLE`, naming the
 * dependency, with `Retry-After` — never a 500, never a 401 for a key that is fine
 * (docs/operations.md, "While a dependency is down").
 *
 * - `unreachableDependency(error)` tells a dependency failure from any other error; the error
 *   middleware answers those with 503.
 * - The monitor remembers a dependency seen failing and re-probes it every second until it
 *   answers; while PostgreSQL is known down, the gate answers 503 at once (every route but
 *   the health routes needs it, the auth library's own routes included).
 * - The auth library reports a key (or session) lookup that failed on the database exactly as
 *   an unknown key. A refused API key is looked up again here, in SQL (`guardApiKeyVerifier`):
 *   401 only when the database answers that the key is unknown, disabled, expired or used up;
 *   503 when it cannot be asked or holds the key as usable. A session refused to a request that
 *   sent a session cookie is confirmed by a database probe started after the refusal
 *   (`guardCredentialChecks`). So a client never sees 401 because PostgreSQL restarts.
 */
import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Auth } from '../../accounts/auth';
import type { ApiKeyVerifier } from '../api-key-cache';
import { AppError } from '../../platform/errors';
import { PG_UNAVAILABLE, type SqlPool, isDatabaseUnavailable } from '../../platform/sql';

export type Dependency = 'database' | 'temporal';

export const DEPENDENCY_LABEL: Record<Dependency, string> = { database: 'PostgreSQL', temporal: 'Temporal' };

/** Prisma's codes for "cannot reach / lost the server / pool exhausted". */
const PRISMA_UNREACHABLE = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** Driver-adapter error kinds with the same meaning. */
const ADAPTER_UNREACHABLE = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'DatabaseDoesNotExist']);
/** gRPC UNAVAILABLE (14): the Temporal frontend cannot be reached. */
const GRPC_UNAVAILABLE = 14;

type Loose = Record<string, unknown>;

function isRecord(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null;
}

function databaseError(error: Loose): boolean {
  const name = typeof error.name === 'string' ? error.name : '';
  const code = typeof error.code === 'string' ? error.code : undefined;
  if (name === 'PrismaClientInitializationError') return true;
  if (name === 'PrismaClientKnownRequestError' && code && PRISMA_UNREACHABLE.has(code)) return true;
  const meta = isRecord(error.meta) ? error.meta : undefined;
  const adapter = meta && isRecord(meta.driverAdapterError) ? meta.driverAdapterError : undefined;
  const kind = adapter && isRecord(adapter.cause) ? adapter.cause.kind : undefined;
  if (typeof kind === 'string' && ADAPTER_UNREACHABLE.has(kind)) return true;
  if (typeof kind === 'string' && kind === 'postgres' && isRecord(adapter?.cause) && typeof adapter.cause.code === 'string' && PG_UNAVAILABLE.test(adapter.cause.code)) return true;
  // node-postgres itself (platform/sql.ts's pool, the listener). A bare socket error (ECONNREFUSED) from
  // elsewhere is not classified: a scrape target or a provider raises those too; platform/sql.ts wraps its own.
  return isDatabaseUnavailable(error);
}

function temporalError(error: Loose): boolean {
  // A gRPC service error carries `details` and `metadata`; the client wraps it as `cause`.
  if (error.code === GRPC_UNAVAILABLE && typeof error.details === 'string' && isRecord(error.metadata)) return true;
  // The first connection (the API's lazy client) fails with grpc-js's own message; the only gRPC
  // server the API talks to is Temporal.
  if (error.message === 'Failed to connect before the deadline') return true;
  return error.name === 'ServiceError' && typeof error.message === 'string' && error.message.startsWith('Failed to connect');
}

/**
 * Which dependency an error says is unreachable, or undefined for any other error. Follows the
 * `cause` chain (Temporal's client and the auth library wrap the original error).
 */
export function unreachableDependency(error: unknown): Dependency | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && isRecord(current); depth++) {
    if (current instanceof AppError) return current.code === 'DEPENDENCY_UNAVAILABLE' ? (current.extra.dependency as Dependency) : undefined;
    if (temporalError(current)) return 'temporal';
    if (databaseError(current)) return 'database';
    current = current.cause;
  }
  return undefined;
}

/** The 503 of a dependency that cannot be reached. */
export function dependencyUnavailable(dependency: Dependency): AppError {
  return new AppError('DEPENDENCY_UNAVAILABLE', `${DEPENDENCY_LABEL[dependency]} is unreachable: the service is degraded; retry in a few seconds`, { code: 'DEPENDENCY_UNAVAILABLE', dependency });
}

/** Seconds a client is asked to wait before retrying (the `Retry-After` of every such 503). */
export const RETRY_AFTER_SECONDS = 2;

export interface DependencyMonitor {
  /** A dependency currently known to be down (cheap: no I/O), or undefined. */
  down(dependency: Dependency): string | undefined;
  /** A request failed on this dependency: probe it now (the gate trusts probes, not errors), and until it answers. */
  reportFailure(dependency: Dependency): void;
  /** Probes every dependency now: 'ok' or why not. */
  probe(): Promise<Record<Dependency, string>>;
  /**
   * Probes one dependency now: 'ok' or why not. A probe already in flight is shared, unless it
   * was sent before `sentAfter` (epoch ms): then a new one is sent, so that a failure seen at
   * that moment is not answered by a probe that reached the dependency before it failed.
   */
  probeOne(dependency: Dependency, sentAfter?: number): Promise<string>;
}

interface ProbeResult {
  /** 'ok', or why not. */
  reason: string;
  /** No answer within the time limit (as opposed to an error answer or a refused connection). */
  timedOut: boolean;
}

/** The useful line of a probe's error: Prisma's own message inside its wrapper, else the last line. */
function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message.trim() : String(error);
  const prisma = /Message: `([^`]+)`/.exec(text);
  return (prisma?.[1] ?? text.split('\n').pop() ?? '').trim() || 'unreachable';
}

async function check(probe: () => Promise<unknown>, timeoutMs: number): Promise<ProbeResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ProbeResult>((resolve) => {
    timer = setTimeout(() => resolve({ reason: `no answer within ${timeoutMs} ms`, timedOut: true }), timeoutMs);
  });
  try {
    return await Promise.race([
      probe().then(
        (): ProbeResult => ({ reason: 'ok', timedOut: false }),
        (error: unknown): ProbeResult => ({ reason: reasonOf(error), timedOut: false }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function createDependencyMonitor(
  probes: Record<Dependency, () => Promise<unknown>>,
  options: { recheckMs?: number; timeoutMs?: number; onChange?: (dependency: Dependency, reason: string | undefined) => void } = {},
): DependencyMonitor {
  const recheckMs = options.recheckMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 2000;
  const known = new Map<Dependency, string>();
  const inFlight = new Map<Dependency, { sentAt: number; result: Promise<string> }>();
  /** When the probe whose result is recorded was sent: an older one's result, arriving later, is stale. */
  const recordedSentAt = new Map<Dependency, number>();
  let timer: NodeJS.Timeout | undefined;

  const record = (dependency: Dependency, result: ProbeResult, sentAt: number) => {
    if (sentAt < (recordedSentAt.get(dependency) ?? 0)) return;
    recordedSentAt.set(dependency, sentAt);
    const was = known.get(dependency);
    if (result.reason === 'ok') known.delete(dependency);
    // Only a refusal marks a dependency down: a slow answer (a cold client's first query, a
    // loaded machine) must not turn the gate on. A dependency already down stays down until it answers.
    else if (!result.timedOut || was !== undefined) known.set(dependency, result.reason);
    const now = known.get(dependency);
    if ((was === undefined) !== (now === undefined)) options.onChange?.(dependency, now);
    if (known.size > 0) scheduleRecheck();
  };
  // One probe per dependency at a time, shared by every request that asks meanwhile.
  const probeOne = (dependency: Dependency, sentAfter = 0) => {
    const pending = inFlight.get(dependency);
    if (pending && pending.sentAt >= sentAfter) return pending.result;
    const sentAt = Date.now();
    const probe = {
      sentAt,
      result: check(probes[dependency], timeoutMs).then((result) => {
        if (inFlight.get(dependency) === probe) inFlight.delete(dependency);
        record(dependency, result, sentAt);
        return result.reason;
      }),
    };
    inFlight.set(dependency, probe);
    return probe.result;
  };
  const scheduleRecheck = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void Promise.all([...known.keys()].map(probeOne));
    }, recheckMs);
    // Never keeps the process alive on its own.
    timer.unref();
  };

  return {
    down: (dependency) => known.get(dependency),
    reportFailure(dependency) {
      if (!known.has(dependency)) void probeOne(dependency);
    },
    probeOne: (dependency, sentAfter) => probeOne(dependency, sentAfter),
    async probe() {
      const [database, temporal] = await Promise.all([probeOne('database'), probeOne('temporal')]);
      return { database, temporal };
    },
  };
}

/** 503 for every request while PostgreSQL is known to be down (mounted after the health routes). */
export function dependencyGate(monitor: DependencyMonitor) {
  return (_req: Request, res: Response, next: NextFunction) => {
    if (monitor.down('database') === undefined) {
      next();
      return;
    }
    res.setHeader('retry-after', String(RETRY_AFTER_SECONDS));
    res.status(503).json(dependencyUnavailable('database').toBody());
  };
}

/** Whether the request carries the auth library's session cookie (plain or __Secure-). */
function hasSessionCookie(headers: unknown): boolean {
  const cookie = headers instanceof Headers ? headers.get('cookie') : undefined;
  return typeof cookie === 'string' && /(^|;\s*)(__Secure-)?better-auth\.session_token=/.test(cookie);
}

/**
 * The auth library with two checks made outage-aware: a refused API key, or no session for a
 * request that sent a session cookie, is re-examined with a database probe; if PostgreSQL does
 * not answer, the check throws DEPENDENCY_UNAVAILABLE (→ 503) instead of refusing the caller.
 * Costs one `SELECT 1` per refused credential, nothing on the accepted path.
 */
export function guardCredentialChecks(auth: Auth, monitor: DependencyMonitor): Auth {
  /** The database answers a probe sent after the refusal at `refusedAt` (a probe sent before may have reached it before it failed). */
  const confirmDatabase = async (refusedAt: number) => {
    if ((await monitor.probeOne('database', refusedAt)) !== 'ok') throw dependencyUnavailable('database');
  };
  const api = new Proxy(auth.api, {
    get(target, property, receiver) {
      const original: unknown = Reflect.get(target, property, receiver);
      if (typeof original !== 'function') return original;
      if (property === 'verifyApiKey') {
        return async (...args: unknown[]) => {
          const result = (await (original as (...a: unknown[]) => Promise<unknown>).apply(target, args)) as { valid?: boolean };
          if (!result?.valid) await confirmDatabase(Date.now());
          return result;
        };
      }
      if (property === 'getSession') {
        return async (...args: unknown[]) => {
          const result = (await (original as (...a: unknown[]) => Promise<unknown>).apply(target, args)) as { response?: unknown } | null;
          const request = args[0] as { headers?: unknown } | undefined;
          const session = isRecord(result) && 'response' in result ? result.response : result;
          if (!session && hasSessionCookie(request?.headers)) await confirmDatabase(Date.now());
          return result;
        };
      }
      return original;
    },
  });
  return new Proxy(auth, {
    get(target, property, receiver) {
      return property === 'api' ? api : (Reflect.get(target, property, receiver) as unknown);
    },
  });
}

/**
 * Whether the database holds `key` as a key the auth plugin accepts, by the plugin's own rules as
 * this service configures it (accounts/auth.ts: no permissions, no custom validator, no rate limit):
 * its row (by the plugin's hash: SHA-256, base64url) exists, is not disabled, has not expired, and
 * has uses left. Throws when the database cannot be asked.
 */
export async function apiKeyUsable(sql: Pick<SqlPool, 'query'>, key: string): Promise<boolean> {
  const hashed = createHash('sha256').update(key).digest('base64url');
  const rows = await sql.query<{ usable: boolean }>(
    `SELECT (enabled IS DISTINCT FROM false
             AND ("expiresAt" IS NULL OR "expiresAt" >= now())
             AND (remaining IS DISTINCT FROM 0 OR "refillAmount" IS NOT NULL)) AS usable
     FROM apikey WHERE key = $1`,
    [hashed],
  );
  return rows.some((row) => row.usable);
}

/**
 * The API-key verifier (api/api-key-cache.ts) made outage-aware. The plugin answers a lookup that
 * failed on the database (a pooled connection the restart closed, a refused connection) with the
 * same `{valid: false}` as an unknown key, and a probe afterwards cannot tell the two apart (the
 * database may be back by then). So a refused key is looked up again, in SQL: the refusal stands
 * (401) only when the database answers that it does not hold the key as usable; if it cannot be
 * asked, or holds the key as usable, the plugin's refusal was a failure: 503 DEPENDENCY_UNAVAILABLE.
 * One query per refused key, none on the accepted path.
 */
export function guardApiKeyVerifier(apiKeys: ApiKeyVerifier, isUsable: (key: string) => Promise<boolean>): ApiKeyVerifier {
  return {
    size: () => apiKeys.size(),
    async verify(key) {
      const verified = await apiKeys.verify(key);
      if (verified) return verified;
      let usable: boolean;
      try {
        usable = await isUsable(key);
      } catch (error) {
        throw unreachableDependency(error) ? dependencyUnavailable('database') : error;
      }
      if (usable) throw dependencyUnavailable('database');
      return null;
    },
  };
}
