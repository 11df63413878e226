/**
 * What the scrape activities are given (workers/deps.ts builds it): apart from run-scrape.ts so
 * that its helpers (escalation.ts, session.ts, …) can name it without importing run-scrape.ts.
 */
import type { Database } from '../../platform/db';
import type { Logger } from '../../platform/logger';
import type { WorkerMetrics } from '../../platform/metrics';
import type { SqlClient } from '../../platform/sql';
import type { Blacklist } from '../../scrape/blacklist';
import type { ProxyRotation, TierRotations } from '../../scrape/proxies';
import type { RunningAttempts } from '../../scrape/running-attempts';
import type { FinishedRun, ScrapeRunStore } from '../../scrape/runs';
import type { LlmSettings } from '../../scrape/llm/model-formats';
import type { SessionStore } from '../../sessions/store';

/** Who is told when a run finishes in this process (the API answering it; nobody in a worker). */
export interface RunEvents {
  finished(run: FinishedRun, remaining?: number): void;
}

export interface ScrapeActivityDeps {
  /** Prisma: notifications (low credit). */
  db: Database;
  /** Plain SQL: the debit and refund of the hot path. */
  sql: SqlClient;
  runs: ScrapeRunStore;
  logger: Logger;
  metrics: WorkerMetrics;
  blacklist: Blacklist;
  /** LOW_CREDIT_THRESHOLD: a debit crossing it notifies `credit.low` (0 = off). */
  lowCreditThreshold?: number;
  runEvents?: RunEvents;
  /** PROXY_URLS: the process's proxy rotation (absent: every scrape goes direct). */
  proxies?: ProxyRotation;
  /** PROXY_TIERS (with PROXY_URLS as basic.default): the pools by tier and country (docs/scraping.md "Escalation"). */
  proxyTiers?: TierRotations;
  /** PROXY_STICKY: a flow run keeps one proxy per target host while it works. */
  proxySticky?: boolean;
  /** The attempts running in this process, so a cancel of one run stops its fetch alone (scrape/running-attempts.ts). */
  attempts?: RunningAttempts;
  /** LLM_BASE_URL, LLM_MODEL…: the model of the json schema and summary formats (absent: they fail LLM_NOT_CONFIGURED). */
  llm?: LlmSettings;
  /** Stored sessions (docs/scraping.md "Sessions"): read and written by scrapes that name one. */
  sessions?: SessionStore;
}
