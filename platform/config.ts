/**
 * Configuration, read from the environment once and validated with zod.
 * This is the only module that reads `process.env`; everything else receives a `Config`.
 * Names and meanings of the settings are fixed (the README's Configuration table says so).
 */
import { crossFieldProblems, isBase64Key32 } from './config-rules';
import { DEFAULT_CREDIT_PACKS, DEFAULT_PLANS, creditPackSchema, planSchema } from './catalog';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { type ProxyEndpoint, type ProxyPools, parseProxyTiers, parseProxyUrls } from './proxy-endpoints';

/**
 * What a worker may serve (WORKER_QUEUES): every queue, or one engine's mode. The engine table
 * (scrape/engines.ts) sits above the configuration, so it checks at compile time that each mode
 * with a queue of its own is listed here.
 */
export const WORKER_QUEUE_CHOICES = ['all', 'http', 'browser'] as const;

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A JSON array in an environment variable, checked against `item`. */
const jsonList = <T extends z.ZodType>(item: T) =>
  z
    .string()
    .transform((s, ctx) => {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON array' });
        return z.NEVER;
      }
    })
    .pipe(z.array(item).min(1));

export { type CreditPack, DEFAULT_CREDIT_PACKS, DEFAULT_PLANS, type Plan, creditPackSchema, planSchema } from './catalog';

/**
 * Browser mode's Chromium when CHROMIUM_PATH is unset: Debian's full `chromium` in new headless
 * mode (a page sees a desktop Chromium: plugins, `window.chrome`, consistent permissions, which
 * the headless shell lacks: docs/scraping.md, "How we look to a site"), else Debian's
 * `chromium-headless-shell` (a page costs about a third of the full browser's CPU, but it is
 * plainly headless: "Which Chromium"), else /usr/bin/chromium. The binaries, not /usr/bin's
 * wrapper scripts, which run the browser as a child rather than exec-ing it (the pool watches the
 * browser's process).
 */
export const CHROMIUM_CANDIDATES = ['/usr/lib/chromium/chromium', '/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium'] as const;

export function defaultChromiumPath(): string {
  return CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate)) ?? CHROMIUM_CANDIDATES[0];
}

/** A comma-separated list (empty items dropped), lower-cased when asked. */
const commaList = (lowerCase: boolean) =>
  z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((item) => (lowerCase ? item.trim().toLowerCase() : item.trim()))
        .filter(Boolean),
    );

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
  /** Where people open the Temporal UI (the dashboard links runs to it); unset → the embedded UI at 127.0.0.1:TEMPORAL_UI_PORT. */
  TEMPORAL_UI_URL: z.string().regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL').optional(),
  TEMPORAL_DEV_PORT: port.default(7233),
  /** Prefix for task-queue names, so several deployments (or test runs) can share one Temporal. */
  TASK_QUEUE_PREFIX: z.string().regex(/^[a-zA-Z0-9_-]*$/, 'letters, digits, - and _ only').default(''),
  DATA_DIR: z.string().min(1).default('./.data'),
  EMBEDDED_PG_PORT: port.default(54329),
  CHROMIUM_PATH: z.string().min(1).default(defaultChromiumPath),
  BROWSER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /** Contexts (with their page) kept ready before requests arrive; unset = BROWSER_CONCURRENCY on the headless shell, 0 on the full Chromium (docs/scraping.md, "Browser pool"). */
  BROWSER_SPARE_CONTEXTS: z.coerce.number({ message: 'must be a whole number' }).int().min(0).max(32).optional(),
  /** Chromium is replaced after this many pages (0 = never). */
  BROWSER_RECYCLE_PAGES: z.coerce.number({ message: 'must be a whole number' }).int().min(0).default(1000),
  /** http mode sends https hops as the shipped Chromium would (wreq-js; docs/scraping.md "How we look to a site"); false: Node's TLS (undici). */
  HTTP_IMPERSONATE: booleanFlag.default(true),
  /** With HTTP_IMPERSONATE: the TLS handshake is the TLS relay's (deploy/tls-relay, Chromium's ClientHello in full, docs/scraping.md "How we look to a site"); false (or no Go at setup): wreq-js's own. */
  HTTP_TLS_RELAY: booleanFlag.default(true),
  FREE_CREDITS: z.coerce.number({ message: 'must be a whole number' }).int().min(0).default(100),
  ALLOW_PRIVATE_TARGETS: booleanFlag.default(false),
  BLACKLIST_HOSTS: commaList(true),
  SYNC_TIMEOUT_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(100).max(600_000).default(50_000),
  BETTER_AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  BETTER_AUTH_URL: z.string().url('must be a URL').optional(),
  /**
   * Key of stored sessions (docs/scraping.md "Sessions"): 32 bytes, base64. Unset: derived from
   * the auth secret (BETTER_AUTH_SECRET, or DATA_DIR/auth-secret outside production).
   */
  SESSION_ENCRYPTION_KEY: z.string().refine(isBase64Key32, 'must be 32 bytes in base64 (openssl rand -base64 32)').optional(),
  /** Earlier session keys, still read (comma-separated, base64): a rotation's old keys. */
  SESSION_ENCRYPTION_KEYS_OLD: z.string().optional().transform((v, ctx) => {
    const keys = (v ?? '').split(',').map((k) => k.trim()).filter(Boolean);
    if (keys.some((k) => !isBase64Key32(k))) ctx.addIssue({ code: 'custom', message: 'each key must be 32 bytes in base64' });
    return keys;
  }),
  /** Key of Temporal payloads (32 bytes, base64; unset: derived from the auth secret) and earlier keys, still read. */
  TEMPORAL_PAYLOAD_KEY: z.string().refine((v) => v === 'off' || isBase64Key32(v), 'must be 32 bytes in base64 (openssl rand -base64 32), or off (a benchmark baseline, refused in production)').optional(),
  TEMPORAL_PAYLOAD_KEYS_OLD: z.string().optional().transform((v, ctx) => {
    const keys = (v ?? '').split(',').map((k) => k.trim()).filter(Boolean);
    if (keys.some((k) => !isBase64Key32(k))) ctx.addIssue({ code: 'custom', message: 'each key must be 32 bytes in base64' });
    return keys;
  }),
  /** The codec server's credential (api/routes/temporal-codec.ts); unset: derived outside production, off in production. */
  OPERATOR_TOKEN: z.string().regex(/^[A-Za-z0-9_-]{32,128}$/, 'must be 32 to 128 letters, digits, - or _ (openssl rand -hex 32)').optional(),
  /** Largest stored session (its storage state as JSON, in bytes). */
  SESSION_MAX_BYTES: z.coerce.number({ message: 'must be a whole number of bytes' }).int().min(1024).max(16 * 1024 * 1024).default(512 * 1024),
  /** Sessions one account may keep. */
  SESSIONS_PER_ACCOUNT: z.coerce.number({ message: 'must be a whole number' }).int().min(1).max(100_000).default(100),
  /** Extra origins allowed to call the auth routes from a browser (comma-separated). */
  TRUSTED_ORIGINS: commaList(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Enables POST /diagnostics/echo, a route that runs a trivial workflow (wiring checks). */
  DIAGNOSTICS_ENABLED: booleanFlag.default(false),
  /**
   * Which task queues a worker process serves: "all"; "http" (workflows and the engines that run
   * with them); or an `own-queue` engine's mode, "browser" (scrape/engines.ts).
   */
  WORKER_QUEUES: z.enum(WORKER_QUEUE_CHOICES).default('all'),
  /**
   * The API process hosts a Temporal worker for the sync queue, so a standalone scrape starts
   * eagerly and runs in-process (docs/scraping.md, "Execution"). Off: worker processes run them.
   */
  API_WORKER: booleanFlag.default(true),
  /** Most standalone scrapes of one account, mode and host grouped into one workflow execution; 1 = no grouping. */
  // At most 50: a batch's run ids must fit in one ScrapeRunIds value (2,048 bytes; ~52 run ids).
  SCRAPE_BATCH_MAX: z.coerce.number({ message: 'must be a whole number' }).int().min(1).max(50).default(50),
  /** With other requests of the same account and host in flight, how long a new group waits for company. */
  SCRAPE_BATCH_LINGER_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(0).max(1000).default(2),
  /**
   * Worker threads per process for the format work of large documents (scrape/formats/threads.ts,
   * docs/scraping.md "Where the format work runs"); 0 = on the event loop.
   */
  FORMAT_THREADS: z.coerce.number({ message: 'must be a whole number' }).int().min(0).max(16).default(1),
  /** Requests per API key per minute, across replicas (docs/operations.md, "Limits"); 0 = no limit. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number({ message: 'must be a whole number' }).int().min(0).default(12_000),
  /**
   * How often each API replica adds the requests it counted to the shared per-key counters in
   * PostgreSQL (docs/operations.md, "Limits"); 0 = one statement per request, exact across replicas.
   */
  RATE_LIMIT_FLUSH_MS: z.coerce.number({ message: 'must be a whole number' }).int().min(0).max(10_000).default(100),
  /**
   * The sweep that closes rows whose workflow closed without finishing them (a workflow terminated
   * in the Temporal UI; api/closed-workflow-runs.ts, docs/operations.md "Workflows ended from
   * Temporal"): how often each API replica looks, and how old a live row must be to be looked at.
   */
  CLOSED_WORKFLOW_SWEEP_MS: z.coerce.number({ message: 'must be a whole number' }).int().min(1_000).max(3_600_000).default(60_000),
  CLOSED_WORKFLOW_GRACE_MS: z.coerce.number({ message: 'must be a whole number' }).int().min(0).max(86_400_000).default(300_000),
  /** Standalone scrape runs plus flow runs in flight per account, across replicas; 0 = no limit. */
  CONCURRENCY_LIMIT: z.coerce.number({ message: 'must be a whole number' }).int().min(0).default(64),
  /**
   * Sign-in throttling (docs/operations.md, "Limits"), on by default in every environment: the
   * auth library's per-address limits, counted in PostgreSQL (table rateLimit), and our per-account
   * count of failed sign-ins (table sign_in_failure). Off only for a deployment that throttles in
   * front of the API.
   */
  AUTH_RATE_LIMIT: booleanFlag.default(true),
  /** Sign-in attempts per client address per minute (the auth library's limiter). */
  SIGN_IN_PER_MINUTE: z.coerce.number({ message: 'must be a whole number' }).int().min(1).default(5),
  /** Sign-ups per client address per minute (the auth library's limiter). */
  SIGN_UP_PER_MINUTE: z.coerce.number({ message: 'must be a whole number' }).int().min(1).default(10),
  /** Failed sign-ins of one account (e-mail address) per SIGN_IN_FAILURE_WINDOW_S before 429. */
  SIGN_IN_FAILURE_LIMIT: z.coerce.number({ message: 'must be a whole number' }).int().min(1).default(10),
  SIGN_IN_FAILURE_WINDOW_S: z.coerce.number({ message: 'must be a whole number of seconds' }).int().min(1).max(86_400).default(900),
  /** Port of a worker process's own /metrics (scrape, credit and browser-pool metrics); 0 = off. */
  WORKER_METRICS_PORT: port.default(9464),
  /** Apply pending migrations when the API or a worker starts (off when a deploy step runs them). */
  MIGRATE_ON_START: booleanFlag.default(true),
  /** A notification `credit.low` is created when a debit takes the balance from ≥ this to below it. */
  LOW_CREDIT_THRESHOLD: z.coerce.number({ message: 'must be a whole number' }).int().min(0).default(10),
  /** Also send notifications by e-mail (needs SMTP_URL); off by default. */
  NOTIFY_EMAIL: booleanFlag.default(false),
  /** nodemailer transport URL, e.g. smtp://user:pass@smtp.example.com:587 (never logged). */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  SMTP_FROM: z.string().min(3).default('scrape-api <no-reply@localhost>'),
  /** Versions of the documents a user consents to; sign-up records consent to TERMS_VERSION. */
  TERMS_VERSION: z.string().min(1).max(40).default('2026-11-01'),
  PRIVACY_VERSION: z.string().min(1).max(40).default('2026-11-01'),
  /**
   * Payment provider: "stripe", "none" (payments off), or "local", a development aid whose
   * helper route lets any signed-in user confirm their own payments (refused in production).
   * Unset → "stripe" when a Stripe key is set, else "none": "local" only when asked for by name.
   */
  PAYMENT_PROVIDER: z.enum(['none', 'local', 'stripe']).optional(),
  /** HMAC secret of the local provider's webhooks; unset → derived from the auth secret. */
  LOCAL_PAYMENT_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_/, 'must be a Stripe secret key (sk_test_..., sk_live_...)').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_/, 'must be a Stripe webhook signing secret (whsec_...)').optional(),
  /** Another Stripe API than Stripe's own (stripe-mock, a test double); unset → api.stripe.com. */
  STRIPE_API_URL: z.string().regex(/^https?:\/\//, 'must be an http:// or https:// URL').optional(),
  /** Where the provider's checkout page sends the buyer back ({PAYMENT_ID} is replaced). */
  PAYMENT_SUCCESS_URL: z.string().url('must be a URL').optional(),
  PAYMENT_CANCEL_URL: z.string().url('must be a URL').optional(),
  /** Credit packs for sale: a JSON array of {id, name, credits, priceCents, currency}. */
  CREDIT_PACKS: jsonList(creditPackSchema).default(DEFAULT_CREDIT_PACKS),
  /** Subscription plans: a JSON array of {id, name, creditsPerPeriod, priceCents, currency}. */
  SUBSCRIPTION_PLANS: jsonList(planSchema).default(DEFAULT_PLANS),
  /**
   * Crawls (docs/crawl.md "robots.txt"): a host whose robots.txt answers 5xx or 429, or cannot be
   * reached, is "disallow all" until it can be read (RFC 9309): its pages wait, and robots.txt is
   * fetched again after CRAWL_ROBOTS_RETRY_MS, then after as long as it has been failing (at most
   * 5 minutes between tries). After CRAWL_ROBOTS_GIVE_UP_MS without a readable answer, the host's
   * waiting pages are skipped (ROBOTS_DISALLOWED) and its later ones too.
   */
  CRAWL_ROBOTS_RETRY_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(100).max(3_600_000).default(30_000),
  CRAWL_ROBOTS_GIVE_UP_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(1000).max(7 * 86_400_000).default(1_800_000),
  /**
   * Event webhooks (docs/webhooks.md): a failed delivery is retried by Temporal's policy, the wait
   * starting at WEBHOOK_RETRY_INITIAL_MS and doubling up to WEBHOOK_RETRY_MAX_INTERVAL_MS, for at
   * most WEBHOOK_RETRY_WINDOW_MS (24 h); each attempt waits WEBHOOK_TIMEOUT_MS for the answer.
   */
  WEBHOOK_RETRY_INITIAL_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(10).max(3_600_000).default(10_000),
  WEBHOOK_RETRY_MAX_INTERVAL_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(10).max(86_400_000).default(3_600_000),
  WEBHOOK_RETRY_WINDOW_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(1000).max(7 * 86_400_000).default(86_400_000),
  WEBHOOK_TIMEOUT_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(100).max(60_000).default(10_000),
  /**
   * Addresses (IP literals, comma-separated) a webhook may reach although they are private or
   * loopback (a receiver on the same host or network). ALLOW_PRIVATE_TARGETS does not apply to webhooks.
   */
  WEBHOOK_PRIVATE_ALLOWLIST: commaList(true),
  /** How long an API process trusts its knowledge of whether an account has webhook endpoints (async scrapes read it). */
  WEBHOOK_ENDPOINT_CACHE_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(0).max(600_000).default(5000),
  /** Monitors (docs/monitors.md): the shortest `schedule.every` (default one minute; short in tests). */
  MONITOR_MIN_INTERVAL_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(1000).max(86_400_000).default(60_000),
  /** Monitors one account may have; 0 = no limit. */
  MONITOR_MAX_PER_ACCOUNT: z.coerce.number({ message: 'must be a whole number' }).int().min(0).default(100),
  /** `monitor.failed` is emitted when this many checks in a row have failed. */
  MONITOR_FAILURES_BEFORE_EVENT: z.coerce.number({ message: 'must be a whole number' }).int().min(1).max(1000).default(3),
  /** Checks (snapshots and diffs) are kept this many days; the latest successful one is always kept. */
  MONITOR_CHECK_RETENTION_DAYS: z.coerce.number({ message: 'must be a number of days' }).int().min(1).max(3650).default(30),
  /** A diff larger than this (bytes of JSON) is left out of the webhook body, which links to it instead. */
  MONITOR_WEBHOOK_DIFF_MAX_BYTES: z.coerce.number({ message: 'must be a number of bytes' }).int().min(0).max(1_000_000).default(65_536),
  /** Length of a subscription period (default 30 days); short in tests. */
  SUBSCRIPTION_PERIOD_SECONDS: z.coerce.number({ message: 'must be a number of seconds' }).int().min(1).max(366 * 86400).default(30 * 86400),
  /** Port of the `npm start` supervisor's own /readyz and /metrics (loopback only); 0 = off. */
  SUPERVISOR_PORT: port.default(9465),
  /**
   * `npm start`'s watchdog (docs/operations.md, "Hung processes and memory"): a supervised process
   * whose health check has not passed for this long is stopped and restarted; 0 = never.
   */
  SUPERVISOR_HANG_MS: z.coerce
    .number({ message: 'must be a number of milliseconds' })
    .int()
    .refine((ms) => ms === 0 || (ms >= 1000 && ms <= 3_600_000), 'must be 0 (off) or between 1000 and 3600000')
    .default(30_000),
  /** A supervised process whose resident memory stays over this many MiB is stopped and restarted; 0 = never. */
  SUPERVISOR_MEMORY_LIMIT_MB: z.coerce.number({ message: 'must be a whole number of MiB' }).int().min(0).default(2048),
  /** Set by `npm start` on the API: the supervisor's endpoint, so /readyz can report the processes it restarts. */
  SUPERVISOR_URL: z.string().url('must be a URL').optional(),
  /**
   * Run as root, PostgreSQL runs as the `postgres` user; binaries or data that user cannot reach
   * (a clone in a private home folder) are placed here instead (docs/operations.md).
   */
  EMBEDDED_PG_RUNTIME_DIR: z.string().min(1).default('/var/lib/scrape-api'),
  /** Set by the supervisor (scripts/start.ts, tests) on its children: exit when the parent's stdin pipe closes. */
  EXIT_WITH_PARENT: booleanFlag.default(false),
  /**
   * Outbound proxies both engines send scrapes through (docs/scraping.md, "Proxies"): comma-separated
   * `http://`, `https://` or `socks5://` URLs with optional `user:password@` (never logged). Unset: direct.
   */
  PROXY_URLS: z.string().optional(),
  /**
   * Proxy pools by tier and country (docs/scraping.md "Escalation"): JSON
   * `{"basic": {"default": [urls], "de": [urls]}, "stealth": {...}}`. PROXY_URLS is `basic.default`.
   */
  PROXY_TIERS: z.string().optional(),
  /** How long a proxy that failed is skipped by the rotation. */
  PROXY_COOLDOWN_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(0).max(3_600_000).default(60_000),
  /** A flow run keeps one proxy per target host (while it works) instead of rotating per request. */
  PROXY_STICKY: booleanFlag.default(false),
  /**
   * The model of the json schema and summary formats (docs/scraping.md "Structured output"): an
   * OpenAI-compatible chat-completions API root (`…/v1`). Unset: those formats are refused
   * (400 LLM_NOT_CONFIGURED). The operator's own endpoint: loopback and private addresses allowed.
   */
  LLM_BASE_URL: z.string().url('must be a URL').regex(/^https?:\/\//i, 'must be an http(s) URL').optional(),
  /** Sent as `Authorization: Bearer …`; never logged. Optional (a local Ollama needs none). */
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().min(1).optional(),
  /** One model call's deadline. */
  LLM_TIMEOUT_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(1000).max(120_000).default(20_000),
  /** The page's markdown is cut at this many characters before it goes to the model. */
  LLM_MAX_INPUT_CHARS: z.coerce.number({ message: 'must be a whole number' }).int().min(1000).max(2_000_000).default(100_000),
  /** `max_tokens` of each call. */
  LLM_MAX_OUTPUT_TOKENS: z.coerce.number({ message: 'must be a whole number' }).int().min(16).max(65_536).default(4096),
  /** `json_schema` (structured outputs: OpenAI, vLLM, Ollama ≥ 0.5) or `json_object` for servers without them. */
  LLM_RESPONSE_FORMAT: z.enum(['json_schema', 'json_object']).default('json_schema'),
  /** Web search (docs/search.md): a SearXNG base URL, its JSON format enabled; unset → 400 SEARCH_NOT_CONFIGURED. Private addresses allowed (the operator's). */
  SEARXNG_ENDPOINT: z.string().url('must be a URL').regex(/^https?:\/\//i, 'must be an http(s) URL').optional(),
  /** SearXNG's `engines` and `categories` on web searches, passed through as self-hosted Firecrawl does; one request's deadline. */
  SEARXNG_ENGINES: z.string().optional(),
  SEARXNG_CATEGORIES: z.string().optional(),
  SEARXNG_TIMEOUT_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(500).max(120_000).default(15_000),
});

export type Config = Omit<z.infer<typeof configSchema>, 'PAYMENT_PROVIDER' | 'TEMPORAL_UI_URL' | 'PROXY_URLS' | 'PROXY_TIERS'> & {
  /** PROXY_URLS parsed; empty when unset. Each serialises without its credentials. */
  PROXY_URLS: ProxyEndpoint[];
  /** PROXY_TIERS parsed, with PROXY_URLS as `basic.default`; empty when neither is set. */
  PROXY_TIERS: ProxyPools;
  /** DATA_DIR made absolute. */
  dataDir: string;
  PAYMENT_PROVIDER: 'none' | 'local' | 'stripe';
  /** Without a trailing slash. */
  TEMPORAL_UI_URL: string;
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
  const data = parsed.data;
  const { provider, problems } = crossFieldProblems(data);
  const proxyUrls = parseProxyUrls(data.PROXY_URLS ?? '');
  for (const problem of proxyUrls.problems) problems.push(`PROXY_URLS: ${problem}`);
  const proxyTiers = parseProxyTiers(data.PROXY_TIERS ?? '', proxyUrls.proxies);
  for (const problem of proxyTiers.problems) problems.push(`PROXY_TIERS: ${problem}`);
  if (problems.length) throw new ConfigError(problems);
  const temporalUiUrl = (data.TEMPORAL_UI_URL ?? `http://127.0.0.1:${data.TEMPORAL_UI_PORT}`).replace(/\/+$/, '');
  return { ...data, PAYMENT_PROVIDER: provider, TEMPORAL_UI_URL: temporalUiUrl, PROXY_URLS: proxyUrls.proxies, PROXY_TIERS: proxyTiers.pools, dataDir: path.resolve(data.DATA_DIR) };
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

/** NODE_EXTRA_CA_CERTS and SSL_CERT_FILE for TLS stacks other than Node's (docs/scraping.md "How we look to a site"). */
export const tlsTrustEnvironment = {
  extraCaCertsFile: (): string | undefined => process.env.NODE_EXTRA_CA_CERTS || undefined,
  sslCertFile: (): string | undefined => process.env.SSL_CERT_FILE || undefined,
  /** BoringSSL (wreq-js) reads SSL_CERT_FILE when it builds a client. */
  setSslCertFile: (file: string): void => void (process.env.SSL_CERT_FILE = file),
};
