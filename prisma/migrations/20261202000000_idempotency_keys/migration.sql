-- Idempotency-Key request header (docs/api.md, "Idempotency-Key"): one row per key of an account,
-- naming the run (or payment, subscription) the key's first request created. The primary key is
-- the unique constraint that lets exactly one of concurrent requests with the same key claim it.
-- Rows are 24 h old at most: a claim replaces an expired row, and every API process deletes
-- expired rows hourly (index on createdAt).

-- CreateTable
CREATE TABLE "idempotency_key" (
    "userId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "resourceId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_key_pkey" PRIMARY KEY ("userId","key")
);

-- CreateIndex
CREATE INDEX "idempotency_key_createdAt_idx" ON "idempotency_key"("createdAt");
