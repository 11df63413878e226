import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of one process. Per instance, reset on restart, no per-account labels.
 * The API process exposes HTTP metrics; worker processes expose scrape, credit and browser-pool
 * metrics on their own /metrics (WORKER_METRICS_PORT).
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client names these gauges with a counter's `_total` suffix, which Prometheus's linter
  // (promtool check metrics) rejects; the per-type gauges without the suffix stay.
  for (const misnamed of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
    registry.removeSingleMetric(misnamed);
  }
  const httpRequestsTotal = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, matched route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, matched route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50],
    registers: [registry],
  });
  return { registry, httpRequestsTotal, httpRequestDuration };
}

export type Metrics = ReturnType<typeof createMetrics>;
