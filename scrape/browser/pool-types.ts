/** The browser pool's public shapes (pool.ts builds it from pool-chromium, pool-contexts, pool-scrape). */
import type { RecycleReason } from './chromium';
import type { DocumentOutputThreads } from '../formats/threads';
import type { AddressPolicy } from '../../platform/target-guard';
import type { ScrapeCallOptions, ScrapeResult } from '../types';
import type { EngineRequest } from '../request';

export interface BrowserPoolOptions {
  /** Path to Chromium, e.g. CHROMIUM_PATH or /usr/bin/chromium. */
  executablePath: string;
  /** Where large documents' format work runs (scrape/formats/threads.ts); inline without. Closed with the pool. */
  formatThreads?: DocumentOutputThreads;
  /** Concurrent scrapes (contexts); default 2. */
  maxConcurrency?: number;
  /** Scrapes waiting for a slot beyond this are refused with BROWSER_UNAVAILABLE; default 1000. */
  maxQueue?: number;
  allowPrivateTargets: boolean;
  /** Default deadline per scrape (queue wait included) when the call gives none; default 30 s. */
  defaultTimeoutMs?: number;
  launchTimeoutMs?: number;
  userAgent?: string;
  /**
   * After `load` (and after a form submit), wait up to this long for network idle, best effort.
   * Default 0 (off): it costs at least 500 ms per scrape; `wait_for` is the precise tool.
   */
  settleMs?: number;
  /** Extra Chromium flags (a `--disable-features=` among them is merged into the driver's: switches.ts). */
  extraArgs?: string[];
  /**
   * Chromium features turned off on top of the driver's own list, in one merged switch
   * (switches.ts); default `POOL_DISABLED_FEATURES`. `[]` is the benchmark's baseline.
   */
  disableFeatures?: readonly string[];
  /** The desktop viewport (context.ts DESKTOP_VIEWPORT by default): the benchmark's variants only. */
  desktopViewport?: { width: number; height: number };
  /** Which build of Playwright's API drives Chromium (chromium.ts `BrowserDriver`); default by the executable. */
  driver?: 'playwright' | 'patchright';
  /**
   * Pre-warmed contexts (each with its page and guard handlers) kept ready for the next scrapes;
   * default `maxConcurrency`; 0 turns pre-warming off (a context is made per scrape, on demand).
   */
  spareContexts?: number;
  /** Replace Chromium after this many pages; default 1000; 0 = never. */
  recyclePages?: number;
  /**
   * Replace Chromium when the RSS of its long-lived processes (browser, GPU, network, zygotes:
   * not renderers) exceeds its reading after warm-up by this much; default 512 MiB; 0 = never.
   * Read every `rssCheckEveryPages` pages.
   */
  recycleRssGrowthBytes?: number;
  /** Pages between two readings of Chromium's memory (the first one is the baseline); default 50. */
  rssCheckEveryPages?: number;
  /**
   * Give an HTML document whose Content-Type names no charset the one the http engine sniffs, so
   * both modes read the same text (document-charset.ts); default true. false is the benchmark's
   * baseline (bench/browser-charset.ts): Chromium guesses by itself.
   */
  labelCharsets?: boolean;
  /**
   * Check each WebSocket a page opens against the scrape's guard (blacklist and private targets)
   * with Playwright's `routeWebSocket`; default false: it exposes Playwright's functions to the
   * page (docs/scraping.md, "How we look to a site"). Without it, the egress proxy (always on,
   * credentials per context) still refuses WebSockets to private and to blacklisted hosts.
   */
  routeWebSocketsInPage?: boolean;
  /**
   * Launch Chromium with `--no-sandbox` even where its sandbox can run: the baseline of
   * bench/browser-sandbox.ts, nothing else (docs/operations.md, "Chromium's isolation"). Default false.
   */
  withoutSandbox?: boolean;
  /** Launch Chromium and pre-warm at creation instead of at the first scrape; default false. */
  launchOnCreate?: boolean;
  /** Lifecycle notifications, e.g. for logs and metrics. */
  onEvent?: (event: BrowserPoolEvent) => void;
  /** Test hook: address classifier (default `isPrivateAddress`). */
  isPrivate?: AddressPolicy;
  /** Test hook: the RSS reading for the Chromium whose browser process is `pid` (default: from /proc). */
  readRss?: (pid: number) => Promise<number | null>;
}

export type BrowserPoolEvent =
  | { type: 'launched' }
  | { type: 'disconnected' }
  | { type: 'launch_failed'; error: string }
  /** A successor Chromium is being launched; the current one keeps serving until it is up. */
  | { type: 'recycling'; reason: RecycleReason; pages: number; rssBytes: number | null }
  /** A replaced Chromium was closed after its last in-flight scrape. */
  | { type: 'retired'; pages: number }
  /** A context could not be pre-warmed (scrapes then make their own). */
  | { type: 'prewarm_failed'; error: string };

export interface BrowserPoolStats {
  /** Slots held: scrapes under way, and scrapes answered whose context is still closing (each owns one BrowserContext). */
  contextsInUse: number;
  /** Scrapes waiting for a slot. */
  queueLength: number;
  /** A connected Chromium exists. */
  launched: boolean;
  /**
   * Contexts actually open in Chromium (current and retiring): the ones in use, the spares, and
   * spares being prepared. When idle it settles at `spareContexts`: nothing leaked.
   */
  openContexts: number;
  /** Pre-warmed contexts ready to be taken. */
  spareContexts: number;
  /** Scrapes that started on a pre-warmed context / on one made for them. */
  spareHits: number;
  spareMisses: number;
  /** Chromium launches so far (relaunches after a crash and recycles count). */
  launches: number;
  /** Chromiums replaced by a fresh one (for pages or memory). */
  recycles: number;
  /** Replaced Chromiums still finishing their in-flight scrapes. */
  retiringBrowsers: number;
  /** Pages served by the current Chromium. */
  pagesSinceLaunch: number;
  /** Latest RSS reading of the current Chromium's long-lived processes (every `rssCheckEveryPages` pages). */
  chromiumRssBytes: number | null;
  /** Egress proxy counters (only when private targets are not allowed). */
  egress: { requests: number; blocked: number } | null;
}

export interface BrowserPool {
  scrape(req: EngineRequest, opts?: ScrapeCallOptions): Promise<ScrapeResult>;
  stats(): BrowserPoolStats;
  close(): Promise<void>;
}
