/** API keys: create (the secret shown once, with a copy button), list, revoke after a confirmation. */
import { useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorMessage, Loading, Page, formatNumber, formatTime, useLoad } from '../ui';

interface Key {
  id: string;
  name: string | null;
  start: string | null;
  prefix: string | null;
  remaining: number;
  createdAt: string;
  enabled: boolean;
  lastUsedAt: string | null;
}

interface CreatedKey extends Key {
  key: string;
}

function NewSecret({ created, onDismiss }: { created: CreatedKey; onDismiss: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied('yes');
    } catch {
      // No clipboard permission: select it for a manual copy.
      field.current?.select();
      setCopied('no');
    }
  };
  return (
    <div class="callout" role="status">
      <p>
        <strong>Key “{created.name}” created.</strong> Copy its secret now: it is shown only this once.
      </p>
      <div class="row">
        <label class="grow">
          Secret
          <input ref={field} type="text" readOnly value={created.key} data-testid="new-secret" onFocus={(e) => e.currentTarget.select()} />
        </label>
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" class="secondary" onClick={onDismiss}>
          Done
        </button>
      </div>
      {copied === 'yes' ? <p>Copied to the clipboard.</p> : null}
      {copied === 'no' ? <p>The clipboard is not available: the secret is selected, copy it with Ctrl+C.</p> : null}
    </div>
  );
}

function KeyRow({ item, onRevoked }: { item: Key; onRevoked: () => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const revoke = async () => {
    try {
      await api('DELETE', `/api/users/api-keys/${encodeURIComponent(item.id)}`);
      setConfirming(false);
      await onRevoked();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <tr data-key-id={item.id}>
      <td>{item.name ?? '—'}</td>
      <td>
        <code>{item.start ?? item.prefix ?? ''}…</code>
      </td>
      <td>{formatTime(item.createdAt)}</td>
      <td>{item.lastUsedAt ? formatTime(item.lastUsedAt) : 'never'}</td>
      <td>{item.enabled ? 'active' : 'revoked'}</td>
      <td>
        {item.enabled && !confirming ? (
          <button type="button" class="danger" onClick={() => setConfirming(true)} aria-label={`Revoke ${item.name ?? 'key'}`}>
            Revoke
          </button>
        ) : null}
        {confirming ? (
          <div role="group" aria-label={`Confirm revoking ${item.name ?? 'key'}`} class="confirm">
            <span>Revoke for good? Requests with it will get 401.</span>
            <button type="button" class="danger" onClick={() => void revoke()} ref={(el) => el?.focus()}>
              Yes, revoke
            </button>
            <button type="button" class="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        ) : null}
        <ErrorMessage error={error} />
      </td>
    </tr>
  );
}

export function KeysPage() {
  const keys = useLoad(() => api<{ remaining: number; keys: Key[] }>('GET', '/api/users/api-keys'));
  const [name, setName] = useState('');
  const [prefix, setPrefix] = useState('sk_');
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setCreated(await api<CreatedKey>('POST', '/api/users/create-api-keys', { name, prefix }));
      setName('');
      await keys.reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title="API keys">
      <p>
        Every key spends the account's balance: <strong data-testid="keys-balance">{keys.data ? formatNumber(keys.data.remaining) : '…'}</strong> credits. Send a key in the{' '}
        <code>x-api-key</code> header.
      </p>
      {created ? <NewSecret created={created} onDismiss={() => setCreated(null)} /> : null}
      <form onSubmit={(e) => void create(e)} class="inline-form" aria-labelledby="create-key">
        <h2 id="create-key">Create a key</h2>
        <label>
          Name
          <input type="text" name="name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Prefix
          <input type="text" name="prefix" value={prefix} onInput={(e) => setPrefix(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={busy}>
          Create key
        </button>
        <ErrorMessage error={error} />
      </form>
      <h2>Keys</h2>
      <Loading loaded={keys} />
      {keys.data && keys.data.keys.length === 0 ? <p>No keys yet.</p> : null}
      {keys.data && keys.data.keys.length > 0 ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Starts with</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.keys.map((item) => (
                <KeyRow key={item.id} item={item} onRevoked={keys.reload} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Page>
  );
}
