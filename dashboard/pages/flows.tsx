/** Flows: the account's flows, a flow's runs, and a run's per-node status and outputs (with cancel). */
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

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);
const flowHref = (id: string) => `${BASE}/flows/${encodeURIComponent(id)}`;

export function FlowsPage() {
  const flows = useLoad(() => api<{ flows: Flow[] }>('GET', '/flows'));
  return (
    <Page title="Flows">
      <p>
        Flows are created and started through the API (<code>POST /flows</code>, <code>POST /flows/:id/runs</code>); here you follow and cancel their runs.
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
                {node.error ? <Json value={node.error} label={`Error of ${node.id}`} /> : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </Page>
  );
}
