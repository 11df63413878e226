import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { echo } from '../activities/echo';
import { testEnv } from '../test/helpers/env';
import { echoWorkflow } from './echo.workflow';

describe('echoWorkflow (real Temporal dev server binary)', () => {
  let env: TestWorkflowEnvironment;

  beforeAll(async () => {
    env = await TestWorkflowEnvironment.createLocal({ server: { executable: { type: 'existing-path', path: testEnv('temporalCli') } } });
  });

  afterAll(async () => {
    await env?.teardown();
  });

  it('runs its activity on a worker and returns its result', async () => {
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: 'echo-test',
      workflowsPath: require.resolve('./index'),
      activities: { echo },
    });
    const result = await worker.runUntil(
      env.client.workflow.execute(echoWorkflow, { taskQueue: 'echo-test', workflowId: 'echo-test-1', args: [{ message: 'hello', delayMs: 0 }] }),
    );
    expect(result).toEqual({ message: 'hello', workerPid: process.pid, attempt: 1 });
  });
});
