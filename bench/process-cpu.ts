/**
 * CPU time of the service's processes, read from /proc, grouped by role: the API, the worker, the
 * worker's Chromium, the Temporal server, PostgreSQL (postmaster and backends), the baseline's own
 * Chromium, and this process (the load generator). A snapshot before and after a phase gives the
 * CPU each role spent on it; divided by the requests, the CPU per request per process, which on a
 * shared machine is a steadier figure than latency.
 *
 * Roles go by ancestry under this process: a process takes the role its command line names, or
 * else its parent's role (Chromium's helpers under the worker are "chromium (worker)").
 * Exited descendants count through their parent's cutime/cstime (PostgreSQL reaps its backends).
 */
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

export const ROLES = ['api', 'worker', 'chromium (worker)', 'temporal', 'postgres', 'chromium (baseline)', 'load generator'] as const;
export type Role = (typeof ROLES)[number];
/** The roles that are the service (what a scrape costs us), as opposed to the bench's own. */
export const SERVICE_ROLES: readonly Role[] = ['api', 'worker', 'chromium (worker)', 'temporal', 'postgres'];

interface ProcInfo {
  ppid: number;
  cpu: number;
  cmd: string;
}

function readProcesses(): Map<number, ProcInfo> {
  const procs = new Map<number, ProcInfo>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields[1] = ppid; [11],[12] = utime, stime; [13],[14] = cutime, cstime (reaped children)
      const cpu = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      procs.set(Number(entry), { ppid: Number(fields[1]), cpu, cmd });
    } catch {
      continue; // exited while we read
    }
  }
  return procs;
}

function ownRole(cmd: string, parentRole: Role | undefined): Role | undefined {
  if (cmd.includes('api/server.ts')) return 'api';
  if (cmd.includes('workers/main.ts')) return 'worker';
  if (cmd.includes('start-dev')) return 'temporal';
  if (/(^|\/)postgres\b/.test(cmd) || cmd.startsWith('postgres:')) return 'postgres';
  if (/chrom/i.test(cmd)) return parentRole === 'worker' || parentRole === 'chromium (worker)' ? 'chromium (worker)' : 'chromium (baseline)';
  return parentRole;
}

/** CPU seconds used so far by each role among this process's descendants (and by this process). */
export function cpuByRole(): Map<Role, number> {
  const procs = readProcesses();
  const children = new Map<number, number[]>();
  for (const [pid, info] of procs) children.set(info.ppid, [...(children.get(info.ppid) ?? []), pid]);
  const byRole = new Map<Role, number>(ROLES.map((r) => [r, 0]));
  const visit = (pid: number, parentRole: Role | undefined) => {
    for (const child of children.get(pid) ?? []) {
      const info = procs.get(child)!;
      const role = ownRole(info.cmd, parentRole);
      if (role) byRole.set(role, byRole.get(role)! + info.cpu);
      visit(child, role);
    }
  };
  visit(process.pid, undefined);
  const own = process.cpuUsage();
  byRole.set('load generator', (own.user + own.system) / 1e6);
  return byRole;
}

/** CPU milliseconds per request of each role between two snapshots. */
export function cpuPerRequest(before: Map<Role, number>, after: Map<Role, number>, requests: number): Record<Role, number> {
  return Object.fromEntries(ROLES.map((r) => [r, (((after.get(r) ?? 0) - (before.get(r) ?? 0)) * 1000) / requests])) as Record<Role, number>;
}

/** Resident memory of a process and all its descendants, in bytes. */
export function treeRss(pid: number): number {
  const rssOf = (p: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  const kids = (p: number) => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      total += rssOf(p);
    } catch {
      continue;
    }
    stack.push(...kids(p));
  }
  return total;
}
