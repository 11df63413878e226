-- Sign-in throttling (docs/operations.md, "Limits"), durable and shared by every API replica:
-- the auth library's per-address counters (its rateLimit model, storage 'database': one row per
-- address and auth path, lastRequest in epoch milliseconds; the library deletes stale rows), and
-- our per-account count of failed sign-ins, one row per e-mail address and fixed window (rows
-- older than a day are deleted hourly).

-- CreateTable
CREATE TABLE "rate_limit" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "lastRequest" BIGINT NOT NULL,

    CONSTRAINT "rate_limit_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "rate_limit_key_key" ON "rate_limit"("key");

-- CreateIndex
CREATE INDEX "rate_limit_lastRequest_idx" ON "rate_limit"("lastRequest");

-- CreateTable
CREATE TABLE "sign_in_failure" (
    "email" TEXT NOT NULL,
    "windowStart" TIMESTAMPTZ(6) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "sign_in_failure_pkey" PRIMARY KEY ("email","windowStart")
);

-- CreateIndex
CREATE INDEX "sign_in_failure_windowStart_idx" ON "sign_in_failure"("windowStart");
