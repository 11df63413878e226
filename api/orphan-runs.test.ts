/**
 * The orphan sweep's decisions (unit: the run store and Temporal are stubs; the path through a
 * real API process killed under load is in api/routes/scrape.durability.test.ts).
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Client } from '@temporalio/client';
import { SearchAttributeType, TypedSearchAttributes, defineSearchAttributeKey } from '@temporalio/common';
import type { Logger } from '../platform/logger';
import type { ScrapeRunStore } from '../scrape/runs';
import { createOrphanRunReaper } from './orphan-runs';

const scrapeRunIds = defineSearchAttributeKey('ScrapeRunIds', SearchAttributeType.KEYWORD_LIST);

describe('orphan run sweep', () => {
  it('fails queued runs whose workflow does not exist, and a lane\'s queued runs it does not list; leaves the runs it lists', async () => {
    const queued = [
      { id: 'gone-1', workflowId: 'scrape-gone-1' },
      { id: 'listed', workflowId: 'scrape-lane-abc-1' },
      { id: 'lost', workflowId: 'scrape-lane-abc-1' },
    ];
    const failed: string[][] = [];
    const runs = {
      queuedSince: () => Promise.resolve(queued.map((run) => ({ ...run, ageMs: 60_000 }))),
      failUnstarted: (ids: readonly string[]) => {
        failed.push([...ids]);
        return Promise.resolve();
      },
    } as unknown as ScrapeRunStore;
    const describe = (workflowId: string) => {
      if (workflowId === 'scrape-gone-1') return Promise.reject(new WorkflowNotFoundError('not found', workflowId, undefined));
      return Promise.resolve({ status: { name: 'RUNNING' }, typedSearchAttributes: new TypedSearchAttributes([{ key: scrapeRunIds, value: ['listed'] }]), raw: {} });
    };
    const client = { workflow: { getHandle: (workflowId: string) => ({ describe: () => describe(workflowId) }) } } as unknown as Client;
    const logger = { warn: () => undefined } as unknown as Logger;
    const reaper = createOrphanRunReaper({ runs, temporal: { get: () => Promise.resolve(client) }, logger, intervalMs: 3_600_000 });
    try {
      expect(await reaper.sweep()).toBe(2);
    } finally {
      reaper.close();
    }
    expect(failed).toEqual([['gone-1'], ['lost']]);
  });

  it("leaves a lane's unlisted runs while a workflow task is pending on it (the Signal may be in it), and fails them once none is", async () => {
    const failed: string[][] = [];
    const runs = {
      queuedSince: () => Promise.resolve([{ id: 'waiting', workflowId: 'scrape-lane-slow-1', ageMs: 60_000 }]),
      failUnstarted: (ids: readonly string[]) => {
        failed.push([...ids]);
        return Promise.resolve();
      },
    } as unknown as ScrapeRunStore;
    let pendingWorkflowTask: object | null = { state: 'PENDING_WORKFLOW_TASK_STATE_SCHEDULED' };
    const description = () => ({ status: { name: 'RUNNING' }, typedSearchAttributes: new TypedSearchAttributes([{ key: scrapeRunIds, value: ['another'] }]), raw: { pendingWorkflowTask } });
    const client = { workflow: { getHandle: () => ({ describe: () => Promise.resolve(description()) }) } } as unknown as Client;
    const logger = { warn: () => undefined } as unknown as Logger;
    const reaper = createOrphanRunReaper({ runs, temporal: { get: () => Promise.resolve(client) }, logger, intervalMs: 3_600_000 });
    try {
      expect(await reaper.sweep()).toBe(0);
      expect(failed).toEqual([]);
      pendingWorkflowTask = null;
      expect(await reaper.sweep()).toBe(1);
    } finally {
      reaper.close();
    }
    expect(failed).toEqual([['waiting']]);
  });
});
