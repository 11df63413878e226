/**
 * Ledger idempotency keys of a scrape (pure: workflows read them in Temporal's sandbox).
 */
/** One debit and at most one refund per run: the refund names the debit it reverses. */
export const scrapeCreditKeys = {
  debit: (runId: string) => `debit:scrape:${runId}`,
} as const;
