/**
 * Sign-in throttling end to end (real API process, PostgreSQL), with the default per-address
 * limits (test/helpers/stack.ts raises them for every other test) and 3 failed sign-ins per
 * account: too many failed sign-ins of one account, from any addresses → 429; too many sign-ins
 * from one address (the auth library's limiter) → 429; both in the standard error body with
 * Retry-After, both counted in PostgreSQL, so both still hold after the API restarted.
 * Client addresses are told by X-Forwarded-For (the API trusts a proxy on loopback).
 */
import { randomBytes } from 'node:crypto';
import { type TestAccount, createAccount, sql } from '../../test/helpers/accounts';
import { type FullAnswer, request } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';

const FAILURES = 3;
const WINDOW = 86_400; // windows of a day (from 00:00 UTC): the test crossing one is unlikely
const PER_ADDRESS = 5; // the default SIGN_IN_PER_MINUTE
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ worker: false, env: { SIGN_IN_PER_MINUTE: String(PER_ADDRESS), SIGN_UP_PER_MINUTE: '10', SIGN_IN_FAILURE_LIMIT: String(FAILURES), SIGN_IN_FAILURE_WINDOW_S: String(WINDOW) } });
});

afterAll(async () => {
  await stack?.stop();
});

const signIn = (email: string, password: string, address: string) =>
  request(stack.baseUrl, 'POST', '/api/auth/sign-in/email', { 'x-forwarded-for': address }, { email, password });
const unknownEmail = () => `nobody-${randomBytes(5).toString('hex')}@example.test`;

function expectRateLimited(answer: FullAnswer, maxSeconds: number): void {
  expect(answer.status).toBe(429);
  const retryAfter = Number(answer.headers.get('retry-after'));
  // The standard body; like every limit's 429, it repeats Retry-After.
  expect(answer.body).toEqual({ statusCode: 429, error: 'Too Many Requests', code: 'RATE_LIMITED', message: expect.any(String), retryAfter });
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
}

let victim: TestAccount;
const ADDRESS = '198.51.100.7';

it(`refuses an account's sign-in after ${FAILURES} failed ones, whatever the address; other accounts sign in`, async () => {
  victim = await createAccount(stack.baseUrl);
  const bystander = await createAccount(stack.baseUrl);
  for (let i = 1; i <= FAILURES; i++) {
    expect((await signIn(victim.email, 'not-the-password', `203.0.113.${i}`)).status).toBe(401);
  }
  // Even the right password, from yet another address.
  const refused = await signIn(victim.email, victim.password, '203.0.113.50');
  expectRateLimited(refused, WINDOW);
  expect(refused.body.message).toMatch(/failed sign-ins/);

  const rows = await sql<{ count: number }>(stack.databaseUrl, 'SELECT count FROM sign_in_failure WHERE email = $1', [victim.email]);
  expect(rows).toEqual([{ count: FAILURES }]);

  expect((await signIn(bystander.email, bystander.password, '203.0.113.50')).status).toBe(200);
  const metrics = await (await fetch(`${stack.baseUrl}/metrics`)).text();
  expect(metrics).toMatch(/requests_limited_total\{limit="sign_in_account"\} [1-9]/);
});

it(`refuses the ${PER_ADDRESS + 1}th sign-in from one address within a minute (the auth library's limiter, counted in PostgreSQL)`, async () => {
  const answers: FullAnswer[] = [];
  for (let i = 0; i <= PER_ADDRESS; i++) answers.push(await signIn(unknownEmail(), 'not-the-password', ADDRESS));
  expect(answers.slice(0, PER_ADDRESS).map((a) => a.status)).toEqual(Array(PER_ADDRESS).fill(401));
  expectRateLimited(answers[PER_ADDRESS]!, 60);

  const rows = await sql<{ key: string; count: number }>(stack.databaseUrl, 'SELECT key, count FROM rate_limit WHERE key LIKE $1', [`${ADDRESS}|%`]);
  expect(rows).toEqual([{ key: `${ADDRESS}|/sign-in/email`, count: PER_ADDRESS }]);

  // Another address is counted on its own.
  expect((await signIn(unknownEmail(), 'not-the-password', '198.51.100.8')).status).toBe(401);
  const metrics = await (await fetch(`${stack.baseUrl}/metrics`)).text();
  expect(metrics).toMatch(/requests_limited_total\{limit="auth_address"\} [1-9]/);
});

it('both limits outlive a restart of the API (the counters are in PostgreSQL)', async () => {
  await stack.restartApi();
  expectRateLimited(await signIn(victim.email, victim.password, '203.0.113.60'), WINDOW);
  // The library's window is a rolling minute from the last admitted request, and a restart may
  // take longer: the row is made "just now" again, as a new process could not know but from it.
  await sql(stack.databaseUrl, 'UPDATE rate_limit SET "lastRequest" = $1 WHERE key = $2', [Date.now(), `${ADDRESS}|/sign-in/email`]);
  expectRateLimited(await signIn(unknownEmail(), 'not-the-password', ADDRESS), 60);
});
