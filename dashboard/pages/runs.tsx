/** Scrape runs (GET /api/users/scrape-runs): the recent ones, and one with its result and its workflow in the Temporal UI. */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { BASE } from '../router';
import { ErrorMessage, Json, Link, Loading, Page, Status, formatDuration, formatTime, useLoad } from '../ui';

interface RunSummary {
  id: string;
  apiKeyId: string | null;
  flowRunId: string | null;
  mode: string;
  url: string;
  status: string;
  attempts: number;
  cost: number;
  refunded: boolean;
  httpStatus: number | null;
  durationMs: number | null;
  /** blockedBy: the vendor of the block page a TARGET_BLOCKED run got (docs/scraping.md "Block pages"). */
  error: { code: string | null; message: string | null; blockedBy: string | null } | null;
  createdAt: string;
  finishedAt: string | null;
}

interface RunDetail extends RunSummary {
  workflowId: string;
  elapsedMs: number | null;
  startedAt: string | null;
  request: unknown;
  result: unknown;
  links: { temporalUi: string };
  /** An `auto` run's steps (docs/scraping.md "Escalation"); null for any other run. */
  escalation: EscalationStep[] | null;
}

interface EscalationStep {
  attempt: number;
  engine: string;
  proxy_tier: string;
  outcome: string;
  escalated?: string;
  blocked_by?: string;
}

const ESCALATION_REASONS: Record<string, string> = { blocked: 'a block page', app_shell: 'the page needs JavaScript', noscript: 'the page asks for JavaScript' };

/** The path an `auto` run took: each step's engine and proxy tier, what it got, why the run moved on. */
function EscalationPath({ steps }: { steps: EscalationStep[] }) {
  return (
    <ol data-testid="run-escalation">
      {steps.map((step) => (
        <li key={step.attempt} data-outcome={step.outcome}>
          <strong>{step.engine}</strong> {step.proxy_tier === 'direct' ? 'without a proxy' : `through the ${step.proxy_tier} proxy tier`}:{' '}
          {step.outcome === 'succeeded' ? 'served the page' : step.outcome}
          {step.blocked_by ? ` (${step.blocked_by})` : ''}
          {step.escalated ? `; moved on: ${ESCALATION_REASONS[step.escalated] ?? step.escalated}, free` : ''}
        </li>
      ))}
    </ol>
  );
}

const runHref = (id: string) => `${BASE}/runs/${encodeURIComponent(id)}`;

export function RunsPage() {
  const [more, setMore] = useState<RunSummary[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [moreError, setMoreError] = useState<unknown>(null);
  const first = useLoad(async () => {
    const page = await api<{ runs: RunSummary[]; nextCursor: string | null }>('GET', '/api/users/scrape-runs?limit=25');
    setMore([]);
    setCursor(page.nextCursor);
    return page.runs;
  });
  const loadMore = async () => {
    try {
      const page = await api<{ runs: RunSummary[]; nextCursor: string | null }>('GET', `/api/users/scrape-runs?limit=25&cursor=${encodeURIComponent(cursor ?? '')}`);
      setMore((runs) => [...runs, ...page.runs]);
      setCursor(page.nextCursor);
    } catch (e) {
      setMoreError(e);
    }
  };
  const runs = [...(first.data ?? []), ...more];
  return (
    <Page
      title="Runs"
      actions={
        <button type="button" class="secondary" onClick={() => void first.reload()}>
          Refresh
        </button>
      }
    >
      <Loading loaded={first} />
      {first.data && runs.length === 0 ? <p>No scrape runs yet. Send one to POST /webhook/unblocker with an API key.</p> : null}
      {runs.length ? (
        <div class="table-wrap">
          <table data-testid="runs-table">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Status</th>
                <th scope="col">Mode</th>
                <th scope="col">URL</th>
                <th scope="col">Attempts</th>
                <th scope="col">Cost</th>
                <th scope="col">Duration</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr key={run.id} data-run-id={run.id}>
                  <td>
                    <Link href={runHref(run.id)}>{formatTime(run.createdAt)}</Link>
                  </td>
                  <td>
                    <Status value={run.status} />
                    {run.error?.blockedBy ? <span class="blocked" data-testid="blocked-by"> blocked by {run.error.blockedBy}</span> : null}
                  </td>
                  <td>{run.mode}</td>
                  <td class="url" title={run.url}>
                    {run.url}
                  </td>
                  <td>{run.attempts}</td>
                  <td>{run.refunded ? `${run.cost} (refunded)` : run.cost}</td>
                  <td>{formatDuration(run.durationMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {cursor ? (
        <button type="button" class="secondary" onClick={() => void loadMore()}>
          Older runs
        </button>
      ) : null}
      <ErrorMessage error={moreError} />
    </Page>
  );
}

export function RunPage({ id }: { id: string }) {
  const run = useLoad(() => api<RunDetail>('GET', `/api/users/scrape-runs/${encodeURIComponent(id)}`), [id]);
  const data = run.data;
  return (
    <Page title="Run">
      <p>
        <Link href={`${BASE}/runs`}>← All runs</Link>
      </p>
      <Loading loaded={run} />
      {data ? (
        <>
          <dl class="details">
            <dt>URL</dt>
            <dd class="url">{data.url}</dd>
            <dt>Status</dt>
            <dd>
              <Status value={data.status} /> {data.httpStatus !== null ? `(target answered HTTP ${data.httpStatus})` : null}
            </dd>
            <dt>Mode</dt>
            <dd>{data.mode}</dd>
            <dt>Attempts</dt>
            <dd>{data.attempts}</dd>
            <dt>Cost</dt>
            <dd>{data.refunded ? `${data.cost} credits, refunded` : `${data.cost} credits`}</dd>
            <dt>Accepted</dt>
            <dd>{formatTime(data.createdAt)}</dd>
            <dt>Duration</dt>
            <dd>{formatDuration(data.durationMs)}</dd>
            <dt>Workflow</dt>
            <dd>
              <a href={data.links.temporalUi} target="_blank" rel="noreferrer" data-testid="temporal-link">
                {data.workflowId} in the Temporal UI
              </a>
            </dd>
            {data.flowRunId ? (
              <>
                <dt>Flow run</dt>
                <dd>
                  <code>{data.flowRunId}</code>
                </dd>
              </>
            ) : null}
          </dl>
          {data.error ? (
            <>
              <h2>Error</h2>
              <p class="error">
                {data.error.code}: {data.error.message}
              </p>
              {data.error.blockedBy ? (
                <p data-testid="run-blocked-by">
                  Every attempt got a block page of <strong>{data.error.blockedBy}</strong>: nothing was charged. Another proxy, browser mode or a later
                  try may pass; <code>block_detection: false</code> takes the page as it is.
                </p>
              ) : null}
            </>
          ) : null}
          {data.escalation?.length ? (
            <>
              <h2>Escalation</h2>
              <EscalationPath steps={data.escalation} />
            </>
          ) : null}
          <h2>Result</h2>
          {data.result ? <Json value={data.result} label="Result" /> : <p>No result{data.status === 'running' || data.status === 'queued' ? ' yet' : ''}.</p>}
          <h2>Request</h2>
          <Json value={data.request} label="Request" />
        </>
      ) : null}
    </Page>
  );
}
