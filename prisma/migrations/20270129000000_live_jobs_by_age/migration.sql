-- Live crawl/batch and extract jobs by age, for the sweep that closes jobs whose workflow closed
-- without finishing them (api/closed-workflow-runs.ts): partial indexes hold only the few live rows.
CREATE INDEX "crawl_live_by_age_idx" ON "crawl"("createdAt") WHERE "status" IN ('queued', 'running');
CREATE INDEX "extract_job_processing_idx" ON "extract_job"("createdAt") WHERE "status" = 'processing';
