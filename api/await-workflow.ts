import type { Client, WorkflowHandle } from '@temporalio/client';

export type AwaitOutcome<T> = { timedOut: false; result: T } | { timedOut: true };

/**
 * Waits for a workflow's result for at most `limitMs`. Past the limit the long poll is aborted
 * (not left running) and the caller answers 504 with the run id; the run itself goes on.
 */
export async function awaitWorkflow<T>(client: Client, handle: WorkflowHandle, limitMs: number): Promise<AwaitOutcome<T>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limitMs);
  try {
    const result = (await client.withAbortSignal(controller.signal, () => handle.result())) as T;
    return { timedOut: false, result };
  } catch (error) {
    if (controller.signal.aborted) return { timedOut: true };
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
