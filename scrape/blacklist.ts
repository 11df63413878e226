import type { Database } from '../platform/db';
import { matchesBlacklist, normalizeHost } from '../platform/target-guard';

/**
 * The blacklist is the `blacklist_entry` table (hosts and `*.domain` patterns), managed by
 * operators with `npm run blacklist`; BLACKLIST_HOSTS seeds it at start-up. Each process keeps
 * the patterns for a few seconds, so a new entry applies everywhere within `ttlMs`.
 */
export function createBlacklist(db: Database, options: { ttlMs?: number } = {}) {
  const ttlMs = options.ttlMs ?? 5000;
  let cached: { patterns: string[]; at: number } | undefined;
  let loading: Promise<string[]> | undefined;

  async function patterns(): Promise<string[]> {
    if (cached && Date.now() - cached.at < ttlMs) return cached.patterns;
    loading ??= db.blacklistEntry
      .findMany({ select: { pattern: true } })
      .then((rows) => {
        cached = { patterns: rows.map((r) => r.pattern), at: Date.now() };
        return cached.patterns;
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  }

  return {
    isBlacklisted: async (host: string) => matchesBlacklist(host, await patterns()),
    /** Adds patterns that are not there yet (BLACKLIST_HOSTS at start-up, the operator CLI). */
    async add(entries: string[], reason?: string): Promise<number> {
      const clean = entries.map((e) => normalizeHost(e)).filter(Boolean);
      const created = await db.blacklistEntry.createMany({ data: clean.map((pattern) => ({ pattern, reason })), skipDuplicates: true });
      cached = undefined;
      return created.count;
    },
    async remove(pattern: string): Promise<boolean> {
      const deleted = await db.blacklistEntry.deleteMany({ where: { pattern: normalizeHost(pattern) } });
      cached = undefined;
      return deleted.count > 0;
    },
    list: () => db.blacklistEntry.findMany({ orderBy: { pattern: 'asc' } }),
  };
}

export type Blacklist = ReturnType<typeof createBlacklist>;
