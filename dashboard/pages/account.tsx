/** Account: who is signed in, consent per kind (grant or withdraw, with the history) and the data export. */
import { useState } from 'preact/hooks';
import { type SessionUser, api } from '../api';
import { ErrorMessage, Loading, Page, formatTime, useLoad } from '../ui';

interface ConsentRecord {
  id: string;
  kind: string;
  granted: boolean;
  version: string;
  at: string;
}

interface ConsentState {
  versions: Record<string, string>;
  current: Record<string, { granted: boolean; version: string; at: string } | null>;
  history: ConsentRecord[];
}

const KIND_LABELS: Record<string, string> = { terms: 'Terms of service', privacy: 'Privacy notice', marketing: 'Marketing e-mail' };

export function AccountPage({ user }: { user: SessionUser }) {
  const consent = useLoad(() => api<ConsentState>('GET', '/api/consent'));
  const [error, setError] = useState<unknown>(null);
  const [exported, setExported] = useState<string | null>(null);

  const setConsent = async (kind: string, granted: boolean) => {
    setError(null);
    try {
      await api('POST', '/api/consent', { kind, granted });
      await consent.reload();
    } catch (e) {
      setError(e);
    }
  };

  const download = async () => {
    setError(null);
    try {
      const data = await api<unknown>('GET', '/api/users/export');
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `scrape-api-export-${new Date().toISOString().slice(0, 10)}.json`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setExported(a.download);
    } catch (e) {
      setError(e);
    }
  };

  return (
    <Page title="Account">
      <dl class="details">
        <dt>Name</dt>
        <dd>{user.name}</dd>
        <dt>Email</dt>
        <dd>{user.email}</dd>
      </dl>
      <ErrorMessage error={error} />

      <h2>Consent</h2>
      <Loading loaded={consent} />
      {consent.data ? (
        <ul class="consents">
          {Object.keys(consent.data.current).map((kind) => {
            const state = consent.data!.current[kind];
            const granted = state?.granted === true;
            return (
              <li key={kind} data-consent-kind={kind}>
                <div>
                  <strong>{KIND_LABELS[kind] ?? kind}</strong> <span class="muted">version {consent.data!.versions[kind] ?? '—'}</span>
                  <div data-testid={`consent-${kind}`}>{state ? `${granted ? 'Granted' : 'Withdrawn'} ${formatTime(state.at)} (version ${state.version})` : 'Not given'}</div>
                </div>
                <button type="button" class={granted ? 'secondary' : ''} onClick={() => void setConsent(kind, !granted)} aria-label={`${granted ? 'Withdraw' : 'Grant'} ${KIND_LABELS[kind] ?? kind}`}>
                  {granted ? 'Withdraw' : 'Grant'}
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      {consent.data && consent.data.history.length > 0 ? (
        <details>
          <summary>History ({consent.data.history.length})</summary>
          <ul>
            {consent.data.history.map((r) => (
              <li key={r.id}>
                {formatTime(r.at)}: {KIND_LABELS[r.kind] ?? r.kind} {r.granted ? 'granted' : 'withdrawn'} (version {r.version})
              </li>
            ))}
          </ul>
        </details>
      ) : null}

      <h2>Your data</h2>
      <p>Everything the service holds about the account, as one JSON file (no secrets: no key values, passwords or session tokens).</p>
      <button type="button" onClick={() => void download()}>
        Download my data
      </button>
      {exported ? <p role="status">Saved as {exported}.</p> : null}
    </Page>
  );
}
