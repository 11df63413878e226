-- Recurring billing of paid plans (docs/account.md): one payment per subscription period, a
-- past_due state, plan changes dated by period, and the provider's own subscription (Stripe).

-- AlterEnum
-- (The new value cannot be used in this transaction; nothing below uses it.)
ALTER TYPE "SubscriptionStatus" ADD VALUE 'past_due';

-- AlterTable
ALTER TABLE "payment" ADD COLUMN "period" INTEGER;

-- AlterTable
ALTER TABLE "subscription" ADD COLUMN "pendingPlanFrom" INTEGER,
ADD COLUMN "providerSubscriptionId" TEXT;

-- The first payment of each subscription paid its period 0. Later ones (the former up-front
-- payments of a dearer plan) pay no particular period and stay NULL.
UPDATE "payment" SET "period" = 0
WHERE "id" IN (
  SELECT DISTINCT ON ("subscriptionId") "id" FROM "payment"
  WHERE "purpose" = 'subscription' AND "subscriptionId" IS NOT NULL
  ORDER BY "subscriptionId", "createdAt", "id"
);

-- A plan change recorded before this migration applied "from the next period": date it from the
-- period after the one in progress now.
UPDATE "subscription"
SET "pendingPlanFrom" = floor(extract(epoch FROM (now() - "anchorAt")) / "periodSeconds")::integer + 1
WHERE "pendingPlanId" IS NOT NULL AND "anchorAt" IS NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "payment_subscriptionId_period_key" ON "payment"("subscriptionId", "period");

-- CreateIndex
CREATE UNIQUE INDEX "subscription_providerSubscriptionId_key" ON "subscription"("providerSubscriptionId");

-- One live subscription per account. Live is every state but pending and ended (active,
-- past_due, cancelled until its period end); written with the old values only, because the new
-- enum value cannot be used before this transaction commits.
DROP INDEX "subscription_one_live_per_user";
CREATE UNIQUE INDEX "subscription_one_live_per_user" ON "subscription"("userId") WHERE "status" NOT IN ('pending', 'ended');
