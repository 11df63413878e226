/**
 * monitorCheckWorkflow when its scrape steps end by throwing (real Temporal dev server binary,
 * real PostgreSQL and the real monitor activities; the page and credit activities are stubs, the
 * real scrape is covered end to end in api/routes/monitors.test.ts): a check whose workflow is
 * cancelled while its page is being fetched is settled `failed`, never left `running`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createSessionKeyring } from '../sessions/keys';
import { Context } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { testEnv } from '../test/helpers/env';
import { createTestDatabase } from '../test/helpers/database';
import { waitFor } from '../test/helpers/wait';
import { type Database, createDatabase, toJsonColumn } from '../platform/db';
import { createMonitorActivities } from '../activities/monitors';
import { createMonitorStore } from '../monitors/store';
import { monitorIds } from '../monitors/schedules';
import { parseScrapeRequest } from '../scrape/request';
import { monitorCheckWorkflow } from './monitor.workflow';

describe('monitorCheckWorkflow whose scrape steps throw (real Temporal dev server binary)', () => {
  let env: TestWorkflowEnvironment;
  let db: Database;
  const taskQueue = `monitor-check-${randomUUID()}`;
  const fetching = new Set<string>();

  beforeAll(async () => {
    [env, db] = await Promise.all([
      TestWorkflowEnvironment.createLocal({ server: { executable: { type: 'existing-path', path: testEnv('temporalCli') } } }),
      createTestDatabase().then((url) => createDatabase(url)),
    ]);
  });

  afterAll(async () => {
    await env?.teardown();
    await db?.$disconnect();
  });

  function activities() {
    const monitors = createMonitorActivities({
      db,
      runs: { insertOnce: async (run) => void (await db.scrapeRun.create({ data: { ...run, request: toJsonColumn(run.request) } })) },
      monitors: { failuresBeforeEvent: 3, retentionMs: 30 * 86_400_000, webhookDiffMaxBytes: 65_536 },
      secretKeyring: createSessionKeyring(randomBytes(32)),
    });
    return {
      ...monitors,
      debitCredit: () => Promise.resolve({ balance: 100 }),
      refundCredit: () => Promise.resolve(),
      async finishScrapeRun(input: { runId: string; status: 'succeeded' | 'failed' | 'cancelled'; error?: object }) {
        await db.scrapeRun.updateMany({ where: { id: input.runId, status: { in: ['queued', 'running'] } }, data: { status: input.status, error: input.error, finishedAt: new Date() } });
      },
      emitWebhookEvents: () => Promise.resolve({ deliveryIds: [], taskQueue, retry: {} }),
      /** The page never answers: the fetch heartbeats until it is cancelled. */
      async fetchPage(input: { runId: string }) {
        fetching.add(input.runId);
        for (;;) {
          Context.current().heartbeat();
          await Context.current().sleep(200);
        }
      },
    };
  }

  it('a check cancelled while fetching its page is settled failed (CANCELLED), not left running', async () => {
    const userId = randomUUID();
    await db.user.create({ data: { id: userId, name: 'T', email: `${userId}@example.test`, emailVerified: false } });
    const monitorId = randomUUID();
    await createMonitorStore(db).createMonitor({
      id: monitorId,
      userId,
      apiKeyId: null,
      scheduleId: monitorIds.schedule(monitorId),
      definition: { name: 'slow', request: parseScrapeRequest({ url: 'http://127.0.0.1/slow', mode: 'http' }), schedule: { every: '1h' }, compare: 'markdown', ignore: { selectors: [], patterns: [] } },
    });
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath: require.resolve('./index'), activities: activities() });
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(monitorCheckWorkflow, { taskQueue, workflowId: `${monitorIds.checkWorkflow(monitorId)}-now-${randomUUID()}`, args: [{ monitorId, browserQueue: taskQueue }] });
      const check = await waitFor('the check fetching its page', async () => {
        const row = await db.monitorCheck.findFirst({ where: { monitorId } });
        return row && fetching.has(row.scrapeRunId) ? row : undefined;
      }, 60_000);
      await handle.cancel();
      await expect(handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
      const settled = await db.monitorCheck.findUniqueOrThrow({ where: { id: check.id } });
      expect(settled.status).toBe('failed');
      expect(settled.error).toMatchObject({ code: 'CANCELLED' });
      expect(settled.finishedAt).not.toBeNull();
    });
  });
});
