import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import { CancellationScope, patched, proxyActivities, uuid4, workflowInfo } from '@temporalio/workflow';
import type { Activities } from './activities';
import { NON_RETRYABLE_CODES } from '../platform/errors';
import type { MonitorCheckOutcome, MonitorCheckWorkflowInput } from './definitions';
import { runScrapeSteps } from './scrape-steps';
import { emitWebhookEvents } from './webhook.workflow';

/**
 * A check whose scrape steps threw (cancelled, or a bookkeeping step that gave up) is settled
 * `failed` before the workflow ends, never left `running`. Executions that threw before this patch
 * ended without settling; their histories replay on that path.
 */
export const MONITOR_SETTLE_ON_THROW_PATCH = 'monitor-check-settle-on-throw-v1';

/** Set by the server on every workflow a Schedule starts: the time the action was scheduled for. */
const SCHEDULED_START = defineSearchAttributeKey('TemporalScheduledStartTime', SearchAttributeType.DATETIME);

/**
 * A check's own steps against PostgreSQL: regular activities (not local ones), so each one's
 * completion is in the history before the next step starts and a worker killed in between never
 * makes a step run again with another outcome.
 */
const checks = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds', nonRetryableErrorTypes: [...NON_RETRYABLE_CODES] },
});

/**
 * One check of a monitor (docs/monitors.md), the action of its Schedule `monitor-<id>` (and of
 * "check now"): the check's ids are drawn once by the workflow (uuid4 is replay-safe), so a
 * retried step or a replay after a worker crash records, debits and reports the same check, never
 * a second one. The scrape is the ordinary scrape steps (debit once by the run, the engine's page
 * activity with its retries, refund when every attempt failed); then the check is compared and
 * settled, and its event (if any) is emitted once by the check's subject.
 */
export async function monitorCheckWorkflow(input: MonitorCheckWorkflowInput): Promise<MonitorCheckOutcome> {
  const info = workflowInfo();
  const scheduledAt = info.typedSearchAttributes.get(SCHEDULED_START) ?? info.startTime;
  const checkId = uuid4();
  const runId = uuid4();
  const started = await checks.startMonitorCheck({ monitorId: input.monitorId, checkId, runId, workflowId: info.workflowId, scheduledAt: scheduledAt.toISOString() });
  if (!started.proceed) return { checkId, status: 'gone' };
  try {
    await runScrapeSteps(
      { runId, userId: started.userId, apiKeyId: started.apiKeyId, cost: started.cost, request: started.request, browserQueue: input.browserQueue },
      { remoteBookkeeping: true },
    );
  } catch (error) {
    if (patched(MONITOR_SETTLE_ON_THROW_PATCH)) {
      // The run is recorded as it ended (cancelled, or still live when bookkeeping gave up):
      // settling reads it as a failed check, with its event if the failures in a row reach it.
      await CancellationScope.nonCancellable(async () => {
        const settled = await checks.settleMonitorCheck({ checkId });
        await emitWebhookEvents(settled.events);
      });
    }
    throw error;
  }
  const settled = await checks.settleMonitorCheck({ checkId });
  await emitWebhookEvents(settled.events);
  return { checkId, status: settled.status };
}

/**
 * Settles a check whose own workflow closed before settling it (terminated from the Temporal UI,
 * or past its execution timeout): api/closed-workflow-runs.ts starts this once the check's scrape
 * run is closed, under one id per check, so the check is settled (`failed`, the run's error) and
 * its event emitted as its workflow would have done, once.
 */
export async function monitorCheckSettleWorkflow(input: { checkId: string }): Promise<MonitorCheckOutcome> {
  const settled = await checks.settleMonitorCheck({ checkId: input.checkId });
  await emitWebhookEvents(settled.events);
  return { checkId: input.checkId, status: settled.status };
}
