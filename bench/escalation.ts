/**
 * Escalation through the whole API (docs/scraping.md "Escalation", docs/benchmarks.md): in one
 * run, in alternating rounds so the machine's load falls on every variant alike,
 *   - `http`:        mode http on a page http serves (`/article`, markdown);
 *   - `auto/http`:   mode auto on the same page: served by its first step (http), what `auto`
 *                    adds over http when nothing climbs (the app-shell check, the step bookkeeping,
 *                    the charge-on-success statement);
 *   - `auto/shell`:  mode auto on an app shell (`/escalate/app-shell`): http, then the browser.
 * Each answer is checked to be what the variant claims (served_by). Per variant and concurrency:
 * p50/p95 latency, req/s, and the CPU each service process spent per request (from /proc).
 *   node --import tsx bench/escalation.ts   (ESC_BENCH_REQUESTS per http round, default 100;
 *   ESC_BENCH_SHELL_REQUESTS per app-shell round, default 16; ESC_BENCH_ROUNDS, default 2)
 */
import { createAccount, setBalance } from '../test/helpers/accounts';
import { startStack } from '../test/helpers/stack';
import { SERVICE_ROLES, type Role, cpuByRole } from './process-cpu';
import { runBench, startBenchServices } from './services';

const perRound = Number(process.env.ESC_BENCH_REQUESTS ?? '100');
const shellPerRound = Number(process.env.ESC_BENCH_SHELL_REQUESTS ?? '16');
const rounds = Number(process.env.ESC_BENCH_ROUNDS ?? '2');

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

type Variant = 'http' | 'auto/http' | 'auto/shell';

async function main(): Promise<void> {
  const services = await startBenchServices({ name: 'escalation' });
  const stack = await startStack({});
  try {
    const account = await createAccount(stack.baseUrl);
    await setBalance(stack.databaseUrl, account.userId, 10_000_000);
    const article = `${services.fixtures.url}/article`;
    const shell = `${services.fixtures.url}/escalate/app-shell`;
    const bodies: Record<Variant, string> = {
      http: JSON.stringify({ url: article, formats: ['markdown'], options: { retry_count: 0 } }),
      'auto/http': JSON.stringify({ url: article, mode: 'auto', formats: ['markdown'], options: { retry_count: 0 } }),
      'auto/shell': JSON.stringify({ url: shell, mode: 'auto', formats: ['markdown'], options: { retry_count: 0 } }),
    };
    const servedBy: Record<Variant, string | undefined> = { http: undefined, 'auto/http': 'http', 'auto/shell': 'browser' };
    const one = async (name: Variant) => {
      const started = performance.now();
      const res = await fetch(`${stack.baseUrl}/webhook/unblocker`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey }, body: bodies[name] });
      const answer = (await res.json()) as { served_by?: { engine: string } };
      if (res.status !== 200) throw new Error(`${name} answered ${res.status}: ${JSON.stringify(answer)}`);
      if (answer.served_by?.engine !== servedBy[name]) throw new Error(`${name} was served by ${JSON.stringify(answer.served_by)}`);
      return performance.now() - started;
    };
    // Warm every path (the key's lane, the format threads, Chromium's launch and spare contexts).
    for (let i = 0; i < 4; i++) for (const name of Object.keys(bodies) as Variant[]) await one(name);
    const samples: Record<string, { ms: number[]; seconds: number; cpu: Map<Role, number> }> = {};
    const plan: Array<{ concurrency: number; variants: Variant[] }> = [
      { concurrency: 1, variants: ['http', 'auto/http', 'auto/shell'] },
      // The browser renders 2 pages at once (BROWSER_CONCURRENCY): 8 app shells in flight on a loaded machine passed the 50 s wait.
      { concurrency: 2, variants: ['auto/shell'] },
      { concurrency: 8, variants: ['http', 'auto/http'] },
      { concurrency: 32, variants: ['http', 'auto/http'] },
    ];
    for (const { concurrency, variants } of plan) {
      for (let round = 0; round < rounds; round++) {
        for (const name of round % 2 === 0 ? variants : [...variants].reverse()) {
          const total = name === 'auto/shell' ? shellPerRound : perRound;
          const key = `${name} c=${concurrency}`;
          const entry = (samples[key] ??= { ms: [], seconds: 0, cpu: new Map() });
          let next = 0;
          const cpuBefore = cpuByRole();
          const started = performance.now();
          await Promise.all(
            Array.from({ length: concurrency }, async () => {
              while (next < total) {
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
    console.log(`| variant | requests | p50 ms | p95 ms | req/s | CPU ms/request: ${SERVICE_ROLES.join(' / ')} / all |`);
    console.log('|---|---|---|---|---|---|');
    for (const [key, entry] of Object.entries(samples)) {
      const sorted = [...entry.ms].sort((a, b) => a - b);
      const cpu = SERVICE_ROLES.map((role) => (entry.cpu.get(role)! * 1000) / sorted.length);
      const cpuText = [...cpu, cpu.reduce((a, b) => a + b, 0)].map((ms) => ms.toFixed(1)).join(' / ');
      console.log(`| ${key} | ${sorted.length} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 95).toFixed(1)} | ${(sorted.length / entry.seconds).toFixed(1)} | ${cpuText} |`);
    }
  } finally {
    await stack.stop();
    await services.stop();
  }
}

runBench(main);
