/**
 * Usage of an account over the last N days (UTC calendar days, today included):
 * requests from `scrape_run` (by mode and outcome), credits from `credit_ledger`
 * (debits minus refunds: `creditsSpent`). Broken down per API key (the ledger's and the run's
 * apiKeyId) and per day. The balance is the account's, shared by all its keys, so the
 * breakdown sums: totals = Σ keys + withoutKey (runs started with a session, e.g. flows).
 */
import type { Database } from '../../platform/db';

export interface Usage {
  requests: number;
  creditsDebited: number;
  creditsRefunded: number;
  /** creditsDebited − creditsRefunded. */
  creditsSpent: number;
  byMode: Record<string, { requests: number; creditsSpent: number }>;
  /** Runs per status: queued, running, succeeded, cached (answered from the results cache), failed, cancelled. */
  byOutcome: Record<string, number>;
}

const emptyUsage = (): Usage => ({ requests: 0, creditsDebited: 0, creditsRefunded: 0, creditsSpent: 0, byMode: {}, byOutcome: {} });

function addRuns(u: Usage, mode: string, status: string, count: number) {
  u.requests += count;
  u.byOutcome[status] = (u.byOutcome[status] ?? 0) + count;
  const m = (u.byMode[mode] ??= { requests: 0, creditsSpent: 0 });
  m.requests += count;
}

function addCredits(u: Usage, mode: string, debited: number, refunded: number) {
  u.creditsDebited += debited;
  u.creditsRefunded += refunded;
  u.creditsSpent += debited - refunded;
  const m = (u.byMode[mode] ??= { requests: 0, creditsSpent: 0 });
  m.creditsSpent += debited - refunded;
}

interface RunRow {
  apiKeyId: string | null;
  day: string;
  mode: string;
  status: string;
  requests: number;
}

interface CreditRow {
  apiKeyId: string | null;
  day: string;
  mode: string | null;
  debited: number;
  refunded: number;
}

export async function usageStats(db: Database, userId: string, days: number) {
  const now = new Date();
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));

  const [runs, credits, keys, balance] = await Promise.all([
    db.$queryRaw<RunRow[]>`
      SELECT "apiKeyId", to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, mode, status::text AS status, COUNT(*)::int AS requests
      FROM scrape_run
      WHERE "userId" = ${userId} AND "createdAt" >= ${from}
      GROUP BY 1, 2, 3, 4`,
    db.$queryRaw<CreditRow[]>`
      SELECT "apiKeyId", to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, mode,
             COALESCE(SUM(CASE WHEN reason = 'debit' THEN -amount ELSE 0 END), 0)::int AS debited,
             COALESCE(SUM(CASE WHEN reason = 'refund' THEN amount ELSE 0 END), 0)::int AS refunded
      FROM credit_ledger
      WHERE "userId" = ${userId} AND "createdAt" >= ${from} AND reason IN ('debit', 'refund')
      GROUP BY 1, 2, 3`,
    db.apikey.findMany({ where: { referenceId: userId }, select: { id: true, name: true, start: true, enabled: true, createdAt: true }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] }),
    db.user.findUnique({ where: { id: userId }, select: { creditBalance: true } }),
  ]);

  const totals = emptyUsage();
  const withoutKey = emptyUsage();
  const perKey = new Map<string, Usage>();
  const perDay = new Map<string, Usage>();
  for (let i = 0; i < days; i++) {
    const d = new Date(from.getTime() + i * 86_400_000);
    perDay.set(d.toISOString().slice(0, 10), emptyUsage());
  }
  const keyUsage = (id: string | null) => {
    if (id === null) return withoutKey;
    let u = perKey.get(id);
    if (!u) perKey.set(id, (u = emptyUsage()));
    return u;
  };

  for (const r of runs) {
    for (const u of [totals, keyUsage(r.apiKeyId), perDay.get(r.day)]) if (u) addRuns(u, r.mode, r.status, r.requests);
  }
  for (const c of credits) {
    const mode = c.mode ?? 'other';
    for (const u of [totals, keyUsage(c.apiKeyId), perDay.get(c.day)]) if (u) addCredits(u, mode, c.debited, c.refunded);
  }

  const known = new Set(keys.map((k) => k.id));
  return {
    window: { days, from: from.toISOString(), to: now.toISOString() },
    /** The account's balance: every key's `remaining`. */
    remaining: balance?.creditBalance ?? 0,
    totals,
    keys: [
      ...keys.map((k) => ({ id: k.id, name: k.name, start: k.start, enabled: k.enabled !== false, ...keyUsage(k.id) })),
      // Keys no longer stored (expired keys are removed by the auth library) keep their usage.
      ...[...perKey.entries()].filter(([id]) => !known.has(id)).map(([id, u]) => ({ id, name: null, start: null, enabled: false, deleted: true, ...u })),
    ],
    withoutKey,
    days: [...perDay.entries()].map(([date, u]) => ({ date, ...u })),
  };
}
