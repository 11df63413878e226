/**
 * The web console (docs/dashboard.md): Preact, bundled by esbuild (scripts/build-dashboard.cjs),
 * served by the API at /dashboard. The session is the auth library's cookie; every call goes
 * through api.ts to this origin.
 */
import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { type SessionUser, api, errorText, setUnauthorizedHandler } from './api';
import { AccountPage } from './pages/account';
import { SignIn, SignUp } from './pages/auth';
import { BillingPage } from './pages/billing';
import { FlowPage, FlowRunPage, FlowsPage, WaitingInputPage } from './pages/flows';
import { KeysPage } from './pages/keys';
import { NotificationsPage } from './pages/notifications';
import { RunPage, RunsPage } from './pages/runs';
import { SessionsPage } from './pages/sessions';
import { UsagePage } from './pages/usage';
import { BASE, match, navigate, usePath } from './router';
import './style.css';
import { Link } from './ui';


type SessionState = { state: 'loading' } | { state: 'signed-out' } | { state: 'signed-in'; user: SessionUser };

const PUBLIC = [`${BASE}/sign-in`, `${BASE}/sign-up`];

const NAV: Array<{ href: string; label: string }> = [
  { href: `${BASE}/usage`, label: 'Usage' },
  { href: `${BASE}/keys`, label: 'API keys' },
  { href: `${BASE}/runs`, label: 'Runs' },
  { href: `${BASE}/flows`, label: 'Flows' },
  { href: `${BASE}/sessions`, label: 'Sessions' },
  { href: `${BASE}/billing`, label: 'Billing' },
  { href: `${BASE}/notifications`, label: 'Notifications' },
  { href: `${BASE}/account`, label: 'Account' },
];

function Routes({ path, user, onUnreadChange }: { path: string; user: SessionUser; onUnreadChange: () => void }) {
  let params: Record<string, string> | null;
  if (path === BASE || path === `${BASE}/usage`) return <UsagePage />;
  if (path === `${BASE}/keys`) return <KeysPage />;
  if (path === `${BASE}/runs`) return <RunsPage />;
  if ((params = match(`${BASE}/runs/:id`, path))) return <RunPage id={params.id!} />;
  if (path === `${BASE}/flows`) return <FlowsPage />;
  if (path === `${BASE}/flows/waiting`) return <WaitingInputPage />;
  if ((params = match(`${BASE}/flows/:id`, path))) return <FlowPage id={params.id!} />;
  if ((params = match(`${BASE}/flows/:id/runs/:runId`, path))) return <FlowRunPage id={params.id!} runId={params.runId!} />;
  if (path === `${BASE}/sessions`) return <SessionsPage />;
  if (path === `${BASE}/billing`) return <BillingPage />;
  if (path === `${BASE}/notifications`) return <NotificationsPage onChange={onUnreadChange} />;
  if (path === `${BASE}/account`) return <AccountPage user={user} />;
  return (
    <section>
      <h1>Not found</h1>
      <p>
        No page at {path}. <Link href={`${BASE}/usage`}>Go to usage</Link>.
      </p>
    </section>
  );
}

function App() {
  const path = usePath();
  const [session, setSession] = useState<SessionState>({ state: 'loading' });
  const [unread, setUnread] = useState<number | null>(null);
  const [signOutError, setSignOutError] = useState<unknown>(null);

  const refreshSession = useCallback(async () => {
    try {
      const answer = await api<{ user: SessionUser } | null>('GET', '/api/auth/get-session');
      setSession(answer?.user ? { state: 'signed-in', user: answer.user } : { state: 'signed-out' });
    } catch {
      setSession({ state: 'signed-out' });
    }
  }, []);

  const refreshUnread = useCallback(() => {
    api<{ unreadCount: number }>('GET', '/api/notifications?limit=1')
      .then((answer) => setUnread(answer.unreadCount))
      .catch(() => setUnread(null));
  }, []);

  useEffect(() => {
    void refreshSession();
    setUnauthorizedHandler(() => setSession({ state: 'signed-out' }));
  }, [refreshSession]);

  // Signed out: to the sign-in page (and back where they were after); signed in: away from it.
  useEffect(() => {
    if (session.state === 'signed-out' && !PUBLIC.includes(path)) {
      const next = path.startsWith(BASE) && path !== BASE ? `?next=${encodeURIComponent(path)}` : '';
      navigate(`${BASE}/sign-in${next}`, { replace: true });
    }
    if (session.state === 'signed-in' && PUBLIC.includes(path)) {
      const next = new URLSearchParams(location.search).get('next');
      navigate(next && next.startsWith(`${BASE}/`) && !PUBLIC.includes(next) ? next : `${BASE}/usage`, { replace: true });
    }
  }, [session.state, path]);

  useEffect(() => {
    if (session.state === 'signed-in') refreshUnread();
  }, [session.state, path, refreshUnread]);

  // Signed in (or up): the effect above leaves the sign-in page for `?next=` or the usage page.
  const signedIn = refreshSession;

  const signOut = async () => {
    try {
      await api('POST', '/api/auth/sign-out', {});
      setSession({ state: 'signed-out' });
      setSignOutError(null);
    } catch (error) {
      setSignOutError(error);
    }
  };

  if (session.state === 'loading') return <p aria-busy="true">Loading…</p>;
  if (session.state === 'signed-out') {
    return <main class="narrow">{path === `${BASE}/sign-up` ? <SignUp onDone={signedIn} /> : <SignIn onDone={signedIn} />}</main>;
  }
  const current = path === BASE ? `${BASE}/usage` : path;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Scrape API</span>
        <nav aria-label="Console">
          <ul>
            {NAV.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={current === item.href || current.startsWith(`${item.href}/`) ? 'page' : undefined}>
                  {item.label}
                  {item.label === 'Notifications' && unread ? (
                    <span class="badge" aria-label={`${unread} unread`} data-testid="unread-count">
                      {unread}
                    </span>
                  ) : null}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span class="email">{session.user.email}</span>
          <button type="button" class="secondary" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      {signOutError ? (
        <p class="error" role="alert">
          {errorText(signOutError)}
        </p>
      ) : null}
      <main id="main" tabIndex={-1}>
        <Routes path={path} user={session.user} onUnreadChange={refreshUnread} />
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
