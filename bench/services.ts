/**
 * What every bench script boots before test/helpers/stack starts the API and worker processes
 * against it: embedded PostgreSQL and the Temporal dev server on free ports (handed to the stack
 * through the test environment names), and the local fixture site. The dev server is file-backed
 * with the same SQLite settings as `npm start`, so the bench measures what users run, not a
 * flattering in-memory server. Both servers run detached: `stop()` must run whatever happens, or
 * they outlive the bench.
 */
import { chmodSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../platform/config';
import { freePort } from '../platform/free-port';
import { startEmbeddedPostgres } from '../scripts/runtime/postgres';
import { type RunningTemporal, resolveTemporalCli, startTemporalDevServer } from '../scripts/runtime/temporal-server';
import { type FixtureServer, startFixtureServer } from '../test/fixtures/server';
import { TEST_ENV } from '../test/helpers/env';

export interface BenchServices {
  temporalAddress: string;
  fixtures: FixtureServer;
  /** The Temporal server's Prometheus endpoint, when asked for (`metrics: true`). */
  temporalMetricsUrl?: string;
  stop(): Promise<void>;
}

export async function startBenchServices(options: { name: string; dynamicConfig?: Record<string, number>; metrics?: boolean }): Promise<BenchServices> {
  const config = parseConfig(process.env);
  const cliPath = resolveTemporalCli(config.dataDir, console.log, config.TEMPORAL_CLI_PATH);
  if (!cliPath) throw new Error('no Temporal CLI');
  const scratch = mkdtempSync(path.join(os.tmpdir(), `scrape-${options.name}-`));
  // PostgreSQL runs as the `postgres` user when we are root: it must be able to traverse this.
  chmodSync(scratch, 0o755);
  const postgres = await startEmbeddedPostgres({ dataDir: path.join(scratch, 'pg'), port: await freePort(), database: 'postgres' });
  let temporal: RunningTemporal | undefined;
  let fixtures: FixtureServer;
  const metricsPort = options.metrics ? await freePort() : undefined;
  try {
    temporal = await startTemporalDevServer({ cliPath, port: await freePort(), dbFile: path.join(scratch, 'temporal', 'temporal.db'), dynamicConfig: options.dynamicConfig, metricsPort });
    fixtures = await startFixtureServer();
  } catch (error) {
    await temporal?.stop();
    await postgres.stop();
    throw error;
  }
  process.env[TEST_ENV.adminDatabaseUrl] = postgres.url('postgres');
  process.env[TEST_ENV.temporalAddress] = temporal.address;
  const running = temporal;
  return {
    temporalAddress: running.address,
    fixtures,
    temporalMetricsUrl: metricsPort === undefined ? undefined : `http://127.0.0.1:${metricsPort}/metrics`,
    stop: async () => {
      await fixtures.close();
      await running.stop();
      await postgres.stop();
    },
  };
}

/** Runs a bench's main and exits with its outcome (a leftover handle must not keep it alive). */
/** `total` calls, at most `concurrency` in flight; every call must succeed. Each call's latency in ms, and the whole run's seconds. */
export async function drive(total: number, concurrency: number, call: () => Promise<void>): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t0 = performance.now();
        await call();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
