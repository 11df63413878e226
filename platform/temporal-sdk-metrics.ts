import { Runtime } from '@temporalio/worker';
import { freePort } from './free-port';

/**
 * The Temporal SDK's own metrics of this process's workers (task slots, pollers, polls,
 * schedule-to-start and execution latencies), exported by the SDK runtime's Prometheus exporter
 * on a loopback port and appended to our /metrics (docs/operations.md, "Metrics, dashboard and
 * alerts"). Every name starts with `temporal_`, which none of ours does, so the two never collide.
 */
export interface SdkMetrics {
  /** Where the SDK's exporter listens (127.0.0.1 only). */
  url: string;
  /** Its exposition text, or '' when it does not answer (our own metrics are served regardless). */
  text(): Promise<string>;
}

/** Histogram boundaries (seconds) finer than the SDK's default (0.1, 0.5, 1, 5, 10, 100, 1000). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * Installs the SDK runtime with its Prometheus exporter. Must run before the process's first
 * `NativeConnection` (the runtime is a per-process singleton created on first use). Names follow
 * Prometheus's conventions (`_total` counters, durations in `_seconds`), which promtool's linter
 * checks in the tests.
 */
export async function installSdkMetrics(): Promise<SdkMetrics> {
  // The free port may be taken before the exporter binds it; the install then throws and can be retried.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      install(port);
      return exporterAt(`http://127.0.0.1:${port}/metrics`);
    } catch (error) {
      if (attempt >= 5 || !(error instanceof Error) || !error.message.includes('Address already in use')) throw error;
    }
  }
}

function install(port: number): void {
  Runtime.install({
    telemetryOptions: {
      metrics: {
        prometheus: {
          bindAddress: `127.0.0.1:${port}`,
          countersTotalSuffix: true,
          unitSuffix: true,
          useSecondsForDurations: true,
          histogramBucketOverrides: {
            workflow_task_schedule_to_start_latency: LATENCY_BUCKETS,
            activity_schedule_to_start_latency: LATENCY_BUCKETS,
            workflow_task_execution_latency: LATENCY_BUCKETS,
            activity_execution_latency: LATENCY_BUCKETS,
          },
        },
      },
    },
  });
}

function exporterAt(url: string): SdkMetrics {
  return {
    url,
    async text() {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
        return res.ok ? await res.text() : '';
      } catch {
        return '';
      }
    },
  };
}
