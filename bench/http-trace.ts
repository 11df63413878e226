/**
 * Diagnostic: where the time of one synchronous scrape goes (http mode, or browser with TRACE_MODE=browser). Boots the same stack as
 * bench/run.ts (embedded PostgreSQL, in-memory Temporal dev server, API and worker processes,
 * fixture site), sends sequential scrapes through POST /webhook/unblocker, then reads
 * each run's workflow history and prints the median gap between consecutive history events
 * (task round trips, activity queueing and execution) next to the API's end-to-end latency.
 *   node --import tsx bench/http-trace.ts        (TRACE_REQUESTS=N, default 40; TRACE_MODE=http|browser)
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { Client, Connection } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { createAccount, setBalance } from '../test/helpers/accounts';
import { startStack } from '../test/helpers/stack';
import { drive, runBench, startBenchServices } from './services';
import { testDataConverter } from '../test/helpers/temporal-codec';

const total = Number(process.env.TRACE_REQUESTS ?? '40');
const mode = process.env.TRACE_MODE === 'browser' ? 'browser' : 'http';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function eventName(type: proto.api.enums.v1.EventType | null | undefined): string {
  const name = proto.api.enums.v1.EventType[type ?? 0] ?? String(type);
  return name.replace(/^EVENT_TYPE_/, '');
}

function millis(ts: { seconds?: unknown; nanos?: number | null } | null | undefined): number {
  return Number(ts?.seconds ?? 0) * 1000 + (ts?.nanos ?? 0) / 1e6;
}

/** CPU seconds (user + system) used so far by each descendant of this process, grouped by role. */
function cpuByRole(): Map<string, number> {
  const ticks = 100; // USER_HZ on Linux
  const procs = new Map<number, { ppid: number; cpu: number; role: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      const role = cmd.includes('api/server.ts') ? 'api' : cmd.includes('workers/main.ts') ? 'worker' : cmd.includes('start-dev') ? 'temporal' : cmd.includes('postgres') ? 'postgres' : 'other';
      procs.set(Number(entry), { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / ticks, role });
    } catch {
      continue;
    }
  }
  const mine = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 20; p = procs.get(p)?.ppid ?? 0, hops++) if (p === process.pid) return true;
    return false;
  };
  const byRole = new Map<string, number>();
  for (const [pid, info] of procs) if (pid !== process.pid && mine(pid)) byRole.set(info.role, (byRole.get(info.role) ?? 0) + info.cpu);
  byRole.set('load generator (this process)', process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6);
  return byRole;
}

async function main(): Promise<void> {
  const services = await startBenchServices({ name: 'trace', dynamicConfig: JSON.parse(process.env.TRACE_DYNAMIC_CONFIG ?? '{}') as Record<string, number> });
  const { fixtures } = services;
  let stack: Awaited<ReturnType<typeof startStack>> | undefined;
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address: services.temporalAddress });
    // http: the API process runs the scrapes (eager start), the worker process only the main queue.
    stack = await startStack({ env: { BROWSER_CONCURRENCY: '2', WORKER_QUEUES: mode } });
    const account = await createAccount(stack.baseUrl);
    await setBalance(stack.databaseUrl, account.userId, 1_000_000);
    const client = new Client({ connection, dataConverter: testDataConverter() });
    const pageUrl = `${fixtures.url}/links?n=20`;
    const body = JSON.stringify({ url: pageUrl, mode, selectors: ['h1', { selector: 'a.link', attribute: 'href', all: true }], options: { retry_count: 0 } });

    const latencies: number[] = [];
    const ids: string[] = [];
    for (let i = 0; i < total + 5; i++) {
      const t0 = performance.now();
      const res = await fetch(`${stack.baseUrl}/webhook/unblocker`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
        body,
      });
      const answer = (await res.json()) as { id: string };
      if (res.status !== 200) throw new Error(`API answered ${res.status}: ${JSON.stringify(answer)}`);
      if (i < 5) continue; // warm-up
      latencies.push(performance.now() - t0);
      ids.push(answer.id);
    }

    // Lines `PHASES [ms, ...]` appear only when api/scrape-run.ts is temporarily instrumented to print them.
    const phases = stack.output.api.join('').split('\n').filter((l) => l.includes('PHASES')).map((l) => JSON.parse(l.slice(l.indexOf('['))) as number[]).slice(-ids.length);
    if (phases.length) console.log('API phases p50 (precheck, balance, insert, start, result, findRun, balance):', phases[0]!.map((_, i) => median(phases.map((p) => p[i]!)).toFixed(1)).join(' '));
    const timeGet = async (url: string, headers: Record<string, string> = {}) => {
      const values: number[] = [];
      for (let i = 0; i < 40; i++) {
        const t0 = performance.now();
        await (await fetch(url, { headers })).arrayBuffer();
        values.push(performance.now() - t0);
      }
      return median(values).toFixed(1);
    };
    console.log(`GET /healthz p50 ${await timeGet(`${stack.baseUrl}/healthz`)} ms; GET /webhook/whoami (API-key auth) p50 ${await timeGet(`${stack.baseUrl}/webhook/whoami`, { 'x-api-key': account.apiKey })} ms`);
    // Throughput at TRACE_CONCURRENCY (default 8) and where the CPU goes, per request.
    const concurrency = Number(process.env.TRACE_CONCURRENCY ?? '8');
    const loadTotal = mode === 'browser' ? 40 : 200;
    const cpuBefore = cpuByRole();
    const { seconds: loadSeconds } = await drive(loadTotal, concurrency, async () => {
      const res = await fetch(`${stack!.baseUrl}/webhook/unblocker`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey }, body });
      if (res.status !== 200) throw new Error(`API answered ${res.status}`);
      await res.arrayBuffer();
    });
    const cpuAfter = cpuByRole();
    console.log(`${loadTotal} scrapes at concurrency ${concurrency}: ${(loadTotal / loadSeconds).toFixed(1)} req/s; CPU ms per request by process:`);
    for (const [role, cpu] of cpuAfter) console.log(`  ${role}: ${(((cpu - (cpuBefore.get(role) ?? 0)) * 1000) / loadTotal).toFixed(1)}`);
    // gap[i] = time from event i-1 to event i, keyed by "<prev> → <this>" and position
    const gaps = new Map<string, number[]>();
    const spans: number[] = [];
    for (const id of ids) {
      const history = await client.workflow.getHandle(`scrape-${id}`).fetchHistory();
      const events = history.events ?? [];
      const times = events.map((e) => millis(e.eventTime));
      spans.push(times[times.length - 1]! - times[0]!);
      for (let i = 1; i < events.length; i++) {
        const key = `${String(i).padStart(2)} ${eventName(events[i - 1]!.eventType)} → ${eventName(events[i]!.eventType)}`;
        gaps.set(key, [...(gaps.get(key) ?? []), times[i]! - times[i - 1]!]);
      }
    }
    console.log(`\n${ids.length} sequential ${mode} scrapes; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log(`API end-to-end p50 ${median(latencies).toFixed(1)} ms; workflow history first→last event p50 ${median(spans).toFixed(1)} ms`);
    console.log('median gap between history events (ms), runs with that event sequence:');
    for (const [key, values] of gaps) console.log(`  ${median(values).toFixed(1).padStart(7)}  ${key}  (n=${values.length})`);
  } finally {
    await connection?.close();
    await stack?.stop();
    await services.stop();
  }
}

runBench(main);
