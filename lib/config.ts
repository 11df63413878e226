/**
 * Configuration, read from the environment once and validated with zod.
 * This is the only module that reads `process.env`; everything else receives a `Config`.
 * Names and meanings of the settings in DESIGN.md section 6 are fixed.
 */
import path from 'node:path';
import { z } from 'zod';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const port = z.coerce.number({ message: 'must be a port number' }).int().min(0).max(65535);

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[^\s:/]+:\d+$/, 'must be host:port')
    .optional(),
  /** A Temporal CLI binary to run the dev server with (else `temporal` on PATH, else the pinned build). */
  TEMPORAL_CLI_PATH: z.string().min(1).optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_UI_PORT: port.default(8233),
  TEMPORAL_DEV_PORT: port.default(7233),
  /** Prefix for task-queue names, so several deployments (or test runs) can share one Temporal. */
  TASK_QUEUE_PREFIX: z.string().regex(/^[a-zA-Z0-9_-]*$/, 'letters, digits, - and _ only').default(''),
  DATA_DIR: z.string().min(1).default('./.data'),
  EMBEDDED_PG_PORT: port.default(54329),
  CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  BROWSER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  FREE_CREDITS: z.coerce.number({ message: 'must be a whole number' }).int().min(0).default(100),
  ALLOW_PRIVATE_TARGETS: booleanFlag.default(false),
  BLACKLIST_HOSTS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  SYNC_TIMEOUT_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(100).max(600_000).default(50_000),
  BETTER_AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  BETTER_AUTH_URL: z.string().url('must be a URL').optional(),
  /** Extra origins allowed to call the auth routes from a browser (comma-separated). */
  TRUSTED_ORIGINS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Enables POST /diagnostics/echo, a route that runs a trivial workflow (wiring checks). */
  DIAGNOSTICS_ENABLED: booleanFlag.default(false),
  /** Which task queues a worker process serves: "all", "http" or "browser". */
  WORKER_QUEUES: z.enum(['all', 'http', 'browser']).default('all'),
  /** Port of a worker process's own /metrics (scrape, credit and browser-pool metrics); 0 = off. */
  WORKER_METRICS_PORT: port.default(9464),
  /** Apply pending migrations when the API or a worker starts (off when a deploy step runs them). */
  MIGRATE_ON_START: booleanFlag.default(true),
  /** Set by the supervisor (scripts/start.ts, tests) on its children: exit when the parent's stdin pipe closes. */
  EXIT_WITH_PARENT: booleanFlag.default(false),
});

export type Config = z.infer<typeof configSchema> & {
  /** DATA_DIR made absolute. */
  dataDir: string;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** Parses an environment-like record. Unknown names are ignored; empty strings count as unset. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') cleaned[key] = value.trim();
  }
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`));
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
}

let cached: Config | undefined;

/** The process configuration, parsed from `process.env` on first use. */
export function loadConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Environment of the current process, for launching child processes (the supervisor passes it on). */
export function processEnvironment(): Record<string, string | undefined> {
  return { ...process.env };
}
