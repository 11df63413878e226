/**
 * Schema fuzzing (docs/api.md, "Schema fuzzing"): schemathesis (PyPI, pinned in
 * scripts/python-requirements.txt) generates requests from the route table's document
 * (clients/openapi.json, the one the service serves: clients/clients.test.ts) and sends them to
 * the real service (API and worker processes, Temporal, PostgreSQL), signed in as a real account
 * with a real API key. Every answer must be no server error and match its declared status,
 * content type and schema. The generated URLs are pointed at a local fixture page
 * (test/fuzz/hooks.py) and the service's processes resolve no host name
 * (test/fuzz/offline-dns.cjs): nothing leaves the machine.
 *
 * Bounded: a few examples per operation (FUZZ_MAX_EXAMPLES, default 20), phases examples, coverage,
 * fuzzing and stateful, two workers, a fixed seed (FUZZ_SEED; `random` for a new one each run).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { type FixtureServer, startFixtureServer } from '../test/fixtures/server';
import { createAccount } from '../test/helpers/accounts';
import { type Stack, startStack } from '../test/helpers/stack';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensurePythonTools } = require('../scripts/python-tools.cjs') as { ensurePythonTools: (log: (line: string) => void) => string };

const root = path.resolve(__dirname, '..');
const fuzzDir = path.join(root, 'test', 'fuzz');
const FUZZ_TIMEOUT_MS = 15 * 60_000;

let stack: Stack;
let fixtures: FixtureServer;
let bin: string;

beforeAll(async () => {
  bin = ensurePythonTools((line) => console.log(line));
  fixtures = await startFixtureServer();
  stack = await startStack({
    env: {
      NODE_OPTIONS: `--require ${path.join(fuzzDir, 'offline-dns.cjs')}`,
      // A flow run or template run waited for answers 504 with its id after this long.
      SYNC_TIMEOUT_MS: '15000',
      // Payments on (the development provider), so their routes are fuzzed past the 503 of a service without payments.
      PAYMENT_PROVIDER: 'local',
    },
  });
}, 600_000);

afterAll(async () => {
  await Promise.all([stack?.stop(), fixtures?.close()]);
});

it('schemathesis finds no server error and no answer off its declared status, content type or schema', async () => {
  const account = await createAccount(stack.baseUrl);
  const seed = process.env.FUZZ_SEED ?? '20261122';
  const args = [
    '--config-file', path.join(fuzzDir, 'schemathesis.toml'),
    '--no-color',
    'run', path.join(root, 'clients', 'openapi.json'),
    '--url', stack.baseUrl,
    '--checks', 'not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance',
    '--phases', 'examples,coverage,fuzzing,stateful',
    '--max-examples', process.env.FUZZ_MAX_EXAMPLES ?? '20',
    '--workers', '2',
    '--request-timeout', '60',
    '--generation-database', 'none',
    '--output-truncate', 'true',
    ...(seed === 'random' ? [] : ['--seed', seed]),
  ]; // prettier-ignore
  const env = {
    ...process.env,
    PYTHONPATH: fuzzDir,
    FUZZ_TARGET: `${fixtures.url}/page/fuzz`,
    FUZZ_API_KEY: account.apiKey,
    // The cookie's value as the service set it (URL-encoded), sent back as is.
    FUZZ_SESSION_TOKEN: account.cookie.slice(account.cookie.indexOf('=') + 1),
  };
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = execFile(path.join(bin, 'st'), args, { cwd: fuzzDir, env, timeout: FUZZ_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, output: `${stdout}${stderr}` });
    });
    child.stdin?.end();
  });
  // Its warnings and summary (operations, phases, failures, seed) in the test's output.
  const from = ['= WARNINGS =', '= SUMMARY ='].map((banner) => output.lastIndexOf(banner)).find((at) => at >= 0) ?? 0;
  const summary = output.slice(output.lastIndexOf('\n', from) + 1);
  console.log(`schemathesis ${args.join(' ')}\n${summary}`);
  expect({ code, failures: code === 0 ? '' : output.slice(-20_000) }).toEqual({ code: 0, failures: '' });
}, 20 * 60_000);
