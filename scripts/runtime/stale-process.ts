import { existsSync, readFileSync, readdirSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A server started detached survives a supervisor killed with SIGKILL. On the next start its pid
 * file tells us, and we stop it (SIGTERM, then SIGKILL) before starting a fresh one.
 * Only a process whose command line contains `expected` is touched.
 */
export async function reapStaleProcess(pidFile: string, expected: string, log: (line: string) => void = () => undefined): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  rmSync(pidFile, { force: true });
  if (!Number.isInteger(pid) || pid <= 1 || !alive(pid)) return;
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return;
  }
  if (!cmdline.includes(expected)) return;
  log(`stopping ${expected} left running by an earlier start (pid ${pid})`);
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < 20_000 && alive(pid); waited += 200) await new Promise((r) => setTimeout(r, 200));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

export function writePidFile(pidFile: string, pid: number | undefined): void {
  if (pid) writeFileSync(pidFile, String(pid));
}

/** Pids of the processes whose working folder is `dir` (Linux /proc; none elsewhere). */
export function processesWorkingIn(dir: string): number[] {
  let target: string;
  let entries: string[];
  try {
    target = realpathSync(dir);
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === target) pids.push(Number(entry));
    } catch {
      // gone, or not ours to inspect
    }
  }
  return pids;
}

/** Waits up to `timeoutMs` for every pid to exit; answers those still alive. */
export async function waitForExit(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let left = pids.filter(alive);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    left = left.filter(alive);
  }
  return left;
}
