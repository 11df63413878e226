/**
 * The results cache (docs/scraping.md "Results cache"): a cache hit against a fresh scrape of the
 * same page, side by side in one run. The same request (`/article` of the fixture site, http mode,
 * markdown and metadata) sent to `POST /webhook/unblocker` with `max_age: 0` (fetched: a run
 * through a lane workflow, debited) and with `max_age` of an hour (after one warm fetch, every
 * request a hit: one SQL statement in the API process, no workflow), in alternating rounds so load
 * on the machine falls on both alike. Per variant and concurrency (1 and 32): p50/p95 latency,
 * throughput, and the CPU each service process spent per request (user + system, from /proc,
 * summed over that variant's rounds).
 *   node --import tsx bench/cache.ts        (CACHE_BENCH_REQUESTS per round, default 100; CACHE_BENCH_ROUNDS, default 3)
 */
import { createAccount, setBalance } from '../test/helpers/accounts';
import { startStack } from '../test/helpers/stack';
import { SERVICE_ROLES, type Role, cpuByRole } from './process-cpu';
import { runBench, startBenchServices } from './services';

const perRound = Number(process.env.CACHE_BENCH_REQUESTS ?? '100');
const rounds = Number(process.env.CACHE_BENCH_ROUNDS ?? '3');

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main(): Promise<void> {
  const services = await startBenchServices({ name: 'cache' });
  const stack = await startStack({ env: { WORKER_QUEUES: 'http' } });
  try {
    const account = await createAccount(stack.baseUrl);
    await setBalance(stack.databaseUrl, account.userId, 1_000_000);
    const url = `${services.fixtures.url}/article`;
    const body = (maxAge: number) => JSON.stringify({ url, formats: ['markdown', 'metadata'], options: { retry_count: 0 }, max_age: maxAge });
    const variants = { fresh: body(0), hit: body(3_600_000) } as const;
    const one = async (name: keyof typeof variants) => {
      const started = performance.now();
      const res = await fetch(`${stack.baseUrl}/webhook/unblocker`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey }, body: variants[name] });
      const answer = (await res.json()) as { cache?: { state: string } };
      if (res.status !== 200) throw new Error(`${name} answered ${res.status}`);
      // Each variant must be what it claims: a fresh scrape never a hit, a cached one always.
      if ((answer.cache?.state === 'hit') !== (name === 'hit')) throw new Error(`${name} answered cache ${JSON.stringify(answer.cache)}`);
      return performance.now() - started;
    };
    // Warm both paths (the key's lane, the format threads); the first fresh scrape fills the cache.
    for (let i = 0; i < 20; i++) {
      await one('fresh');
      await one('hit');
    }
    const samples: Record<string, { ms: number[]; seconds: number; cpu: Map<Role, number> }> = {};
    for (const concurrency of [1, 32]) {
      for (let round = 0; round < rounds; round++) {
        for (const name of round % 2 === 0 ? (['fresh', 'hit'] as const) : (['hit', 'fresh'] as const)) {
          const key = `${name} c=${concurrency}`;
          const entry = (samples[key] ??= { ms: [], seconds: 0, cpu: new Map() });
          let next = 0;
          const cpuBefore = cpuByRole();
          const started = performance.now();
          await Promise.all(
            Array.from({ length: concurrency }, async () => {
              while (next < perRound) {
                next++;
                entry.ms.push(await one(name));
              }
            }),
          );
          entry.seconds += (performance.now() - started) / 1000;
          const cpuAfter = cpuByRole();
          for (const role of SERVICE_ROLES) entry.cpu.set(role, (entry.cpu.get(role) ?? 0) + cpuAfter.get(role)! - cpuBefore.get(role)!);
        }
      }
    }
    const cpuRoles = SERVICE_ROLES.filter((role) => role !== 'chromium (worker)'); // http mode: no browser
    console.log(`variant        requests   p50 ms   p95 ms   req/s  CPU ms/request: ${cpuRoles.join(' / ')} / all`);
    for (const [key, entry] of Object.entries(samples)) {
      const sorted = [...entry.ms].sort((a, b) => a - b);
      const cpu = cpuRoles.map((role) => (entry.cpu.get(role)! * 1000) / sorted.length);
      const cpuText = [...cpu, cpu.reduce((a, b) => a + b, 0)].map((ms) => ms.toFixed(1)).join(' / ');
      console.log(`${key.padEnd(13)} ${String(sorted.length).padStart(9)} ${percentile(sorted, 50).toFixed(1).padStart(8)} ${percentile(sorted, 95).toFixed(1).padStart(8)} ${(sorted.length / entry.seconds).toFixed(1).padStart(7)}  ${cpuText}`);
    }
  } finally {
    await stack.stop();
    await services.stop();
  }
}

runBench(main);
