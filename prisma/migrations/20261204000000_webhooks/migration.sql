-- Event webhooks (docs/webhooks.md): registered endpoints with an encrypted signing secret, the
-- account's secret for per-request webhooks, events (one per subject: a run finishes once), their
-- deliveries (one per target, plus redeliveries) and every attempt of each delivery.

-- CreateTable
CREATE TABLE "webhook_endpoint" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "events" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "secretCiphertext" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deletedAt" TIMESTAMPTZ(6),

    CONSTRAINT "webhook_endpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_account_secret" (
    "userId" TEXT NOT NULL,
    "secretCiphertext" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_account_secret_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "webhook_event" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery" (
    "id" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "endpointId" TEXT,
    "url" TEXT NOT NULL,
    "targetKey" TEXT,
    "redeliveryOf" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMPTZ(6),

    CONSTRAINT "webhook_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempt" (
    "deliveryId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "statusCode" INTEGER,
    "error" TEXT,
    "durationMs" INTEGER NOT NULL,
    "startedAt" TIMESTAMPTZ(6) NOT NULL,
    "finishedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "webhook_attempt_pkey" PRIMARY KEY ("deliveryId","attempt")
);

-- CreateIndex
CREATE INDEX "webhook_endpoint_userId_idx" ON "webhook_endpoint"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_event_subject_key" ON "webhook_event"("subject");

-- CreateIndex
CREATE INDEX "webhook_event_userId_createdAt_idx" ON "webhook_event"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_delivery_targetKey_key" ON "webhook_delivery"("targetKey");

-- CreateIndex
CREATE INDEX "webhook_delivery_endpointId_createdAt_idx" ON "webhook_delivery"("endpointId", "createdAt");

-- CreateIndex
CREATE INDEX "webhook_delivery_userId_createdAt_idx" ON "webhook_delivery"("userId", "createdAt");

-- AddForeignKey
ALTER TABLE "webhook_endpoint" ADD CONSTRAINT "webhook_endpoint_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
