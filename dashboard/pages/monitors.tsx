/** Monitors (docs/monitors.md): the account's monitors with their last check, a monitor's checks, and a check's diff. */
import { api } from '../api';
import { BASE } from '../router';
import { Json, Link, Loading, Page, Status, formatTime, useLoad } from '../ui';

interface Check {
  id: string;
  monitorId: string;
  status: string;
  httpStatus: number | null;
  scrapeRunId: string;
  scheduledAt: string;
  finishedAt: string | null;
  diff: { markdown?: string; added?: number; removed?: number; changes?: unknown[] } | null;
  error: { code: string; message: string } | null;
}

interface Monitor {
  id: string;
  name: string;
  request: { url: string };
  schedule: { every?: string; cron?: string; timezone?: string };
  compare: string;
  paused: boolean;
  lastCheck: Check | null;
}

const monitorHref = (id: string) => `${BASE}/monitors/${encodeURIComponent(id)}`;
const scheduleText = (s: Monitor['schedule']) => (s.every ? `every ${s.every}` : `cron ${s.cron ?? ''} (${s.timezone ?? 'UTC'})`);

function diffSummary(check: Check): string {
  if (!check.diff) return check.error ? check.error.message : '';
  if (check.diff.changes) return `${check.diff.changes.length} value(s) changed`;
  return `+${check.diff.added ?? 0} −${check.diff.removed ?? 0} lines`;
}

export function MonitorsPage() {
  const monitors = useLoad(() => api<{ monitors: Monitor[] }>('GET', '/monitors?limit=200'));
  return (
    <Page title="Monitors">
      <p>
        Monitors are created through the API (<code>POST /monitors</code>); here you follow their checks and read what changed.
      </p>
      <Loading loaded={monitors} />
      {monitors.data && monitors.data.monitors.length === 0 ? <p>No monitors yet.</p> : null}
      {monitors.data && monitors.data.monitors.length > 0 ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">URL</th>
                <th scope="col">Schedule</th>
                <th scope="col">Last check</th>
                <th scope="col">Checked</th>
              </tr>
            </thead>
            <tbody>
              {monitors.data.monitors.map((m) => (
                <tr key={m.id} data-monitor-id={m.id}>
                  <td>
                    <Link href={monitorHref(m.id)}>{m.name}</Link>
                  </td>
                  <td>{m.request.url}</td>
                  <td>{m.paused ? 'paused' : scheduleText(m.schedule)}</td>
                  <td>{m.lastCheck ? <Status value={m.lastCheck.status} /> : '—'}</td>
                  <td>{formatTime(m.lastCheck?.finishedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Page>
  );
}

export function MonitorPage({ id }: { id: string }) {
  const monitor = useLoad(() => api<Monitor>('GET', `/monitors/${encodeURIComponent(id)}`), [id]);
  const checks = useLoad(() => api<{ checks: Check[] }>('GET', `/monitors/${encodeURIComponent(id)}/checks?limit=100`), [id]);
  return (
    <Page title={monitor.data ? `Monitor “${monitor.data.name}”` : 'Monitor'}>
      <p>
        <Link href={`${BASE}/monitors`}>← All monitors</Link>
      </p>
      <Loading loaded={monitor} />
      {monitor.data ? (
        <p>
          {monitor.data.request.url}: {monitor.data.paused ? 'paused' : scheduleText(monitor.data.schedule)}, compares {monitor.data.compare}
        </p>
      ) : null}
      <h2>Checks</h2>
      <Loading loaded={checks} />
      {checks.data && checks.data.checks.length === 0 ? <p>No checks yet.</p> : null}
      {checks.data && checks.data.checks.length > 0 ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Checked</th>
                <th scope="col">Status</th>
                <th scope="col">Target</th>
                <th scope="col">What changed</th>
              </tr>
            </thead>
            <tbody>
              {checks.data.checks.map((check) => (
                <tr key={check.id} data-check-id={check.id}>
                  <td>{check.diff ? <Link href={`${monitorHref(id)}/checks/${encodeURIComponent(check.id)}`}>{formatTime(check.finishedAt ?? check.scheduledAt)}</Link> : formatTime(check.finishedAt ?? check.scheduledAt)}</td>
                  <td>
                    <Status value={check.status} />
                  </td>
                  <td>{check.httpStatus ?? '—'}</td>
                  <td>{diffSummary(check)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Page>
  );
}

/** A check's diff: the unified diff, one line per row coloured by its sign, or the JSON changes. */
export function MonitorCheckPage({ id, checkId }: { id: string; checkId: string }) {
  const diff = useLoad(() => api<{ status: string; diff: Check['diff'] }>('GET', `/monitors/${encodeURIComponent(id)}/checks/${encodeURIComponent(checkId)}/diff`), [id, checkId]);
  return (
    <Page title="What changed">
      <p>
        <Link href={monitorHref(id)}>← The monitor's checks</Link>
      </p>
      <Loading loaded={diff} />
      {diff.data?.diff?.markdown ? (
        <pre class="diff" aria-label="Unified diff">
          {diff.data.diff.markdown.split('\n').map((line, i) => (
            <span key={i} class={line.startsWith('+') && !line.startsWith('+++') ? 'diff-added' : line.startsWith('-') && !line.startsWith('---') ? 'diff-removed' : undefined}>
              {line}
              {'\n'}
            </span>
          ))}
        </pre>
      ) : null}
      {diff.data?.diff?.changes ? <Json value={diff.data.diff.changes} label="Changes by JSON path" /> : null}
      {diff.data && !diff.data.diff ? <p>This check has no diff ({diff.data.status}).</p> : null}
    </Page>
  );
}
