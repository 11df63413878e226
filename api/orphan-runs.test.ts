/**
 * The orphan sweep's decisions (unit: the run store and Temporal are stubs, the payloads are
 * encoded by the tests' real codec; the path through a real API process killed under load is in
 * api/routes/scrape.durability.test.ts).
 */
import { Client, WorkflowNotFoundError } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import type { Logger } from '../platform/logger';
import type { ScrapeRunStore } from '../scrape/runs';
import { testDataConverter } from '../test/helpers/temporal-codec';
import { scrapeLaneSignalName } from '../workflows/definitions';
import { createOrphanRunReaper } from './orphan-runs';

// A real client's loaded converter (the lazy connection is never used): the tests' codec.
const converter = new Client({ dataConverter: testDataConverter() }).options.loadedDataConverter;

async function encoded(value: unknown): Promise<Payload[]> {
  let payloads = [converter.payloadConverter.toPayload(value)];
  for (const codec of converter.payloadCodecs) payloads = await codec.encode(payloads);
  return payloads;
}

const batchOf = (...runIds: string[]) => ({ scrapes: runIds.map((runId) => ({ runId })), browserQueue: 'browser' });

/** A lane's history: its start with the first batch, then one event per Signal. */
async function laneHistory(first: string[], signals: { name: string; runIds: string[] }[]) {
  const events: object[] = [{ workflowExecutionStartedEventAttributes: { input: { payloads: await encoded(batchOf(...first)) } } }];
  for (const signal of signals) {
    events.push({ workflowTaskScheduledEventAttributes: {} });
    events.push({ workflowExecutionSignaledEventAttributes: { signalName: signal.name, input: { payloads: await encoded(signal.name === scrapeLaneSignalName ? batchOf(...signal.runIds) : { runId: signal.runIds[0] }) } } });
  }
  return { events };
}

function stubs(queued: { id: string; workflowId: string }[], histories: Record<string, () => Promise<object>>) {
  const failed: string[][] = [];
  const runs = {
    queuedSince: () => Promise.resolve(queued.map((run) => ({ ...run, ageMs: 60_000 }))),
    failUnstarted: (ids: readonly string[]) => {
      failed.push([...ids]);
      return Promise.resolve();
    },
  } as unknown as ScrapeRunStore;
  const handle = (workflowId: string) => {
    const history = histories[workflowId];
    const missing = () => Promise.reject(new WorkflowNotFoundError('not found', workflowId, undefined));
    return {
      describe: () => (history ? Promise.resolve({ status: { name: 'RUNNING' } }) : missing()),
      fetchHistory: () => (history ? history() : missing()),
    };
  };
  const client = { options: { loadedDataConverter: converter }, workflow: { getHandle: handle } } as unknown as Client;
  const logger = { warn: () => undefined } as unknown as Logger;
  const reaper = createOrphanRunReaper({ runs, temporal: { get: () => Promise.resolve(client) }, logger, intervalMs: 3_600_000 });
  return { failed, reaper };
}

describe('orphan run sweep', () => {
  it("fails queued runs whose workflow does not exist, and a lane's queued runs no input of its history names; leaves the runs its start or Signals carry", async () => {
    const history = () => laneHistory(['first'], [{ name: scrapeLaneSignalName, runIds: ['signalled-1', 'signalled-2'] }, { name: 'cancelRun', runIds: ['lost'] }]);
    const queued = [
      { id: 'gone-1', workflowId: 'scrape-gone-1' },
      { id: 'first', workflowId: 'scrape-lane-abc-1' },
      { id: 'signalled-2', workflowId: 'scrape-lane-abc-1' },
      // Named only by a cancel Signal: its batch never came.
      { id: 'lost', workflowId: 'scrape-lane-abc-1' },
    ];
    const { failed, reaper } = stubs(queued, { 'scrape-lane-abc-1': history });
    try {
      expect(await reaper.sweep()).toBe(2);
    } finally {
      reaper.close();
    }
    expect(failed).toEqual([['gone-1'], ['lost']]);
  });

  it("leaves a run whose Signal is in the lane's history although no task has run it yet, and fails it while its Signal is not", async () => {
    let signals: { name: string; runIds: string[] }[] = [];
    const { failed, reaper } = stubs([{ id: 'waiting', workflowId: 'scrape-lane-slow-1' }], { 'scrape-lane-slow-1': () => laneHistory(['another'], signals) });
    try {
      signals = [{ name: scrapeLaneSignalName, runIds: ['waiting'] }];
      expect(await reaper.sweep()).toBe(0);
      expect(failed).toEqual([]);
      signals = [];
      expect(await reaper.sweep()).toBe(1);
    } finally {
      reaper.close();
    }
    expect(failed).toEqual([['waiting']]);
  });
});
