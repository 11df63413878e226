-- Checks still running, for the sweep that settles a check whose workflow closed without settling
-- it (api/closed-workflow-runs.ts): a partial index holds only the few running rows.
CREATE INDEX "monitor_check_running_idx" ON "monitor_check"("createdAt") WHERE "status" = 'running';
-- Open flow runs by age, for the same sweep (flow_run_live_idx is by account and leaves out runs waiting for input).
CREATE INDEX "flow_run_open_idx" ON "flow_run"("createdAt") WHERE "status" IN ('queued', 'running', 'waiting_input');
