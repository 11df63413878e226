/**
 * The workers' side of the engine table (scrape/engines.ts): how each mode's engine is built.
 * A worker builds the engines it serves (`enginesFor`) and registers one activity per engine under
 * the name the table gives (`pageActivities`); the workflows call those names.
 */
import fs from 'node:fs';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import { SCRAPE_ENGINES, SCRAPE_MODES, type ScrapeMode } from './engines';
import type { ScrapeCallOptions, ScrapeResult } from './types';
import { createBrowserPool } from './browser';
import { defaultDriver } from './browser/chromium';
import { createHttpEngine } from './http/engine';
import { tlsRelayBinaryPath } from './http/tls-relay';
import { createDocumentOutputThreads } from './formats/threads';
import type { EngineRequest } from './request';

/** What every engine is: a page scraper that closes its resources (connections, a Chromium). */
export interface PageEngine {
  scrape(req: EngineRequest, opts?: ScrapeCallOptions): Promise<ScrapeResult>;
  close(): Promise<void>;
}

/**
 * BROWSER_SPARE_CONTEXTS when unset: the pool's default (the concurrency) on the headless shell,
 * none on the full Chromium, where a pre-warmed context costs more than it saves (each keeps its
 * renderer busy ~0.5–1 s and doubles the renderers per page: 0.44x → 0.61x raw Playwright's
 * pages/s at c=1 without them, no change at c=8; docs/benchmarks.md "Browser identity, round 3").
 */
export function defaultSpareContexts(chromiumPath: string): number | undefined {
  return defaultDriver(chromiumPath) === 'playwright' ? undefined : 0;
}

/** The TLS relay scripts/setup.cjs built (none without Go: wreq-js's own ClientHello then). */
function tlsRelayBinary(config: Config): string | undefined {
  if (!config.HTTP_TLS_RELAY) return undefined;
  const binary = tlsRelayBinaryPath(config.dataDir);
  return fs.existsSync(binary) ? binary : undefined;
}

export const ENGINE_IMPLEMENTATIONS = {
  http: (config: Config) =>
    createHttpEngine({
      allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS,
      formatThreads: createDocumentOutputThreads({ threads: config.FORMAT_THREADS }),
      ...(config.HTTP_IMPERSONATE ? { impersonate: { chromiumPath: config.CHROMIUM_PATH, tlsRelayBinary: tlsRelayBinary(config) } } : {}),
    }),
  // One Chromium per worker, launched on first use.
  browser: (config: Config, logger: Logger) =>
    createBrowserPool({
      executablePath: config.CHROMIUM_PATH,
      maxConcurrency: config.BROWSER_CONCURRENCY,
      spareContexts: config.BROWSER_SPARE_CONTEXTS ?? defaultSpareContexts(config.CHROMIUM_PATH),
      recyclePages: config.BROWSER_RECYCLE_PAGES,
      allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS,
      formatThreads: createDocumentOutputThreads({ threads: config.FORMAT_THREADS }),
      onEvent: (event) => logger.info({ event }, 'browser pool'),
    }),
} satisfies Record<ScrapeMode, (config: Config, logger: Logger) => PageEngine>;

/** The engines a process holds, each typed as its factory builds it. */
export type Engines = { [M in ScrapeMode]?: ReturnType<(typeof ENGINE_IMPLEMENTATIONS)[M]> };

/**
 * Which engines a worker serving `queues` holds: the `with-workflow` ones wherever workflows run
 * (every queue set but an engine's own), an `own-queue` one where its queue is served.
 */
export function servedModes(queues: Config['WORKER_QUEUES']): ScrapeMode[] {
  return SCRAPE_MODES.filter((mode) =>
    SCRAPE_ENGINES[mode].placement === 'with-workflow' ? !isOwnQueueMode(queues) : queues === 'all' || queues === mode,
  );
}

function isOwnQueueMode(queues: Config['WORKER_QUEUES']): boolean {
  return (SCRAPE_MODES as readonly string[]).includes(queues) && SCRAPE_ENGINES[queues as ScrapeMode].placement === 'own-queue';
}

export function createEngines(modes: readonly ScrapeMode[], config: Config, logger: Logger): Engines {
  const engines: Engines = {};
  for (const mode of modes) Object.assign(engines, { [mode]: ENGINE_IMPLEMENTATIONS[mode](config, logger) });
  return engines;
}

export async function closeEngines(engines: Engines): Promise<void> {
  await Promise.all(Object.values(engines).map((engine: PageEngine) => engine.close()));
}

/** The engine of a mode, when this process holds it. */
export function engineOf(engines: Engines, mode: ScrapeMode): PageEngine | undefined {
  return engines[mode];
}
