import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, listenOnLoopback } from '../platform/free-port';
import { testEnv } from '../test/helpers/env';
import { npmStartEnv, processesMentioning } from '../test/helpers/processes';

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string, output: string[]): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} within ${timeoutMs} ms:\n${output.join('').slice(-4000)}`);
}

const ok = (url: string) => async () => {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
};

describe('npm start (the supervisor)', () => {
  it('starts PostgreSQL, Temporal with its UI, a worker and the API, and SIGTERM stops them all', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scrape-start-'));
    chmodSync(dataDir, 0o755); // PostgreSQL runs as the `postgres` user when we are root
    const [apiPort, temporalPort, uiPort, pgPort, supervisorPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    const output: string[] = [];
    const supervisor: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'start.ts')], {
      env: npmStartEnv({ dataDir, apiPort, temporalPort, uiPort, pgPort, supervisorPort }, testEnv('temporalCli')),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    supervisor.stdout?.on('data', (c: Buffer) => output.push(c.toString()));
    supervisor.stderr?.on('data', (c: Buffer) => output.push(c.toString()));
    const exited = new Promise<number | null>((resolve) => supervisor.once('exit', (code) => resolve(code)));

    try {
      await waitUntil(ok(`http://127.0.0.1:${apiPort}/readyz`), 120_000, 'the API was not ready', output);
      await waitUntil(ok(`http://127.0.0.1:${uiPort}/`), 30_000, 'the Temporal UI did not answer', output);
      // The supervisor prints its addresses after its own /readyz poll, which can lag ours.
      const uiLine = `Temporal UI  http://127.0.0.1:${uiPort}`;
      await waitUntil(() => Promise.resolve(output.join('').includes(uiLine)), 10_000, 'the addresses were not printed', output);
      const printed = output.join('');
      expect(printed).toContain(`API          http://127.0.0.1:${apiPort}`);
      expect(printed).toContain(uiLine);
      // No PAYMENT_PROVIDER: payments off, and the banner says so (never the self-confirming local provider).
      expect(printed).toContain('Payments     off (PAYMENT_PROVIDER=none)');
      expect(processesMentioning(dataDir).length).toBeGreaterThanOrEqual(3);
      // The supervisor's own endpoint: every process running, restart counters at zero.
      const status = (await (await fetch(`http://127.0.0.1:${supervisorPort}/readyz`)).json()) as { status: string; processes: Array<{ name: string; state: string }> };
      expect(status.status).toBe('ready');
      expect(status.processes.map((p) => [p.name, p.state])).toEqual([
        ['postgres', 'running'],
        ['temporal', 'running'],
        ['worker', 'running'],
        ['api', 'running'],
      ]);
      const metrics = await (await fetch(`http://127.0.0.1:${supervisorPort}/metrics`)).text();
      expect(metrics).toContain('supervisor_restarts_total{process="worker",cause="exited"} 0');
      expect(metrics).toContain('supervisor_restarts_total{process="api",cause="hung"} 0');
    } finally {
      supervisor.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    const printed = output.join('');
    expect(printed.indexOf('api exited')).toBeLessThan(printed.indexOf('worker exited'));
    expect(printed).toContain('[start] stopped');
    // Nothing it started outlives it.
    await waitUntil(() => Promise.resolve(processesMentioning(dataDir).length === 0), 10_000, 'processes outlived the supervisor', output);
  });

  it('stops the service with a message naming a process that keeps failing at start-up, and its last lines', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scrape-start-'));
    chmodSync(dataDir, 0o755);
    // PostgreSQL's port is taken: every start-up of it fails the same way.
    const squatter = net.createServer();
    const pgPort = await listenOnLoopback(squatter);
    const [apiPort, temporalPort, uiPort, supervisorPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    const output: string[] = [];
    const supervisor = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'start.ts')], {
      env: npmStartEnv({ dataDir, apiPort, temporalPort, uiPort, pgPort, supervisorPort }, testEnv('temporalCli')),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    supervisor.stdout?.on('data', (c: Buffer) => output.push(c.toString()));
    supervisor.stderr?.on('data', (c: Buffer) => output.push(c.toString()));
    try {
      // Five attempts, 1 + 2 + 4 + 8 s apart: the service gives up by itself.
      const code = await new Promise<number | null>((resolve) => supervisor.once('exit', (c) => resolve(c)));
      expect(code).toBe(1);
    } finally {
      squatter.close();
    }
    const printed = output.join('');
    expect(printed).toContain('[start] postgres failed to start 5 times within 2 min; giving up.');
    expect(printed).toContain('Address already in use');
    expect(printed).toContain('[start] retrying postgres in 8 s (restart 4)');
    expect(printed).toContain('[start] stopped');
    expect(processesMentioning(dataDir)).toEqual([]);
  });
});
