-- Limits (docs/operations.md, "Limits"): requests per API key per minute, counted in one row per
-- key and minute (fixed windows; rows older than an hour are deleted hourly), and the account's
-- runs in flight, counted through partial indexes that hold only live runs.

-- CreateTable
CREATE TABLE "api_key_rate" (
    "apiKeyId" TEXT NOT NULL,
    "windowStart" TIMESTAMPTZ(6) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "api_key_rate_pkey" PRIMARY KEY ("apiKeyId","windowStart")
);

-- Live runs of an account (not expressible in schema.prisma).
CREATE INDEX "scrape_run_live_idx" ON "scrape_run"("userId") WHERE "status" IN ('queued', 'running') AND "flowRunId" IS NULL;
CREATE INDEX "flow_run_live_idx" ON "flow_run"("userId") WHERE "status" IN ('queued', 'running');
