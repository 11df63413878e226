// Prisma CLI configuration (prisma generate / validate). The URL is only needed by commands that
// connect; the service itself builds its client from DATABASE_URL in platform/db.ts.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
