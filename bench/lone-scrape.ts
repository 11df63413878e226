/**
 * One client, one scrape at a time (issue 39): what a lone http scrape costs each process, counted.
 * Boots the real service (embedded PostgreSQL, the file-backed Temporal dev server with its
 * Prometheus endpoint, the API and an http worker), then, after a warm-up:
 *   1. idle: LONE_IDLE_SECONDS (default 30) with no traffic; CPU ms per second of each process and
 *      the Temporal server's RPCs per second (the workers' long polls, the API's own sweeps).
 *   2. c=1, c=8, c=32: LONE_REQUESTS (default 200; 3x at c=8 and c=32) scrapes of the fixture's
 *      `/links?n=20` (two selectors, retry_count 0), each phase with p50/p95, req/s, CPU ms per
 *      scrape per process (/proc), PostgreSQL transactions per scrape (pg_stat_database) and the
 *      Temporal server's RPCs per scrape by operation (its `service_requests` counter).
 * With PROFILE_DIR set, the API and worker run with test/profile-preload.cjs: the c=1 phase is
 * CPU-profiled in both (`<role>-<pid>-1.cpuprofile`) and the SQL statements each sent are counted
 * (`<role>-<pid>-1.json`). Everything on 127.0.0.1; every loop bounded.
 * GOGC/GOMEMLIMIT reach the Temporal dev server (it inherits this process's environment);
 * LONE_STACK_ENV (JSON) adds settings to the API's and worker's; LONE_WARMUP the lone scrapes of the warm-up.
 * Threads of the API and worker: CPU per scrape of the main thread (`main`) apart from the other
 * threads (`node`: V8's compiler and GC helpers, the SDK's workflow thread; `tokio-runtime-w`: the
 * SDK's Rust core), each split into user and system time (`:user`, `:sys`), with its context
 * switches per scrape (`:wakeups`). LONE_TRACE=perf samples the API's threads over the c=1 phase
 * (`perf record -g`; add LONE_STACK_ENV='{"NODE_OPTIONS":"--perf-basic-prof-only-functions"}' for
 * JS names), LONE_TRACE=strace counts its system calls (`strace -c -f`: slows it, so that phase's
 * latency and CPU are not comparable); with LONE_TRACE_IDLE=1, perf samples the worker over the
 * idle phase instead.
 *   node --import tsx bench/lone-scrape.ts
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAccount, setBalance, sql } from '../test/helpers/accounts';
import { startStack } from '../test/helpers/stack';
import { type Role, SERVICE_ROLES, cpuByRole } from './process-cpu';
import { drive, runBench, startBenchServices } from './services';

const requests = Number(process.env.LONE_REQUESTS ?? '200');
const idleSeconds = Number(process.env.LONE_IDLE_SECONDS ?? '30');
const profileDir = process.env.PROFILE_DIR;
const ROLES_SHOWN: Role[] = SERVICE_ROLES.filter((r) => r !== 'chromium (worker)');

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** The Temporal server's request counter by service and operation. */
async function temporalRequests(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(url)).text();
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('service_requests{')) continue;
    const operation = /operation="([^"]+)"/.exec(line)?.[1] ?? '?';
    const service = /service_name="([^"]+)"/.exec(line)?.[1] ?? '?';
    const key = `${service}:${operation}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return counts;
}

function diffPer(before: Map<string, number>, after: Map<string, number>, per: number): [string, number][] {
  return [...after]
    .map(([k, v]) => [k, (v - (before.get(k) ?? 0)) / per] as [string, number])
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1]);
}

/** CPU seconds of each thread name (/proc/<pid>/task/<tid>/comm) of a process, summed over threads of that name. */
function threadCpu(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // the main thread apart from the others of its name (V8's platform workers and libuv's pool are `node` too)
      const name = Number(tid) === pid ? 'main' : readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
      // user and system time apart, and the thread's context switches (its wake-ups): `name:user`, `name:sys`, `name:wakeups`
      byName.set(`${name}:user`, (byName.get(`${name}:user`) ?? 0) + Number(fields[11]) / 100);
      byName.set(`${name}:sys`, (byName.get(`${name}:sys`) ?? 0) + Number(fields[12]) / 100);
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
      const switches = Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0) + Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0);
      byName.set(`${name}:wakeups`, (byName.get(`${name}:wakeups`) ?? 0) + switches / 1000);
    } catch {
      continue;
    }
  }
  return byName;
}

/** The pids of the stack's API and worker processes (children of this process by command line). */
function servicePids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd.includes('api/server.ts') || cmd.includes('workers/main.ts')) pids.push(Number(entry));
    } catch {
      continue;
    }
  }
  return pids.filter((pid) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
  });
}

/** Resident memory (MiB) of the Temporal dev server (the `start-dev` process), to see what its Go GC settings cost. */
function temporalRssMiB(): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('start-dev')) continue;
      const kib = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1];
      if (kib) return Number(kib) / 1024;
    } catch {
      continue;
    }
  }
  return undefined;
}

async function main(): Promise<void> {
  console.log(`Go settings of the Temporal server: GOGC=${process.env.GOGC ?? '(default)'} GOMEMLIMIT=${process.env.GOMEMLIMIT ?? '(none)'}`);
  console.log(`load average at start: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const services = await startBenchServices({ name: 'lone', metrics: true });
  const env: Record<string, string> = { WORKER_QUEUES: 'http' };
  if (profileDir) env.NODE_OPTIONS = `--require ${path.resolve(__dirname, '../test/profile-preload.cjs')}`;
  if (profileDir) env.PROFILE_DIR = profileDir;
  // A paired variant of the API's settings (e.g. LONE_STACK_ENV='{"RATE_LIMIT_FLUSH_MS":"1000"}').
  Object.assign(env, JSON.parse(process.env.LONE_STACK_ENV ?? '{}') as Record<string, string>);
  if (process.env.LONE_STACK_ENV) console.log(`API and worker settings: ${process.env.LONE_STACK_ENV}`);
  const stack = await startStack({ env });
  try {
    const metricsUrl = services.temporalMetricsUrl!;
    const account = await createAccount(stack.baseUrl);
    await setBalance(stack.databaseUrl, account.userId, 10_000_000);
    const committed = async () => (await sql<{ n: number }>(stack.databaseUrl, 'SELECT sum(xact_commit)::float8 AS n FROM pg_stat_database'))[0]!.n;
    const body = JSON.stringify({ url: `${services.fixtures.url}/links?n=20`, mode: 'http', selectors: ['h1', { selector: 'a.link', attribute: 'href', all: true }], options: { retry_count: 0 } });
    const scrape = async () => {
      const res = await fetch(`${stack.baseUrl}/webhook/unblocker`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey }, body });
      if (res.status !== 200) throw new Error(`API answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    // warm-up: the lane, the JIT, the pools. LONE_WARMUP (default 40) lone scrapes: TurboFan still
    // optimises functions for the first time several hundred scrapes in (docs/benchmarks.md, round 4)
    await drive(Number(process.env.LONE_WARMUP ?? '40'), 1, scrape);
    await drive(64, 32, scrape);

    // 1. idle
    await new Promise((r) => setTimeout(r, 5000)); // let the warm-up's lanes and sweeps settle
    const idleCpu0 = cpuByRole();
    const idleRpc0 = await temporalRequests(metricsUrl);
    // LONE_TRACE_IDLE=1 (with LONE_TRACE=perf): sample the worker process's threads over the idle phase instead
    const workerPid = servicePids().find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('workers/main'));
    const idleTraceFile = path.join(os.tmpdir(), `lone-perf-idle-${workerPid}.data`);
    const idleTracer = process.env.LONE_TRACE === 'perf' && process.env.LONE_TRACE_IDLE && workerPid ? spawn('perf', ['record', '-F', '499', '-g', '-p', String(workerPid), '-o', idleTraceFile], { stdio: 'ignore' }) : undefined;
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    if (idleTracer) {
      idleTracer.kill('SIGINT');
      await new Promise((r) => idleTracer.once('exit', r));
      console.log(`  perf of the worker over the idle phase: ${idleTraceFile}`);
    }
    const idleCpu1 = cpuByRole();
    const idleRpc1 = await temporalRequests(metricsUrl);
    const idleLine = ROLES_SHOWN.map((r) => `${r} ${(((idleCpu1.get(r)! - idleCpu0.get(r)!) * 1000) / idleSeconds).toFixed(1)}`).join(', ');
    console.log(`idle ${idleSeconds} s, CPU ms per second: ${idleLine}`);
    console.log(`idle Temporal RPCs per second: ${diffPer(idleRpc0, idleRpc1, idleSeconds).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);

    // 2. load phases
    for (const [concurrency, total] of [[1, requests], [8, requests * 3], [32, requests * 3]] as const) {
      await drive(Math.max(concurrency * 2, 10), concurrency, scrape);
      const profiling = profileDir && concurrency === 1;
      if (profiling) {
        for (const pid of servicePids()) process.kill(pid, 'SIGWINCH');
        await new Promise((r) => setTimeout(r, 300));
      }
      const pids = servicePids();
      const threads0 = pids.map(threadCpu);
      const [cpu0, rpc0, tx0] = [cpuByRole(), await temporalRequests(metricsUrl), await committed()];
      // LONE_TRACE=strace: count the API's system calls over the c=1 phase (strace slows every call:
      // the phase's latency and CPU are not comparable then); LONE_TRACE=perf: sample its threads' stacks.
      const apiPid = pids.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('api/server'));
      const traceFile = path.join(os.tmpdir(), `lone-${process.env.LONE_TRACE}-${apiPid}.${process.env.LONE_TRACE === 'perf' ? 'data' : 'txt'}`);
      const traceArgs = process.env.LONE_TRACE === 'perf' ? ['record', '-F', '499', '-g', '-p', String(apiPid), '-o', traceFile] : ['-c', '-f', '-p', String(apiPid), '-o', traceFile];
      const tracer = process.env.LONE_TRACE && !process.env.LONE_TRACE_IDLE && concurrency === 1 && apiPid ? spawn(process.env.LONE_TRACE, traceArgs, { stdio: 'ignore' }) : undefined;
      if (tracer) await new Promise((r) => setTimeout(r, 1000));
      const { latencies, seconds } = await drive(total, concurrency, scrape);
      if (tracer) {
        tracer.kill('SIGINT');
        await new Promise((r) => tracer.once('exit', r));
        console.log(`  ${process.env.LONE_TRACE} of the API over the phase: ${traceFile} (${total} scrapes)`);
      }
      const [cpu1, rpc1, tx1] = [cpuByRole(), await temporalRequests(metricsUrl), await committed()];
      const threads1 = pids.map(threadCpu);
      if (profiling) for (const pid of servicePids()) process.kill(pid, 'SIGWINCH');
      latencies.sort((a, b) => a - b);
      const cpu = ROLES_SHOWN.map((r) => [r, ((cpu1.get(r)! - cpu0.get(r)!) * 1000) / total] as const);
      const all = cpu.reduce((s, [, v]) => s + v, 0);
      console.log(
        `c=${concurrency} ${total} scrapes: p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, ${(total / seconds).toFixed(1)} req/s; ` +
          `CPU ms/scrape ${cpu.map(([r, v]) => `${r} ${v.toFixed(1)}`).join(', ')}, all ${all.toFixed(1)}; PostgreSQL xacts/scrape ${((tx1 - tx0) / total).toFixed(2)}`,
      );
      pids.forEach((pid, i) => {
        const role = readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('api/server') ? 'api' : 'worker';
        console.log(`  ${role} threads, CPU ms/scrape: ${diffPer(threads0[i]!, threads1[i]!, total / 1000).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
      });
      console.log(`  Temporal RPCs per scrape: ${diffPer(rpc0, rpc1, total).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);
      console.log(`  Temporal server RSS after the phase: ${temporalRssMiB()?.toFixed(0) ?? '?'} MiB`);
    }
    console.log(`load average at end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    await stack.stop();
    await services.stop();
  }
}

runBench(main);
