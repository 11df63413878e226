import { SCRAPE_RETRY, SCRAPE_SCHEDULE_TO_CLOSE_MS, defaultAttemptTimeoutMs } from './definitions';

describe('the default per-attempt deadline', () => {
  it('leaves room for every attempt retry_count promises, and their backoff, within the 50 s limit', () => {
    for (let retryCount = 0; retryCount <= 10; retryCount++) {
      let backoff = 0;
      for (let i = 0; i < retryCount; i++) backoff += Math.min(SCRAPE_RETRY.initialIntervalMs * SCRAPE_RETRY.backoffCoefficient ** i, SCRAPE_RETRY.maximumIntervalMs);
      const perAttempt = defaultAttemptTimeoutMs(retryCount);
      expect(perAttempt).toBeGreaterThan(0);
      expect(perAttempt * (retryCount + 1) + backoff).toBeLessThan(SCRAPE_SCHEDULE_TO_CLOSE_MS);
    }
    // The default request (retry_count 2): three attempts of ~16 s, not one of 30 s.
    expect(defaultAttemptTimeoutMs(2)).toBe(16_083);
  });
});
