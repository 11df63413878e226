/**
 * The error table: every stable code the service, its activities and its workflows use, with the
 * HTTP status it answers, whether trying the same thing again can succeed, and what it means.
 * Codes appear in API bodies (`code`), logs, run and node records, and as Temporal
 * `ApplicationFailure.type`; nothing else decides a status, and the workflows' lists of
 * non-retryable failure types are derived from here (NON_RETRYABLE_CODES).
 * This module is client-safe: workflows may import it (no Node built-ins).
 */

export interface ErrorSpec {
  status: number;
  /**
   * Whether the same request (or activity) may succeed if tried again unchanged: Temporal retries
   * only retryable failures, and a client may retry them (the spec's policy: 5xx, 2 s, 4 s, 8 s).
   */
  retryable: boolean;
  description: string;
}

export const ERRORS = {
  BAD_REQUEST: { status: 400, retryable: false, description: 'A required field is missing or a rule is broken.' },
  INVALID_URL: { status: 400, retryable: false, description: 'The target URL is not an absolute http(s) URL.' },
  INVALID_SELECTOR: { status: 400, retryable: false, description: 'A CSS selector does not parse.' },
  MALFORMED_JSON: { status: 400, retryable: false, description: 'The request body is not valid JSON.' },
  SEARCH_NOT_CONFIGURED: { status: 400, retryable: false, description: 'A search on a service without a search backend (SEARXNG_ENDPOINT unset): refused before any debit.' },
  UNAUTHORIZED: { status: 401, retryable: false, description: 'No valid API key or session (missing, unknown, revoked or expired).' },
  INSUFFICIENT_CREDIT: { status: 402, retryable: false, description: 'The balance cannot pay for the operation.' },
  FORBIDDEN: { status: 403, retryable: false, description: 'The resource belongs to another account, or the request came from a refused origin.' },
  INVALID_ORIGIN: { status: 403, retryable: false, description: 'A browser request from an origin that is not trusted (cross-site).' },
  BLACKLISTED: { status: 403, retryable: false, description: 'The target host is blacklisted.' },
  PRIVATE_TARGET: { status: 403, retryable: false, description: 'The target resolves to a private, loopback or link-local address.' },
  ROBOTS_DISALLOWED: { status: 403, retryable: false, description: 'robots.txt disallows the URL, or could not be read for CRAWL_ROBOTS_GIVE_UP_MS (RFC 9309: disallow all): a crawl records the page as skipped and never fetches it (docs/crawl.md).' },
  LLM_NOT_CONFIGURED: { status: 400, retryable: false, description: 'A json format with `schema`, or the summary format, needs a model endpoint, and this service has none configured (LLM_BASE_URL, LLM_MODEL); nothing is started or charged.' },
  NOT_FOUND: { status: 404, retryable: false, description: 'No resource with that id (or the route does not exist).' },
  SESSION_NOT_FOUND: { status: 404, retryable: false, description: 'The account has no session of that name (a /sessions route, or a scrape naming one without `save: true`); nothing is charged.' },
  METHOD_NOT_ALLOWED: { status: 405, retryable: false, description: 'The path exists but not with this method.' },
  IDEMPOTENCY_CONFLICT: { status: 409, retryable: false, description: 'An idempotency key was reused for a different operation.' },
  CONFLICT: { status: 409, retryable: false, description: 'The resource is in a state that does not allow the operation (e.g. cancelling a finished run), or is handled through another resource (a crawl page or a flow run\'s scrape is cancelled with its job: the body names its cancel).' },
  MONITOR_LIMIT_REACHED: { status: 409, retryable: false, description: 'The account already has MONITOR_MAX_PER_ACCOUNT monitors (docs/monitors.md): delete one first.' },
  CANCELLED: { status: 409, retryable: false, description: 'The run was cancelled (by its owner: POST /webhook/runs/:id/cancel, or an operator); a synchronous request waiting for it answers this.' },
  SESSION_LIMIT_REACHED: { status: 409, retryable: false, description: 'The account keeps SESSIONS_PER_ACCOUNT sessions already: delete one (DELETE /sessions/:name) before adding another.' },
  SESSION_UNREADABLE: { status: 409, retryable: false, description: 'A stored session cannot be decrypted: it is under a key no longer configured (SESSION_ENCRYPTION_KEY, SESSION_ENCRYPTION_KEYS_OLD) or was altered; the message names the session. Not retried; a scrape that needed it is refunded. Configure the old key in SESSION_ENCRYPTION_KEYS_OLD, or import the session again.' },
  SECRET_UNREADABLE: { status: 409, retryable: false, description: 'A saved definition\'s secret (a flow\'s, monitor\'s, crawl\'s or template\'s cookie value, credential header, write text, script, form value or body) cannot be decrypted: it is under a key no longer configured (SESSION_ENCRYPTION_KEY, SESSION_ENCRYPTION_KEYS_OLD) or was altered or copied from another account. Nothing runs and nothing is charged. Configure the old key in SESSION_ENCRYPTION_KEYS_OLD, or save the definition again with the secret.' },
  SESSION_TOO_LARGE: { status: 413, retryable: false, description: 'A session\'s storage state (imported, or saved by a scrape) is larger than SESSION_MAX_BYTES.' },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false, description: 'The request body is larger than 1 MiB.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, retryable: false, description: 'The request body\'s charset or encoding is not supported.' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, retryable: false, description: 'The `Idempotency-Key` was used within 24 h for a different request (another path or body).' },
  VALIDATION_FAILED: { status: 422, retryable: false, description: 'Validation failed; `message` lists every failed item.' },
  PLACEHOLDER: { status: 422, retryable: false, description: 'A flow node\'s `{{…}}` placeholder names no output, or its value does not fit.' },
  NOT_A_LIST: { status: 422, retryable: false, description: 'A foreach node\'s `from` did not resolve to a list.' },
  ACTION_FAILED: { status: 422, retryable: false, description: 'A browser action could not be carried out on the page (a selector that never matched, a script that threw or returned too much); the message names the action\'s index and type. Not retried, refunded.' },
  RATE_LIMITED: { status: 429, retryable: true, description: 'Too many requests for the account or key; retry after `Retry-After` seconds.' },
  INTERNAL: { status: 500, retryable: true, description: 'Unexpected server error (the details are in the service\'s log only).' },
  SCRAPE_FAILED: { status: 502, retryable: true, description: 'The target could not be fetched or rendered (network error, navigation error, crash).' },
  PROXY_FAILED: { status: 502, retryable: true, description: 'An outbound proxy (PROXY_URLS) could not be used: connect refused or timed out, CONNECT refused (407, 5xx), SOCKS error. The next attempt goes through another proxy.' },
  TARGET_ERROR: { status: 502, retryable: true, description: 'The target answered 5xx or 429 on every attempt.' },
  TARGET_BLOCKED: { status: 502, retryable: true, description: 'The target answered a block page (a bot challenge, a WAF denial, a captcha-only page or a 429) on every attempt; `blocked_by` names the vendor (docs/scraping.md "Block pages"). Refunded; `block_detection: false` takes the page as it is.' },
  JAVASCRIPT_REQUIRED: { status: 502, retryable: false, description: 'An `auto` scrape\'s http answer plainly needs JavaScript (an app shell, a noscript warning): the run moves on to the browser (docs/scraping.md "Escalation"). Only seen in a run\'s `escalation`, never as a run\'s outcome.' },
  RESPONSE_TOO_LARGE: { status: 502, retryable: false, description: 'The target\'s response, decompressed, exceeded the engine\'s size cap.' },
  DOCUMENT_UNREADABLE: { status: 502, retryable: false, description: 'The target is a PDF or DOCX that cannot be read: corrupt, encrypted with a password, or past the reading bounds (time, memory; docs/scraping.md "Documents (PDF, DOCX)").' },
  WEBHOOK_REJECTED: { status: 502, retryable: false, description: 'A flow\'s webhook endpoint refused the delivery (4xx).' },
  WEBHOOK_DELIVERY_FAILED: { status: 502, retryable: true, description: 'An event webhook delivery got no 2xx answer in time (retried with backoff for up to 24 h; every attempt is listed with its deliveries).' },
  ALL_ITEMS_FAILED: { status: 502, retryable: false, description: 'Every item of a foreach node failed.' },
  NODE_FAILED: { status: 502, retryable: false, description: 'A flow run ended with failed nodes (listed in the message).' },
  LLM_INVALID_OUTPUT: { status: 502, retryable: false, description: 'A json schema or summary format: the model\'s answer was not valid (not JSON, not valid against the schema, or empty) twice. The page is not scraped again; the run is refunded.' },
  LLM_FAILED: { status: 502, retryable: false, description: 'A json schema or summary format: the model endpoint (LLM_BASE_URL) could not be reached or refused the call (tried twice when the failure was its own: unreachable, timeout, 5xx, 429). The page is not scraped again; the run is refunded.' },
  PAYMENT_PROVIDER_ERROR: { status: 502, retryable: true, description: 'The payment provider refused or could not be reached.' },
  SEARCH_UNAVAILABLE: { status: 503, retryable: true, description: 'The search backend (SEARXNG_ENDPOINT) could not be reached, timed out, or answered an error or something other than its JSON: the search is refunded; retry shortly.' },
  BROWSER_UNAVAILABLE: { status: 503, retryable: true, description: 'Chromium cannot be launched, or its pool is closed or full.' },
  DEPENDENCY_UNAVAILABLE: { status: 503, retryable: true, description: 'PostgreSQL or Temporal cannot be reached (restarting, or down): retry shortly.' },
  PAYMENTS_UNAVAILABLE: { status: 503, retryable: false, description: 'Payments are switched off (PAYMENT_PROVIDER=none).' },
  REQUEST_IN_PROGRESS: {
    status: 503,
    retryable: true,
    description: 'An earlier request with this `Idempotency-Key` has not recorded its run yet (its process may have stopped): retry; nothing is started or charged twice.',
  },
  NOT_READY: { status: 503, retryable: true, description: 'The service is starting or degraded (readiness check).' },
  INPUT_TIMEOUT: { status: 504, retryable: false, description: 'A flow\'s input node got no answer within its `timeout`: the node failed, its dependants were skipped, the run failed (docs/flows.md).' },
  TIMEOUT: { status: 504, retryable: true, description: 'The work did not finish within the time limit (50 s for a synchronous call); the run id is in the body.' },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** Each code's HTTP status. */
export const ERROR_STATUS = Object.fromEntries(ERROR_CODES.map((code) => [code, ERRORS[code].status])) as { readonly [C in ErrorCode]: (typeof ERRORS)[C]['status'] };

/** Failure types Temporal must not retry: every code a retry cannot fix. */
export const NON_RETRYABLE_CODES: readonly ErrorCode[] = ERROR_CODES.filter((code) => !ERRORS[code].retryable);

/** HTTP reason phrases used as the `error` field of the standard body. */
export const STATUS_NAME: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The spec's standard body plus our `code`; `message` is a string[] only for 422. */
export interface ErrorBody {
  statusCode: number;
  message: string | string[];
  error: string;
  code: ErrorCode;
  /** Extra machine-readable fields, e.g. `id` of a run that timed out. */
  [extra: string]: unknown;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string | string[],
    readonly extra: Record<string, unknown> = {},
  ) {
    super(Array.isArray(message) ? message.join('; ') : message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
    this.messages = message;
  }
  readonly messages: string | string[];

  toBody(): ErrorBody {
    return errorBody(this.code, this.messages, this.extra);
  }
}

/** The standard error body of `code`, its status from the table. */
export function errorBody(code: ErrorCode, message: string | string[], extra: Record<string, unknown> = {}): ErrorBody {
  const status = ERROR_STATUS[code];
  return { statusCode: status, message, error: STATUS_NAME[status] ?? 'Error', code, ...extra };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERRORS, value);
}

/**
 * The code a value names, read back where it crossed a boundary as a plain string (a Temporal
 * `ApplicationFailure.type`, a stored `error.code`), or `fallback` when the table does not know it.
 */
export function errorCodeOr(value: unknown, fallback: ErrorCode): ErrorCode {
  return isErrorCode(value) ? value : fallback;
}
