/**
 * Boots the real services every integration test shares, once per run:
 *   - PostgreSQL (embedded binaries) on a free port, data in a temporary folder;
 *     each test file then creates its own database (test/helpers/database.ts)
 *   - a Temporal dev server (the pinned CLI, built once into <DATA_DIR>/bin) on a free port;
 *     each test stack uses its own task-queue prefix, so stacks never see each other's work
 *   - the cluster topology's binaries (Temporal server, schema tool, UI server), built once into
 *     <DATA_DIR>/bin here rather than by the test files that use them, which may run at once
 *   - the Python tools venv (scripts/python-tools.cjs), once here rather than by the test files that
 *     use it (the clients and the schema fuzz), which may run at once; `npm test`'s setup step has
 *     usually made it already
 * Their addresses reach the test processes through environment variables.
 */
import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../platform/config';
import { freePort } from '../platform/free-port';
import { startEmbeddedPostgres } from '../scripts/runtime/postgres';
import { ensureClusterBinaries } from '../scripts/runtime/temporal-cluster';
import { resolveTemporalCli, startTemporalDevServer } from '../scripts/runtime/temporal-server';
import { TEST_ENV, type TestServices } from './helpers/env';

const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

export default async function globalSetup(): Promise<void> {
  const config = parseConfig(process.env);
  const cliPath = resolveTemporalCli(config.dataDir, (line) => console.log(line), config.TEMPORAL_CLI_PATH);
  if (!cliPath) throw new Error('No Temporal CLI: install Go (the pinned CLI is built from deploy/temporal-cli) or put `temporal` on PATH.');
  // Without Go only the cluster tests fail, saying so.
  ensureClusterBinaries(config.dataDir, (line) => console.log(line));
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require('../scripts/python-tools.cjs') as { ensurePythonTools: (log: (line: string) => void) => string }).ensurePythonTools((line) => console.log(line));
  } catch (error) {
    // Only the tests that need it fail, saying so.
    console.log(`No Python tools: ${String(error)}`);
  }
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'scrape-test-'));
  // PostgreSQL runs as the `postgres` user when we are root: it must be able to traverse this.
  chmodSync(scratch, 0o755);
  const [postgres, temporal] = await Promise.all([
    freePort().then((port) => startEmbeddedPostgres({ dataDir: path.join(scratch, 'pg'), port, database: 'postgres' })),
    freePort().then((port) => startTemporalDevServer({ cliPath, port })),
  ]);
  process.env[TEST_ENV.adminDatabaseUrl] = postgres.url('postgres');
  process.env[TEST_ENV.temporalAddress] = temporal.address;
  process.env[TEST_ENV.temporalCli] = cliPath;
  process.env[TEST_ENV.scratchDir] = scratch;
  // Browser-mode tests run on Debian's headless shell when it is installed: the same Chromium at
  // about a quarter of the full browser's CPU a page (docs/benchmarks.md, "Browser identity"), on
  // 2 shared cores. The default engine, the full chromium, is tested where it differs, how a site
  // sees it: api/routes/browser-identity.test.ts. CHROMIUM_PATH set by the caller wins.
  if (!process.env.CHROMIUM_PATH && existsSync(HEADLESS_SHELL)) process.env.CHROMIUM_PATH = HEADLESS_SHELL;
  (globalThis as { __testServices?: TestServices }).__testServices = { postgres, temporal, scratch };
}
