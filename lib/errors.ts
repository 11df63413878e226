/**
 * Stable error codes shared by API bodies, logs and Temporal `ApplicationFailure.type`.
 * One table maps each code to its HTTP status; nothing else decides a status.
 * This module is client-safe: workflows may import it (no Node built-ins).
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  INVALID_URL: 400,
  INVALID_SELECTOR: 400,
  MALFORMED_JSON: 400,
  UNAUTHORIZED: 401,
  INSUFFICIENT_CREDIT: 402,
  FORBIDDEN: 403,
  BLACKLISTED: 403,
  PRIVATE_TARGET: 403,
  NOT_FOUND: 404,
  /** An idempotency key was reused for a different operation (a caller bug, not a replay). */
  IDEMPOTENCY_CONFLICT: 409,
  /** The resource's state does not allow the operation (a second live subscription, cancelling a finished run). */
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  VALIDATION_FAILED: 422,
  INTERNAL: 500,
  /** The target could not be fetched (network error, timeout, too large): the scrape failed. */
  SCRAPE_FAILED: 502,
  /** The target answered 5xx or 429 on every attempt. */
  TARGET_ERROR: 502,
  /** The target's response (after decompression) exceeded the engine's size cap; not retryable. */
  RESPONSE_TOO_LARGE: 502,
  BROWSER_UNAVAILABLE: 503,
  /** PostgreSQL or Temporal cannot be reached (restarting, or down): retry shortly. */
  DEPENDENCY_UNAVAILABLE: 503,
  /** The payment provider refused or could not be reached when creating a checkout. */
  PAYMENT_PROVIDER_ERROR: 502,
  /** Payments are switched off (PAYMENT_PROVIDER=none). */
  PAYMENTS_UNAVAILABLE: 503,
  TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

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
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The spec's standard body; `message` is a string[] only for 422. */
export interface ErrorBody {
  statusCode: number;
  message: string | string[];
  error: string;
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
    return errorBody(this.status, this.messages, this.extra);
  }
}

export function errorBody(status: number, message: string | string[], extra: Record<string, unknown> = {}): ErrorBody {
  return { statusCode: status, message, error: STATUS_NAME[status] ?? 'Error', ...extra };
}

/** 422 with every failed item listed. */
export function validationError(messages: string[]): AppError {
  return new AppError('VALIDATION_FAILED', messages);
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in ERROR_STATUS;
}
