import { randomBytes } from 'node:crypto';
import { sql } from './database';
import { testFetch } from './http';
import { waitFor } from './wait';

export interface TestAccount {
  email: string;
  password: string;
  userId: string;
  /** `name=value` of the session cookie, for a Cookie header. */
  cookie: string;
  apiKey: string;
  apiKeyId: string;
}

function sessionCookie(res: Response): string {
  const cookies = res.headers.getSetCookie();
  const session = cookies.find((c) => c.startsWith('better-auth.session_token='));
  if (!session) throw new Error(`no session cookie in ${res.status} answer: ${cookies.join(' | ')}`);
  return session.split(';')[0]!;
}

/** Signs up through the real auth routes and creates an API key, as a client script would. */
export async function createAccount(baseUrl: string, options: { prefix?: string } = {}): Promise<TestAccount> {
  const email = `user-${randomBytes(5).toString('hex')}@example.test`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const signUp = await testFetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, name: 'Test User' }),
  });
  if (!signUp.ok) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`);
  const cookie = sessionCookie(signUp);
  const userId = ((await signUp.json()) as { user: { id: string } }).user.id;
  const created = await testFetch(`${baseUrl}/api/users/create-api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ name: 'tests', prefix: options.prefix ?? 'sk_test_' }),
  });
  if (created.status !== 201) throw new Error(`create-api-keys answered ${created.status}: ${await created.text()}`);
  const key = (await created.json()) as { id: string; key: string };
  return { email, password, userId, cookie, apiKey: key.key, apiKeyId: key.id };
}

export { sql };

/** Polls GET /webhook/runs/:id until the run has finished (a condition: the bound only limits a failure). */
export async function waitForRun(baseUrl: string, apiKey: string, id: string): Promise<{ status: string } & Record<string, unknown>> {
  return waitFor(`run ${id} finished`, async () => {
    const run = (await (await testFetch(`${baseUrl}/webhook/runs/${id}`, { headers: { 'x-api-key': apiKey } })).json()) as { status: string } & Record<string, unknown>;
    return run.status === 'succeeded' || run.status === 'failed' ? run : undefined;
  }, 120_000);
}

/** Sets an account's balance directly (test set-up only; the service changes it through the ledger). */
export async function setBalance(databaseUrl: string, userId: string, credits: number): Promise<void> {
  await sql(databaseUrl, 'UPDATE "user" SET "creditBalance" = $1 WHERE id = $2', [credits, userId]);
}

export async function balanceOf(databaseUrl: string, userId: string): Promise<number> {
  const rows = await sql<{ creditBalance: number }>(databaseUrl, 'SELECT "creditBalance" FROM "user" WHERE id = $1', [userId]);
  return rows[0]!.creditBalance;
}

export async function ledgerOf(databaseUrl: string, userId: string): Promise<Array<{ amount: number; reason: string; idempotencyKey: string; runId: string | null }>> {
  return sql(databaseUrl, 'SELECT amount, reason::text AS reason, "idempotencyKey", "runId" FROM credit_ledger WHERE "userId" = $1 ORDER BY "createdAt", id', [userId]);
}
