/**
 * Issue 30, item 7, end to end: the real `npm start` (scripts/start.ts) with SUPERVISOR_HANG_MS
 * set low; the API process is stopped with SIGSTOP (alive, its port open, answering nothing).
 * The supervisor's watchdog finds its /healthz silent, stops it (SIGTERM, which a stopped process
 * never handles, then SIGKILL after the grace), restarts it, prints why and counts the restart
 * with cause "hung"; the API answers again. The other processes keep answering and are left alone.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../platform/free-port';
import { alive } from './runtime/stale-process';
import { testEnv } from '../test/helpers/env';
import { npmStartEnv, processesMentioning, watchOutput } from '../test/helpers/processes';
import { waitFor } from '../test/helpers/wait';

/** How long any one condition may take on a loaded 2-core machine before the test gives up. */
const PATIENCE_MS = 240_000;

interface SupervisorView {
  status: string;
  processes: Array<{ name: string; state: string; pid?: number; restarts: number; lastFailure?: { cause: string } }>;
}

const answers = async (url: string): Promise<boolean> => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
};

describe('npm start: the watchdog restarts a hung process (issue 30)', () => {
  it('a SIGSTOPped API is found silent, killed, restarted and counted as hung; it answers again', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scrape-watchdog-'));
    chmodSync(dataDir, 0o755); // PostgreSQL runs as the `postgres` user when we are root
    const [apiPort, temporalPort, uiPort, pgPort, supervisorPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    const output: string[] = [];
    const supervisor = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'start.ts')], {
      // 8 s of silence (checks every 2 s, each allowed 2 s): far beyond what a loaded machine's
      // healthy processes need to answer, short enough for a test.
      env: { ...npmStartEnv({ dataDir, apiPort, temporalPort, uiPort, pgPort, supervisorPort }, testEnv('temporalCli')), SUPERVISOR_HANG_MS: '8000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = watchOutput(supervisor, output);
    const printed = () => output.join('');
    const supervisorUrl = `http://127.0.0.1:${supervisorPort}`;
    const view = async (): Promise<SupervisorView | undefined> => {
      try {
        return (await (await fetch(`${supervisorUrl}/readyz`, { signal: AbortSignal.timeout(2000) })).json()) as SupervisorView;
      } catch {
        return undefined;
      }
    };
    const metrics = async () => (await fetch(`${supervisorUrl}/metrics`)).text();
    let stopped: number | undefined;
    try {
      await waitFor(`the API ready\n${printed().slice(-4000)}`, () => answers(`http://127.0.0.1:${apiPort}/readyz`), PATIENCE_MS);
      const before = (await waitFor('the supervisor ready', async () => {
        const v = await view();
        return v?.status === 'ready' ? v : undefined;
      }, PATIENCE_MS));
      expect(await metrics()).toContain('supervisor_restarts_total{process="api",cause="hung"} 0');
      stopped = before.processes.find((p) => p.name === 'api')!.pid!;

      process.kill(stopped, 'SIGSTOP');
      const after = await waitFor(
        `the API restarted after it hung\n${printed().slice(-4000)}`,
        async () => {
          const v = await view();
          const api = v?.processes.find((p) => p.name === 'api');
          return api?.state === 'running' && api.pid !== stopped && v?.status === 'ready' ? v : undefined;
        },
        PATIENCE_MS,
      );
      expect(alive(stopped)).toBe(false);
      expect(after.processes.find((p) => p.name === 'api')).toMatchObject({ restarts: 1, lastFailure: { cause: expect.stringMatching(/^hung: no health answer for [\d.]+ s .*; ended with signal SIGKILL$/) } });
      // Nobody else was judged hung or restarted: each kept answering its own check.
      for (const other of after.processes.filter((p) => p.name !== 'api')) expect(other).toMatchObject({ state: 'running', restarts: 0 });
      const counted = await metrics();
      expect(counted).toContain('supervisor_restarts_total{process="api",cause="hung"} 1');
      expect(counted).toContain('supervisor_restarts_total{process="api",cause="exited"} 0');
      expect(counted).toContain('supervisor_restarts_total{process="postgres",cause="hung"} 0');
      expect(counted).toContain('supervisor_restarts_total{process="temporal",cause="hung"} 0');
      // Printed like the other restarts: why, what is done about it, and the return.
      await waitFor('the return printed', () => Promise.resolve(printed().includes('[start] api is back')), PATIENCE_MS);
      const log = printed();
      expect(log).toMatch(new RegExp(`\\[start\\] api hung: no health answer for [\\d.]+ s \\(\\d+ checks failed, the last: [^\\n]*\\): stopping it \\(pid ${stopped}; SIGKILL if it is still there in 10 s\\)`));
      expect(log).toMatch(/\[start\] degraded: api hung: [^\n]*; ended with signal SIGKILL; restarting it in 1 s \(restart 1\)/);
      expect(await answers(`http://127.0.0.1:${apiPort}/healthz`)).toBe(true);
      // The closing note: what the operator saw.
      process.stdout.write(`${log.split('\n').filter((line) => /\[start\] (api hung|degraded: api|api exited|api is back)/.test(line)).join('\n')}\n`);
    } finally {
      if (stopped !== undefined && alive(stopped)) process.kill(stopped, 'SIGKILL');
      supervisor.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    await waitFor('nothing outlives npm start', () => Promise.resolve(processesMentioning(dataDir).length === 0), 30_000);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
