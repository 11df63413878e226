import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type Database = PrismaClient;

/** One Prisma client (with its pg pool) per process. */
export function createDatabase(databaseUrl: string, options: { poolSize?: number } = {}): Database {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  return new PrismaClient({ adapter });
}

export { Prisma } from '../generated/prisma/client';

/**
 * A value as a JSON column stores it (undefined properties dropped, dates as strings), typed for
 * Prisma's JSON inputs. Pass a defined value: optional columns are left out by the caller.
 */
export function toJsonColumn(value: unknown): object {
  return JSON.parse(JSON.stringify(value)) as object;
}
