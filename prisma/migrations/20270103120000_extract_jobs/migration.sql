-- Extract jobs (docs/firecrawl.md "Extract"): Firecrawl's POST /v2/extract as a durable workflow
-- over the account's own crawl and batch jobs (the pages' scrapes, their ledger and refunds are
-- those jobs'); the job keeps its request, the jobs it started, and the model's merged answer.
CREATE TABLE "extract_job" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "apiKeyId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'processing',
    "request" JSONB NOT NULL,
    "jobIds" JSONB NOT NULL,
    "workflowId" TEXT NOT NULL,
    "data" JSONB,
    "sources" JSONB,
    "error" JSONB,
    "usage" JSONB,
    "pages" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMPTZ(6),

    CONSTRAINT "extract_job_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "extract_job_userId_createdAt_idx" ON "extract_job"("userId", "createdAt");
