-- CreateTable
CREATE TABLE "user_template" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "request" JSONB NOT NULL,
    "params" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "user_template_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "user_template_userId_createdAt_idx" ON "user_template"("userId", "createdAt");
