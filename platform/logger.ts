import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs. Secrets are redacted by path wherever they could appear:
 * request headers (api keys, cookies, authorization), bodies with passwords or keys.
 */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'req.headers.authorization',
  'req.query.apiKey',
  'res.headers["set-cookie"]',
  '*.password',
  '*.key',
  '*.apiKey',
  '*.secret',
  '*.token',
  'config.BETTER_AUTH_SECRET',
  'config.SESSION_ENCRYPTION_KEY',
  'config.SESSION_ENCRYPTION_KEYS_OLD',
  'config.DATABASE_URL',
  'config.PROXY_URLS',
  // The operator's model key and Stripe's secrets (issue 37).
  'config.LLM_API_KEY',
  'config.STRIPE_SECRET_KEY',
  'config.STRIPE_WEBHOOK_SECRET',
  // The Temporal payload keys, the codec server's credential, the local payment signer, and the
  // SMTP URL (it carries the mail account's password).
  'config.TEMPORAL_PAYLOAD_KEY',
  'config.TEMPORAL_PAYLOAD_KEYS_OLD',
  'config.OPERATOR_TOKEN',
  'config.LOCAL_PAYMENT_SECRET',
  'config.SMTP_URL',
];

export function createLogger(options: { level: string; name?: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      name: options.name,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
}

/** Removes the password from a connection URL before it is printed. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '[unparseable url]';
  }
}

export type { Logger };
