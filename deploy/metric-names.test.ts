/**
 * Every metric the Grafana dashboard and the alert rules query is one the service really exports:
 * the names (and the labels their selectors match on) are compared with a live /metrics of the
 * real API and worker processes (test/helpers/stack.ts: real PostgreSQL, Temporal and Chromium),
 * after an http scrape, a browser scrape and a workflow on the worker's main queue have made
 * every series appear (the Temporal SDK exports a series only once it has been recorded).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../platform/free-port';
import { type FixtureServer, startFixtureServer } from '../test/fixtures/server';
import { type TestAccount, createAccount } from '../test/helpers/accounts';
import { opsKitQueries, samplesOf, selectorsOf } from '../test/helpers/promql';
import { type Stack, startStack } from '../test/helpers/stack';
import { waitFor } from '../test/helpers/wait';

/** Series Prometheus makes itself for each target, not exported by anything. */
const PROMETHEUS_SERIES = new Set(['up']);
/** Labels Prometheus attaches to every scraped series. */
const TARGET_LABELS = new Set(['job', 'instance']);

let stack: Stack;
let fixtures: FixtureServer;
let account: TestAccount;
let workerMetricsUrl: string;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  const metricsPort = await freePort();
  workerMetricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  stack = await startStack({ env: { WORKER_METRICS_PORT: String(metricsPort), DIAGNOSTICS_ENABLED: 'true' } });
  account = await createAccount(stack.baseUrl);
});

afterAll(async () => {
  await stack?.stop();
  await fixtures?.close();
});

const text = async (url: string) => (await fetch(url)).text();

async function post(route: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${stack.baseUrl}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function promtoolVerdict(exposition: string): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'metrics-')), 'metrics.txt');
  writeFileSync(file, exposition);
  return execFileSync('sh', ['-c', `/usr/bin/promtool check metrics < ${file} 2>&1; echo "exit=$?"`], { encoding: 'utf8' });
}

describe('the ops kit queries only what the API and the worker export', () => {
  let api: ReturnType<typeof samplesOf>;
  let worker: ReturnType<typeof samplesOf>;
  let apiText: string;
  let workerText: string;

  beforeAll(async () => {
    // Work that makes every series appear: scrapes in both modes (the API's hosted worker runs the
    // http batches of the sync queue, the worker the browser batches) and a workflow on the main
    // queue. An http batch starts eagerly (its first task never waits in a queue): the scrape that
    // fails once and is retried after a timer gives the API a task that does.
    const http = await post('/webhook/unblocker', { url: `${fixtures.url}/flaky?key=metrics-${Date.now()}&fail=1`, selectors: ['h1'], options: { retry_count: 1 } }, { 'x-api-key': account.apiKey });
    expect(http).toMatchObject({ status: 200, body: { mode: 'http', attempts: 2 } });
    const browser = await post('/webhook/unblocker', { url: `${fixtures.url}/`, selectors: ['h1'], mode: 'browser' }, { 'x-api-key': account.apiKey });
    expect(browser).toMatchObject({ status: 200, body: { mode: 'browser' } });
    const echo = await post('/diagnostics/echo', { message: 'metrics' });
    expect(echo.status).toBe(200);
    // Wait for a condition, not a time: the SDK records a task's latencies as it completes it.
    await waitFor('SDK latencies on both /metrics', async () => {
      [apiText, workerText] = await Promise.all([text(`${stack.baseUrl}/metrics`), text(workerMetricsUrl)]);
      const name = 'temporal_workflow_task_schedule_to_start_latency_seconds_count';
      return apiText.includes(name) && workerText.includes(name) && workerText.includes('temporal_activity_schedule_to_start_latency_seconds_count');
    });
    api = samplesOf(apiText);
    worker = samplesOf(workerText);
  });

  it("the worker's /metrics carries the SDK's metrics beside ours, valid for promtool", () => {
    expect(worker.has('scrape_attempts_total')).toBe(true);
    expect(worker.has('browser_queue_length')).toBe(true);
    const queues = new Set((worker.get('temporal_worker_task_slots_available') ?? []).map((labels) => labels.task_queue));
    const prefix = stack.env.TASK_QUEUE_PREFIX!;
    expect([...queues].sort()).toEqual([`${prefix}scrape-browser`, `${prefix}scrape-main`, `${prefix}scrape-sync`]);
    expect(worker.has('temporal_num_pollers')).toBe(true);
    expect(worker.has('temporal_workflow_task_queue_poll_succeed_total')).toBe(true);
    // Latency buckets from 5 ms (platform/temporal-sdk-metrics.ts), not the SDK's default from 100 ms.
    const bounds = (worker.get('temporal_activity_schedule_to_start_latency_seconds_bucket') ?? []).map((labels) => labels.le);
    expect(bounds).toContain('0.005');
    expect(bounds).toContain('60');
    // One exposition: promtool refuses a metric family declared twice, so no name of ours collides with the SDK's.
    expect(promtoolVerdict(workerText)).toBe('exit=0\n');
  });

  it("the API's /metrics carries its hosted worker's SDK metrics (sync queue only) and dependency_up", () => {
    const queues = new Set((api.get('temporal_worker_task_slots_available') ?? []).map((labels) => labels.task_queue));
    expect([...queues]).toEqual([`${stack.env.TASK_QUEUE_PREFIX!}scrape-sync`]);
    expect(api.get('dependency_up')?.map((labels) => labels.dependency).sort()).toEqual(['database', 'temporal']);
    expect(apiText).toMatch(/^dependency_up\{dependency="database"\} 1$/m);
    expect(apiText).toMatch(/^dependency_up\{dependency="temporal"\} 1$/m);
    expect(promtoolVerdict(apiText)).toBe('exit=0\n');
  });

  /** What a query selects that the live processes do not export, one line each. */
  function unexported(queries: Array<{ where: string; expr: string }>): string[] {
    const problems: string[] = [];
    for (const { where, expr } of queries) {
      for (const { metric, matchers } of selectorsOf(expr)) {
        if (PROMETHEUS_SERIES.has(metric)) continue;
        const samples = [...(api.get(metric) ?? []), ...(worker.get(metric) ?? [])];
        if (samples.length === 0) {
          problems.push(`${where}: ${metric} is not exported`);
          continue;
        }
        for (const { label, op, value } of matchers) {
          if (TARGET_LABELS.has(label)) continue;
          if (!samples.some((labels) => label in labels)) problems.push(`${where}: ${metric} has no label ${label}`);
          // A value matched for equality must be one the service uses (regex and negative matchers
          // depend on traffic: a 5xx need not have happened).
          else if (op === '=' && !samples.some((labels) => labels[label] === value)) problems.push(`${where}: ${metric} never has ${label}="${value}"`);
        }
      }
    }
    return problems;
  }

  it('every metric and label the dashboard and the rules select on is exported', () => {
    const queries = opsKitQueries();
    expect(queries.length).toBeGreaterThan(20);
    expect(unexported(queries)).toEqual([]);
    // The comparison does catch a misspelt name, a label the metric lacks and a value it never takes.
    const wrong = 'rate(http_requests_totl[5m]) + sum(temporal_num_pollers{queue="x"}) + sum(dependency_up{dependency="redis"})';
    expect(unexported([{ where: 'probe', expr: wrong }])).toEqual([
      'probe: http_requests_totl is not exported',
      'probe: temporal_num_pollers has no label queue',
      'probe: dependency_up never has dependency="redis"',
    ]);
  });
});
