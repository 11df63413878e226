/**
 * Credit debit and refund as Temporal activities. Both are idempotent by their idempotency key
 * (accounts/credit.ts), so a retried or replayed activity changes the balance once.
 * Business refusals (not enough credit, unknown account, a reused key) are non-retryable
 * ApplicationFailures whose `type` is the error code; anything else (the database is down)
 * is thrown as is and retried by the activity's retry policy.
 */
import { ApplicationFailure } from '@temporalio/common';
import { type CreditChange, type DebitInput, type RefundInput, debitCredit, refundCredit } from '../accounts/credit';
import type { Database } from '../platform/db';
import { AppError } from '../platform/errors';
import { notifyLowCreditIfCrossed } from '../notifications/notifications';

export type { CreditChange, DebitInput, RefundInput } from '../accounts/credit';

function toFailure(error: unknown): unknown {
  if (error instanceof AppError && error.status < 500) {
    return ApplicationFailure.nonRetryable(error.message, error.code, error.extra);
  }
  return error;
}

export function createCreditActivities(deps: { db: Database; lowCreditThreshold?: number }) {
  return {
    /**
     * INSUFFICIENT_CREDIT → non-retryable ApplicationFailure of type 'INSUFFICIENT_CREDIT' (details: [{remaining, required}]).
     * A debit that takes the balance below LOW_CREDIT_THRESHOLD notifies `credit.low` once (also on a replay whose
     * first attempt failed after the debit).
     */
    async debitCredit(input: DebitInput): Promise<CreditChange> {
      let change: CreditChange;
      try {
        change = await debitCredit(deps.db, input);
      } catch (error) {
        throw toFailure(error);
      }
      if (deps.lowCreditThreshold) {
        const own = change.applied ? { userId: input.userId, amount: -input.amount, balanceAfter: change.balanceAfter } : undefined;
        await notifyLowCreditIfCrossed(deps.db, input.idempotencyKey, deps.lowCreditThreshold, own);
      }
      return change;
    },
    async refundCredit(input: RefundInput): Promise<CreditChange> {
      try {
        return await refundCredit(deps.db, input);
      } catch (error) {
        throw toFailure(error);
      }
    },
  };
}
