/** Stored sessions (docs/scraping.md "Sessions"): list with their metadata, delete after a confirmation. */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorMessage, Loading, Page, formatNumber, formatTime, useLoad } from '../ui';

interface Session {
  name: string;
  domains: string[];
  size_bytes: number;
  cookie_count: number;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

function SessionRow({ item, onDeleted }: { item: Session; onDeleted: () => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const remove = async () => {
    try {
      await api('DELETE', `/sessions/${encodeURIComponent(item.name)}`);
      setConfirming(false);
      await onDeleted();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <tr data-session={item.name}>
      <td>
        <code>{item.name}</code>
      </td>
      <td>{item.domains.length ? item.domains.join(', ') : '—'}</td>
      <td>
        {formatNumber(item.cookie_count)} cookies, {formatNumber(item.size_bytes)} bytes
      </td>
      <td>{formatTime(item.created_at)}</td>
      <td>{item.last_used_at ? formatTime(item.last_used_at) : 'never'}</td>
      <td>{item.expires_at ? formatTime(item.expires_at) : 'with the browser session'}</td>
      <td>
        {!confirming ? (
          <button type="button" class="danger" onClick={() => setConfirming(true)} aria-label={`Delete ${item.name}`}>
            Delete
          </button>
        ) : (
          <div role="group" aria-label={`Confirm deleting ${item.name}`} class="confirm">
            <span>Delete for good? Scrapes naming it will get 404 until it is saved again.</span>
            <button type="button" class="danger" onClick={() => void remove()} ref={(el) => el?.focus()}>
              Yes, delete
            </button>
            <button type="button" class="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        )}
        <ErrorMessage error={error} />
      </td>
    </tr>
  );
}

export function SessionsPage() {
  const sessions = useLoad(() => api<{ sessions: Session[] }>('GET', '/sessions'));
  return (
    <Page title="Sessions">
      <p>
        Cookies and local storage that scrapes start from with <code>session: {'{'}name{'}'}</code> and save with <code>save: true</code>, stored encrypted. Import one
        with <code>PUT /sessions/:name</code> (a Playwright storage state). Their cookies are never shown here.
      </p>
      <Loading loaded={sessions} />
      {sessions.data && sessions.data.sessions.length === 0 ? <p>No sessions yet.</p> : null}
      {sessions.data && sessions.data.sessions.length > 0 ? (
        <div class="table-wrap">
          <table data-testid="sessions">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Domains</th>
                <th scope="col">Size</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.sessions.map((item) => (
                <SessionRow key={item.name} item={item} onDeleted={sessions.reload} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Page>
  );
}
