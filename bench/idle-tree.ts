/**
 * Idle CPU of a running service, per process (issue 39): every process under a root pid (e.g. the
 * `npm start` supervisor, which counts too), its CPU over a window with no traffic, as ms per
 * second and % of one core, from /proc/<pid>/stat (utime+stime, plus what it reaped: PostgreSQL's
 * exited backends). Reads only /proc; sends nothing to the service.
 *   node --import tsx bench/idle-tree.ts <root pid> [seconds, default 60]
 */
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

interface Proc {
  ppid: number;
  ticks: number;
  name: string;
}

function snapshot(): Map<number, Proc> {
  const procs = new Map<number, Proc>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      // The script or binary that names the process: `node … scripts/start.ts` → scripts/start.ts.
      const name = cmd.find((arg) => /\.(ts|js|cjs|mjs)$/.test(arg)) ?? `${cmd[0]?.split('/').pop() ?? '?'} ${cmd[1] ?? ''}`.trim();
      procs.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]), name });
    } catch {
      continue; // exited while read
    }
  }
  return procs;
}

function treeOf(procs: Map<number, Proc>, root: number): number[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const [pid, p] of procs) if (p.ppid === out[i]) out.push(pid);
  return out.filter((pid) => procs.has(pid));
}

async function main(): Promise<void> {
  const root = Number(process.argv[2]);
  const seconds = Number(process.argv[3] ?? '60');
  if (!Number.isInteger(root) || root <= 0 || !(seconds > 0 && seconds <= 600)) throw new Error('usage: bench/idle-tree.ts <root pid> [seconds ≤ 600]');
  console.log(`load average at start: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const before = snapshot();
  const t0 = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const after = snapshot();
  const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
  let total = 0;
  for (const pid of treeOf(after, root)) {
    const a = after.get(pid)!;
    const b = before.get(pid);
    // A process born during the window counts from zero.
    const ms = (((a.ticks - (b?.ticks ?? 0)) / TICKS_PER_SECOND) * 1000) / elapsed;
    total += ms;
    if (ms > 0 || a.ppid === root || pid === root) console.log(`${String(pid).padStart(7)} ${ms.toFixed(1).padStart(6)} ms/s ${(ms / 10).toFixed(2).padStart(5)} % of a core  ${a.name}`);
  }
  console.log(`all ${total.toFixed(1)} ms/s (${(total / 10).toFixed(2)} % of one core) over ${elapsed.toFixed(0)} s; load average at end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
