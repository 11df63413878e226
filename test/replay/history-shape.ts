/**
 * What a recorded history holds, read from its JSON (the form `temporal workflow show --output json`
 * writes): the steps that make its shape (the commands a replay must reproduce), the patches it
 * carries, and every string in it with its payloads decoded, for the secret check.
 */
import type { HistoryJson } from '../../workers/workflow-replay';

type Json = Record<string, unknown>;

interface PayloadJson {
  metadata?: Record<string, string>;
  data?: string;
}

const decode = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

/** A JSON payload's value (`json/plain`), or undefined for any other encoding. */
function payloadValue(payload: PayloadJson | undefined): unknown {
  if (!payload?.data || !payload.metadata?.encoding || decode(payload.metadata.encoding) !== 'json/plain') return undefined;
  try {
    return JSON.parse(decode(payload.data));
  } catch {
    return undefined;
  }
}

const firstPayload = (field: unknown) => payloadValue((field as { payloads?: PayloadJson[] } | undefined)?.payloads?.[0]);

/** `EVENT_TYPE_ACTIVITY_TASK_SCHEDULED` → `ActivityTaskScheduled`. */
function eventName(event: Json): string {
  const type = (typeof event.eventType === 'string' ? event.eventType : '').replace(/^EVENT_TYPE_/, '');
  return type
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

const attributesOf = (event: Json) => Object.entries(event).find(([key]) => key.endsWith('EventAttributes'))?.[1] as Json | undefined;

/**
 * The steps of a history, one per event that a replay checks or that tells a path apart:
 * `activity:<type>`, `local-activity:<type>`, `patch:<id>`, `timer`, `signal:<name>`,
 * `update:<name>` (accepted), `child:<type>`, `search-attributes`, `continue-as-new`, `end:<completed|failed|…>`.
 */
export function historySteps(history: HistoryJson): string[] {
  const steps: string[] = [];
  for (const event of history.events) {
    const name = eventName(event);
    const attributes = attributesOf(event) ?? {};
    switch (name) {
      case 'ActivityTaskScheduled':
        steps.push(`activity:${(attributes.activityType as { name: string }).name}`);
        break;
      case 'MarkerRecorded': {
        const details = (attributes.details ?? {}) as Json;
        if (attributes.markerName === 'core_local_activity') {
          const data = firstPayload(details.data) as { activity_type?: string } | undefined;
          steps.push(`local-activity:${data?.activity_type ?? '?'}`);
        } else if (attributes.markerName === 'core_patch') {
          const patch = firstPayload(details['patch-data']) as { id?: string; deprecated?: boolean } | undefined;
          steps.push(`patch:${patch?.id ?? '?'}${patch?.deprecated ? ' (deprecated)' : ''}`);
        } else steps.push(`marker:${String(attributes.markerName)}`);
        break;
      }
      case 'TimerStarted':
        steps.push('timer');
        break;
      case 'WorkflowExecutionSignaled':
        steps.push(`signal:${String(attributes.signalName)}`);
        break;
      case 'WorkflowExecutionUpdateAccepted':
        steps.push(`update:${String(((attributes.acceptedRequest as Json | undefined)?.input as Json | undefined)?.name)}`);
        break;
      case 'StartChildWorkflowExecutionInitiated':
        steps.push(`child:${(attributes.workflowType as { name: string }).name}`);
        break;
      case 'UpsertWorkflowSearchAttributes':
        steps.push('search-attributes');
        break;
      case 'WorkflowExecutionContinuedAsNew':
        steps.push('continue-as-new');
        break;
      default:
        if (/^WorkflowExecution(Completed|Failed|Canceled|Terminated|TimedOut)$/.test(name)) {
          steps.push(`end:${name.replace('WorkflowExecution', '').toLowerCase()}`);
        }
    }
  }
  return steps;
}

/** The patch ids a history's markers carry (`patched()` / `deprecatePatch()` calls it went through). */
export function historyPatches(history: HistoryJson): string[] {
  return [...new Set(historySteps(history).filter((step) => step.startsWith('patch:')).map((step) => step.slice('patch:'.length).replace(/ \(deprecated\)$/, '')))];
}

/** Every string in the history, and each payload's data decoded: what a secret check reads. */
export function historyText(history: HistoryJson): string[] {
  const strings: string[] = [];
  const walk = (value: unknown, key?: string) => {
    if (typeof value === 'string') {
      strings.push(value);
      // Payload data, encodings and marker details are base64.
      if (key === 'data' || key === 'encoding') strings.push(decode(value));
      return;
    }
    if (Array.isArray(value)) value.forEach((item) => walk(item));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(history);
  return strings;
}

/** Shapes of secrets this service issues: API keys (`sk_…` by default), webhook secrets, session tokens. */
export const SECRET_PATTERNS: readonly RegExp[] = [/\bwhsec_[A-Za-z0-9_-]{16,}/, /\bsk_[A-Za-z0-9_]*[A-Za-z0-9]{20,}/, /better-auth\.session_token=/i];

/** Where a history holds one of `secrets` (exact strings) or something shaped like a secret. */
export function secretsIn(history: HistoryJson, secrets: readonly string[] = []): string[] {
  const found = new Set<string>();
  for (const text of historyText(history)) {
    for (const secret of secrets) if (secret && text.includes(secret)) found.add(`a known secret (${secret.slice(0, 6)}…)`);
    for (const pattern of SECRET_PATTERNS) {
      const match = pattern.exec(text);
      if (match) found.add(`${pattern.source} (${match[0].slice(0, 8)}…)`);
    }
  }
  return [...found];
}
