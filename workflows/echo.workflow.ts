import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from './activities';
import type { EchoInput, EchoOutput } from './definitions';

const { echo } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { maximumAttempts: 3 },
});

/** Diagnostics: one activity round trip through a worker, proving the wiring end to end. */
export async function echoWorkflow(input: EchoInput): Promise<EchoOutput> {
  return echo(input);
}
