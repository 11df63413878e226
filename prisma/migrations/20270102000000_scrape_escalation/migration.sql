-- The steps of an `auto` scrape (docs/scraping.md "Escalation"): each attempt's engine, proxy tier and
-- outcome, and why the run moved on; GET /webhook/runs/:id shows them as `escalation`, the answer
-- names the last (what served the page) as `served_by`.
ALTER TABLE "scrape_run" ADD COLUMN "escalation" JSONB;
