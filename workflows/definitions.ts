/**
 * Client-safe definitions shared by the API, workers and workflows: task-queue names,
 * workflow ids, input/output types. No Node built-ins and no activity code here.
 */

/** Task queues, optionally prefixed (TASK_QUEUE_PREFIX) so deployments or tests can share a server. */
export function taskQueues(prefix = '') {
  return {
    /** Orchestration (all workflows) and http-mode scraping, credit and bookkeeping activities. */
    main: `${prefix}scrape-main`,
    /** Browser-mode scraping: served by workers that own a Chromium pool. */
    browser: `${prefix}scrape-browser`,
  } as const;
}

export type TaskQueues = ReturnType<typeof taskQueues>;

export interface EchoInput {
  message: string;
  /** How long the activity waits before answering (to exercise the sync limit). */
  delayMs: number;
}

export interface EchoOutput {
  message: string;
  /** Which worker process ran the activity. */
  workerPid: number;
  attempt: number;
}

export const workflowIds = {
  echo: (requestId: string) => `diagnostics-echo-${requestId}`,
} as const;
