/**
 * Flows: the account's flows, a flow's runs, a run's per-node status and outputs (with cancel),
 * and the runs waiting for a person's input, each answered from the page (docs/flows.md, "The input node").
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { BASE } from '../router';
import { ErrorMessage, Json, Link, Loading, Page, Status, formatTime, useLoad } from '../ui';

interface Flow {
  id: string;
  name: string;
  description: string | null;
  version: number;
  nodes: Array<{ id: string; type: string }>;
  createdAt: string;
  updatedAt: string;
}

interface FlowRunSummary {
  id: string;
  flowId: string;
  flowVersion: number;
  status: string;
  error: unknown;
  workflowId: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

interface FlowNode {
  id: string;
  type: string;
  needs?: string[];
  status: string;
  attempts: number;
  credits: number;
  output: unknown;
  error: unknown;
  run_id?: string;
  items?: Record<string, number | null>;
}

interface FlowRun extends FlowRunSummary {
  credits: { spent: number };
  nodes: FlowNode[];
}

/** A run waiting at one or more input nodes (GET /flows/runs/waiting). */
interface WaitingRun extends FlowRunSummary {
  flowName: string;
  waiting: Array<{ node: string; prompt: string; expires_at: string; screenshot?: { url: string } }>;
}

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);
const flowHref = (id: string) => `${BASE}/flows/${encodeURIComponent(id)}`;
const runApiPath = (flowId: string, runId: string) => `/flows/${encodeURIComponent(flowId)}/runs/${encodeURIComponent(runId)}`;

/** The answer to one waiting input node: its prompt as the field's label, one text field, send. */
function InputForm({ flowId, runId, node, prompt, onAnswered }: { flowId: string; runId: string; node: string; prompt: string; onAnswered: () => void }) {
  const [value, setValue] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const send = async (event: Event) => {
    event.preventDefault();
    setSending(true);
    setError(null);
    try {
      await api('POST', `${runApiPath(flowId, runId)}/input`, { node, value });
      setValue('');
      onAnswered();
    } catch (e) {
      setError(e);
    } finally {
      setSending(false);
    }
  };
  const fieldId = `input-${runId}-${node}`;
  return (
    <form class="input-answer" data-input-node={node} onSubmit={(e) => void send(e)}>
      <label for={fieldId}>{prompt}</label>
      <input id={fieldId} type="text" autocomplete="off" required maxLength={10000} value={value} onInput={(e) => setValue((e.currentTarget).value)} />
      <button type="submit" disabled={sending}>
        Send answer
      </button>
      <ErrorMessage error={error} />
    </form>
  );
}

/** The account's runs waiting for input, oldest first, each waiting node with its form. */
export function WaitingInputPage() {
  const runs = useLoad(() => api<{ runs: WaitingRun[] }>('GET', '/flows/runs/waiting'));
  return (
    <Page
      title="Waiting for input"
      actions={
        <button type="button" class="secondary" onClick={() => void runs.reload()}>
          Refresh
        </button>
      }
    >
      <p>
        <Link href={`${BASE}/flows`}>← All flows</Link>
      </p>
      <p>Flow runs paused at an input node until someone answers its prompt; a run that is not answered in time fails.</p>
      <Loading loaded={runs} />
      {runs.data && runs.data.runs.length === 0 ? <p>No run is waiting for input.</p> : null}
      {runs.data && runs.data.runs.length > 0 ? (
        <ul class="waiting-runs">
          {runs.data.runs.map((run) => (
            <li key={run.id} data-waiting-run-id={run.id}>
              <div class="node-head">
                <Link href={`${flowHref(run.flowId)}/runs/${encodeURIComponent(run.id)}`}>{run.flowName}</Link> <span class="muted">started {formatTime(run.createdAt)}</span>
              </div>
              {run.waiting.map((w) => (
                <div key={w.node}>
                  <p class="muted">
                    Node <strong>{w.node}</strong>, answer before {formatTime(w.expires_at)}
                    {w.screenshot ? (
                      <>
                        {' '}
                        · screenshot: <code>{w.screenshot.url}</code> (with your API key)
                      </>
                    ) : null}
                  </p>
                  <InputForm flowId={run.flowId} runId={run.id} node={w.node} prompt={w.prompt} onAnswered={() => void runs.reload()} />
                </div>
              ))}
            </li>
          ))}
        </ul>
      ) : null}
    </Page>
  );
}

export function FlowsPage() {
  const flows = useLoad(() => api<{ flows: Flow[] }>('GET', '/flows'));
  return (
    <Page title="Flows">
      <p>
        Flows are created and started through the API (<code>POST /flows</code>, <code>POST /flows/:id/runs</code>); here you follow and cancel their runs, and answer
        the runs <Link href={`${BASE}/flows/waiting`}>waiting for input</Link>.
      </p>
      <Loading loaded={flows} />
      {flows.data && flows.data.flows.length === 0 ? <p>No flows yet.</p> : null}
      {flows.data && flows.data.flows.length > 0 ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Version</th>
                <th scope="col">Nodes</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {flows.data.flows.map((flow) => (
                <tr key={flow.id}>
                  <td>
                    <Link href={flowHref(flow.id)}>{flow.name}</Link>
                  </td>
                  <td>{flow.version}</td>
                  <td>{flow.nodes.map((n) => `${n.id} (${n.type})`).join(', ')}</td>
                  <td>{formatTime(flow.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Page>
  );
}

export function FlowPage({ id }: { id: string }) {
  const flow = useLoad(() => api<Flow>('GET', `/flows/${encodeURIComponent(id)}`), [id]);
  const runs = useLoad(() => api<{ runs: FlowRunSummary[] }>('GET', `/flows/${encodeURIComponent(id)}/runs?limit=50`), [id]);
  return (
    <Page title={flow.data ? `Flow “${flow.data.name}”` : 'Flow'}>
      <p>
        <Link href={`${BASE}/flows`}>← All flows</Link>
      </p>
      <Loading loaded={flow} />
      {flow.data?.description ? <p>{flow.data.description}</p> : null}
      <h2>Runs</h2>
      <Loading loaded={runs} />
      {runs.data && runs.data.runs.length === 0 ? <p>No runs yet.</p> : null}
      {runs.data && runs.data.runs.length > 0 ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Status</th>
                <th scope="col">Version</th>
                <th scope="col">Finished</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.runs.map((run) => (
                <tr key={run.id} data-flow-run-id={run.id}>
                  <td>
                    <Link href={`${flowHref(id)}/runs/${encodeURIComponent(run.id)}`}>{formatTime(run.createdAt)}</Link>
                  </td>
                  <td>
                    <Status value={run.status} />
                  </td>
                  <td>{run.flowVersion}</td>
                  <td>{formatTime(run.finishedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Page>
  );
}

export function FlowRunPage({ id, runId }: { id: string; runId: string }) {
  const path = `/flows/${encodeURIComponent(id)}/runs/${encodeURIComponent(runId)}`;
  const run = useLoad(() => api<FlowRun>('GET', path), [path]);
  const [confirming, setConfirming] = useState(false);
  const [cancelError, setCancelError] = useState<unknown>(null);
  const [cancelling, setCancelling] = useState(false);
  const cancel = async () => {
    setCancelling(true);
    setCancelError(null);
    try {
      await api('POST', `${path}/cancel`, {});
      setConfirming(false);
      await run.reload();
    } catch (e) {
      setCancelError(e);
    } finally {
      setCancelling(false);
    }
  };
  const data = run.data;
  // A live run refreshes itself every 2 s until it finishes.
  const live = data !== undefined && !FINISHED.has(data.status);
  useEffect(() => {
    if (!live) return undefined;
    const timer = setInterval(() => void run.reload(), 2000);
    return () => clearInterval(timer);
  }, [live, run.reload]);
  return (
    <Page
      title="Flow run"
      actions={
        <button type="button" class="secondary" onClick={() => void run.reload()}>
          Refresh
        </button>
      }
    >
      <p>
        <Link href={flowHref(id)}>← The flow's runs</Link>
      </p>
      <Loading loaded={run} />
      {data ? (
        <>
          <dl class="details">
            <dt>Status</dt>
            <dd data-testid="flow-run-status">
              <Status value={data.status} />
            </dd>
            <dt>Started</dt>
            <dd>{formatTime(data.createdAt)}</dd>
            <dt>Finished</dt>
            <dd>{formatTime(data.finishedAt)}</dd>
            <dt>Credits spent</dt>
            <dd>{data.credits.spent}</dd>
          </dl>
          {!FINISHED.has(data.status) && !confirming ? (
            <button type="button" class="danger" onClick={() => setConfirming(true)}>
              Cancel run
            </button>
          ) : null}
          {confirming ? (
            <div role="group" aria-label="Confirm cancelling the run" class="confirm">
              <span>Cancel this run? Nodes still running stop; what they spent stays spent.</span>
              <button type="button" class="danger" disabled={cancelling} onClick={() => void cancel()} ref={(el) => el?.focus()}>
                Yes, cancel
              </button>
              <button type="button" class="secondary" onClick={() => setConfirming(false)}>
                Keep running
              </button>
            </div>
          ) : null}
          <ErrorMessage error={cancelError} />
          {data.error ? <Json value={data.error} label="Run error" /> : null}
          <h2>Nodes</h2>
          <ol class="nodes">
            {data.nodes.map((node) => (
              <li key={node.id} data-node-id={node.id}>
                <div class="node-head">
                  <strong>{node.id}</strong> <span class="muted">{node.type}</span> <Status value={node.status} />
                  <span class="muted">
                    {node.attempts} attempt{node.attempts === 1 ? '' : 's'}, {node.credits} credit{node.credits === 1 ? '' : 's'}
                  </span>
                  {node.run_id ? <Link href={`${BASE}/runs/${encodeURIComponent(node.run_id)}`}>scrape run</Link> : null}
                </div>
                {node.items ? (
                  <p class="muted">
                    Items:{' '}
                    {Object.entries(node.items)
                      .map(([k, v]) => `${k} ${v ?? '—'}`)
                      .join(', ')}
                  </p>
                ) : null}
                {node.output !== null && node.output !== undefined ? (
                  <details>
                    <summary>Output</summary>
                    <Json value={node.output} label={`Output of ${node.id}`} />
                  </details>
                ) : null}
                {node.status === 'waiting_input' ? (
                  <InputForm flowId={id} runId={runId} node={node.id} prompt={(node.output as { prompt?: string } | null)?.prompt ?? 'Your answer'} onAnswered={() => void run.reload()} />
                ) : null}
                {node.error ? <Json value={node.error} label={`Error of ${node.id}`} /> : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </Page>
  );
}
