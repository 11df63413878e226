/**
 * The `Idempotency-Key` request header (docs/api.md, "Idempotency-Key") on the routes that create
 * something that costs: `POST /webhook/unblocker`, `POST /flows/:id/runs`, `POST /api/payments`,
 * `POST /api/subscriptions`, `PATCH /api/subscriptions/current`, `POST /crawl` and
 * `POST /batch/scrape`.
 *
 * - Scope: the key is the account's (two accounts may use the same key). Its first request claims
 *   it by inserting `(userId, key)` into `idempotency_key` (primary key: of concurrent requests,
 *   exactly one insert wins, on any API replica), together with the id the run (payment,
 *   subscription) will have, chosen before it exists, and the hash of the request.
 * - A repeat with the same hash answers from that run: its current state, waiting for it as
 *   `?wait` (or a synchronous scrape) would, up to the synchronous limit of this request; it never
 *   starts a second run. A loser of a race whose winner has not recorded its run yet waits for it.
 * - A repeat with another hash → 422 IDEMPOTENCY_KEY_REUSED. The hash is SHA-256 of the method, the
 *   path and the canonical JSON of the body (keys sorted, `safe-stable-stringify`): the same JSON
 *   in another key order or spacing is the same request; the query string (`?wait`) is not part
 *   of it (it only says how to answer).
 * - A first request that ends before its run really started (refused by a check, 402, the start
 *   failed: nothing done, nothing charged) releases the key: a repeat is a new attempt.
 * - A claim whose run never appears (its API process died in between) is abandoned after
 *   ABANDONED_AFTER_MS: a repeat takes it over. A repeat that was waiting for the claim's run
 *   when that run turned out never started (its API process died between recording and starting
 *   it; the orphan sweep failed it, uncharged) takes the key over too and starts afresh, rather
 *   than answering that run's failure, which says nothing about the request. A repeat that reaches its synchronous limit
 *   before the claim's run is recorded answers 503 REQUEST_IN_PROGRESS without an id (that run
 *   may never exist: a takeover records its run under another id); the client retries.
 * - Expiry: 24 h after the claim. A claim of an expired key replaces it; every API process
 *   deletes expired rows every hour (`createIdempotencySweeper`).
 *
 * Requests without the header never reach this module (no query, no hashing).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { stringify } from 'safe-stable-stringify';
import { AppError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import { type SqlPool, untilDatabaseAnswers } from '../platform/sql';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const IDEMPOTENCY_TTL_HOURS = 24;
/** A claim older than this whose run (payment, subscription) does not exist was left by a stopped process. */
export const ABANDONED_AFTER_MS = 60_000;
const SWEEP_INTERVAL_MS = 3_600_000;

/** Visible ASCII and spaces only (what an HTTP header carries unambiguously). */
const KEY_SHAPE = /^[\x20-\x7e]+$/;

/** The request's Idempotency-Key, or undefined without one; empty, too long or not printable ASCII → 400. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const key = (Array.isArray(raw) ? raw.join(', ') : raw).trim();
  if (key === '' || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !KEY_SHAPE.test(key)) {
    throw new AppError('BAD_REQUEST', `${IDEMPOTENCY_HEADER} must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`);
  }
  return key;
}

/** SHA-256 of the method, the path (no query) and the canonical JSON of the body (none: empty). */
export function requestHash(req: Request): string {
  const path = req.originalUrl.split('?')[0];
  const body = req.body === undefined ? '' : (stringify(req.body) ?? '');
  return createHash('sha256').update(`${req.method} ${path}\n${body}`).digest('hex');
}

/** The key and hash of a request with the header (deadline: how long it may wait), else undefined. */
export function idempotentRequest(req: Request, userId: string, deadline: number): IdempotentRequest | undefined {
  const key = idempotencyKeyOf(req);
  return key === undefined ? undefined : { userId, key, hash: requestHash(req), deadline };
}

interface ClaimRow {
  resourceId: string;
  requestHash: string;
  /** Age of the claim by the database's clock. */
  ageMs: number;
}

export function createIdempotencyStore(sql: Pick<SqlPool, 'query'>) {
  const ttl = `make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`;
  return {
    /** Claims the key for `resourceId`: true when this request is its first (or the old claim had expired). */
    async claim(userId: string, key: string, hash: string, resourceId: string): Promise<boolean> {
      const rows = await sql.query(
        `INSERT INTO idempotency_key ("userId", key, "requestHash", "resourceId") VALUES ($1, $2, $3, $4)
         ON CONFLICT ("userId", key) DO UPDATE SET "requestHash" = EXCLUDED."requestHash", "resourceId" = EXCLUDED."resourceId", "createdAt" = now()
         WHERE idempotency_key."createdAt" < now() - ${ttl}
         RETURNING 1`,
        [userId, key, hash, resourceId],
      );
      return rows.length > 0;
    },

    async read(userId: string, key: string): Promise<ClaimRow | null> {
      const rows = await sql.query<ClaimRow>(
        `SELECT "resourceId", "requestHash", (extract(epoch FROM now() - "createdAt") * 1000)::float8 AS "ageMs"
         FROM idempotency_key WHERE "userId" = $1 AND key = $2 AND "createdAt" >= now() - ${ttl}`,
        [userId, key],
      );
      return rows[0] ?? null;
    },

    /** Gives the key up (its request ended before its run started). */
    async release(userId: string, key: string, resourceId: string): Promise<void> {
      await sql.query(`DELETE FROM idempotency_key WHERE "userId" = $1 AND key = $2 AND "resourceId" = $3`, [userId, key, resourceId]);
    },

    /** Moves an abandoned claim to `resourceId`; false when another request did first. */
    async takeOver(userId: string, key: string, from: string, resourceId: string): Promise<boolean> {
      const rows = await sql.query(`UPDATE idempotency_key SET "resourceId" = $4, "createdAt" = now() WHERE "userId" = $1 AND key = $2 AND "resourceId" = $3 RETURNING 1`, [
        userId,
        key,
        from,
        resourceId,
      ]);
      return rows.length > 0;
    },

    /** Deletes expired keys; returns how many. */
    async sweep(): Promise<number> {
      const rows = await sql.query(`DELETE FROM idempotency_key WHERE "createdAt" < now() - ${ttl} RETURNING 1`);
      return rows.length;
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;

/** Deletes expired keys every hour (every API replica; the statement is harmless twice). */
export function createIdempotencySweeper(deps: { store: IdempotencyStore; logger: Logger; intervalMs?: number }): { close(): void } {
  const timer = setInterval(() => {
    deps.store.sweep().then(
      (deleted) => {
        if (deleted) deps.logger.info({ deleted }, 'expired idempotency keys deleted');
      },
      (error: unknown) => deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'deleting expired idempotency keys failed'),
    );
  }, deps.intervalMs ?? SWEEP_INTERVAL_MS);
  timer.unref();
  return { close: () => clearInterval(timer) };
}

/**
 * Thrown by `replay` when the resource it was waiting for ended without really starting
 * (`neverStarted`): the repeat then takes the key over and starts afresh.
 */
export class ResourceNeverStarted extends Error {
  override name = 'ResourceNeverStarted';
}

/** What a route does under a key: its resource (run, payment, subscription) by id. */
export interface IdempotentOperation<R, T> {
  /** Does the work, recording its resource under `resourceId`. */
  start(resourceId: string): Promise<T>;
  /** The resource once recorded, else null. */
  find(resourceId: string): Promise<R | null>;
  /** A resource that never really started (nothing done, nothing charged): a repeat starts afresh. */
  neverStarted(resource: R): boolean;
  /**
   * The answer to a repeat: the resource's state, waited for as the route's first answer would.
   * Throws ResourceNeverStarted when what it waited for ended as never started.
   */
  replay(resource: R): Promise<T>;
}

export interface IdempotentRequest {
  userId: string;
  key: string;
  hash: string;
  /** Epoch ms: how long this request may wait (the synchronous limit). */
  deadline: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `op` once per key: the first request starts it; every repeat answers from its resource. */
export async function runIdempotent<R, T>(deps: { store: IdempotencyStore; logger: Logger }, request: IdempotentRequest, op: IdempotentOperation<R, T>): Promise<T> {
  const { store } = deps;
  const { userId, key, hash } = request;

  const startClaimed = async (resourceId: string): Promise<T> => {
    try {
      return await op.start(resourceId);
    } catch (error) {
      // Ended before its resource started (a check refused it, the start failed): the key is free again.
      const releaseIfNeverStarted = async () => {
        const resource = await op.find(resourceId);
        if (!resource || op.neverStarted(resource)) await store.release(userId, key, resourceId);
      };
      try {
        await releaseIfNeverStarted();
      } catch (releaseError) {
        // Most likely PostgreSQL is down, which is also why the request failed. Until the key is
        // released, every repeat waits its whole synchronous limit and answers 503
        // REQUEST_IN_PROGRESS (the claim is abandoned only after ABANDONED_AFTER_MS): so keep
        // trying in the background, and free it as soon as PostgreSQL answers again.
        const describe = (e: unknown) => (e instanceof Error ? e.message : String(e));
        deps.logger.warn({ err: describe(releaseError) }, 'releasing an idempotency key failed; retrying until PostgreSQL answers');
        void untilDatabaseAnswers(releaseIfNeverStarted, undefined, ABANDONED_AFTER_MS).then(
          () => deps.logger.info({ resourceId }, 'idempotency key released after the outage'),
          (e: unknown) => deps.logger.warn({ err: describe(e) }, 'releasing an idempotency key failed (it is taken over when abandoned)'),
        );
      }
      throw error;
    }
  };

  /** Waits for the claim's resource to be recorded: it, or 'gone' (released, replaced) or 'abandoned'. */
  const awaitResource = async (claim: ClaimRow): Promise<{ resource: R } | 'gone' | 'abandoned'> => {
    for (let delay = 10; ; delay = Math.min(delay * 2, 250)) {
      const resource = await op.find(claim.resourceId);
      if (resource) return { resource };
      const now = await store.read(userId, key);
      if (!now || now.resourceId !== claim.resourceId) return 'gone';
      if (now.ageMs > ABANDONED_AFTER_MS) return 'abandoned';
      // No id in this answer: the claim's run may never exist (its process stopped before
      // recording it; the claim is then taken over under another id). 503 is retried by clients.
      if (Date.now() + delay > request.deadline) {
        throw new AppError('REQUEST_IN_PROGRESS', `An earlier request with this ${IDEMPOTENCY_HEADER} has not recorded its run yet; retry shortly`);
      }
      await sleep(delay);
    }
  };

  // Each round ends in an answer, or in a change of the key's row by another request (bounded).
  for (let round = 0; round < 20; round++) {
    const resourceId = randomUUID();
    if (await store.claim(userId, key, hash, resourceId)) return startClaimed(resourceId);
    const claim = await store.read(userId, key);
    if (!claim) continue;
    if (claim.requestHash !== hash) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED', `This ${IDEMPOTENCY_HEADER} was used within ${IDEMPOTENCY_TTL_HOURS} h for a different request (another path or body); use a new key`);
    }
    const seen = await awaitResource(claim);
    if (seen === 'gone') continue;
    if (seen !== 'abandoned' && !op.neverStarted(seen.resource)) {
      deps.logger.info({ resourceId: claim.resourceId }, 'idempotent repeat: answering from the first request');
      try {
        return await op.replay(seen.resource);
      } catch (error) {
        if (!(error instanceof ResourceNeverStarted)) throw error;
        // The next round finds it never started and takes the key over.
        deps.logger.info({ resourceId: claim.resourceId }, 'idempotent repeat: the first request\'s run never started; starting afresh');
        continue;
      }
    }
    if (await store.takeOver(userId, key, claim.resourceId, resourceId)) return startClaimed(resourceId);
  }
  throw new Error(`the ${IDEMPOTENCY_HEADER} claim did not settle`);
}

/** The description the route table gives routes that take the header (docs/api.md). */
export const IDEMPOTENCY_DESCRIPTION =
  `Optional \`${IDEMPOTENCY_HEADER}\` header (1-${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters, the account's own, kept ${IDEMPOTENCY_TTL_HOURS} h): ` +
  'a repeat with the same key and request answers from the first request\'s run (its current state, waited for as the first answer would) and never starts or charges a second; ' +
  'the same key with another path or body → 422 `IDEMPOTENCY_KEY_REUSED`; a repeat whose first request has not recorded its run within the synchronous limit → 503 `REQUEST_IN_PROGRESS` (retry).';
