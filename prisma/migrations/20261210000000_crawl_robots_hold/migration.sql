-- Crawl rules (docs/crawl.md "robots.txt", docs/operations.md "Limits"):
-- 1. A host whose robots.txt answered 5xx/429 or could not be reached is "disallow all" until it
--    can be read: its pages wait in the frontier until `robotsRetryAt`, when robots.txt is fetched
--    again; `robotsFailedSince` is when it first could not be read (the crawl gives up on the host
--    after CRAWL_ROBOTS_GIVE_UP_MS: its waiting pages are skipped).
ALTER TABLE "crawl_host" ADD COLUMN "robotsRetryAt" TIMESTAMPTZ(6);
ALTER TABLE "crawl_host" ADD COLUMN "robotsFailedSince" TIMESTAMPTZ(6);

-- 2. A crawl or batch job in flight counts as one run of its account's runs in flight (its pages do
--    not): the live jobs of an account, as scrape_run_live_idx and flow_run_live_idx hold theirs.
CREATE INDEX "crawl_live_idx" ON "crawl"("userId") WHERE "status" IN ('queued', 'running');
