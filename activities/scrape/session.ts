/**
 * A scrape's session (docs/scraping.md, "Sessions"), read and written inside the activity: the
 * workflow carries only the session's name, so no cookie ever sits in a Temporal payload or
 * history in clear. The session's owner is the run's.
 */
import { AppError } from '../../platform/errors';
import type { SqlClient } from '../../platform/sql';
import { EMPTY_STORAGE_STATE, type StorageState } from '../../scrape/cookies';
import type { ScrapeCallOptions } from '../../scrape/types';
import type { SessionStore } from '../../sessions/store';

export interface OpenedSession {
  /** What the engine starts from and where it reports the state it ended with. */
  storage: NonNullable<ScrapeCallOptions['storage']>;
  /** With `save: true`, writes the scrape's changes back (merged: sessions/state.ts); else nothing. */
  save(): Promise<void>;
}

export async function openScrapeSession(
  deps: { sql: SqlClient; sessions?: SessionStore },
  runId: string,
  spec: { name: string; save: boolean },
): Promise<OpenedSession> {
  const sessions = deps.sessions;
  if (!sessions) throw new AppError('INTERNAL', 'this process has no session store');
  const [run] = await deps.sql.$queryRaw<Array<{ userId: string }>>`SELECT "userId" FROM scrape_run WHERE id = ${runId}`;
  if (!run) throw new Error(`scrape run ${runId} does not exist`);
  const loaded = await sessions.load(run.userId, spec.name);
  if (!loaded && !spec.save) throw new AppError('SESSION_NOT_FOUND', `no session named ${spec.name} (save it first with session: {name, save: true}, or import one with PUT /sessions/${spec.name})`);
  const base = loaded?.state ?? EMPTY_STORAGE_STATE;
  let final: StorageState | undefined;
  return {
    storage: { state: base, identitySeed: `session:${run.userId}:${spec.name}`, ...(spec.save ? { onState: (state: StorageState) => void (final = state) } : {}) },
    async save() {
      if (spec.save && final) await sessions.saveChanges(run.userId, spec.name, base, final);
    },
  };
}
