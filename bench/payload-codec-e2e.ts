/**
 * The Temporal payload codec end to end (docs/benchmarks.md, "Temporal payload codec"): CPU per
 * scrape of every service process (API, worker, Temporal server, PostgreSQL) at concurrency 1 and
 * 32, with the codec on (the default: AES-256-GCM on every payload) against the same service with
 * TEMPORAL_PAYLOAD_KEY=off (no codec; the baseline only, refused in production). bench/payload-codec.ts
 * measures the codec alone.
 *
 * One run, paired: embedded PostgreSQL and the Temporal dev server are shared; the API and worker
 * processes are started per variant (one stack at a time, so each process's CPU is that variant's),
 * in alternating order over the rounds (on, off, off, on, …). Each stack warms up (20 scrapes)
 * before it is measured. The request: http mode, the fixture site's /article, markdown and
 * metadata, with a cookie and a cookie header (what the codec protects), `max_age: 0` (always a
 * fresh run through a lane workflow), up to 2 retries (a fixture socket reset under heavy load).
 *   node --import tsx bench/payload-codec-e2e.ts   (CODEC_BENCH_REQUESTS at c=32 per round, default 200 (c=1: a fifth); CODEC_BENCH_ROUNDS per variant, default 2)
 */
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createAccount, setBalance } from '../test/helpers/accounts';
import { startStack } from '../test/helpers/stack';
import { SERVICE_ROLES, type Role, cpuByRole } from './process-cpu';
import { drive, runBench, startBenchServices } from './services';

const perRound = Number(process.env.CODEC_BENCH_REQUESTS ?? '200');
const rounds = Number(process.env.CODEC_BENCH_ROUNDS ?? '2');
const CONCURRENCIES = [1, 32] as const;
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const CPU_ROLES = SERVICE_ROLES.filter((role) => role !== 'chromium (worker)'); // http mode: no browser

interface Sample {
  ms: number[];
  seconds: number;
  cpu: Map<Role, number>;
}

async function main(): Promise<void> {
  const services = await startBenchServices({ name: 'payload-codec' });
  const samples: Record<string, Sample> = {};
  console.log(`load average at start: ${loadavg()}`);
  try {
    for (let round = 0; round < rounds; round++) {
      for (const variant of round % 2 === 0 ? (['codec', 'no codec'] as const) : (['no codec', 'codec'] as const)) {
        const stack = await startStack({ env: { WORKER_QUEUES: 'http', ...(variant === 'no codec' ? { TEMPORAL_PAYLOAD_KEY: 'off' } : {}) } });
        try {
          const account = await createAccount(stack.baseUrl);
          await setBalance(stack.databaseUrl, account.userId, 1_000_000);
          const body = JSON.stringify({
            url: `${services.fixtures.url}/article`,
            formats: ['markdown', 'metadata'],
            cookies: [{ name: 'sid', value: randomBytes(24).toString('hex') }],
            headers: { cookie: `pref=${randomBytes(16).toString('hex')}` },
            options: { retry_count: 2 },
            max_age: 0,
          });
          const one = async () => {
            const res = await fetch(`${stack.baseUrl}/webhook/unblocker`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey }, body });
            const answer = (await res.json()) as { cache?: { state: string } };
            if (res.status !== 200 || answer.cache?.state === 'hit') throw new Error(`${variant} answered ${res.status} ${JSON.stringify(answer).slice(0, 200)}`);
          };
          await drive(20, 4, one);
          for (const concurrency of CONCURRENCIES) {
            const total = concurrency === 1 ? Math.max(10, Math.round(perRound / 5)) : perRound;
            const key = `${variant} c=${concurrency}`;
            const entry = (samples[key] ??= { ms: [], seconds: 0, cpu: new Map() });
            const before = cpuByRole();
            const run = await drive(total, concurrency, one);
            const after = cpuByRole();
            entry.ms.push(...run.latencies);
            entry.seconds += run.seconds;
            for (const role of CPU_ROLES) entry.cpu.set(role, (entry.cpu.get(role) ?? 0) + after.get(role)! - before.get(role)!);
            console.log(`round ${round + 1} ${key}: ${(total / run.seconds).toFixed(1)} req/s (load ${loadavg()})`);
          }
        } finally {
          await stack.stop();
        }
      }
    }
  } finally {
    await services.stop();
  }
  console.log(`\nload average at end: ${loadavg()}`);
  console.log(`variant          requests   p50 ms   p95 ms   req/s  CPU ms/request: ${CPU_ROLES.join(' / ')} / all`);
  for (const [key, entry] of Object.entries(samples).sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = [...entry.ms].sort((a, b) => a - b);
    const cpu = CPU_ROLES.map((role) => (entry.cpu.get(role)! * 1000) / sorted.length);
    const cpuText = [...cpu, cpu.reduce((a, b) => a + b, 0)].map((ms) => ms.toFixed(2)).join(' / ');
    console.log(`${key.padEnd(15)} ${String(sorted.length).padStart(9)} ${percentile(sorted, 50).toFixed(1).padStart(8)} ${percentile(sorted, 95).toFixed(1).padStart(8)} ${(sorted.length / entry.seconds).toFixed(1).padStart(7)}  ${cpuText}`);
  }
}

runBench(main);
