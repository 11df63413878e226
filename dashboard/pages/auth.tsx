/** Sign in and sign up (the auth library's email and password routes; they set the session cookie). */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { BASE } from '../router';
import { ErrorMessage, Link, Page } from '../ui';

function useSubmit(action: () => Promise<void>) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  return { error, busy, submit };
}

export function SignIn({ onDone }: { onDone: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { error, busy, submit } = useSubmit(async () => {
    await api('POST', '/api/auth/sign-in/email', { email, password });
    await onDone();
  });
  return (
    <Page title="Sign in">
      <form onSubmit={(e) => void submit(e)} class="stack">
        <label>
          Email
          <input type="email" name="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Password
          <input type="password" name="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </label>
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <p>
        No account yet? <Link href={`${BASE}/sign-up`}>Create an account</Link>
      </p>
    </Page>
  );
}

export function SignUp({ onDone }: { onDone: () => Promise<void> }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { error, busy, submit } = useSubmit(async () => {
    await api('POST', '/api/auth/sign-up/email', { name, email, password });
    await onDone();
  });
  return (
    <Page title="Create an account">
      <form onSubmit={(e) => void submit(e)} class="stack">
        <label>
          Name
          <input type="text" name="name" autoComplete="name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Email
          <input type="email" name="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Password
          <input type="password" name="password" autoComplete="new-password" required aria-describedby="password-hint" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </label>
        <p id="password-hint" class="hint">
          Signing up accepts the terms and the privacy notice.
        </p>
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy}>
          Create account
        </button>
      </form>
      <p>
        Already have an account? <Link href={`${BASE}/sign-in`}>Sign in</Link>
      </p>
    </Page>
  );
}
