/**
 * The activities of a monitor's check (workflows/monitor.workflow.ts; docs/monitors.md): record
 * the check and its scrape run, then settle it (compare, record, decide its event) and notify the
 * account. Both idempotent: the ids come from the workflow, the settle answers what it decided.
 */
import type { Database } from '../platform/db';
import { notify } from '../notifications/notifications';
import { type MonitorSettings, createMonitorStore } from '../monitors/store';
import { scrapeCost } from '../scrape/request';
import type { ScrapeRunStore } from '../scrape/runs';
import type { WebhookEventSource } from '../webhooks/types';
import type { SessionKeyring } from '../sessions/keys';
import { unsealRequestSecrets } from '../sessions/request-secrets';
import type { MonitorCheckOutcome, StartMonitorCheckInput, StartedMonitorCheck } from '../workflows/definitions';

export interface MonitorActivityDeps {
  db: Database;
  runs: Pick<ScrapeRunStore, 'insertOnce'>;
  monitors: MonitorSettings;
  /** The keyring the monitors' request secrets are sealed under (sessions/keys.ts). */
  secretKeyring: SessionKeyring;
}

export function createMonitorActivities(deps: MonitorActivityDeps) {
  const store = createMonitorStore(deps.db);
  return {
    async startMonitorCheck(input: StartMonitorCheckInput): Promise<StartedMonitorCheck> {
      const started = await store.startCheck(
        { checkId: input.checkId, runId: input.runId, monitorId: input.monitorId, workflowId: input.workflowId, scheduledAt: new Date(input.scheduledAt) },
        (run) => deps.runs.insertOnce(run),
        scrapeCost,
        (request, userId) => unsealRequestSecrets(deps.secretKeyring, { userId, kind: 'monitor' }, request),
      );
      if (!started.proceed) return { proceed: false };
      return { proceed: true, userId: started.userId, apiKeyId: started.apiKeyId, cost: started.cost, request: started.request };
    },

    async settleMonitorCheck(input: { checkId: string }): Promise<MonitorCheckOutcome & { events: WebhookEventSource[] }> {
      const settled = await store.settleCheck(input.checkId, deps.monitors, new Date());
      // After the commit; once per check by the dedupe key, however often this is retried.
      for (const event of settled.events) {
        if (event.kind !== 'custom') continue;
        const data = event.data as { monitor_id: string; monitor_name: string; url: string };
        await notify(
          deps.db,
          event.userId,
          { type: event.type as 'monitor.changed' | 'monitor.removed' | 'monitor.failed', monitorId: data.monitor_id, checkId: input.checkId, name: data.monitor_name, url: data.url },
          { dedupeKey: event.subject },
        );
      }
      return { checkId: input.checkId, status: settled.status, events: settled.events };
    },
  };
}
