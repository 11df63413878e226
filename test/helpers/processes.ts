import type { ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { TEST_TEMPORAL_PAYLOAD_KEY } from './temporal-codec';

/** Processes (other than this one) whose command line or environment mentions `needle`, e.g. a test's temporary data folder. */
export function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (cmdline.includes(needle) || environ.includes(needle)) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

export interface NpmStartPorts {
  dataDir: string;
  apiPort: number;
  temporalPort: number;
  uiPort: number;
  pgPort: number;
  supervisorPort: number;
}

/**
 * The environment of a test's own `npm start` (scripts/start.ts): the embedded default (no
 * DATABASE_URL, no TEMPORAL_ADDRESS) in its own data folder, on the given ports, with the test
 * environment's Temporal CLI and no worker metrics port.
 */
export function npmStartEnv(ports: NpmStartPorts, cliPath: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: ports.dataDir,
    PORT: String(ports.apiPort),
    TEMPORAL_DEV_PORT: String(ports.temporalPort),
    TEMPORAL_UI_PORT: String(ports.uiPort),
    EMBEDDED_PG_PORT: String(ports.pgPort),
    SUPERVISOR_PORT: String(ports.supervisorPort),
    WORKER_METRICS_PORT: '0',
    TEMPORAL_CLI_PATH: cliPath,
    // The tests' known payload key: their own Temporal clients decode with testDataConverter().
    TEMPORAL_PAYLOAD_KEY: TEST_TEMPORAL_PAYLOAD_KEY,
    DATABASE_URL: '',
    TEMPORAL_ADDRESS: '',
  };
}

/**
 * Keeps the last 3,000 chunks of a child's stdout and stderr in `output` (for the failure
 * message of a test) and resolves with its exit code.
 */
export function watchOutput(child: ChildProcess, output: string[]): Promise<number | null> {
  const collect = (chunk: Buffer) => {
    output.push(chunk.toString('utf8'));
    if (output.length > 3000) output.splice(0, output.length - 3000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
