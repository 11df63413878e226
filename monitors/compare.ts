/**
 * What a check compares and how two snapshots differ (docs/monitors.md "Comparing"):
 * - the snapshot: the main content's markdown, the selector `data` or the `json` output of a
 *   scrape result, after `ignore.patterns` removed every match (text: from the markdown; JSON:
 *   from each string value);
 * - the diff: markdown by lines, as a unified diff (the `diff` library, jsdiff: Myers' algorithm,
 *   the format `patch` and `git apply` read); JSON by path (the `microdiff` library: small, no
 *   dependencies, reports added, removed and changed values with their paths).
 */
import { createTwoFilesPatch, structuredPatch } from 'diff';
import microdiff from 'microdiff';
import type { MonitorCompare, MonitorIgnore } from './request';

export type CheckStatus = 'new' | 'same' | 'changed' | 'removed' | 'failed';

/** One difference of structured output, by JSON path (`$.data[0].values[1]`). */
export interface JsonChange {
  type: 'added' | 'removed' | 'changed';
  path: string;
  before?: unknown;
  after?: unknown;
}

export interface CheckDiff {
  /** Unified diff of the markdown (compare "markdown"), `---`/`+++` headers naming the two checks' times. */
  markdown?: string;
  /** Lines added and removed (markdown). */
  added?: number;
  removed?: number;
  /** Structured output (compare "data" or "json"). */
  changes?: JsonChange[];
}

function stripPatterns(text: string, patterns: readonly string[]): string {
  let out = text;
  for (const pattern of patterns) out = out.replace(new RegExp(pattern, 'g'), '');
  return out;
}

function stripValues(value: unknown, patterns: readonly string[]): unknown {
  if (typeof value === 'string') return stripPatterns(value, patterns);
  if (Array.isArray(value)) return value.map((v) => stripValues(v, patterns));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stripValues(v, patterns)]));
  return value;
}

/** Trailing spaces and runs of blank lines left by removed text do not make a change. */
function normaliseText(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The compared snapshot of a stored scrape result (scrape_run.result): text for markdown, JSON
 * text for structured output; undefined when the result lacks what the monitor compares.
 */
export function snapshotOf(result: Record<string, unknown>, compare: MonitorCompare, ignore: Pick<MonitorIgnore, 'patterns'>): string | undefined {
  if (compare === 'markdown') {
    if (typeof result.markdown !== 'string') return undefined;
    return normaliseText(stripPatterns(result.markdown, ignore.patterns));
  }
  const value = compare === 'data' ? result.data : result.json;
  if (value === undefined) return undefined;
  return JSON.stringify(stripValues(value, ignore.patterns));
}

function jsonPath(path: ReadonlyArray<string | number>): string {
  return '$' + path.map((p) => (typeof p === 'number' ? `[${p}]` : /^[A-Za-z_$][\w$]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`)).join('');
}

/** The diff between two snapshots of one monitor (the same `compare`). */
export function diffSnapshots(before: string, after: string, compare: MonitorCompare, labels: { before: string; after: string }): CheckDiff {
  if (compare === 'markdown') {
    const oldText = before.endsWith('\n') ? before : `${before}\n`;
    const newText = after.endsWith('\n') ? after : `${after}\n`;
    const patch = createTwoFilesPatch('previous', 'current', oldText, newText, labels.before, labels.after, { context: 3 });
    let added = 0;
    let removed = 0;
    for (const hunk of structuredPatch('previous', 'current', oldText, newText, '', '', { context: 0 }).hunks) {
      for (const line of hunk.lines) {
        if (line.startsWith('+')) added++;
        else if (line.startsWith('-')) removed++;
      }
    }
    return { markdown: patch, added, removed };
  }
  const parsedBefore = JSON.parse(before) as unknown;
  const parsedAfter = JSON.parse(after) as unknown;
  // microdiff compares objects and arrays; a top-level scalar is wrapped so it is compared too.
  const wrap = (v: unknown) => ({ value: v }) as Record<string, unknown>;
  const changes = microdiff(wrap(parsedBefore), wrap(parsedAfter)).map((d): JsonChange => {
    const path = jsonPath(d.path.slice(1));
    if (d.type === 'CREATE') return { type: 'added', path, after: d.value };
    if (d.type === 'REMOVE') return { type: 'removed', path, before: d.oldValue };
    return { type: 'changed', path, before: d.oldValue, after: d.value };
  });
  return { changes };
}

/** Target answers that mean the page is gone (a check `removed`, never a change of its content). */
export const REMOVED_HTTP_STATUSES: readonly number[] = [404, 410];
