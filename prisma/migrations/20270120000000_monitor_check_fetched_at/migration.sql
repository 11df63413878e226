-- When a check's page was fetched (its scrape run's finish), docs/monitors.md "Checks": checks
-- compare in the order their pages were fetched, not the order they settle in, so a "check now"
-- overlapping a scheduled check never reports a change backwards. Checks settled before this
-- migration take their settle time (the best that is known of them).
ALTER TABLE "monitor_check" ADD COLUMN "fetchedAt" TIMESTAMPTZ(6);
UPDATE "monitor_check" SET "fetchedAt" = "finishedAt" WHERE "finishedAt" IS NOT NULL;
CREATE INDEX "monitor_check_monitorId_fetchedAt_idx" ON "monitor_check"("monitorId", "fetchedAt");
