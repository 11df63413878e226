/**
 * Idle CPU of a running service, per process (issue 39): every process under a root pid (e.g. the
 * `npm start` supervisor, which counts too), its CPU over a window with no traffic, as ms per
 * second and % of one core, from /proc (scrape/browser/proc.ts: utime+stime, plus what it reaped:
 * PostgreSQL's exited backends). Reads only /proc; sends nothing to the service.
 *   node --import tsx bench/idle-tree.ts <root pid> [seconds, default 60]
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { type ProcessReading, readProcessTree } from '../scrape/browser/proc';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

const ticksOf = (p: ProcessReading) => p.cpuTicks + p.reapedChildTicks;

/** The script or binary that names the process: `node … scripts/start.ts` → scripts/start.ts. */
function labelOf(pid: number, fallback: string): string {
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return cmd.find((arg) => /\.(ts|js|cjs|mjs)$/.test(arg)) ?? `${cmd[0]?.split('/').pop() ?? fallback} ${cmd[1] ?? ''}`.trim();
  } catch {
    return fallback; // exited since
  }
}

async function main(): Promise<void> {
  const root = Number(process.argv[2]);
  const seconds = Number(process.argv[3] ?? '60');
  if (!Number.isInteger(root) || root <= 0 || !(seconds > 0 && seconds <= 600)) throw new Error('usage: bench/idle-tree.ts <root pid> [seconds ≤ 600]');
  console.log(`load average at start: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const before = new Map((await readProcessTree(root))?.map((p) => [p.pid, p]) ?? []);
  const t0 = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const after = await readProcessTree(root);
  const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
  if (!after) throw new Error(`process ${root} is gone`);
  let total = 0;
  for (const a of after) {
    const b = before.get(a.pid);
    // A process born during the window counts from zero.
    const ms = (((ticksOf(a) - (b ? ticksOf(b) : 0)) / TICKS_PER_SECOND) * 1000) / elapsed;
    total += ms;
    if (ms > 0 || a.ppid === root || a.pid === root) console.log(`${String(a.pid).padStart(7)} ${ms.toFixed(1).padStart(6)} ms/s ${(ms / 10).toFixed(2).padStart(5)} % of a core  ${labelOf(a.pid, a.name)}`);
  }
  console.log(`all ${total.toFixed(1)} ms/s (${(total / 10).toFixed(2)} % of one core) over ${elapsed.toFixed(0)} s; load average at end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
