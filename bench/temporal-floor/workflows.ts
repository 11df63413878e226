/** The shapes bench/temporal-floor.ts compares; each runs one local activity per operation. */
import { condition, defineSignal, defineUpdate, proxyLocalActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';

const { work } = proxyLocalActivities<{ work(i: number): Promise<number> }>({ startToCloseTimeout: '10 seconds' });

/** One execution per operation (what a standalone scrape is today: one batch workflow, one local activity). */
export async function oneShotWorkflow(i: number): Promise<number> {
  return work(i);
}

export const operationUpdate = defineUpdate<number, [number]>('operation');

/** One long-lived execution taking each operation as an Update. */
export async function runnerWorkflow(): Promise<void> {
  setHandler(operationUpdate, (i: number) => work(i));
  await condition(() => false);
}

export const operationSignal = defineSignal<[number]>('operation');

/**
 * One long-lived execution taking each operation as a Signal; the caller hears of the result from
 * the local activity itself (in-process), not from the workflow task's completion. Each operation's
 * id is appended to a keyword-list search attribute (as a run id would be, to stay findable).
 */
export async function signalRunnerWorkflow(): Promise<void> {
  const pending: number[] = [];
  const ids: string[] = [];
  setHandler(operationSignal, (i: number) => void pending.push(i));
  for (;;) {
    await condition(() => pending.length > 0);
    const taken = pending.splice(0);
    ids.push(...taken.map(String));
    upsertSearchAttributes({ ScrapeRunIds: ids.slice(-40) });
    for (const i of taken) void work(i);
  }
}
