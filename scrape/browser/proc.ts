/**
 * Readings of a process and its descendants from Linux's /proc: the pool watches its Chromium's
 * memory with it (a long-lived Chromium process that keeps growing is the reason to recycle),
 * the benchmark the CPU and memory of a whole process tree.
 *
 * Chromium's renderers are children of its zygote, not of the browser process, so "Chromium" is
 * the tree under the browser process, found by walking parent ids over every entry of /proc.
 * Elsewhere than Linux the readings are null and memory-based recycling is off.
 */
import { readdir, readFile } from 'node:fs/promises';

export interface ProcessReading {
  pid: number;
  ppid: number;
  /** The executable's name as the kernel has it (`comm`), e.g. "chromium". */
  name: string;
  /** Chromium's `--type=` argument (renderer, zygote, gpu-process, utility), null for its browser process and others. */
  chromiumType: string | null;
  /** utime + stime, in clock ticks (`getconf CLK_TCK`, 100 on Linux). */
  cpuTicks: number;
  /**
   * cutime + cstime: ticks of children that exited and were waited for. Chromium's renderers
   * exit with their context; their CPU stays visible here, in the parent that reaped them.
   */
  reapedChildTicks: number;
  /** Resident set size (VmRSS). */
  rssBytes: number;
}

interface Stat {
  name: string;
  ppid: number;
  cpuTicks: number;
  reapedChildTicks: number;
}

async function readStat(pid: number): Promise<Stat | null> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!text) return null;
  // Field 2 (comm) is in parentheses and may contain spaces: count fields after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): field n is fields[n - 3].
  const num = (n: number) => Number(fields[n - 3]);
  const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
  return { name, ppid: num(4), cpuTicks: num(14) + num(15), reapedChildTicks: num(16) + num(17) };
}

async function readChromiumType(pid: number): Promise<string | null> {
  const args = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  // Chromium rewrites its children's argv into one space-separated string (setproctitle).
  return /(?:^|[\0 ])--type=([^\0 ]+)/.exec(args)?.[1] ?? null;
}

async function readRss(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(text)?.[1];
  return kib ? Number(kib) * 1024 : 0;
}

/** `rootPid` and every descendant alive now; null when `rootPid` is gone or /proc is not there. */
export async function readProcessTree(rootPid: number): Promise<ProcessReading[] | null> {
  const names = await readdir('/proc').catch(() => null);
  if (!names) return null;
  const stats = new Map<number, Stat>();
  await Promise.all(
    names
      .filter((n) => /^\d+$/.test(n))
      .map(async (n) => {
        const s = await readStat(Number(n));
        if (s) stats.set(Number(n), s);
      }),
  );
  if (!stats.has(rootPid)) return null;
  const children = new Map<number, number[]>();
  for (const [pid, s] of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  const tree: number[] = [];
  for (let queue = [rootPid]; queue.length > 0; ) {
    const pid = queue.pop()!;
    tree.push(pid);
    queue = queue.concat(children.get(pid) ?? []);
  }
  return Promise.all(
    tree.map(async (pid) => {
      const s = stats.get(pid)!;
      const [rssBytes, chromiumType] = await Promise.all([readRss(pid), readChromiumType(pid)]);
      return { pid, ppid: s.ppid, name: s.name, chromiumType, cpuTicks: s.cpuTicks, reapedChildTicks: s.reapedChildTicks, rssBytes };
    }),
  );
}

/**
 * Summed RSS of the long-lived processes of the Chromium under `browserPid` (browser, zygotes,
 * GPU, network and storage services; shared pages count once per process), or null when
 * unreadable. Renderers are left out: each lives for one context and dies with it, so they
 * cannot accumulate, and their number (0 to concurrency + spares) would swing the figure by
 * hundreds of MiB from one reading to the next.
 */
export async function chromiumLongLivedRssBytes(browserPid: number): Promise<number | null> {
  const tree = await readProcessTree(browserPid);
  return tree ? tree.filter((p) => p.chromiumType !== 'renderer').reduce((sum, p) => sum + p.rssBytes, 0) : null;
}
