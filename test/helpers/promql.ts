/**
 * What the ops kit's queries ask of the service: the metric selectors in PromQL (parsed by
 * Prometheus's own grammar, @prometheus-io/lezer-promql), the queries of the Grafana dashboard and
 * of the alert rules, and the samples a live /metrics exposes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { parse as parseYaml } from 'yaml';

export const deployDir = path.resolve(__dirname, '..', '..', 'deploy');

export interface LabelMatcher {
  label: string;
  op: '=' | '!=' | '=~' | '!~';
  value: string;
}

export interface Selector {
  metric: string;
  matchers: LabelMatcher[];
}

/** Grafana's built-in interval variables, replaced by a duration PromQL accepts. */
const GRAFANA_VARIABLES: Record<string, string> = { $__rate_interval: '1m', $__interval: '1m', $__range: '1h' };

export function expandGrafanaVariables(expr: string): string {
  return expr.replace(/\$__[a-z_]+/g, (name) => {
    const value = GRAFANA_VARIABLES[name];
    if (!value) throw new Error(`unknown Grafana variable ${name} in ${expr}`);
    return value;
  });
}

/** Every metric selector of a PromQL expression; throws on a syntax error (the grammar's error nodes). */
export function selectorsOf(expr: string): Selector[] {
  const tree = parser.parse(expr);
  const selectors: Selector[] = [];
  const errors: string[] = [];
  const text = (from: number, to: number) => expr.slice(from, to);
  tree.iterate({
    enter(node) {
      if (node.type.isError) errors.push(`at ${node.from}: "${text(Math.max(0, node.from - 10), node.to + 10)}"`);
      if (node.name !== 'VectorSelector') return;
      const metric = node.node.getChild('Identifier');
      if (!metric) throw new Error(`a selector without a metric name in ${expr}: ${text(node.from, node.to)}`);
      const matchers: LabelMatcher[] = [];
      for (const matcher of node.node.getChild('LabelMatchers')?.getChildren('UnquotedLabelMatcher') ?? []) {
        const label = matcher.getChild('LabelName');
        const op = matcher.getChild('MatchOp');
        const value = matcher.getChild('StringLiteral');
        if (!label || !op || !value) throw new Error(`unreadable label matcher in ${expr}`);
        matchers.push({ label: text(label.from, label.to), op: text(op.from, op.to) as LabelMatcher['op'], value: JSON.parse(text(value.from, value.to)) as string });
      }
      selectors.push({ metric: text(metric.from, metric.to), matchers });
    },
  });
  if (errors.length) throw new Error(`PromQL syntax error in ${expr}: ${errors.join('; ')}`);
  return selectors;
}

export interface DashboardPanel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { type: string; uid: string };
  targets?: Array<{ refId: string; expr: string; datasource?: { type: string; uid: string } }>;
  panels?: DashboardPanel[];
}

export interface Dashboard {
  uid: string;
  title: string;
  schemaVersion: number;
  panels: DashboardPanel[];
}

export const dashboardPath = path.join(deployDir, 'grafana', 'dashboards', 'scrape-api.json');

export function readDashboard(): Dashboard {
  return JSON.parse(readFileSync(dashboardPath, 'utf8')) as Dashboard;
}

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export function readAlertRules(): AlertRule[] {
  const file = parseYaml(readFileSync(path.join(deployDir, 'prometheus', 'alerts.yml'), 'utf8')) as { groups: Array<{ rules: AlertRule[] }> };
  return file.groups.flatMap((group) => group.rules);
}

/** Each query of the ops kit, by where it comes from ("panel 7 (title) A", "alert X"), Grafana variables expanded. */
export function opsKitQueries(): Array<{ where: string; expr: string }> {
  const panels = readDashboard().panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
  return [
    ...panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: `panel ${panel.id} (${panel.title}) ${target.refId}`, expr: expandGrafanaVariables(target.expr) }))),
    ...readAlertRules().map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr })),
  ];
}

/** The samples of an exposition text: metric name → the label sets of its samples. */
export function samplesOf(exposition: string): Map<string, Array<Record<string, string>>> {
  const samples = new Map<string, Array<Record<string, string>>>();
  for (const line of exposition.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? \S+/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    const list = samples.get(match[1]!) ?? [];
    list.push(labels);
    samples.set(match[1]!, list);
  }
  return samples;
}
