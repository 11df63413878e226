/**
 * Consent records: append-only (a database trigger refuses updates), one row per grant or
 * withdrawal. The current state of a kind is its latest record.
 */
import type { Config } from '../platform/config';
import type { Database } from '../platform/db';

export type ConsentKind = 'terms' | 'privacy' | 'marketing';
export const CONSENT_KINDS: readonly ConsentKind[] = ['terms', 'privacy', 'marketing'];

export interface ConsentInput {
  userId: string;
  kind: ConsentKind;
  version: string;
  granted: boolean;
  ip?: string | null;
  userAgent?: string | null;
  source?: 'signup' | 'api';
}

const clip = (value: string | null | undefined, max: number) => (value ? value.slice(0, max) : null);

export async function recordConsent(db: Database, input: ConsentInput) {
  return db.consent.create({
    data: {
      userId: input.userId,
      kind: input.kind,
      version: input.version,
      granted: input.granted,
      ip: clip(input.ip, 64),
      userAgent: clip(input.userAgent, 512),
      source: input.source ?? 'api',
    },
  });
}

type ConsentRow = Awaited<ReturnType<typeof recordConsent>>;

export function consentRecord(row: ConsentRow) {
  return { id: row.id, kind: row.kind, version: row.version, granted: row.granted, at: row.at.toISOString(), ip: row.ip, userAgent: row.userAgent, source: row.source };
}

/** The current document versions a user is asked to consent to (marketing has no document: "1"). */
export function currentVersions(config: Config): Record<ConsentKind, string> {
  return { terms: config.TERMS_VERSION, privacy: config.PRIVACY_VERSION, marketing: '1' };
}

/** History (newest first) and, per kind, the latest record (null: never recorded). */
export async function consentState(db: Database, userId: string) {
  const rows = await db.consent.findMany({ where: { userId }, orderBy: [{ at: 'desc' }, { id: 'desc' }] });
  const history = rows.map(consentRecord);
  const current = Object.fromEntries(
    CONSENT_KINDS.map((kind) => {
      const latest = history.find((r) => r.kind === kind);
      return [kind, latest ? { granted: latest.granted, version: latest.version, at: latest.at } : null];
    }),
  ) as Record<ConsentKind, { granted: boolean; version: string; at: string } | null>;
  return { current, history };
}
