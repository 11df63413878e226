-- The hot path of a scrape (docs/scraping.md, "Execution"):
-- 1. Concurrent requests of one account are grouped into one workflow execution, so several runs
--    share a workflow id: the unique index becomes a plain one.
DROP INDEX "scrape_run_workflowId_key";
CREATE INDEX "scrape_run_workflowId_idx" ON "scrape_run"("workflowId");

-- 2. A run that reaches a terminal status announces it on channel `scrape_run_finished` (payload:
--    the run id), whoever wrote it; an API waiting for that run answers at once. NOTIFY is
--    transactional: it is delivered on commit, never for a rolled-back change.
CREATE FUNCTION "notify_scrape_run_finished"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('scrape_run_finished', NEW.id);
  RETURN NULL;
END $$;

CREATE TRIGGER "scrape_run_finished"
  AFTER UPDATE OF "status" ON "scrape_run"
  FOR EACH ROW
  WHEN (NEW."status" IN ('succeeded', 'failed', 'cancelled') AND OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION "notify_scrape_run_finished"();

-- 3. An API key that is revoked, expires, is re-keyed or deleted announces it on channel
--    `apikey_changed` (payload: the key id), so every API replica drops it from its cache of
--    verified keys at once. Bookkeeping writes (lastRequest, requestCount) do not announce.
CREATE FUNCTION "notify_apikey_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('apikey_changed', OLD.id);
  RETURN NULL;
END $$;

CREATE TRIGGER "apikey_changed"
  AFTER UPDATE ON "apikey"
  FOR EACH ROW
  WHEN (OLD."enabled" IS DISTINCT FROM NEW."enabled"
     OR OLD."expiresAt" IS DISTINCT FROM NEW."expiresAt"
     OR OLD."key" IS DISTINCT FROM NEW."key"
     OR OLD."referenceId" IS DISTINCT FROM NEW."referenceId")
  EXECUTE FUNCTION "notify_apikey_changed"();

CREATE TRIGGER "apikey_deleted"
  AFTER DELETE ON "apikey"
  FOR EACH ROW
  EXECUTE FUNCTION "notify_apikey_changed"();
