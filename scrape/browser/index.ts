/**
 * Browser mode (see pool.ts for the design): the public API its callers import as
 * `scrape/browser`.
 */
export { CHROMIUM_ARGS, createBrowserPool } from './pool';
export type { BrowserPool, BrowserPoolEvent, BrowserPoolOptions, BrowserPoolStats } from './pool';
