/**
 * The Firecrawl-compatible scrape against the native one (docs/firecrawl.md "Same runs, same
 * promises"), side by side in one run: the same page (`/article` of the fixture site), the same
 * work (http mode, markdown of the main content, metadata), sent as `POST /webhook/unblocker`
 * (`formats: ["markdown", "metadata"]`) and as `POST /v2/scrape` (`formats: ["markdown"]`, the
 * key as a Bearer token), in alternating rounds so load on the machine falls on both alike.
 * Per route and concurrency: p50/p95 latency, throughput, and the CPU each service process spent
 * per request (user + system, from /proc, summed over that route's rounds).
 *   node --import tsx bench/firecrawl.ts        (FC_BENCH_REQUESTS per round, default 100; FC_BENCH_ROUNDS, default 3)
 */
import { createAccount, setBalance } from '../test/helpers/accounts';
import { startStack } from '../test/helpers/stack';
import { SERVICE_ROLES, type Role, cpuByRole } from './process-cpu';
import { runBench, startBenchServices } from './services';

const perRound = Number(process.env.FC_BENCH_REQUESTS ?? '100');
const rounds = Number(process.env.FC_BENCH_ROUNDS ?? '3');

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main(): Promise<void> {
  const services = await startBenchServices({ name: 'firecrawl' });
  const stack = await startStack({ env: { WORKER_QUEUES: 'http' } });
  try {
    const account = await createAccount(stack.baseUrl);
    await setBalance(stack.databaseUrl, account.userId, 1_000_000);
    const url = `${services.fixtures.url}/article`;
    const routes = {
      native: { path: '/webhook/unblocker', headers: { 'x-api-key': account.apiKey }, body: JSON.stringify({ url, formats: ['markdown', 'metadata'], options: { retry_count: 0 } }) },
      firecrawl: { path: '/v2/scrape', headers: { authorization: `Bearer ${account.apiKey}` }, body: JSON.stringify({ url, formats: ['markdown'], origin: 'bench' }) },
    } as const;
    const one = async (name: keyof typeof routes) => {
      const r = routes[name];
      const started = performance.now();
      const res = await fetch(`${stack.baseUrl}${r.path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...r.headers }, body: r.body });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${name} answered ${res.status}`);
      return performance.now() - started;
    };
    // Warm both paths (the key's dispatch state, the format threads).
    for (let i = 0; i < 20; i++) await Promise.all([one('native'), one('firecrawl')]);
    const samples: Record<string, { ms: number[]; seconds: number; cpu: Map<Role, number> }> = {};
    for (const concurrency of [1, 8]) {
      for (let round = 0; round < rounds; round++) {
        for (const name of round % 2 === 0 ? (['native', 'firecrawl'] as const) : (['firecrawl', 'native'] as const)) {
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
    console.log(`route                 requests   p50 ms   p95 ms   req/s  CPU ms/request: ${cpuRoles.join(' / ')} / all`);
    for (const [key, entry] of Object.entries(samples)) {
      const sorted = [...entry.ms].sort((a, b) => a - b);
      const cpu = cpuRoles.map((role) => (entry.cpu.get(role)! * 1000) / sorted.length);
      const cpuText = [...cpu, cpu.reduce((a, b) => a + b, 0)].map((ms) => ms.toFixed(1)).join(' / ');
      console.log(`${key.padEnd(20)} ${String(sorted.length).padStart(9)} ${percentile(sorted, 50).toFixed(1).padStart(8)} ${percentile(sorted, 95).toFixed(1).padStart(8)} ${(sorted.length / entry.seconds).toFixed(1).padStart(7)}  ${cpuText}`);
    }
  } finally {
    await stack.stop();
    await services.stop();
  }
}

runBench(main);
