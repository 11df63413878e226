import { rmSync } from 'node:fs';
import type { TestServices } from './helpers/env';

export default async function globalTeardown(): Promise<void> {
  const services = (globalThis as { __testServices?: TestServices }).__testServices;
  if (!services) return;
  await services.temporal.stop();
  await services.postgres.stop();
  rmSync(services.scratch, { recursive: true, force: true });
}
