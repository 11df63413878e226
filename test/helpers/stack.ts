/**
 * Boots the service as production runs it, for one test file: a worker process and an API
 * process (the real entry points, under tsx), against the shared PostgreSQL and Temporal of
 * global setup, with a database and task-queue prefix of their own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { freePort } from '../../platform/free-port';
import { createTestDatabase } from './database';
import { testEnv } from './env';
import { TEST_TEMPORAL_PAYLOAD_KEY } from './temporal-codec';

const root = path.resolve(__dirname, '..', '..');

export interface StackOptions {
  /** Extra environment for both processes (e.g. SYNC_TIMEOUT_MS). */
  env?: Record<string, string>;
  /** Start a worker process (default true). */
  worker?: boolean;
  /**
   * Refuse loopback, private and link-local targets as a production deployment does
   * (ALLOW_PRIVATE_TARGETS=false). Default off, because the fixture servers listen on 127.0.0.1;
   * with it on, targets live on a public-range address (test/helpers/public-address.ts).
   */
  privateTargetGuard?: boolean;
}

export interface Stack {
  baseUrl: string;
  databaseUrl: string;
  env: Record<string, string>;
  /** Output of each process so far, for assertions and for failure messages. */
  output: { api: string[]; worker: string[] };
  workerProcess(): ChildProcess | undefined;
  startWorker(): Promise<void>;
  /** SIGKILL the worker (a crash, not a drain). */
  killWorker(): Promise<void>;
  restartApi(): Promise<void>;
  killApi(): Promise<void>;
  /** Another API process on the same database and Temporal (a second replica), on a port of its own; `env` over the stack's (an empty value unsets). */
  startSecondApi(env?: Record<string, string>): Promise<{ baseUrl: string; output: string[]; stop(): Promise<void> }>;
  stop(): Promise<void>;
}

function spawnEntry(entry: string, env: Record<string, string>, sink: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, entry)], {
    cwd: root,
    env: { ...process.env, ...env, EXIT_WITH_PARENT: 'true' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    sink.push(chunk.toString('utf8'));
    if (sink.length > 2000) sink.splice(0, sink.length - 2000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return child;
}

async function waitFor(what: string, check: () => Promise<boolean> | boolean, child: ChildProcess, sink: string[], timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${what}: the process exited (code ${child.exitCode}, signal ${child.signalCode}):\n${sink.join('').slice(-4000)}`);
    }
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${what}: not ready after ${timeoutMs} ms:\n${sink.join('').slice(-4000)}`);
}

async function stopProcess(child: ChildProcess | undefined, signal: NodeJS.Signals, timeoutMs = 20_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const databaseUrl = await createTestDatabase();
  const port = await freePort();
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: testEnv('temporalAddress'),
    TASK_QUEUE_PREFIX: `t${randomBytes(4).toString('hex')}-`,
    PORT: String(port),
    HOST: '127.0.0.1',
    WORKER_METRICS_PORT: '0',
    MIGRATE_ON_START: 'false',
    ALLOW_PRIVATE_TARGETS: options.privateTargetGuard ? 'false' : 'true',
    LOG_LEVEL: 'info',
    BETTER_AUTH_SECRET: randomBytes(32).toString('hex'),
    // A known key, so the test's own Temporal client decodes the stack's payloads (test/helpers/temporal-codec.ts).
    TEMPORAL_PAYLOAD_KEY: TEST_TEMPORAL_PAYLOAD_KEY,
    BETTER_AUTH_URL: `http://127.0.0.1:${port}`,
    // Every test signs up and in from 127.0.0.1, many accounts a minute: the per-address limits
    // are raised (not off) here; api/routes/sign-in-limits.test.ts runs the defaults.
    SIGN_IN_PER_MINUTE: '10000',
    SIGN_UP_PER_MINUTE: '10000',
    ...options.env,
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const output = { api: [] as string[], worker: [] as string[] };
  let api: ChildProcess | undefined;
  let worker: ChildProcess | undefined;

  const startWorker = async () => {
    const sink = output.worker;
    const mark = sink.length;
    worker = spawnEntry('workers/main.ts', env, sink);
    const child = worker;
    await waitFor('worker', () => sink.slice(mark).join('').includes('"msg":"worker started"'), child, sink);
  };
  const readyApi = (name: string, child: ChildProcess, url: string, sink: string[]) =>
    waitFor(
      name,
      async () => {
        try {
          return (await fetch(`${url}/readyz`)).ok;
        } catch {
          return false;
        }
      },
      child,
      sink,
    );
  const startApi = async () => {
    api = spawnEntry('api/server.ts', env, output.api);
    await readyApi('api', api, baseUrl, output.api);
  };
  const seconds: ChildProcess[] = [];
  const startSecondApi = async (extraEnv: Record<string, string> = {}) => {
    const secondPort = await freePort();
    const sink: string[] = [];
    const child = spawnEntry('api/server.ts', { ...env, ...extraEnv, PORT: String(secondPort) }, sink);
    seconds.push(child);
    const secondUrl = `http://127.0.0.1:${secondPort}`;
    try {
      await readyApi('second api', child, secondUrl, sink);
    } catch (error) {
      await stopProcess(child, 'SIGKILL');
      throw error;
    }
    return { baseUrl: secondUrl, output: sink, stop: () => stopProcess(child, 'SIGTERM') };
  };

  try {
    await Promise.all([options.worker === false ? Promise.resolve() : startWorker(), startApi()]);
  } catch (error) {
    await Promise.all([stopProcess(api, 'SIGKILL'), stopProcess(worker, 'SIGKILL')]);
    throw error;
  }

  return {
    baseUrl,
    databaseUrl,
    env,
    output,
    workerProcess: () => worker,
    startWorker,
    killWorker: () => stopProcess(worker, 'SIGKILL'),
    killApi: () => stopProcess(api, 'SIGKILL'),
    restartApi: async () => {
      await stopProcess(api, 'SIGTERM');
      await startApi();
    },
    startSecondApi,
    stop: async () => {
      await Promise.all([stopProcess(api, 'SIGTERM'), stopProcess(worker, 'SIGTERM'), ...seconds.map((c) => stopProcess(c, 'SIGTERM'))]);
    },
  };
}
