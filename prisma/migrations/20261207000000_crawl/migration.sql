-- Crawls and batch scrapes (docs/crawl.md): the job, its frontier (one row per normalised URL,
-- UNIQUE per crawl so de-duplication is the database's) and the robots.txt of each host it met.

-- CreateTable
CREATE TABLE "crawl" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "apiKeyId" TEXT,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "request" JSONB NOT NULL,
    "workflowId" TEXT NOT NULL,
    "pageCost" INTEGER NOT NULL,
    "resumes" INTEGER NOT NULL DEFAULT 0,
    "error" JSONB,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMPTZ(6),
    "finishedAt" TIMESTAMPTZ(6),

    CONSTRAINT "crawl_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "crawl_kind_check" CHECK ("kind" IN ('crawl', 'batch')),
    CONSTRAINT "crawl_status_check" CHECK ("status" IN ('queued', 'running', 'completed', 'failed', 'cancelled', 'credit_exhausted'))
);

-- CreateTable
CREATE TABLE "crawl_page" (
    "seq" BIGSERIAL NOT NULL,
    "crawlId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "depth" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "runId" TEXT,
    "httpStatus" INTEGER,
    "error" JSONB,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMPTZ(6),

    CONSTRAINT "crawl_page_pkey" PRIMARY KEY ("seq"),
    CONSTRAINT "crawl_page_status_check" CHECK ("status" IN ('queued', 'running', 'succeeded', 'failed', 'skipped'))
);

-- CreateTable
CREATE TABLE "crawl_host" (
    "crawlId" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "robotsStatus" INTEGER,
    "robots" TEXT,
    "crawlDelayMs" INTEGER,
    "fetchedAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "crawl_host_pkey" PRIMARY KEY ("crawlId", "origin")
);

-- CreateIndex
CREATE INDEX "crawl_userId_createdAt_idx" ON "crawl"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "crawl_page_crawlId_url_key" ON "crawl_page"("crawlId", "url");

-- CreateIndex
CREATE INDEX "crawl_page_crawlId_status_seq_idx" ON "crawl_page"("crawlId", "status", "seq");

-- CreateIndex
CREATE INDEX "crawl_page_runId_idx" ON "crawl_page"("runId");
