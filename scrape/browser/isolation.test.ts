/**
 * Chromium cannot reach the host's secrets (docs/operations.md, "Chromium's isolation"): through
 * the real service (API and worker processes, real Chromium), while a browser scrape is in flight,
 * every process of the worker's Chromium (browser, zygotes, renderer…) is read from /proc: none
 * holds a secret of the worker's environment, none runs with `--no-sandbox` where this machine
 * allows the sandbox, and none runs as root.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { defaultChromiumPath } from '../../platform/config';
import { startFixtureServer, type FixtureServer } from '../../test/fixtures/server';
import { createAccount, setBalance, type TestAccount } from '../../test/helpers/accounts';
import { call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';
import { chromiumIsolation } from './launch-environment';

jest.setTimeout(180_000);

const SECRETS = {
  SESSION_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  LLM_API_KEY: `sk-llm-${randomBytes(12).toString('hex')}`,
  LLM_BASE_URL: 'http://127.0.0.1:9/v1',
  LLM_MODEL: 'none',
  OPERATOR_TOKEN: randomBytes(24).toString('hex'),
};

let stack: Stack;
let fixtures: FixtureServer;
let account: TestAccount;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  stack = await startStack({ env: SECRETS });
  account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 1000);
});
afterAll(async () => {
  await stack?.stop();
  await fixtures?.close();
});

interface ProcessView {
  pid: number;
  ppid: number;
  uid: number;
  cmdline: string[];
  environ: string;
}

function readProcess(pid: number): ProcessView | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return {
      pid,
      ppid: Number(/^PPid:\s+(\d+)/m.exec(status)![1]),
      uid: Number(/^Uid:\s+(\d+)/m.exec(status)![1]),
      cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'),
      environ: readFileSync(`/proc/${pid}/environ`, 'utf8'),
    };
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Every process descending from `root` (not itself). */
function descendants(root: number): ProcessView[] {
  const all = readdirSync('/proc').filter((e) => /^\d+$/.test(e)).map((e) => readProcess(Number(e))).filter((p): p is ProcessView => p !== undefined);
  const found: ProcessView[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        found.push(p);
        grew = true;
      }
    }
  }
  return found;
}

describe("the worker's Chromium", () => {
  it('holds none of the worker\'s secrets, and runs sandboxed as an unprivileged user, during a scrape', async () => {
    const workerPid = stack.workerProcess()!.pid!;
    const secrets = [stack.env.DATABASE_URL!, stack.env.BETTER_AUTH_SECRET!, stack.env.TEMPORAL_PAYLOAD_KEY!, ...Object.values(SECRETS).filter((v) => v.length > 16)];
    // A page that answers after 4 s: the renderer is up while the scrape waits.
    const answer = call(stack.baseUrl, 'POST', '/webhook/unblocker', { 'x-api-key': account.apiKey }, { url: `${fixtures.url}/page/1?delay=4000`, mode: 'browser', selectors: ['h1'] });
    const processes = await waitFor('a Chromium renderer of the worker', () => {
      // Chromium rewrites its children's command lines (one string, spaces between): read them joined.
      const tree = descendants(workerPid).filter((p) => /chrom/i.test(p.cmdline.join(' ')));
      return Promise.resolve(tree.some((p) => p.cmdline.join(' ').includes('--type=renderer')) ? tree : undefined);
    }, 90_000);
    expect((await answer).status).toBe(200);

    // The worker itself holds them (the check can fail).
    const workerEnv = readProcess(workerPid)!.environ;
    for (const secret of secrets) expect(workerEnv).toContain(secret);
    expect(processes.length).toBeGreaterThan(2);
    const leaks = processes.flatMap((p) => secrets.filter((s) => p.environ.includes(s)).map((s) => `${p.pid} (${/--type=\S+/.exec(p.cmdline.join(' '))?.[0] ?? 'browser'}) holds ${s.slice(0, 12)}…`));
    expect(leaks).toEqual([]);
    const names = new Set(processes.flatMap((p) => p.environ.split('\0').filter(Boolean).map((kv) => kv.split('=')[0]!)));
    for (const name of ['DATABASE_URL', 'BETTER_AUTH_SECRET', 'SESSION_ENCRYPTION_KEY', 'LLM_API_KEY', 'TEMPORAL_PAYLOAD_KEY', 'OPERATOR_TOKEN', 'TEMPORAL_ADDRESS']) expect(names.has(name)).toBe(false);

    const isolation = chromiumIsolation(process.env.CHROMIUM_PATH ?? defaultChromiumPath());
    if (isolation.sandbox) {
      expect(processes.filter((p) => / --no-sandbox\b|^--no-sandbox$/m.test(p.cmdline.join('\n')) || p.cmdline.join(' ').includes(' --no-sandbox')).map((p) => p.pid)).toEqual([]);
    }
    if (process.getuid?.() === 0) expect(processes.filter((p) => p.uid === 0).map((p) => `${p.pid} ${p.cmdline[0]}`)).toEqual([]);
  });
});
