import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type Database = PrismaClient;

/** One Prisma client (with its pg pool) per process. */
export function createDatabase(databaseUrl: string, options: { poolSize?: number } = {}): Database {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  return new PrismaClient({ adapter });
}

export { Prisma } from '../generated/prisma/client';
