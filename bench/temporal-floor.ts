/**
 * The Temporal floor under a scrape (issue 9, docs/benchmarks.md "The Temporal floor"): the SDK
 * and the dev server alone, no API, no database, no fetch. One operation = one local activity that
 * returns at once, run three ways: a workflow execution started eagerly per operation (today's
 * shape of a standalone scrape); an Update to one long-lived execution, answered when the workflow
 * task completes; a Signal to one long-lived execution, answered by the local activity itself (as
 * the API's run waiters are told), with the operation's id upserted into a keyword-list search
 * attribute (as a run id would be, to stay findable).
 * Prints p50 latency, operations per second and CPU per operation of the Temporal server and of
 * this process (client + worker, as in the API process that hosts the sync queue's worker).
 *   node --import tsx bench/temporal-floor.ts     (FLOOR_OPERATIONS=N per phase, default 300)
 */
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { drive, runBench, startBenchServices } from './services';
import { oneShotWorkflow, operationSignal, operationUpdate, runnerWorkflow, signalRunnerWorkflow } from './temporal-floor/workflows';

const operations = Number(process.env.FLOOR_OPERATIONS ?? '300');

/** CPU seconds of one process (user + system) from /proc. */
function processCpu(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const services = await startBenchServices({ name: 'floor' });
  const connection = await NativeConnection.connect({ address: services.temporalAddress });
  try {
    const taskQueue = 'floor';
    // The signal shape's callers, told by the local activity itself (as the API's run waiters are).
    const waiting = new Map<number, () => void>();
    const worker = await Worker.create({ connection, taskQueue, workflowsPath: require.resolve('./temporal-floor/workflows'), activities: { work: (i: number) => { waiting.get(i)?.(); waiting.delete(i); return Promise.resolve(i); } } });
    const running = worker.run();
    const client = new Client({ connection });
    const serverPid = Number(readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).find((pid) => /temporal/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))));
    let id = 0;
    const oneShot = async () => {
      const handle = await client.workflow.start(oneShotWorkflow, { taskQueue, workflowId: `one-${id}`, args: [id++], requestEagerStart: true });
      await handle.result();
      if (!handle.eagerlyStarted) throw new Error('not started eagerly');
    };
    const runner = await client.workflow.start(runnerWorkflow, { taskQueue, workflowId: 'runner', args: [] });
    const update = async () => void (await runner.executeUpdate(operationUpdate, { args: [id++] }));
    const signalRunner = await client.workflow.start(signalRunnerWorkflow, { taskQueue, workflowId: 'signal-runner', args: [] });
    const signal = async () => {
      const i = id++;
      const done = new Promise<void>((resolve) => waiting.set(i, resolve));
      await signalRunner.signal(operationSignal, i);
      await done;
    };
    console.log(`Temporal floor, ${operations} operations per phase; load average at start ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log('| shape | concurrency | p50 ms | ops/s | CPU ms per op: Temporal server | this process (client + worker) |');
    console.log('|---|---|---|---|---|---|');
    for (const concurrency of [1, 8]) {
      for (const [name, call] of [['execution per operation (eager start)', oneShot], ['Update to a running execution', update], ['Signal to a running execution, told by the activity', signal]] as const) {
        await drive(20, concurrency, call);
        const server0 = processCpu(serverPid);
        const self0 = process.cpuUsage();
        const { latencies, seconds } = await drive(operations, concurrency, call);
        const serverMs = ((processCpu(serverPid) - server0) * 1000) / operations;
        const self = process.cpuUsage(self0);
        const selfMs = (self.user + self.system) / 1000 / operations;
        console.log(`| ${name} | ${concurrency} | ${median(latencies).toFixed(1)} | ${(operations / seconds).toFixed(1)} | ${serverMs.toFixed(1)} | ${selfMs.toFixed(1)} |`);
      }
    }
    await runner.terminate('bench done');
    await signalRunner.terminate('bench done');
    worker.shutdown();
    await running;
  } finally {
    await connection.close();
    await services.stop();
  }
}

runBench(main);
