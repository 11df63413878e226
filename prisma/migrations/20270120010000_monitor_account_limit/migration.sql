-- MONITOR_MAX_PER_ACCOUNT enforced in the database (docs/monitors.md "Limits"): the API counts an
-- account's monitors before creating one, but concurrent creates could all count the same number.
-- The insert sets the limit for its own transaction (`app.monitor_max_per_account`, set_config
-- local); this trigger then takes a per-account transaction lock, so creates of one account go
-- one at a time, and counts the account's monitors with a fresh snapshot (READ COMMITTED: each
-- statement of a PL/pgSQL function sees what committed before it). No limit set: no check.
CREATE FUNCTION monitor_within_account_limit() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  max_per_account integer := NULLIF(current_setting('app.monitor_max_per_account', true), '')::integer;
BEGIN
  IF max_per_account IS NULL OR max_per_account <= 0 THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('monitor:' || NEW."userId", 0));
  IF (SELECT count(*) FROM "monitor" WHERE "userId" = NEW."userId") >= max_per_account THEN
    RAISE EXCEPTION 'MONITOR_LIMIT_REACHED: the account has % monitors', max_per_account USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "monitor_account_limit" BEFORE INSERT ON "monitor"
  FOR EACH ROW EXECUTE FUNCTION monitor_within_account_limit();
