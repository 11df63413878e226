-- Standalone runs still queued (api/orphan-runs.ts looks for runs whose workflow never started
-- because the API process stopped between recording them and starting it). Partial: only queued
-- rows are in it, so it stays small whatever the table's size. Not expressible in schema.prisma.
CREATE INDEX "scrape_run_queued_idx" ON "scrape_run"("createdAt") WHERE "status" = 'queued' AND "flowRunId" IS NULL;
