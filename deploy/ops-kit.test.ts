/**
 * The ops kit without a running Prometheus or Grafana (neither runs here): Prometheus's own
 * promtool checks the configuration and the alert rules and evaluates every rule against
 * synthetic series (deploy/prometheus/alerts.test.yml); the Grafana dashboard is checked for
 * the structure Grafana's provisioning needs and for PromQL that parses; docker-compose wires
 * both with their files. Which metric names the queries use is compared with a live /metrics
 * in deploy/metric-names.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { type DashboardPanel, deployDir, opsKitQueries, readAlertRules, readDashboard, selectorsOf } from '../test/helpers/promql';

const root = path.resolve(deployDir, '..');
const prometheusDir = path.join(deployDir, 'prometheus');
const promtool = (...args: string[]) => spawnSync('/usr/bin/promtool', args, { cwd: prometheusDir, encoding: 'utf8' });
const readYaml = <T>(...parts: string[]) => parseYaml(readFileSync(path.join(deployDir, ...parts), 'utf8')) as T;

describe('Prometheus configuration and alert rules (promtool)', () => {
  it('prometheus.yml is valid and loads alerts.yml, whose rules are valid', () => {
    const config = promtool('check', 'config', 'prometheus.yml');
    expect(config.stdout + config.stderr).toContain('SUCCESS: 1 rule files found');
    expect(config.status).toBe(0);
    const rules = promtool('check', 'rules', 'alerts.yml');
    expect(rules.stdout + rules.stderr).toContain(`SUCCESS: ${readAlertRules().length} rules found`);
    expect(rules.status).toBe(0);
  });

  it('has a rule for each alert the issue asks for', () => {
    const rules = readAlertRules();
    const metricsOf = (name: string) => selectorsOf(rules.find((rule) => rule.alert === name)!.expr).map((s) => s.metric);
    expect(rules.map((rule) => rule.alert).sort()).toEqual(
      ['ActivityScheduleToStartHigh', 'ApiHighServerErrorRatio', 'BrowserQueueSaturated', 'CreditsRefundedSpike', 'RequestsLimitedHigh', 'ScrapeFailureRatioHigh', 'TaskQueueWithoutPollers', 'WorkflowTaskScheduleToStartHigh'].sort(),
    );
    expect(metricsOf('ApiHighServerErrorRatio')).toContain('http_requests_total');
    expect(metricsOf('ScrapeFailureRatioHigh')).toContain('scrape_attempts_total');
    expect(metricsOf('TaskQueueWithoutPollers')).toContain('temporal_num_pollers');
    expect(metricsOf('BrowserQueueSaturated')).toEqual(['browser_queue_length']);
    expect(metricsOf('WorkflowTaskScheduleToStartHigh')).toEqual(['temporal_workflow_task_schedule_to_start_latency_seconds_bucket']);
    expect(metricsOf('ActivityScheduleToStartHigh')).toEqual(['temporal_activity_schedule_to_start_latency_seconds_bucket']);
    expect(metricsOf('CreditsRefundedSpike')).toContain('credits_refunded_total');
    expect(metricsOf('RequestsLimitedHigh')).toEqual(['requests_limited_total', 'requests_limited_total', 'http_requests_total']);
    for (const rule of rules) {
      expect({ alert: rule.alert, severity: rule.labels?.severity }).toEqual({ alert: rule.alert, severity: expect.stringMatching(/^(page|warn)$/) });
      expect(rule.annotations?.summary).toBeTruthy();
    }
  });

  it('every rule fires on its synthetic series and stays quiet on others (promtool test rules)', () => {
    const result = promtool('test', 'rules', 'alerts.test.yml');
    expect(result.stdout + result.stderr).toMatch(/SUCCESS/);
    expect(result.status).toBe(0);

    // promtool passes a test file that never mentions a rule: each must be expected to fire at
    // least once and expected quiet at least once.
    type Case = { alertname: string; exp_alerts?: unknown[] };
    const tests = readYaml<{ tests: Array<{ alert_rule_test?: Case[] }> }>('prometheus', 'alerts.test.yml').tests;
    const cases = tests.flatMap((test) => test.alert_rule_test ?? []);
    for (const rule of readAlertRules()) {
      const mine = cases.filter((c) => c.alertname === rule.alert);
      expect({ alert: rule.alert, fires: mine.some((c) => (c.exp_alerts ?? []).length > 0), quiet: mine.some((c) => (c.exp_alerts ?? []).length === 0) }).toEqual({ alert: rule.alert, fires: true, quiet: true });
    }
  });
});

describe('Grafana dashboard and data source (deploy/grafana)', () => {
  const dashboard = readDashboard();
  const datasources = readYaml<{ datasources: Array<{ uid: string; type: string; url: string }> }>('grafana', 'provisioning', 'datasources', 'prometheus.yml').datasources;
  const panels: DashboardPanel[] = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
  const graphs = panels.filter((panel) => panel.type !== 'row');

  it('is a dashboard Grafana can provision: ids, grid and data source', () => {
    expect(dashboard).toMatchObject({ uid: 'scrape-api', title: expect.any(String), schemaVersion: expect.any(Number) });
    expect(new Set(panels.map((panel) => panel.id)).size).toBe(panels.length);
    expect(datasources).toEqual([expect.objectContaining({ uid: 'prometheus', type: 'prometheus', url: 'http://prometheus:9090' })]);
    for (const panel of panels) {
      expect({ id: panel.id, type: panel.type }).toEqual({ id: panel.id, type: expect.stringMatching(/^(row|timeseries|stat)$/) });
      const { x, y, w, h } = panel.gridPos;
      expect({ id: panel.id, fits: [x, y, w, h].every(Number.isInteger) && x >= 0 && y >= 0 && w > 0 && h > 0 && x + w <= 24 }).toEqual({ id: panel.id, fits: true });
    }
    // No two panels overlap on Grafana's 24-column grid.
    for (const [i, a] of panels.entries()) {
      for (const b of panels.slice(i + 1)) {
        const overlap = a.gridPos.x < b.gridPos.x + b.gridPos.w && b.gridPos.x < a.gridPos.x + a.gridPos.w && a.gridPos.y < b.gridPos.y + b.gridPos.h && b.gridPos.y < a.gridPos.y + a.gridPos.h;
        expect({ a: a.id, b: b.id, overlap }).toEqual({ a: a.id, b: b.id, overlap: false });
      }
    }
    for (const panel of graphs) {
      expect({ id: panel.id, datasource: panel.datasource }).toEqual({ id: panel.id, datasource: { type: 'prometheus', uid: datasources[0]!.uid } });
      expect(panel.targets?.length).toBeGreaterThan(0);
      const refIds = panel.targets!.map((target) => target.refId);
      expect(new Set(refIds).size).toBe(refIds.length);
      for (const target of panel.targets!) expect(target.datasource ?? panel.datasource).toEqual(panel.datasource);
    }
  });

  it('every query of the dashboard and the rules is valid PromQL', () => {
    const queries = opsKitQueries();
    expect(queries.length).toBeGreaterThan(20);
    for (const { where, expr } of queries) {
      expect({ where, selectors: selectorsOf(expr).length > 0 }).toEqual({ where, selectors: true });
    }
    // The parser does fail: the check above is not vacuous.
    expect(() => selectorsOf('sum(rate(http_requests_total[5m])')).toThrow(/syntax error/);
  });

  it('shows every area the issue lists', () => {
    const metrics = new Set(graphs.flatMap((panel) => panel.targets!.flatMap((target) => selectorsOf(target.expr.replace(/\$__[a-z_]+/g, '1m')).map((s) => s.metric))));
    for (const name of [
      'http_requests_total', // API request rate and errors by route
      'http_request_duration_seconds_bucket', // API latency by route
      'scrape_attempts_total', // scrape outcomes by mode
      'scrape_duration_seconds_bucket', // scrape duration by mode
      'credits_debited_total',
      'credits_refunded_total',
      'browser_contexts_in_use',
      'browser_queue_length',
      'browser_open_contexts',
      'browser_spare_contexts',
      'temporal_worker_task_slots_available',
      'temporal_worker_task_slots_used',
      'temporal_workflow_task_schedule_to_start_latency_seconds_bucket',
      'temporal_activity_schedule_to_start_latency_seconds_bucket',
      'dependency_up', // PostgreSQL and Temporal reachability
    ]) {
      expect({ name, shown: metrics.has(name) }).toEqual({ name, shown: true });
    }
  });
});

describe('docker-compose.yml wires Prometheus and Grafana with these files', () => {
  const result = spawnSync('/usr/bin/docker-compose', ['-f', path.join(root, 'docker-compose.yml'), 'config'], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', BETTER_AUTH_SECRET: 'x'.repeat(40) },
  });
  type Service = { image: string; volumes?: Array<string | { source: string; target: string }>; ports?: unknown[] };
  const mounts = (service: Service) =>
    Object.fromEntries((service.volumes ?? []).map((v) => (typeof v === 'string' ? [v.split(':')[1]!, v.split(':')[0]!] : [v.target, v.source])));

  it('mounts the rules where prometheus.yml loads them, and the provisioning where Grafana reads it', () => {
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const services = (parseYaml(result.stdout) as { services: Record<string, Service> }).services;
    const prometheus = mounts(services.prometheus!);
    expect(prometheus['/etc/prometheus/prometheus.yml']).toBe(path.join(prometheusDir, 'prometheus.yml'));
    const ruleFiles = readYaml<{ rule_files: string[] }>('prometheus', 'prometheus.yml').rule_files;
    for (const file of ruleFiles) expect(prometheus[path.posix.join('/etc/prometheus', file)]).toBe(path.join(prometheusDir, file));

    expect(services.grafana?.image).toMatch(/^grafana\/grafana:\d+\.\d+\.\d+$/);
    const grafana = mounts(services.grafana!);
    expect(grafana['/etc/grafana/provisioning']).toBe(path.join(deployDir, 'grafana', 'provisioning'));
    const providers = readYaml<{ providers: Array<{ options: { path: string } }> }>('grafana', 'provisioning', 'dashboards', 'scrape-api.yml').providers;
    expect(grafana[providers[0]!.options.path]).toBe(path.join(deployDir, 'grafana', 'dashboards'));
  });
});
