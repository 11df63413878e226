/** The two shapes bench/temporal-floor.ts compares; each runs one local activity per operation. */
import { condition, defineUpdate, proxyLocalActivities, setHandler } from '@temporalio/workflow';

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
