import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of one process. Per instance, reset on restart, no per-account labels.
 * The API process exposes HTTP metrics; worker processes expose scrape, credit and browser-pool
 * metrics on their own /metrics (WORKER_METRICS_PORT). A process that runs Temporal workers also
 * appends the SDK's own metrics (`temporal_*`, platform/temporal-sdk-metrics.ts) through `appendSource`.
 * Names, and which process exports which: docs/operations.md, "Metrics, dashboard and alerts".
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
  const requestsLimited = new Counter({
    name: 'requests_limited_total',
    help: 'Requests answered 429 by a limit: "rate" (requests per API key per minute), "concurrency" (runs in flight per account), "auth_address" (the auth library\'s per-address limits), "sign_in_account" (failed sign-ins per account).',
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  // Each limit's series from the start, at 0, so that rates (the RequestsLimitedHigh alert) see its first refusal.
  for (const limit of ['rate', 'concurrency', 'auth_address', 'sign_in_account']) requestsLimited.inc({ limit }, 0);
  const sources: Array<() => Promise<string>> = [];
  return {
    registry,
    httpRequestsTotal,
    httpRequestDuration,
    requestsLimited,
    /** Exposition text served after ours on /metrics (the Temporal SDK's exporter); '' adds nothing. */
    appendSource(source: () => Promise<string>) {
      sources.push(source);
    },
    /** The body of /metrics: our registry, then every appended source, each ending in a newline. */
    async exposition(): Promise<string> {
      const parts = await Promise.all([registry.metrics(), ...sources.map((source) => source())]);
      return parts
        .filter((part) => part.length > 0)
        .map((part) => (part.endsWith('\n') ? part : `${part}\n`))
        .join('');
    },
    /**
     * `dependency_up{dependency}`: 1 when the dependency answered a probe made at scrape time, else 0.
     * The API registers it with its own probes (PostgreSQL, Temporal); one registration per registry.
     */
    observeDependencies(probe: () => Promise<Record<string, string>>) {
      registry.removeSingleMetric('dependency_up');
      new Gauge({
        name: 'dependency_up',
        help: 'Whether a dependency of the API answered its probe at scrape time (1) or not (0), by dependency (database, temporal).',
        labelNames: ['dependency'] as const,
        registers: [registry],
        async collect() {
          for (const [dependency, reason] of Object.entries(await probe())) this.set({ dependency }, reason === 'ok' ? 1 : 0);
        },
      });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * Metrics of a worker process: scrape duration and outcome by mode, credits debited, and the
 * browser pool's gauges (read from the pool at scrape time by `observeBrowserPool`).
 */
export function createWorkerMetrics(options: { browserPool?: boolean } = {}) {
  const base = createMetrics();
  const { registry } = base;
  const scrapeDuration = new Histogram({
    name: 'scrape_duration_seconds',
    help: 'Duration of one scrape attempt, by mode and outcome.',
    labelNames: ['mode', 'outcome'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50],
    registers: [registry],
  });
  const scrapeOutcomes = new Counter({
    name: 'scrape_attempts_total',
    help: 'Scrape attempts, by mode and outcome (succeeded, or the error code).',
    labelNames: ['mode', 'outcome'] as const,
    registers: [registry],
  });
  const creditsDebited = new Counter({
    name: 'credits_debited_total',
    help: 'Credits debited for scrapes (refunds not subtracted), by mode.',
    labelNames: ['mode'] as const,
    registers: [registry],
  });
  const creditsRefunded = new Counter({
    name: 'credits_refunded_total',
    help: 'Credits refunded after every attempt of a scrape failed.',
    registers: [registry],
  });
  const crawlPages = new Counter({
    name: 'crawl_pages_total',
    help: 'Pages of crawls and batch scrapes settled, by job kind (crawl, batch) and outcome (succeeded, failed; requeued: credit ran out at its debit).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  const scrapeBlocks = new Counter({
    name: 'scrape_blocks_total',
    help: 'Scrape attempts answered with a block page (docs/scraping.md "Block pages"), by mode and vendor (blocked_by); each is also a TARGET_BLOCKED attempt of scrape_attempts_total.',
    labelNames: ['mode', 'vendor'] as const,
    registers: [registry],
  });
  type PoolStats = { contextsInUse: number; queueLength: number; openContexts: number; spareContexts: number };
  let browserStats: (() => PoolStats) | undefined;
  // Escalation (docs/scraping.md "Escalation"): each move of an `auto` run to its next step, and
  // attempts and block pages by proxy tier, so a tier's block rate is blocks / attempts per vendor.
  const scrapeEscalations = new Counter({
    name: 'scrape_escalations_total',
    help: 'Moves of an auto scrape to its next step, by step left (from), step taken (to), as engine@tier, and reason (blocked, app_shell, noscript).',
    labelNames: ['from', 'to', 'reason'] as const,
    registers: [registry],
  });
  const scrapeTierAttempts = new Counter({
    name: 'scrape_tier_attempts_total',
    help: 'Scrape attempts by mode and proxy tier (direct: no proxy), the denominator of a tier\'s block rate.',
    labelNames: ['mode', 'tier'] as const,
    registers: [registry],
  });
  const scrapeTierBlocks = new Counter({
    name: 'scrape_tier_blocks_total',
    help: 'Scrape attempts answered with a block page, by mode, proxy tier (direct: no proxy) and vendor (blocked_by).',
    labelNames: ['mode', 'tier', 'vendor'] as const,
    registers: [registry],
  });
  const scrapeMetrics = { ...base, scrapeDuration, scrapeOutcomes, creditsDebited, creditsRefunded, crawlPages, scrapeBlocks, scrapeEscalations, scrapeTierAttempts, scrapeTierBlocks };
  // The API process runs http scrapes in-process but has no browser pool: no gauges that would always read 0.
  if (options.browserPool === false) return { ...scrapeMetrics, observeBrowserPool: (_stats: () => PoolStats) => undefined };
  new Gauge({
    name: 'browser_contexts_in_use',
    help: 'Browser contexts (pages) currently held by scrapes in this worker.',
    registers: [registry],
    collect() {
      this.set(browserStats?.().contextsInUse ?? 0);
    },
  });
  new Gauge({
    name: 'browser_queue_length',
    help: 'Browser scrapes waiting for a free context in this worker.',
    registers: [registry],
    collect() {
      this.set(browserStats?.().queueLength ?? 0);
    },
  });
  new Gauge({
    name: 'browser_open_contexts',
    help: 'Browser contexts actually open in Chromium (when idle, as many as browser_spare_contexts: none leaked).',
    registers: [registry],
    collect() {
      this.set(browserStats?.().openContexts ?? 0);
    },
  });
  new Gauge({
    name: 'browser_spare_contexts',
    help: 'Browser contexts prepared ahead of requests and ready to hand out (BROWSER_SPARE_CONTEXTS).',
    registers: [registry],
    collect() {
      this.set(browserStats?.().spareContexts ?? 0);
    },
  });
  return {
    ...scrapeMetrics,
    observeBrowserPool(stats: () => PoolStats) {
      browserStats = stats;
    },
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
