/**
 * Replays stored workflow histories against today's workflow code (docs/workflows-versioning.md):
 * the SDK's replayer (`Worker.runReplayHistories`) runs each history through the bundle the
 * workers run (workers/workflow-bundle.ts); a history the code no longer reproduces fails with the
 * SDK's nondeterminism error. Used by workflows/replay.test.ts on the recorded histories under
 * test/replay/histories, and by `npm run replay-histories -- <files or folders>` on histories
 * exported from a cluster (`temporal workflow show --workflow-id <id> --output json`) before a deploy.
 *
 * A history file is the JSON that `temporal workflow show --output json` writes (and historyToJson
 * below): `{ "events": [...] }`, its first event naming the workflow id (server 1.21 and later).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';
import type { DataConverter } from '@temporalio/common';
import { Worker } from '@temporalio/worker';

type History = proto.temporal.api.history.v1.IHistory;

/** The JSON form of a history, as stored. */
export interface HistoryJson {
  events: Array<Record<string, unknown> & { eventType?: string }>;
}

interface ProtoJson {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options: { ignoreUnknownFields: boolean }): unknown;
}

/**
 * The JSON codec of the protobufjs copy that built the SDK's message types. The SDK's own
 * `historyToJSON`/`historyFromJSON` (@temporalio/common) load protobufjs from @temporalio/common's
 * folder, and npm installs a copy of it under each @temporalio package here (the top-level
 * protobufjs is gRPC's 7.x): the types then come from another copy and both helpers throw "type
 * must be a Type". Loading the codec beside @temporalio/proto works in any layout.
 */
const protojson = createRequire(require.resolve('@temporalio/proto'))('protobufjs/ext/protojson') as ProtoJson;
// The patched root is a protobufjs Root at run time; its declared type is the generated namespaces'.
const historyType = (patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown }).lookupType('temporal.api.history.v1.History');

/** A history (as `fetchHistory()` answers it) in the JSON form `temporal workflow show --output json` writes. */
export function historyToJson(history: History): string {
  return JSON.stringify(protojson.toJson(historyType, proto.temporal.api.history.v1.History.fromObject(history)), null, 2);
}

/** The inverse of historyToJson: the history the replayer takes. */
export function historyFromJson(json: HistoryJson): History {
  return protojson.fromJson(historyType, json, { ignoreUnknownFields: true }) as History;
}

export interface StoredHistory {
  /** The file it came from (relative to the folder it was found in). */
  name: string;
  workflowId: string;
  workflowType: string;
  history: HistoryJson;
}

export interface ReplayOutcome {
  name: string;
  workflowType: string;
  /** The replayer's error (nondeterminism, or a workflow task that failed on replay); absent when it replayed. */
  error?: string;
}

function startedAttributes(history: HistoryJson): Record<string, unknown> {
  const first = history.events[0];
  const attributes = first?.workflowExecutionStartedEventAttributes as Record<string, unknown> | undefined;
  if (!attributes) throw new Error('its first event is not WorkflowExecutionStarted');
  return attributes;
}

/** The workflow type a history ran. */
export function workflowTypeOf(history: HistoryJson): string {
  const type = (startedAttributes(history).workflowType as { name?: string } | undefined)?.name;
  if (!type) throw new Error('its WorkflowExecutionStarted event names no workflow type');
  return type;
}

/** Reads one history file; the workflow id is the history's own (server 1.21+), else the file's name. */
export function readHistory(file: string, name = path.basename(file)): StoredHistory {
  let history: HistoryJson;
  try {
    history = JSON.parse(readFileSync(file, 'utf8')) as HistoryJson;
    if (!Array.isArray(history.events) || history.events.length === 0) throw new Error('no "events" array');
  } catch (error) {
    throw new Error(`${name}: not a history file (${error instanceof Error ? error.message : String(error)})`);
  }
  try {
    const recordedId = startedAttributes(history).workflowId;
    const workflowId = typeof recordedId === 'string' && recordedId ? recordedId : name.replace(/\.json$/, '');
    return { name, workflowId, workflowType: workflowTypeOf(history), history };
  } catch (error) {
    throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Every `*.json` history under the given files and folders (folders recursively), in name order. */
export function readHistories(paths: string[]): StoredHistory[] {
  const found: StoredHistory[] = [];
  for (const given of paths) {
    if (!existsSync(given)) throw new Error(`${given}: no such file or folder`);
    if (!statSync(given).isDirectory()) {
      found.push(readHistory(given));
      continue;
    }
    const files = readdirSync(given, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.json')).sort();
    for (const file of files) found.push(readHistory(path.join(given, file), file));
  }
  return found;
}

/**
 * Replays every history through the workflow bundle, one after another in one replay worker, and
 * answers one outcome per history (in order). Never throws for a history that fails to replay:
 * the caller names all of them at once. `dataConverter`: the workers' (encrypted payloads decode);
 * histories recorded before the codec replay through it too (a plain payload passes through).
 */
export async function replayHistories(histories: StoredHistory[], workflowBundle: { code: string }, dataConverter?: DataConverter): Promise<ReplayOutcome[]> {
  const outcomes: ReplayOutcome[] = [];
  // The replayer answers by workflow id, in the order the histories were given.
  const pending = [...histories];
  const results = Worker.runReplayHistories(
    { workflowBundle, replayName: 'replay-check', ...(dataConverter ? { dataConverter } : {}) },
    histories.map((stored) => ({ workflowId: stored.workflowId, history: historyFromJson(stored.history) })),
  );
  for await (const result of results) {
    const stored = pending.shift();
    if (!stored || stored.workflowId !== result.workflowId) {
      throw new Error(`the replayer answered for ${result.workflowId}, expected ${stored?.workflowId ?? 'nothing'}`);
    }
    outcomes.push({
      name: stored.name,
      workflowType: stored.workflowType,
      ...(result.error ? { error: `${result.error.name}: ${result.error.message}` } : {}),
    });
  }
  if (pending.length) throw new Error(`the replayer answered nothing for ${pending.map((stored) => stored.name).join(', ')}`);
  return outcomes;
}
