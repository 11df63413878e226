import type { RunningPostgres } from '../../scripts/runtime/postgres';
import type { RunningTemporal } from '../../scripts/runtime/temporal-server';

/** Environment variables through which global setup hands its services to the tests. */
export const TEST_ENV = {
  adminDatabaseUrl: 'TEST_ADMIN_DATABASE_URL',
  temporalAddress: 'TEST_TEMPORAL_ADDRESS',
  temporalCli: 'TEST_TEMPORAL_CLI',
  scratchDir: 'TEST_SCRATCH_DIR',
} as const;

export interface TestServices {
  postgres: RunningPostgres;
  temporal: RunningTemporal;
  scratch: string;
}

export function testEnv(name: keyof typeof TEST_ENV): string {
  const value = process.env[TEST_ENV[name]];
  if (!value) throw new Error(`${TEST_ENV[name]} is not set: run the tests through jest (global setup starts the services)`);
  return value;
}
