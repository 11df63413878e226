-- The PNGs of a browser scrape's `screenshot` actions (docs/scraping.md "Actions"), numbered from 0
-- in the order they were taken; served at GET /webhook/runs/:id/actions/screenshots/:index.
CREATE TABLE "scrape_action_screenshot" (
    "runId" TEXT NOT NULL,
    "idx" INTEGER NOT NULL,
    "png" BYTEA NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scrape_action_screenshot_pkey" PRIMARY KEY ("runId", "idx")
);

ALTER TABLE "scrape_action_screenshot" ADD CONSTRAINT "scrape_action_screenshot_runId_fkey" FOREIGN KEY ("runId") REFERENCES "scrape_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
