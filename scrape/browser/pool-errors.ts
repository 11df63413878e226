/** How the browser pool words its failures (shared by pool-chromium, pool-contexts, pool-scrape). */
import { errors as pwErrors } from 'playwright-core';
import { AppError } from '../../platform/errors';

export const poolClosed = () => new AppError('BROWSER_UNAVAILABLE', 'browser pool is closed');

export function firstLine(err: unknown): string {
  return err instanceof Error ? err.message.split('\n')[0]! : String(err);
}

/** A scrape's failure as the pool reports it: its own AppError, the caller's abort reason, a timeout, a crash. */
export function mapError(err: unknown, external: AbortSignal | undefined, timeout: AbortSignal, timeoutMs: number): unknown {
  if (err instanceof AppError) return err;
  if (external?.aborted) return external.reason;
  if (timeout.aborted || err instanceof pwErrors.TimeoutError) {
    return new AppError('SCRAPE_FAILED', `timed out after ${timeoutMs} ms`, { timeout: true });
  }
  const message = firstLine(err);
  if (/has been closed|Target closed|crash|disconnected/i.test(message)) {
    return new AppError('SCRAPE_FAILED', `browser closed or crashed during the scrape: ${message}`);
  }
  return new AppError('SCRAPE_FAILED', `browser scrape failed: ${message}`);
}
