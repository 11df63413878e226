-- Screenshots of browser scrapes (`formats: ["screenshot"]`, docs/scraping.md "Output formats"):
-- the PNG of a run, served to its owner at GET /webhook/runs/:id/screenshot. Kept in PostgreSQL
-- beside the run (never in a Temporal payload), deleted with it.

-- CreateTable
CREATE TABLE "scrape_screenshot" (
    "runId" TEXT NOT NULL,
    "png" BYTEA NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scrape_screenshot_pkey" PRIMARY KEY ("runId")
);

-- AddForeignKey
ALTER TABLE "scrape_screenshot" ADD CONSTRAINT "scrape_screenshot_runId_fkey" FOREIGN KEY ("runId") REFERENCES "scrape_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
