import type { Client, WorkflowHandle } from '@temporalio/client';

export type AwaitOutcome<T> = { timedOut: false; result: T } | { timedOut: true };

/**
 * Waits for a workflow's result for at most `limitMs`. Past the limit the long poll ends with
 * the gRPC deadline (not left running) and the caller answers 504 with the run id; the run itself
 * goes on. A deadline rather than an abort signal: the API's client sits on the native connection
 * its in-process worker shares (eager start), which honours deadlines but not abort signals.
 */
export async function awaitWorkflow<T>(client: Client, handle: WorkflowHandle, limitMs: number): Promise<AwaitOutcome<T>> {
  const deadline = Date.now() + limitMs;
  try {
    const result = (await client.connection.withDeadline(deadline, () => handle.result())) as T;
    return { timedOut: false, result };
  } catch (error) {
    if (Date.now() >= deadline) return { timedOut: true };
    throw error;
  }
}
