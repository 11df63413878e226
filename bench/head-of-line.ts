/**
 * Head-of-line probe (issue 9, docs/benchmarks.md "A lane prototype"): does a slow scrape delay
 * the next requests of the same account and host? Boots the bench stack, sends one scrape of
 * `/slow?ms=HOL_SLOW_MS` (default 6000), then, while it runs, HOL_FAST (default 10) sequential
 * scrapes of the bench page to the same host, and prints each one's latency. Any dispatch shape
 * that shares a workflow task between requests (a long-lived execution taking scrapes by Signal or Update)
 * must keep these at the fast path's usual latency.
 *   node --import tsx bench/head-of-line.ts
 */
import { createAccount, setBalance, sql } from '../test/helpers/accounts';
import { startStack } from '../test/helpers/stack';
import { waitFor } from '../test/helpers/wait';
import { runBench, startBenchServices } from './services';

const slowMs = Number(process.env.HOL_SLOW_MS ?? '6000');
const fastCount = Number(process.env.HOL_FAST ?? '10');

async function main(): Promise<void> {
  const services = await startBenchServices({ name: 'head-of-line' });
  const stack = await startStack({ env: { WORKER_QUEUES: 'http' } });
  try {
    const account = await createAccount(stack.baseUrl);
    await setBalance(stack.databaseUrl, account.userId, 1_000_000);
    const scrape = async (path: string) => {
      const started = performance.now();
      const res = await fetch(`${stack.baseUrl}/webhook/unblocker`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
        body: JSON.stringify({ url: `${services.fixtures.url}${path}`, selectors: ['h1'], options: { retry_count: 0 } }),
      });
      await res.arrayBuffer();
      return { status: res.status, ms: Math.round(performance.now() - started) };
    };
    // Warm: the key's dispatch state and whatever long-lived executions it keeps exist before the probe.
    for (let i = 0; i < 20; i++) await scrape('/links?n=20');
    const slow = scrape(`/slow?ms=${slowMs}`);
    // The probe starts once the slow scrape's run is running (its fetch then waits slowMs).
    await waitFor('the slow scrape running', async () => {
      const [row] = await sql<{ n: number }>(stack.databaseUrl, `SELECT count(*)::int AS n FROM scrape_run WHERE url LIKE '%/slow?ms=%' AND status = 'running'`);
      return row!.n > 0;
    });
    const fast: Array<{ status: number; ms: number }> = [];
    for (let i = 0; i < fastCount; i++) fast.push(await scrape('/links?n=20'));
    const slowResult = await slow;
    console.log(`slow scrape (${slowMs} ms page): ${slowResult.status} in ${slowResult.ms} ms`);
    console.log(`fast scrapes to the same host meanwhile (ms): ${fast.map((f) => (f.status === 200 ? String(f.ms) : `${f.status}!`)).join(', ')}`);
  } finally {
    await stack.stop();
    await services.stop();
  }
}

runBench(main);
