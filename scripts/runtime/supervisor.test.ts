import { spawn } from 'node:child_process';
import { CrashLoopError, type ChildHandle, type ExitInfo, type ProcessSpec, type RestartPolicy, type StartContext, Supervisor, type SupervisorEvent, type WatchdogPolicy, residentBytes } from './supervisor';
import { createSupervisorMetrics } from './supervisor-endpoint';
import { httpHealth } from './health-checks';
import { alive } from './stale-process';
import { waitFor } from '../../test/helpers/wait';

/**
 * A real child process running `script` with node; ready once it prints "ready". Rejects (as a
 * failed start-up) when it exits before that.
 */
function nodeChild(script: string, pids: number[]) {
  return ({ output, signal }: StartContext): Promise<ChildHandle> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = new Promise<ExitInfo>((r) => child.once('exit', (code, sig) => r({ code, signal: sig })));
      if (child.pid) pids.push(child.pid);
      const onAbort = () => child.kill('SIGKILL');
      signal.addEventListener('abort', onAbort, { once: true });
      child.stderr.on('data', (c: Buffer) => output.push(c.toString()));
      child.stdout.on('data', (c: Buffer) => {
        output.push(c.toString());
        if (c.toString().includes('ready')) {
          signal.removeEventListener('abort', onAbort);
          resolve({
            pid: child.pid,
            exited,
            stop: async () => {
              if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
              await exited;
            },
          });
        }
      });
      void exited.then((exit) => reject(new Error(`exited during start-up (code ${exit.code}, signal ${exit.signal})`)));
    });
}

const LONG_RUNNING = "console.log('ready'); setInterval(() => {}, 1000);";

/** Resolves when `predicate` holds for an event already seen or a later one. */
function eventually(events: SupervisorEvent[], listeners: Array<() => void>, predicate: (events: SupervisorEvent[]) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (predicate(events)) resolve();
    };
    listeners.push(check);
    check();
  });
}

function harness(policy: Partial<RestartPolicy>, watchdog: Partial<WatchdogPolicy> = {}) {
  const events: SupervisorEvent[] = [];
  const listeners: Array<() => void> = [];
  const supervisor = new Supervisor({
    policy,
    watchdog,
    onEvent: (event) => {
      events.push(event);
      for (const listener of listeners) listener();
    },
  });
  const pids: number[] = [];
  const until = (predicate: (events: SupervisorEvent[]) => boolean) => eventually(events, listeners, predicate);
  const pidOf = (name: string) => supervisor.status().processes.find((p) => p.name === name)?.pid;
  return { supervisor, events, pids, until, pidOf };
}

const runningCount = (events: SupervisorEvent[], name: string) => events.filter((e) => e.type === 'running' && e.name === name).length;
const delays = (events: SupervisorEvent[], name: string) => events.flatMap((e) => (e.type === 'restart-scheduled' && e.name === name ? [e.delayMs] : []));

describe('Supervisor (real child processes)', () => {
  it('restarts a process killed with SIGKILL, doubling the delay up to its ceiling, and counts each restart', async () => {
    const { supervisor, events, pids, until, pidOf } = harness({ initialDelayMs: 20, maxDelayMs: 80, resetAfterMs: 3_600_000 });
    const spec: ProcessSpec = { name: 'worker', start: nodeChild(LONG_RUNNING, pids) };
    supervisor.add(spec);
    try {
      await supervisor.start('worker');
      for (let kill = 1; kill <= 4; kill++) {
        const pid = pidOf('worker')!;
        process.kill(pid, 'SIGKILL');
        await until((e) => runningCount(e, 'worker') === kill + 1);
        expect(pidOf('worker')).not.toBe(pid);
      }
      expect(delays(events, 'worker')).toEqual([20, 40, 80, 80]);
      const status = supervisor.status();
      expect(status.status).toBe('ready');
      expect(status.processes[0]).toMatchObject({ name: 'worker', state: 'running', restarts: 4, lastFailure: { cause: expect.stringMatching(/^exited \(signal SIGKILL\) after/) } });
      expect(events.find((e) => e.type === 'exited')).toMatchObject({ expected: false, exit: { signal: 'SIGKILL' } });
    } finally {
      await supervisor.stop();
    }
    expect(pids.filter(alive)).toEqual([]);
  });

  it('starts over at the first delay after a process ran long enough', async () => {
    // resetAfterMs 0: every run counts as long enough, so no delay ever grows.
    const { supervisor, events, pids, until, pidOf } = harness({ initialDelayMs: 20, resetAfterMs: 0 });
    supervisor.add({ name: 'api', start: nodeChild(LONG_RUNNING, pids) });
    try {
      await supervisor.start('api');
      for (let kill = 1; kill <= 3; kill++) {
        process.kill(pidOf('api')!, 'SIGKILL');
        await until((e) => runningCount(e, 'api') === kill + 1);
      }
      expect(delays(events, 'api')).toEqual([20, 20, 20]);
    } finally {
      await supervisor.stop();
    }
  });

  it('gives up on a process that keeps failing at start-up, naming it and quoting its last lines', async () => {
    const { supervisor, events, pids } = harness({ initialDelayMs: 10, maxStartFailures: 5, startFailureWindowMs: 120_000 });
    supervisor.add({ name: 'postgres', start: nodeChild("console.error('FATAL: could not bind to port 5432'); process.exit(3);", pids) });
    const gaveUp = new Promise<CrashLoopError>((resolve) => supervisor.onGiveUp(resolve));
    const error = await supervisor.start('postgres').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CrashLoopError);
    expect(await gaveUp).toBe(error);
    const crash = error as CrashLoopError;
    expect(crash.processName).toBe('postgres');
    expect(crash.message).toMatch(/^postgres failed to start 5 times within 2 min; giving up/);
    expect(crash.message).toContain('FATAL: could not bind to port 5432');
    expect(events.filter((e) => e.type === 'start-failed')).toHaveLength(5);
    // Four waits between five attempts, doubling.
    expect(delays(events, 'postgres')).toEqual([10, 20, 40, 80]);
    expect(supervisor.status()).toMatchObject({ status: 'failed', processes: [{ name: 'postgres', state: 'failed' }] });
    await supervisor.stop();
    expect(pids.filter(alive)).toEqual([]);
  });

  it('keeps a dependent process waiting while what it depends on is down, then starts it after', async () => {
    const { supervisor, events, pids, until, pidOf } = harness({ initialDelayMs: 10 });
    // The database's restarts are slow to become ready (it waits for a line on a timer of its own).
    supervisor.add({ name: 'postgres', start: nodeChild("setTimeout(() => console.log('ready'), 300); setInterval(() => {}, 1000);", pids) });
    supervisor.add({ name: 'api', dependsOn: ['postgres'], start: nodeChild(LONG_RUNNING, pids) });
    try {
      await supervisor.start('postgres');
      await supervisor.start('api');
      process.kill(pidOf('postgres')!, 'SIGKILL');
      await until((e) => e.some((x) => x.type === 'restart-scheduled' && x.name === 'postgres'));
      process.kill(pidOf('api')!, 'SIGKILL');
      await until((e) => runningCount(e, 'api') === 2);
      const order = events.filter((e) => e.type === 'running' || e.type === 'waiting').map((e) => `${e.type}:${e.name}`);
      expect(order.slice(2)).toEqual(['waiting:api', 'running:postgres', 'running:api']);
      expect(supervisor.status().status).toBe('ready');
    } finally {
      await supervisor.stop();
    }
    expect(pids.filter(alive)).toEqual([]);
  });

  it('stops processes in the given order, cancels a pending restart and abandons a start under way', async () => {
    const { supervisor, events, pids, until, pidOf } = harness({ initialDelayMs: 60_000, maxDelayMs: 60_000 });
    supervisor.add({ name: 'postgres', start: nodeChild(LONG_RUNNING, pids) });
    supervisor.add({ name: 'worker', start: nodeChild(LONG_RUNNING, pids) });
    supervisor.add({ name: 'api', start: nodeChild(LONG_RUNNING, pids) });
    // Never ready: its start is under way when stop() comes.
    supervisor.add({ name: 'stuck', start: nodeChild('setInterval(() => {}, 1000);', pids) });
    await Promise.all(['postgres', 'worker', 'api'].map((name) => supervisor.start(name)));
    const stuck = supervisor.start('stuck').catch((e: unknown) => e);
    process.kill(pidOf('worker')!, 'SIGKILL');
    await until((e) => e.some((x) => x.type === 'restart-scheduled' && x.name === 'worker'));
    expect(supervisor.status().processes.find((p) => p.name === 'worker')).toMatchObject({ state: 'backoff', restartDelayMs: 60_000 });

    await supervisor.stop(['api', 'stuck', 'worker', 'postgres']);
    expect(await stuck).toBeInstanceOf(Error);
    const exits = events.flatMap((e) => (e.type === 'exited' && e.expected ? [e.name] : []));
    expect(exits).toEqual(['api', 'postgres']);
    expect(runningCount(events, 'worker')).toBe(1);
    expect(supervisor.status().processes.map((p) => p.state)).toEqual(['stopped', 'stopped', 'stopped', 'stopped']);
    expect(pids.filter(alive)).toEqual([]);
  });
});

/**
 * A real child serving GET /healthz on a port of its own (printed with "ready"); GET /block
 * blocks its event loop for good. `script` runs first (e.g. to grow its memory).
 */
const HTTP_CHILD = (script = '') => `${script}
require('node:http').createServer((req, res) => {
  if (req.url === '/block') for (;;);
  res.end('ok');
}).listen(0, '127.0.0.1', function () { console.log('ready ' + this.address().port); });`;

/** Starts HTTP_CHILD; `ports[name]` follows the current launch (the health check asks it). */
function httpChild(name: string, pids: number[], ports: Map<string, number>, script = () => '') {
  return async (context: StartContext): Promise<ChildHandle> => {
    const handle = await nodeChild(HTTP_CHILD(script()), pids)(context);
    // The output is the process's across launches: its last "ready" line is this launch's.
    ports.set(name, Number(context.output.lines().filter((line) => line.startsWith('ready ')).at(-1)!.slice('ready '.length)));
    return handle;
  };
}

const restartsFor = (events: SupervisorEvent[], name: string) => events.flatMap((e) => (e.type === 'restart-scheduled' && e.name === name ? [e] : []));

describe('Supervisor watchdog (real child processes)', () => {
  // Long enough that a healthy child on a loaded machine is never judged hung; short for a test.
  const WATCHDOG: Partial<WatchdogPolicy> = { hangMs: 3000, checkIntervalMs: 200, healthTimeoutMs: 1000, killGraceMs: 1000, memoryLimitBytes: 0 };

  it('restarts a child that stops answering its health check (SIGSTOP): SIGTERM, then SIGKILL after the grace; counted with cause hung', async () => {
    const { supervisor, events, pids, until, pidOf } = harness({ initialDelayMs: 20 }, WATCHDOG);
    const ports = new Map<string, number>();
    let checks = 0;
    supervisor.add({
      name: 'api',
      start: httpChild('api', pids, ports),
      health: async (signal) => {
        await httpHealth(`http://127.0.0.1:${ports.get('api')}/healthz`)(signal);
        checks++;
      },
    });
    const metrics = createSupervisorMetrics(supervisor, ['api']);
    try {
      await supervisor.start('api');
      // Healthy: checks keep passing and nothing is restarted.
      await waitFor('5 health checks passed', () => Promise.resolve(checks >= 5));
      expect(events.filter((e) => e.type === 'ending' || e.type === 'restart-scheduled')).toEqual([]);
      const stopped = pidOf('api')!;
      process.kill(stopped, 'SIGSTOP');
      await until((e) => runningCount(e, 'api') === 2);
      for (const e of events) metrics.record(e);
      expect(alive(stopped)).toBe(false);
      expect(pidOf('api')).not.toBe(stopped);
      expect(events.find((e) => e.type === 'ending')).toMatchObject({ name: 'api', pid: stopped, reason: 'hung', cause: expect.stringMatching(/^hung: no health answer for [\d.]+ s \(\d+ checks failed, the last: /) });
      // A stopped process never sees its SIGTERM: the grace ends with SIGKILL.
      expect(restartsFor(events, 'api')).toEqual([expect.objectContaining({ reason: 'hung', cause: expect.stringMatching(/; ended with signal SIGKILL$/) })]);
      expect(supervisor.status().processes[0]).toMatchObject({ state: 'running', restarts: 1, lastFailure: { cause: expect.stringMatching(/^hung: /) } });
      const text = await metrics.registry.metrics();
      expect(text).toContain('supervisor_restarts_total{process="api",cause="hung"} 1');
      expect(text).toContain('supervisor_restarts_total{process="api",cause="exited"} 0');
      // The new child answers again.
      const before = checks;
      await waitFor('the new child answers its health checks', () => Promise.resolve(checks > before + 2));
    } finally {
      await supervisor.stop();
    }
    expect(pids.filter(alive)).toEqual([]);
  });

  it('restarts a child whose event loop is blocked (SIGTERM ends it); a child without a health check is never judged hung', async () => {
    const { supervisor, events, pids, until, pidOf } = harness({ initialDelayMs: 20 }, WATCHDOG);
    const ports = new Map<string, number>();
    let checks = 0;
    supervisor.add({ name: 'quiet', start: httpChild('quiet', pids, ports) });
    supervisor.add({
      name: 'worker',
      start: httpChild('worker', pids, ports),
      health: async (signal) => {
        await httpHealth(`http://127.0.0.1:${ports.get('worker')}/healthz`)(signal);
        checks++;
      },
    });
    try {
      await Promise.all([supervisor.start('quiet'), supervisor.start('worker')]);
      await waitFor('2 health checks passed', () => Promise.resolve(checks >= 2));
      const blocked = pidOf('worker')!;
      const quiet = pidOf('quiet')!;
      // Block both event loops: only the one with a health check can be found out.
      for (const name of ['worker', 'quiet']) void fetch(`http://127.0.0.1:${ports.get(name)}/block`).catch(() => undefined);
      await until((e) => runningCount(e, 'worker') === 2);
      expect(alive(blocked)).toBe(false);
      expect(restartsFor(events, 'worker')).toEqual([expect.objectContaining({ reason: 'hung', cause: expect.stringMatching(/^hung: .*; ended with signal SIGTERM$/) })]);
      expect(restartsFor(events, 'quiet')).toEqual([]);
      expect(pidOf('quiet')).toBe(quiet);
    } finally {
      await supervisor.stop();
    }
    expect(pids.filter(alive)).toEqual([]);
  });

  it('restarts a child whose resident memory grows past the ceiling, counted with cause memory', async () => {
    const limit = 160 * 2 ** 20;
    const { supervisor, events, pids, until, pidOf } = harness({ initialDelayMs: 20 }, { ...WATCHDOG, hangMs: 0, memoryLimitBytes: limit });
    const ports = new Map<string, number>();
    let launches = 0;
    // The first launch keeps 16 MiB more every 50 ms, up to 320 MiB (touched, so resident); the next ones do not grow.
    const grow = "const kept = []; const grow = setInterval(() => { kept.push(Buffer.alloc(16 << 20, 1)); if (kept.length >= 20) clearInterval(grow); }, 50);";
    supervisor.add({ name: 'worker', start: httpChild('worker', pids, ports, () => (launches++ === 0 ? grow : '')) });
    const metrics = createSupervisorMetrics(supervisor, ['worker']);
    try {
      await supervisor.start('worker');
      const first = pidOf('worker')!;
      await until((e) => runningCount(e, 'worker') === 2);
      for (const e of events) metrics.record(e);
      expect(alive(first)).toBe(false);
      expect(events.find((e) => e.type === 'ending')).toMatchObject({ name: 'worker', reason: 'memory', cause: expect.stringMatching(/^over the memory ceiling: \d+ MiB resident, the ceiling is 160 MiB$/) });
      expect(restartsFor(events, 'worker')).toEqual([expect.objectContaining({ reason: 'memory', cause: expect.stringMatching(/; ended with signal SIGTERM$/) })]);
      expect(await metrics.registry.metrics()).toContain('supervisor_restarts_total{process="worker",cause="memory"} 1');
      // The new child stays under the ceiling: read its memory as the watchdog does.
      expect(await residentBytes(pidOf('worker')!)).toBeLessThan(limit);
    } finally {
      await supervisor.stop();
    }
    expect(pids.filter(alive)).toEqual([]);
  });
});
