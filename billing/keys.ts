/**
 * Business keys of subscriptions: the Temporal Schedule and workflow ids an operator finds them
 * by, and the ledger key of each period's grant (pure: no imports, safe anywhere).
 */
/** Subscriptions: one Temporal Schedule per subscription, whose action runs the refill workflow. */
export const subscriptionIds = {
  schedule: (subscriptionId: string) => `subscription-${subscriptionId}`,
  /** Workflow id of the schedule's action (Temporal appends the scheduled time). */
  refillWorkflow: (subscriptionId: string) => `subscription-${subscriptionId}-refill`,
  /** The workflow a cancel starts: it ends the subscription at cancelAt. */
  endWorkflow: (subscriptionId: string) => `subscription-${subscriptionId}-end`,
} as const;

/** Ledger idempotency key of a subscription's refill for period n (n = 0 at activation). */
export const subscriptionPeriodKey = (subscriptionId: string, period: number) => `subscription:${subscriptionId}:period:${period}`;
