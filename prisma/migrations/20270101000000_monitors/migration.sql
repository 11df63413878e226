-- Monitors (docs/monitors.md): a scrape request checked on a Temporal Schedule, and its checks
-- (one per tick or "check now"), each with the compared snapshot and the diff against the
-- previous successful one. Checks are pruned after MONITOR_CHECK_RETENTION_DAYS.
CREATE TABLE "monitor" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "apiKeyId" TEXT,
    "name" TEXT NOT NULL,
    "request" JSONB NOT NULL,
    "schedule" JSONB NOT NULL,
    "compare" TEXT NOT NULL,
    "ignore" JSONB NOT NULL,
    "scheduleId" TEXT NOT NULL,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "failureStreak" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "monitor_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "monitor_userId_createdAt_idx" ON "monitor"("userId", "createdAt");

CREATE TABLE "monitor_check" (
    "id" TEXT NOT NULL,
    "monitorId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "scrapeRunId" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "scheduledAt" TIMESTAMPTZ(6) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "httpStatus" INTEGER,
    "snapshot" TEXT,
    "diff" JSONB,
    "error" JSONB,
    "events" JSONB,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMPTZ(6),

    CONSTRAINT "monitor_check_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "monitor_check_scrapeRunId_key" ON "monitor_check"("scrapeRunId");
CREATE INDEX "monitor_check_monitorId_createdAt_idx" ON "monitor_check"("monitorId", "createdAt");

ALTER TABLE "monitor_check" ADD CONSTRAINT "monitor_check_monitorId_fkey" FOREIGN KEY ("monitorId") REFERENCES "monitor"("id") ON DELETE CASCADE ON UPDATE CASCADE;
