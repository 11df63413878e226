-- The results cache (docs/scraping.md "Results cache"): a succeeded run of a cacheable request
-- keeps its cache key (a hash of the normalised request: scrape/cache-key.ts); a later identical
-- request of the same account within its `max_age` is answered from that run's result, recorded
-- as a run of its own with status `cached` (cost 0, no workflow).
ALTER TYPE "RunStatus" ADD VALUE IF NOT EXISTS 'cached';

ALTER TABLE "scrape_run" ADD COLUMN "cacheKey" TEXT;
-- A cached run's source: the succeeded run its result was copied from, and when that one finished.
ALTER TABLE "scrape_run" ADD COLUMN "cachedFrom" TEXT;
ALTER TABLE "scrape_run" ADD COLUMN "cachedAt" TIMESTAMPTZ(6);

-- A hit's lookup: the account's newest succeeded run of the key. Only rows that can answer one.
CREATE INDEX "scrape_run_cache_idx" ON "scrape_run" ("userId", "cacheKey", "finishedAt" DESC)
  WHERE "cacheKey" IS NOT NULL AND status = 'succeeded';
