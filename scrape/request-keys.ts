/**
 * The scrape request's field names (docs/scraping.md "Request"), as pure data: workflows import it
 * inside Temporal's sandbox (workflows/flow-dag.ts checks a flow node's request against it), where
 * the zod schema (scrape/request.ts) cannot go. scrape/request.ts checks at compile time that this
 * list and its schema's keys are the same, and scrape/request-keys.test.ts checks it at run time:
 * a field added to the schema must be added here, and then reaches every surface.
 */
export const SCRAPE_REQUEST_KEYS = [
  'url', 'selectors', 'mode', 'method', 'headers', 'body', 'capture_network', 'fill_form', 'wait_for', 'options', 'async',
  'formats', 'only_main_content', 'include_heading', 'include_tags', 'exclude_tags', 'webhook', 'proxy', 'block_detection',
  'cookies', 'session', 'document', 'actions', 'mobile', 'proxy_tier', 'country', 'skip_tls_verification', 'max_age', 'store_in_cache',
] as const;

export type ScrapeRequestKey = (typeof SCRAPE_REQUEST_KEYS)[number];
